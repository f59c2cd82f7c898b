// Writes schemas/config.v1.schema.json from the zod config schema (run after `npm run build`).
// test/config-schema.test.ts fails when the committed file drifts from the zod schema.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configJsonSchema } from '../dist/config/schema.js';

const target = fileURLToPath(new URL('../schemas/config.v1.schema.json', import.meta.url));
writeFileSync(target, JSON.stringify(configJsonSchema(), null, 2) + '\n');
