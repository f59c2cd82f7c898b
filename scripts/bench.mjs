// npm run bench (issue 18): the corpus of scripts/bench-corpus.mjs (v1 files with 0 % and 50 %
// of them broken, v1 JSONL, the same conversations as OpenAI Chat, Anthropic and Gemini request
// bodies, their first BENCH_SLICE_MB of lines, Claude Code sessions) and, in one run, for each
// input: the baseline (scripts/bench-baseline.mjs, a program of its own so it pays the same
// process start-up: one thread reads, decodes strict UTF-8 and calls JSON.parse), `histlint lint`
// with default jobs and with --jobs 1, and for JSONL `histlint normalize`, each as MB/s, a ratio
// to the baseline and peak RSS (GNU time's %M); then what `import { sanitizeHistory,
// normalizeHistory } from 'histlint'` costs over `node -e 0`. Every lint report is checked
// against the input's expected.json; a mismatch is printed and the bench exits 1.
//
// The commands of one input run in turn, round after round (A B C A B C …), and each figure is
// the median of its rounds: a slow spell of this shared machine then falls on all of them alike.
//
// Environment: BENCH_ROUNDS (5), BENCH_ONLY (a comma list of input names, `import` for the
// import cost), BENCH_NORMALIZE=0 (no normalize rows), BENCH_CEILING=1 (adds the baseline on
// every core), BENCH_SEED and the sizes of scripts/bench-corpus.mjs (BENCH_FILES, BENCH_BIG_MB,
// BENCH_SLICE_MB, BENCH_SESSIONS, BENCH_SESSION_CONVERSATIONS, BENCH_SESSION_MB, BENCH_DEFECTS).
// BENCH_HUGE=1 adds v1-1g, the v1 JSONL four times over (BENCH_HUGE_ROUNDS, default 2).
// BENCH_LINES=1 adds JSONL files of one line of 32, 128 and 256 MB, timed per MB so a cost that
// grows faster than the line shows (BENCH_LINES_ROUNDS, default 3; BENCH_LINES=only runs just
// those).
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_SEED,
  countMismatches,
  reportCounts,
  rng,
  sizesFromEnv,
  generateCorpus,
} from './bench-corpus.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const benchDir = path.join(root, '.bench');
const corpusDir = path.join(benchDir, 'corpus');
const outDir = path.join(benchDir, 'out');
const cli = path.join(root, 'bin/histlint.js');
const baselineScript = path.join(root, 'scripts/bench-baseline.mjs');
const env = process.env;
const ROUNDS = Number(env.BENCH_ROUNDS ?? 5);
const ONLY = env.BENCH_ONLY === undefined ? undefined : new Set(env.BENCH_ONLY.split(','));
const wanted = (name) => ONLY === undefined || ONLY.has(name);

/** Ratio targets of issue 18, by what an input is. */
const TARGETS = {
  'v1 files': 0.9,
  'v1 JSONL': 1.0,
  foreign: 0.7,
  jobs1: 0.6,
  importMs: 60,
  importMB: 15,
};

/** Which target a default-jobs run of `input` is held to. */
function targetOf(input) {
  if (input.format !== 'histlint') return TARGETS.foreign;
  return input.layout === 'files' ? TARGETS['v1 files'] : TARGETS['v1 JSONL'];
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Runs a node program under GNU time; returns wall seconds and peak RSS in MB. Its standard
 * output and error go to `log` (a file), read back only when it fails.
 */
function runNode(args, { log = path.join(outDir, 'last.log'), ok = [0, 1] } = {}) {
  const rssFile = path.join(outDir, 'rss.txt');
  const fd = openSync(log, 'w');
  const t = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', '-o', rssFile, process.execPath, ...args], {
    cwd: root,
    stdio: ['ignore', fd, fd],
  });
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  closeSync(fd);
  if (r.error !== undefined) throw new Error(`bench: cannot run /usr/bin/time: ${r.error.message}`);
  if (!ok.includes(r.status)) {
    const said = readFileSync(log, 'utf8').slice(0, 800);
    throw new Error(`bench: node ${args.join(' ')} exited ${r.status}: ${said}`);
  }
  const rss = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024;
  return { seconds, rss };
}

