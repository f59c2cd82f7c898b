// npm run bench: a seeded corpus (many small files, one big JSONL) and, in one run, the
// throughput of bare read + JSON.parse on one thread (the baseline: scripts/bench-baseline.mjs,
// a program of its own so it pays the same process start-up) and on every core (the ceiling
// for parallel lint on this machine), `histlint lint --jobs 1` and
// `histlint lint` (default jobs), each as a ratio to the baseline, with peak RSS; then start-up
// times. Each figure is the best of BENCH_ROUNDS (default 5) interleaved rounds. Sizes: BENCH_FILES (default 20000),
// BENCH_BIG_MB (default 256). BENCH_HUGE=1 adds a 1 GB JSONL (the big one four times over),
// timed in BENCH_HUGE_ROUNDS (default 2) rounds. BENCH_LINES=1 adds JSONL files of one line of
// 32, 128 and 256 MB, timed per MB so a cost that grows faster than the line shows
// (BENCH_LINES_ROUNDS, default 3; BENCH_LINES=only runs just those, in about a minute).
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  readSync,
  statSync,
  writeSync,
  closeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const dir = path.join(root, '.bench');
const filesDir = path.join(dir, 'files');
const big = path.join(dir, 'big.jsonl');
const huge = path.join(dir, 'big1g.jsonl');
const FILES = Number(process.env.BENCH_FILES ?? 20000);
const BIG_MB = Number(process.env.BENCH_BIG_MB ?? 256);
const cli = path.join(root, 'bin/histlint.js');

// A small seeded PRNG (mulberry32), so every run benchmarks the same corpus.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the a weather city order refund policy tool call result search file read write list user assistant please check tomorrow rain sun price total'.split(
    ' ',
  );

