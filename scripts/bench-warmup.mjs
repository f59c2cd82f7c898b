// Warm-up: what the first megabytes cost a fresh thread, for lint and for bare parsing. Each
// round starts a fresh process per mode (so every thread is cold), which works through the first
// 64 MB of .bench/corpus/v1/v1.jsonl in 2 MB line-aligned slices and times each one. Steady speed is the
// median slice of the second half; warm-up is what the first half cost beyond that speed.
// Run after `npm run bench` (for .bench/corpus/v1/v1.jsonl) and `npm run build`:
//   node scripts/bench-warmup.mjs [ROUNDS]     (default 5; the median of each figure)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const file = `${root}.bench/corpus/v1/v1.jsonl`;
const SLICE = 2 * 1024 * 1024;
const SLICES = 32;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (process.argv[2] === '--child') {
  // One cold thread: time each slice of one mode.
  const mode = process.argv[3];
  const { runLintTaskSync, splitAtLines } = await import(`${root}dist/lint/tasks.js`);
  const { RULES } = await import(`${root}dist/rules/index.js`);
  const { parseJsonl } = await import('./bare-parse.mjs');
  const rules = RULES.filter((r) => r.meta.defaultSeverity !== 'off' && !r.meta.target).map((r) => [
    r.meta.id,
    r.meta.defaultSeverity,
  ]);
  const options = { rules, pointer: [], leavePending: false, kind: 'jsonl' };
  const ranges = await splitAtLines(file, SLICE * SLICES, SLICE);
  const times = ranges.map((range) => {
    const t = performance.now();
    if (mode === 'parse') parseJsonl(file, range.start, range.end);
    else runLintTaskSync({ file: 'v1.jsonl', absolute: file, options, range });
    return performance.now() - t;
  });
  process.stdout.write(JSON.stringify(times));
} else {
  if (!existsSync(file)) {
    console.error('no .bench/corpus/v1/v1.jsonl: run `npm run bench` first');
    process.exit(1);
  }
  const rounds = Number(process.argv[2] ?? 5);
  const figures = { parse: [], lint: [] };
  for (let round = 0; round < rounds; round++) {
    for (const mode of ['parse', 'lint']) {
      const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode], {
        encoding: 'utf8',
      });
      if (child.status !== 0) throw new Error(child.stderr);
      const times = JSON.parse(child.stdout);
      const half = Math.floor(times.length / 2);
      const steady = median(times.slice(half));
      const first = times.slice(0, half);
      const excess = first.reduce((sum, t) => sum + t, 0) - steady * first.length;
      figures[mode].push({ steady, excess, first: times[0] });
    }
  }
  console.log(
    `first ${(SLICE * SLICES) / 2 ** 20} MB of .bench/corpus/v1/v1.jsonl in ${SLICE / 2 ** 20} MB slices, a cold thread per run, median of ${rounds} runs:`,
  );
  for (const mode of ['parse', 'lint']) {
    const f = figures[mode];
    const steady = median(f.map((x) => x.steady));
    const excess = median(f.map((x) => x.excess));
    const first = median(f.map((x) => x.first));
    const name = mode === 'parse' ? 'read + JSON.parse' : 'lint';
    console.log(
      `  ${name.padEnd(18)} steady ${steady.toFixed(1)} ms a slice, the first ${first.toFixed(1)} ms; the first half took ${excess.toFixed(0)} ms more than at steady speed`,
    );
  }
}