/** The baseline program's mode for an input. */
function baselineMode(input) {
  if (input.layout === 'files') return input.format === 'claude-code' ? 'jsonl-files' : 'files';
  return 'jsonl';
}

/** BENCH_HUGE: the v1 JSONL four times over (about 1 GB), with four times its expectation. */
function hugeInput(manifest) {
  const v1 = manifest.inputs.find((i) => i.name === 'v1');
  const name = 'v1-1g';
  const file = path.join(corpusDir, name, `${name}.jsonl`);
  const source = path.join(corpusDir, v1.path);
  if (!existsSync(file) || statSync(file).size !== 4 * v1.bytes) {
    mkdirSync(path.dirname(file), { recursive: true });
    copyFileSync(source, file);
    const fd = openSync(file, 'a');
    const chunk = Buffer.allocUnsafe(1 << 24);
    for (let copy = 1; copy < 4; copy++) {
      const src = openSync(source, 'r');
      let n;
      while ((n = readSync(src, chunk, 0, chunk.length, null)) > 0) writeSync(fd, chunk, 0, n);
      closeSync(src);
    }
    closeSync(fd);
  }
  const times = (obj) => Object.fromEntries(Object.entries(obj).map(([k, n]) => [k, 4 * n]));
  const e = v1.expected;
  const expected = {
    ...e,
    input: `${name}/${name}.jsonl`,
    conversations: 4 * e.conversations,
    units: 4 * e.units,
    withFindings: 4 * e.withFindings,
    defects: times(e.defects),
    counts: times(e.counts),
  };
  writeFileSync(path.join(corpusDir, name, 'expected.json'), JSON.stringify(expected, null, 2));
  return { ...v1, name, path: expected.input, bytes: 4 * v1.bytes, expected, rounds: HUGE_ROUNDS };
}

const HUGE_ROUNDS = Number(env.BENCH_HUGE_ROUNDS ?? 2);
const mismatches = [];

/** Times one input: baseline, lint (default jobs, --jobs 1), normalize for JSONL; checks counts. */
function benchInput(input, cores, readOnly) {
  const at = path.join(corpusDir, input.path);
  const report = (tag) => path.join(outDir, `${input.name}.${tag}.json`);
  const lint = (tag, extra) => ({
    tag,
    args: [cli, 'lint', at, '--format', 'json', '-o', report(tag), '--no-progress', ...extra],
    check: report(tag),
  });
  const runs = [{ tag: 'baseline', args: [baselineScript, baselineMode(input), at], ok: [0] }];
  if (env.BENCH_CEILING === '1' && cores > 1) {
    runs.push({ tag: 'ceiling', args: [baselineScript, baselineMode(input), at, String(cores)] });
  }
  runs.push(lint('default', []), lint('jobs1', ['--jobs', '1']));
  // A read-only format (Claude Code) has no writer to normalize into.
  const normalize = input.layout !== 'files' && input.sliceOf === undefined && !readOnly;
  if (normalize && env.BENCH_NORMALIZE !== '0') {
    const out = path.join(outDir, `${input.name}.normalized.jsonl`);
    runs.push({ tag: 'normalize', args: [cli, 'normalize', at, '-o', out], ok: [0] });
  }
  const seconds = runs.map(() => []);
  const rss = runs.map(() => []);
  for (let round = 0; round < (input.rounds ?? ROUNDS); round++) {
    runs.forEach((run, k) => {
      const log = path.join(outDir, `${input.name}.${run.tag}.log`);
      const r = runNode(run.args, { log, ...(run.ok === undefined ? {} : { ok: run.ok }) });
      seconds[k].push(r.seconds);
      rss[k].push(r.rss);
      if (run.check === undefined) return;
      const counts = reportCounts(JSON.parse(readFileSync(run.check, 'utf8')), input.layout);
      const wrong = countMismatches(input.expected, counts);
      if (wrong.length > 0) {
        mismatches.push({ input: input.name, run: run.tag, round, wrong });
        run.mismatch = true;
      }
    });
  }
  const out = {};
  runs.forEach((run, k) => {
    out[run.tag] = {
      seconds: median(seconds[k]),
      rss: median(rss[k]),
      mismatch: run.mismatch === true,
    };
  });
  return out;
}