function conversation(r, k) {
  const words = (n) =>
    Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
  const messages = [{ role: 'system', parts: [{ type: 'text', text: words(30) }] }];
  // About one conversation in fifty is broken (a call without its result): a CI corpus is mostly clean.
  let broken = r() < 0.02;
  const turns = 2 + Math.floor(r() * 6);
  for (let t = 0; t < turns; t++) {
    messages.push({
      role: 'user',
      parts: [{ type: 'text', text: words(5 + Math.floor(r() * 40)) }],
    });
    const calls = Math.floor(r() * 3);
    const parts = [{ type: 'text', text: words(10 + Math.floor(r() * 60)) }];
    for (let c = 0; c < calls; c++) {
      parts.push({
        type: 'tool-call',
        id: `call_${k}_${t}_${c}`,
        name: 'lookup',
        arguments: JSON.stringify({ q: words(3), n: c }),
      });
    }
    messages.push({ role: 'assistant', runId: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', parts });
    if (calls > 0) {
      const answered = broken ? calls - 1 : calls;
      broken = false;
      const results = [];
      for (let c = 0; c < answered; c++) {
        results.push({
          type: 'tool-result',
          callId: `call_${k}_${t}_${c}`,
          name: 'lookup',
          content: [{ type: 'text', text: words(20 + Math.floor(r() * 100)) }],
        });
      }
      if (results.length > 0) messages.push({ role: 'tool', parts: results });
    }
  }
  return { version: 1, conversationId: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c', messages };
}

function generate() {
  const stamp = path.join(dir, `corpus-v2-${FILES}-${BIG_MB}.ok`);
  if (existsSync(stamp)) return;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(filesDir, { recursive: true });
  const r = rng(20261129);
  for (let k = 0; k < FILES; k++) {
    const fd = openSync(path.join(filesDir, `c${String(k).padStart(6, '0')}.json`), 'w');
    writeSync(fd, JSON.stringify(conversation(r, k), null, 2) + '\n');
    closeSync(fd);
  }
  const fd = openSync(big, 'w');
  let bytes = 0;
  let k = 0;
  const target = BIG_MB * 1024 * 1024;
  const batch = [];
  while (bytes < target) {
    const line = JSON.stringify(conversation(r, k++)) + '\n';
    bytes += Buffer.byteLength(line);
    batch.push(line);
    if (batch.length >= 2000) writeSync(fd, batch.splice(0).join(''));
  }
  if (batch.length > 0) writeSync(fd, batch.join(''));
  closeSync(fd);
  writeSync(openSync(stamp, 'w'), 'ok');
}

/** The big JSONL four times over (about 1 GB), for BENCH_HUGE=1. */
function generateHuge() {
  if (existsSync(huge) && statSync(huge).size === 4 * statSync(big).size) return;
  copyFileSync(big, huge);
  const fd = openSync(huge, 'a');
  const chunk = Buffer.allocUnsafe(1 << 24);
  for (let copy = 1; copy < 4; copy++) {
    const src = openSync(big, 'r');
    let n;
    while ((n = readSync(src, chunk, 0, chunk.length, null)) > 0) writeSync(fd, chunk, 0, n);
    closeSync(src);
  }
  closeSync(fd);
}

function dirBytes(d) {
  return readdirSync(d).reduce((n, f) => n + statSync(path.join(d, f)).size, 0);
}

/** Runs a node program; returns wall seconds, peak RSS in MB (GNU time's %M) and its standard output. */
function runNode(script, args) {
  const t = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, script, ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  const rss = Number((r.stderr.trim().split('\n').pop() ?? '0').trim()) / 1024;
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`${script} ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return { seconds, rss, stdout: r.stdout };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function wall(args, times = 11) {
  const out = [];
  for (let k = 0; k < times; k++) {
    const t = process.hrtime.bigint();
    spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8' });
    out.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(out);
}

/**
 * A JSONL file of one line about `mb` MB: a v1 conversation whose one user text holds it all
 * (words, as a pasted log would), then an answer.
 */
function generateLine(file, mb) {
  if (existsSync(file) && statSync(file).size === mb * 1024 * 1024 + 1) return;
  const head = '{"version":1,"messages":[{"role":"user","parts":[{"type":"text","text":"';
  const tail = '"}]},{"role":"assistant","parts":[{"type":"text","text":"ok"}]}]}';
  const r = rng(mb);
  const words = Array.from({ length: 1 << 16 }, () => WORDS[Math.floor(r() * WORDS.length)]);
  const chunk = Buffer.from(words.join(' ').repeat(8));
  const fd = openSync(file, 'w');
  writeSync(fd, head);
  let left = mb * 1024 * 1024 - head.length - tail.length;
  while (left > 0) {
    const n = Math.min(left, chunk.length);
    writeSync(fd, chunk, 0, n);
    left -= n;
  }
  writeSync(fd, tail + '\n');
  closeSync(fd);
}

/**
 * BENCH_LINES: one line of 32, 128 and 256 MB, bare read + parse against `lint --jobs 1` (one
 * line is never split), interleaved rounds, best of each; time per MB stays flat when the
 * line reader is linear in the line's length.
 */
function benchLines() {
  const sizes = [32, 128, 256];
  const rounds = Number(process.env.BENCH_LINES_ROUNDS ?? 3);
  mkdirSync(dir, { recursive: true });
  const files = sizes.map((mb) => {
    const file = path.join(dir, `line-${mb}.jsonl`);
    generateLine(file, mb);
    return file;
  });
  const report = path.join(dir, 'report-lines.json');
  const baselineScript = path.join(root, 'scripts/bench-baseline.mjs');
  const runs = files.flatMap((file) => [
    [baselineScript, ['jsonl', file]],
    [cli, ['lint', file, '--jobs', '1', '--format', 'json', '-o', report, '--no-progress']],
  ]);
  const best = runs.map(() => undefined);
  for (let round = 0; round < rounds; round++) {
    runs.forEach(([script, args], k) => {
      const r = runNode(script, args);
      if (best[k] === undefined || r.seconds < best[k].seconds) best[k] = r;
    });
  }
  const pad = (x, n) => String(x).padEnd(n);
  console.log(`\none JSONL line (best of ${rounds} interleaved rounds)\n`);
  console.log(
    `${pad('line', 8)}  ${pad('run', 26)}  ${pad('seconds', 8)}  ${pad('ms/MB', 7)}  ${pad('× baseline', 10)}  peak RSS`,
  );
  sizes.forEach((mb, i) => {
    const base = best[2 * i];
    for (const [label, r] of [
      ['read + JSON.parse', base],
      ['histlint lint --jobs 1', best[2 * i + 1]],
    ]) {
      console.log(
        `${pad(`${mb} MB`, 8)}  ${pad(label, 26)}  ${pad(r.seconds.toFixed(2), 8)}  ${pad(((r.seconds * 1000) / mb).toFixed(1), 7)}  ${pad((base.seconds / r.seconds).toFixed(2), 10)}  ${r.rss.toFixed(0)} MB`,
      );
    }
  });
}

if (!existsSync(path.join(root, 'dist/cli/main.js'))) {
  console.error('bench: run `npm run build` first');
  process.exit(2);
}
if (process.env.BENCH_LINES === 'only') {
  benchLines();
  process.exit(0);
}
console.log(
  `generating the corpus in .bench/ (${FILES} files, ${BIG_MB} MB JSONL; reused when present)…`,
);
generate();
const HUGE = process.env.BENCH_HUGE === '1';
if (HUGE) generateHuge();
const filesMB = dirBytes(filesDir) / 1e6;
const bigMB = statSync(big).size / 1e6;
const cores = os.availableParallelism();
const rows = [];
const baselineScript = path.join(root, 'scripts/bench-baseline.mjs');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
for (const [name, mb, mode, target, rounds] of [
  ['many files', filesMB, 'files', 'files', ROUNDS],
  ['one big JSONL', bigMB, 'jsonl', 'big.jsonl', ROUNDS],
  ...(HUGE
    ? [
        [
          'one 1 GB JSONL',
          statSync(huge).size / 1e6,
          'jsonl',
          'big1g.jsonl',
          Number(process.env.BENCH_HUGE_ROUNDS ?? 2),
        ],
      ]
    : []),
]) {
  const input = path.join('.bench', target);
  const report = path.join('.bench', 'report.json');
  const lint = (extra) => [
    cli,
    ['lint', input, '--format', 'json', '-o', report, '--no-progress', ...extra],
  ];
  const runs = [
    ['read + JSON.parse (1 thread)', [baselineScript, [mode, input]]],
    // The same bare parse on every core: what this machine's cores give at best, the ceiling
    // for lint with default jobs (two vCPUs of a shared host rarely give two cores' worth).
    ...(cores > 1
      ? [[`read + JSON.parse (${cores} threads)`, [baselineScript, [mode, input, String(cores)]]]]
      : []),
    ['histlint lint --jobs 1', lint(['--jobs', '1'])],
    [`histlint lint (default: ${cores} jobs)`, lint([])],
  ];
  // Rounds run every command once, in turn, and each keeps its best: a slow spell of the
  // machine then falls on all of them alike instead of on one command's three runs.
  const bestOf = runs.map(() => undefined);
  for (let round = 0; round < rounds; round++) {
    runs.forEach(([, [script, args]], k) => {
      const r = runNode(script, args);
      if (bestOf[k] === undefined || r.seconds < bestOf[k].seconds) bestOf[k] = r;
    });
  }
  const conversations = Number(bestOf[0].stdout.trim());
  const baseSeconds = bestOf[0].seconds;
  runs.forEach(([label], k) => {
    const r = bestOf[k];
    rows.push([
      name,
      label,
      mb / r.seconds,
      conversations / r.seconds,
      baseSeconds / r.seconds,
      `${r.rss.toFixed(0)} MB`,
    ]);
  });
}
const pad = (s, n) => String(s).padEnd(n);
console.log(
  `\nmachine: ${os.cpus()[0]?.model ?? 'unknown'} × ${cores}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
);
console.log(
  `corpus: ${FILES} files (${filesMB.toFixed(1)} MB), big.jsonl ${bigMB.toFixed(1)} MB\n`,
);
console.log(
  `${pad('corpus', 14)}  ${pad('run', 34)}  ${pad('MB/s', 8)}  ${pad('conv/s', 9)}  ${pad('× baseline', 10)}  peak RSS`,
);
for (const [corpus, label, mbps, cps, ratio, rss] of rows) {
  console.log(
    `${pad(corpus, 14)}  ${pad(label, 34)}  ${pad(mbps.toFixed(1), 8)}  ${pad(cps.toFixed(0), 9)}  ${pad(ratio.toFixed(2), 10)}  ${rss}`,
  );
}
if (process.env.BENCH_LINES === '1') benchLines();
const small = path.join('.bench', 'files', readdirSync(filesDir)[0]);
console.log(`\nhistlint --version: ${wall(['--version']).toFixed(0)} ms (median of 11)`);
console.log(
  `histlint lint one small file: ${wall(['lint', small, '--no-progress']).toFixed(0)} ms (median of 11)`,
);
