// The CLI as shipped: tsc's output in dist/ (the library, with its types) bundled into
// dist/bundle/ for start-up. Node loads one ESM module per file, and a lint run would load
// about 130 of them, in the main thread and again in every worker thread; the bundle makes
// them a handful. Entry points: main.js (bin/histlint.js) and worker.js (the lint pool's
// threads); code only some commands need (agent, convert, the tokenizer) stays in chunks
// loaded on demand, and npm packages stay external.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = `${root}dist/bundle`;
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: 'dist/cli/main.js', worker: 'dist/lint/worker.js' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
