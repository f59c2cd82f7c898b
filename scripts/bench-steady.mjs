// Steady-state throughput, without process start-up and JIT warm-up: what lint costs per byte
// once running, next to bare read + JSON.parse, on one thread and on two. Run after
// `npm run bench` (it reads .bench/corpus/v1/v1.jsonl) and `npm run build`:
//   node scripts/bench-steady.mjs [MB]     (default 128: two line-aligned halves)
// Each thread first lints and parses a range once to warm up; then five rounds, best of each.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { parseJsonl } from './bare-parse.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const file = `${root}.bench/corpus/v1/v1.jsonl`;
const { runLintTaskSync, splitAtLines } = await import(`${root}dist/lint/tasks.js`);
const { RULES } = await import(`${root}dist/rules/index.js`);

// The rules `histlint lint` runs without a config or --target.
const rules = RULES.filter((r) => r.meta.defaultSeverity !== 'off' && !r.meta.target).map((r) => [
  r.meta.id,
  r.meta.defaultSeverity,
]);
const options = { rules, pointer: [], leavePending: false, kind: 'jsonl' };
const work = (mode, range) =>
  mode === 'parse'
    ? parseJsonl(file, range.start, range.end)
    : runLintTaskSync({ file: 'v1.jsonl', absolute: file, options, range });

if (!isMainThread) {
  parentPort.on('message', ({ mode, range }) => {
    work(mode, range);
    parentPort.postMessage(null);
  });
} else {
  if (!existsSync(file)) {
    console.error('no .bench/corpus/v1/v1.jsonl: run `npm run bench` first');
    process.exit(1);
  }
  const mb = Number(process.argv[2] ?? 128);
  const halves = await splitAtLines(file, mb * 1024 * 1024, (mb * 1024 * 1024) / 2);
  const [a, b] = halves;
  const worker = new Worker(new URL(import.meta.url));
  const inWorker = (mode, range) =>
    new Promise((resolve) => {
      worker.once('message', resolve);
      worker.postMessage({ mode, range });
    });
  for (const mode of ['parse', 'lint']) {
    work(mode, a);
    await inWorker(mode, b);
  }
  const best = { parse1: Infinity, parse2: Infinity, lint1: Infinity, lint2: Infinity };
  for (let round = 0; round < 5; round++) {
    for (const mode of ['parse', 'lint']) {
      let t = performance.now();
      work(mode, a);
      work(mode, b);
      best[`${mode}1`] = Math.min(best[`${mode}1`], performance.now() - t);
      t = performance.now();
      const other = inWorker(mode, b);
      work(mode, a);
      await other;
      best[`${mode}2`] = Math.min(best[`${mode}2`], performance.now() - t);
    }
  }
  await worker.terminate();
  const ratio = (x) => (best.parse1 / x).toFixed(2);
  console.log(
    `${mb} MB of .bench/corpus/v1/v1.jsonl, best of 5 rounds after warm-up (× one parsing thread):`,
  );
  console.log(`  read + JSON.parse, 1 thread   ${best.parse1.toFixed(0).padStart(5)} ms  1.00`);
  console.log(
    `  read + JSON.parse, 2 threads  ${best.parse2.toFixed(0).padStart(5)} ms  ${ratio(best.parse2)}`,
  );
  console.log(
    `  lint, 1 thread                ${best.lint1.toFixed(0).padStart(5)} ms  ${ratio(best.lint1)}`,
  );
  console.log(
    `  lint, 2 threads               ${best.lint2.toFixed(0).padStart(5)} ms  ${ratio(best.lint2)}`,
  );
}
