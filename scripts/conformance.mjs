#!/usr/bin/env node
/**
 * `npm run conformance`: the shared conformance cases through their own
 * runner (`python3 <shared>/conformance/run.py <shared>/conformance/cases`),
 * with the built CLI. Exits with the runner's code; 2, with one line, when
 * the cases, python3 or the build are missing.
 *
 * Usage: node scripts/conformance.mjs [SHARED_DIR]   (default ../shared)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const shared = path.resolve(process.argv[2] ?? path.join(ROOT, '..', 'shared'));
const runner = path.join(shared, 'conformance', 'run.py');
const cases = path.join(shared, 'conformance', 'cases');

function fail(message) {
  process.stderr.write(`conformance: ${message}\n`);
  process.exit(2);
}

if (!existsSync(runner) || !existsSync(cases)) fail(`no conformance cases at ${cases}`);
if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) fail('run `npm run build` first');
const run = spawnSync('python3', [runner, cases], { cwd: ROOT, stdio: 'inherit' });
if (run.error !== undefined) fail(`cannot run python3: ${run.error.message}`);
process.exit(run.status ?? 2);