/**
 * The import cost: `node -e 0` against the library import, run in turn `runs` times each from
 * the repository's root (so `histlint` resolves to this package), medians of wall time and RSS.
 */
function benchImport(runs) {
  const bare = ['-e', '0'];
  const lib = [
    '--input-type=module',
    '-e',
    "import { sanitizeHistory, normalizeHistory } from 'histlint'",
  ];
  const figures = { bare: { ms: [], mb: [] }, lib: { ms: [], mb: [] } };
  for (let k = 0; k < runs; k++) {
    for (const [name, args] of [
      ['bare', bare],
      ['lib', lib],
    ]) {
      const r = runNode(args, { ok: [0] });
      figures[name].ms.push(r.seconds * 1000);
      figures[name].mb.push(r.rss);
    }
  }
  const m = (x) => ({ ms: median(x.ms), mb: median(x.mb) });
  return { bare: m(figures.bare), lib: m(figures.lib) };
}

/**
 * A JSONL file of one line about `mb` MB: a v1 conversation whose one user text holds it all
 * (words, as a pasted log would), then an answer.
 */
function generateLine(file, mb) {
  if (existsSync(file) && statSync(file).size === mb * 1024 * 1024 + 1) return;
  const head = '{"version":1,"messages":[{"role":"user","parts":[{"type":"text","text":"';
  const tail = '"}]},{"role":"assistant","parts":[{"type":"text","text":"ok"}]}]}';
  const words = 'the a weather city order refund policy tool call result search file'.split(' ');
  const r = rng(mb);
  const chunk = Buffer.from(
    Array.from({ length: 1 << 16 }, () => words[Math.floor(r() * words.length)])
      .join(' ')
      .repeat(8),
  );
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
 * line is never split), interleaved rounds, medians; time per MB stays flat when the line reader
 * is linear in the line's length.
 */
function benchLines() {
  const sizes = [32, 128, 256];
  const rounds = Number(env.BENCH_LINES_ROUNDS ?? 3);
  const dir = path.join(benchDir, 'lines');
  mkdirSync(dir, { recursive: true });
  const files = sizes.map((mb) => {
    const file = path.join(dir, `line-${mb}.jsonl`);
    generateLine(file, mb);
    return file;
  });
  const report = path.join(outDir, 'lines.json');
  const runs = files.flatMap((file) => [
    [baselineScript, 'jsonl', file],
    [cli, 'lint', file, '--jobs', '1', '--format', 'json', '-o', report, '--no-progress'],
  ]);
  const times = runs.map(() => []);
  const rss = runs.map(() => []);
  for (let round = 0; round < rounds; round++) {
    runs.forEach((args, k) => {
      const r = runNode(args);
      times[k].push(r.seconds);
      rss[k].push(r.rss);
    });
  }
  console.log(`\n### One JSONL line (median of ${rounds} interleaved rounds)\n`);
  console.log('| line | run | seconds | ms/MB | × baseline | peak RSS |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: |');
  sizes.forEach((mb, i) => {
    const base = median(times[2 * i]);
    for (const [label, k] of [
      ['read + `JSON.parse`', 2 * i],
      ['`histlint lint --jobs 1`', 2 * i + 1],
    ]) {
      const s = median(times[k]);
      console.log(
        `| ${mb} MB | ${label} | ${s.toFixed(2)} | ${((s * 1000) / mb).toFixed(1)} | ${(base / s).toFixed(2)} | ${median(rss[k]).toFixed(0)} MB |`,
      );
    }
  });
}

const mb = (bytes) => bytes / 1e6;
const met = (ok) => (ok ? '✓' : '✗');
// Judged as printed, so a 0.998 shown as 1.00 is not marked as missing a 1.0 target.
const reaches = (ratio, target) => Number(ratio.toFixed(2)) >= target;
const ratioCell = (ratio, target) =>
  `${ratio.toFixed(2)} (≥ ${target.toFixed(1)} ${met(reaches(ratio, target))})`;

if (!existsSync(path.join(root, 'dist/bundle/main.js'))) {
  console.error('bench: run `npm run build` first');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
if (env.BENCH_LINES === 'only') {
  benchLines();
  process.exit(0);
}

const seed = env.BENCH_SEED === undefined ? DEFAULT_SEED : Number(env.BENCH_SEED);
const sizes = sizesFromEnv(env);
console.log(`corpus in .bench/corpus (seed ${seed}; made once, reused while its stamp matches)…`);
const { formatByName } = await import(path.join(root, 'dist/index.js'));
const started = Date.now();
const manifest = generateCorpus({
  dir: corpusDir,
  seed,
  sizes,
  formats: formatByName,
  log: (line) => console.log(`  ${line}`),
});
if (Date.now() - started > 2000)
  console.log(`  made in ${((Date.now() - started) / 1000).toFixed(0)} s`);
// The corpus is its own repository, as a folder of transcripts usually is: the walk stops at its
// `.git` instead of reading this repository's .gitignore, which ignores .bench/ (and would leave
// the walk nothing to read).
mkdirSync(path.join(corpusDir, '.git'), { recursive: true });
const inputs = manifest.inputs.filter((i) => wanted(i.name));
if (env.BENCH_HUGE === '1' && wanted('v1-1g')) inputs.push(hugeInput(manifest));

const cores = os.availableParallelism();
const results = [];
for (const input of inputs) {
  process.stdout.write(`  timing ${input.name} (${mb(input.bytes).toFixed(0)} MB)…\n`);
  results.push({ input, runs: benchInput(input, cores, formatByName(input.format).readOnly) });
}
const importCost = wanted('import') ? benchImport(Number(env.BENCH_IMPORT_RUNS ?? 15)) : undefined;

// The report: markdown tables to paste into BENCHMARKS.md.
const cpu = os.cpus()[0]?.model ?? 'unknown';
console.log(
  `\nmachine: ${cpu} × ${cores}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
);
const setting = Object.entries(env)
  .filter(([k]) => k.startsWith('BENCH_'))
  .map(([k, v]) => `${k}=${v}`)
  .join(' ');
console.log(
  `command: ${setting === '' ? '' : `${setting} `}npm run bench (rounds: ${ROUNDS}, medians)`,
);

function printLint() {
  console.log('\n### Corpus\n');
  console.log('| input | format | size | conversations | units with findings | planted defects |');
  console.log('| --- | --- | ---: | ---: | ---: | --- |');
  for (const { input } of results) {
    const e = input.expected;
    const unit = input.layout === 'lines' ? 'lines' : input.layout === 'file' ? 'file' : 'files';
    const share = e.units > 0 ? ` (${((100 * e.withFindings) / e.units).toFixed(0)} %)` : '';
    const defects = Object.entries(e.defects)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    console.log(
      `| ${input.name} | ${input.format} | ${mb(input.bytes).toFixed(1)} MB | ${e.conversations} | ${e.withFindings} of ${e.units} ${unit}${share} | ${defects || 'none'} |`,
    );
  }

  console.log('\n### lint\n');
  console.log(
    '| input | baseline MB/s | lint MB/s | × baseline (target) | --jobs 1 MB/s | × baseline (target) | peak RSS: baseline / lint / --jobs 1 | counts |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const { input, runs } of results) {
    const size = mb(input.bytes);
    const base = runs.baseline.seconds;
    const d = runs.default;
    const one = runs.jobs1;
    const counts = d.mismatch || one.mismatch ? '**MISMATCH**' : 'ok';
    console.log(
      `| ${input.name} | ${(size / base).toFixed(0)} | ${(size / d.seconds).toFixed(0)} | ${ratioCell(base / d.seconds, targetOf(input))} | ${(size / one.seconds).toFixed(0)} | ${ratioCell(base / one.seconds, TARGETS.jobs1)} | ${runs.baseline.rss.toFixed(0)} / ${d.rss.toFixed(0)} / ${one.rss.toFixed(0)} MB | ${counts} |`,
    );
    if (runs.ceiling !== undefined) {
      console.log(
        `| ${input.name}: baseline on ${cores} threads | ${(size / runs.ceiling.seconds).toFixed(0)} | | ${(base / runs.ceiling.seconds).toFixed(2)} (the ceiling) | | | ${runs.ceiling.rss.toFixed(0)} MB | |`,
      );
    }
  }

  console.log('\n### Default jobs against --jobs 1 (default is never slower: ≥ 1.0)\n');
  console.log('| input | default jobs | --jobs 1 | --jobs 1 time ÷ default time |');
  console.log('| --- | ---: | ---: | ---: |');
  // The small v1 JSONL first: there the pool must not cost more than it gives.
  const slicesFirst = [...results].sort(
    (a, b) => Number(b.input.sliceOf === 'v1') - Number(a.input.sliceOf === 'v1'),
  );
  for (const { input, runs } of slicesFirst) {
    const ratio = runs.jobs1.seconds / runs.default.seconds;
    console.log(
      `| ${input.name} | ${runs.default.seconds.toFixed(2)} s | ${runs.jobs1.seconds.toFixed(2)} s | ${ratio.toFixed(2)} ${met(reaches(ratio, 1))} |`,
    );
  }
}
if (results.length > 0) printLint();

const normalized = results.filter(({ runs }) => runs.normalize !== undefined);
if (normalized.length > 0) {
  console.log('\n### normalize (to a file, `-o`)\n');
  console.log('| input | baseline MB/s | normalize MB/s | × baseline | peak RSS |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const { input, runs } of normalized) {
    const size = mb(input.bytes);
    const n = runs.normalize;
    console.log(
      `| ${input.name} | ${(size / runs.baseline.seconds).toFixed(0)} | ${(size / n.seconds).toFixed(0)} | ${(runs.baseline.seconds / n.seconds).toFixed(2)} | ${n.rss.toFixed(0)} MB |`,
    );
  }
}

if (importCost !== undefined) {
  const { bare, lib } = importCost;
  const ms = lib.ms - bare.ms;
  const rss = lib.mb - bare.mb;
  console.log('\n### Library import\n');
  console.log('| run | wall | peak RSS |');
  console.log('| --- | ---: | ---: |');
  console.log(`| \`node -e 0\` | ${bare.ms.toFixed(0)} ms | ${bare.mb.toFixed(0)} MB |`);
  console.log(
    `| \`import { sanitizeHistory, normalizeHistory } from 'histlint'\` | ${lib.ms.toFixed(0)} ms | ${lib.mb.toFixed(0)} MB |`,
  );
  console.log(
    `| the import's cost | **+${ms.toFixed(0)} ms, +${rss.toFixed(0)} MB** (≤ ${TARGETS.importMs} ms ${met(ms <= TARGETS.importMs)}, ≤ ${TARGETS.importMB} MB ${met(rss <= TARGETS.importMB)}) | |`,
  );
}

if (env.BENCH_LINES === '1') benchLines();

if (mismatches.length > 0) {
  console.error('\nbench: FINDING COUNTS DO NOT MATCH expected.json:');
  for (const m of mismatches) {
    console.error(`  ${m.input}, lint ${m.run}, round ${m.round + 1}:`);
    for (const line of m.wrong.slice(0, 10)) console.error(`    ${line}`);
  }
  process.exitCode = 1;
}
// The normalized outputs are as big as their inputs: not kept.
for (const { input } of normalized) {
  rmSync(path.join(outDir, `${input.name}.normalized.jsonl`), { force: true });
}
