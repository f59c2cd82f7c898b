/**
 * Scale features (issue 7): line-aligned byte ranges of a JSONL file lint to
 * exactly what the whole file does, worker threads give the same results as
 * one thread, shards cover the file list, and merged shard reports equal the
 * unsharded report. Speed itself is measured by `npm run bench`, not here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { batchBounds, runTasks, startPool } from '../src/lint/pool.js';
import { packTasks, type WorkerMessage } from '../src/lint/worker.js';
import { parseShard, shardOf } from '../src/lint/shard.js';
import {
  mergeRanges,
  rangeBytes,
  runLintTask,
  runLintTaskSync,
  splitAtLines,
  type LintTask,
  type TaskOptions,
} from '../src/lint/tasks.js';
import { RULES } from '../src/rules/index.js';
import { ROOT, runCli } from './helpers/cli.js';

const work = mkdtempSync(path.join(tmpdir(), 'histlint-scale-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const OPTIONS: TaskOptions = {
  // The defaults of `histlint lint` without --target (provider rules are off then).
  rules: RULES.filter((r) => r.meta.defaultSeverity !== 'off' && r.meta.target === undefined).map(
    (r) => [r.meta.id, r.meta.defaultSeverity === 'error' ? 'error' : 'warn'],
  ),
  pointer: [],
  leavePending: false,
};

/** One JSONL line: a small conversation, broken in one of several ways by `k`. */
function line(k: number): string {
  const call = {
    type: 'tool-call',
    id: `c${k}`,
    name: 'f',
    arguments: k % 5 === 0 ? '{"a":' : '{}',
  };
  const messages: unknown[] = [
    { role: 'user', parts: [{ type: 'text', text: `question ${k} ✓` }] },
    { role: 'assistant', parts: [call] },
  ];
  if (k % 3 !== 0)
    messages.push({ role: 'tool', parts: [{ type: 'tool-result', callId: `c${k}`, content: [] }] });
  if (k % 7 === 0)
    messages.push({ role: 'tool', parts: [{ type: 'tool-result', callId: 'nope', content: [] }] });
  return JSON.stringify({ version: 1, messages });
}

/** A JSONL text with blank lines, CRLF line ends, a bad JSON line and a line of bytes that are not UTF-8. */
function jsonl(n: number): Buffer {
  const pieces: Buffer[] = [];
  for (let k = 0; k < n; k++) {
    if (k % 11 === 4) pieces.push(Buffer.from('\n'));
    if (k % 13 === 6) pieces.push(Buffer.from('{"version": 1, "messages": [\n'));
    if (k % 17 === 8)
      pieces.push(
        Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]),
      );
    pieces.push(Buffer.from(line(k) + (k % 2 === 0 ? '\r\n' : '\n')));
  }
  return Buffer.concat(pieces);
}

describe('byte ranges of a JSONL file', () => {
  const file = path.join(work, 'big.jsonl');
  const bytes = jsonl(300);
  writeFileSync(file, bytes);
  const whole = (): Promise<ReturnType<typeof mergeRanges>> =>
    runLintTask({ file: 'big.jsonl', absolute: file, options: OPTIONS }).then((r) =>
      mergeRanges([r]),
    );

  it('are cut right after a line end and cover the file exactly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: bytes.length + 10 }), async (size) => {
        const ranges = await splitAtLines(file, bytes.length, size);
        expect(ranges[0]!.start).toBe(0);
        expect(ranges[ranges.length - 1]!.end).toBe(bytes.length);
        for (let k = 1; k < ranges.length; k++) {
          expect(ranges[k]!.start).toBe(ranges[k - 1]!.end);
          expect(bytes[ranges[k]!.start - 1]).toBe(10);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('lint to exactly the findings of the whole file, line numbers included', async () => {
    const expected = await whole();
    expect(expected.findings.length).toBeGreaterThan(50);
    expect(new Set(expected.findings.map((f) => f.ruleId))).toEqual(
      new Set(['dangling-tool-call', 'orphan-tool-result', 'truncated-arguments', 'parse-error']),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 20_000 }), async (size) => {
        const ranges = await splitAtLines(file, bytes.length, size);
        const tasks: LintTask[] = ranges.map((range) => ({
          file: 'big.jsonl',
          absolute: file,
          options: OPTIONS,
          range,
        }));
        const parts = await Promise.all(tasks.map(runLintTask));
        expect(mergeRanges(parts)).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });
});

describe('range sizes', () => {
  it('give each job several ranges, none below 4 MB or above 16 MB', () => {
    const MB = 1024 * 1024;
    fc.assert(
      fc.property(
        fc.integer({ min: 32 * MB, max: 64 * 1024 * MB }),
        fc.integer({ min: 2, max: 64 }),
        (total, jobs) => {
          const size = rangeBytes(total, jobs);
          expect(size).toBeGreaterThanOrEqual(4 * MB);
          expect(size).toBeLessThanOrEqual(16 * MB);
          // Below both bounds, every job gets eight ranges.
          if (size > 4 * MB && size < 16 * MB)
            expect(Math.ceil(total / size)).toBeGreaterThanOrEqual(jobs * 8 - 1);
        },
      ),
    );
    // A 1 GB file on two jobs: 64 ranges of 16 MB, not 16 of 64 MB.
    expect(rangeBytes(1024 * MB, 2)).toBe(16 * MB);
    expect(rangeBytes(256 * MB, 2)).toBe(16 * MB);
    expect(rangeBytes(64 * MB, 2)).toBe(4 * MB);
  });
});

describe('batches', () => {
  const taskArb = fc.array(
    fc.record({ range: fc.boolean(), size: fc.integer({ min: 0, max: 3 * 1024 * 1024 }) }),
    { maxLength: 400 },
  );

  it('cover the tasks in order, at most 64 tasks and 4 MB each, a byte range always alone', () => {
    fc.assert(
      fc.property(taskArb, (specs) => {
        const tasks: LintTask[] = specs.map((t, k) => {
          const task: LintTask = { file: `f${k}`, absolute: `/f${k}`, options: OPTIONS };
          if (t.range) task.range = { start: 0, end: 1 };
          return task;
        });
        const bounds = batchBounds(
          tasks,
          specs.map((t) => t.size),
        );
        expect(bounds[0]).toBe(0);
        expect(bounds[bounds.length - 1]).toBe(tasks.length);
        for (let b = 0; b + 1 < bounds.length; b++) {
          const [from, to] = [bounds[b]!, bounds[b + 1]!];
          expect(to).toBeGreaterThan(from);
          expect(to - from).toBeLessThanOrEqual(64);
          const batch = specs.slice(from, to);
          if (batch.some((t) => t.range)) expect(batch).toHaveLength(1);
          // Only the task that reached 4 MB can end a batch above it.
          const bytes = batch.slice(0, -1).reduce((n, t) => n + t.size, 0);
          expect(bytes).toBeLessThan(4 * 1024 * 1024);
        }
      }),
    );
  });
});

describe('worker threads', () => {
  const hasWorker = existsSync(path.join(ROOT, 'dist/lint/worker.js'));
  const files = Array.from({ length: 12 }, (_, k) => {
    const f = path.join(work, `w${k}.jsonl`);
    writeFileSync(f, jsonl(20 + k * 3));
    return f;
  });
  // Enough tasks for several batches, so that every thread gets some.
  const tasks: LintTask[] = Array.from({ length: 300 }, (_, k) => ({
    file: `t${k}`,
    absolute: files[k % files.length]!,
    options: OPTIONS,
  }));

  it.runIf(hasWorker)('give the results of one thread, in task order', async () => {
    const one = await runTasks(tasks, null);
    const pool = await startPool(3);
    expect(pool?.threads).toBe(2);
    const three = await runTasks(tasks, pool);
    expect(three).toEqual(one);
  });

  it.runIf(hasWorker)(
    'take each batch exactly once from the shared counter, whichever thread takes it',
    async () => {
      const pool = (await startPool(3))!;
      const bounds = batchBounds(tasks, []);
      const next = new Int32Array(new SharedArrayBuffer(4));
      const order = { ...packTasks(tasks), bounds, next };
      const taken: number[] = [];
      const results = new Array<unknown>(tasks.length);
      const onMessage = (m: WorkerMessage): void => {
        if (m === null) return;
        taken.push(m.batch);
        m.results.forEach((r, i) => (results[bounds[m.batch]! + i] = r));
      };
      try {
        await Promise.all([pool.run(0, order, onMessage), pool.run(1, order, onMessage)]);
      } finally {
        await pool.destroy();
      }
      expect(taken.sort((a, b) => a - b)).toEqual(bounds.slice(1).map((_, b) => b));
      expect(results).toEqual(tasks.map((t) => runLintTaskSync(t)));
    },
  );

  it('a failing worker fails the run, and this thread stops taking batches', async () => {
    const failing = {
      threads: 1,
      run: () => Promise.reject(new Error('worker failed')),
      destroy: () => Promise.resolve(),
    };
    let linted = 0;
    await expect(runTasks(tasks, failing, () => linted++)).rejects.toThrow('worker failed');
    // Let this thread's run finish the batch it holds.
    for (let k = 0; k < 200; k++) await new Promise((resolve) => setImmediate(resolve));
    expect(linted).toBeGreaterThan(0);
    expect(linted).toBeLessThanOrEqual(64);
  });

  it.runIf(hasWorker)('fail the run when a worker thread fails', async () => {
    const pool = (await startPool(2))!;
    try {
      // An order without tasks makes the worker throw: the run must reject, not hang.
      const broken = {
        options: [],
        bounds: [0, 1],
        next: new Int32Array(new SharedArrayBuffer(4)),
      };
      await expect(
        pool.run(0, broken as unknown as Parameters<typeof pool.run>[1], () => undefined),
      ).rejects.toThrow();
    } finally {
      await pool.destroy();
    }
  });

  it('lint --jobs 2 and 3 print the reports of --jobs 1, byte for byte', async () => {
    const dir = mkdtempSync(path.join(work, 'cli-'));
    // Several batches of 64 files, so that worker threads lint some of them.
    for (let k = 0; k < 200; k++)
      writeFileSync(path.join(dir, `f${String(k).padStart(3, '0')}.jsonl`), jsonl(3 + (k % 17)));
    for (const format of ['json', 'stylish', 'sarif', 'github', 'junit']) {
      const a = await runCli(['lint', '--jobs', '1', '--format', format, '*.jsonl'], { cwd: dir });
      for (const jobs of ['2', '3']) {
        const b = await runCli(['lint', '--jobs', jobs, '--format', format, '*.jsonl'], {
          cwd: dir,
        });
        expect(b.code).toBe(1);
        expect(b.stdout).toBe(a.stdout);
      }
    }
  });
});

describe('threads started early', () => {
  const bin = path.join(ROOT, 'bin/histlint.js');
  it.runIf(existsSync(path.join(ROOT, 'dist/bundle/worker.js')))(
    'do not change how lint fails before the work is handed out',
    () => {
      // A glob with --jobs starts worker threads before expansion; each of these then fails.
      for (const args of [
        ['lint', 'nothing-here/*.json', '--jobs', '2'],
        ['lint', '*.jsonl', '--jobs', '2', '--shard', '3/2'],
      ]) {
        const r = spawnSync(process.execPath, [bin, ...args], {
          cwd: work,
          encoding: 'utf8',
          timeout: 20_000,
        });
        expect(r.signal, `${args.join(' ')} had to be killed`).toBeNull();
        expect(r.status).toBe(2);
        expect(r.stderr).toMatch(/^histlint: [^\n]+\n$/);
      }
    },
  );
});

describe('shards', () => {
  it('parse i/n and refuse anything else', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '1/0', 'a/b', '1', '1/2/3', '-1/2'])
      expect(parseShard(bad)).toBeNull();
  });

  it('are disjoint and together hold every item, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { maxLength: 50 }),
        fc.integer({ min: 1, max: 8 }),
        (items, count) => {
          const shards = Array.from({ length: count }, (_, i) =>
            shardOf(items, { index: i + 1, count }),
          );
          expect(shards.flat().length).toBe(items.length);
          expect([...shards.flat()].sort()).toEqual([...items].sort());
        },
      ),
    );
  });

  it('merge-reports of the shards equals the unsharded report (JSON and SARIF)', async () => {
    const dir = mkdtempSync(path.join(work, 'shards-'));
    for (let k = 0; k < 9; k++) writeFileSync(path.join(dir, `s${k}.jsonl`), jsonl(5 + k));
    const whole = JSON.parse(
      (await runCli(['lint', '--format', 'json', '*.jsonl'], { cwd: dir })).stdout,
    ) as {
      files: { file: string }[];
      errorCount: number;
      warningCount: number;
    };
    for (const format of ['json', 'sarif']) {
      const outs: string[] = [];
      for (let i = 1; i <= 3; i++) {
        const out = path.join(dir, `shard${i}.${format}`);
        const r = await runCli(
          ['lint', '--shard', `${i}/3`, '--format', format, '-o', out, '*.jsonl'],
          { cwd: dir },
        );
        expect(r.code).toBe(1);
        outs.push(out);
      }
      // Given in any order, the shards merge into exactly the unsharded report.
      const merged = await runCli(['merge-reports', ...outs.reverse()], { cwd: dir });
      expect(merged.code).toBe(1);
      const unsharded = await runCli(['lint', '--format', format, '*.jsonl'], { cwd: dir });
      expect(merged.stdout).toBe(unsharded.stdout);
      const value = JSON.parse(merged.stdout) as Record<string, unknown>;
      if (format === 'json') {
        const m = value as typeof whole;
        expect(m.errorCount).toBe(whole.errorCount);
        expect(m.warningCount).toBe(whole.warningCount);
        const byName = (a: { file: string }, b: { file: string }): number =>
          a.file.localeCompare(b.file);
        expect([...m.files].sort(byName)).toEqual([...whole.files].sort(byName));
      } else {
        const run = (value.runs as { results: unknown[]; artifacts: unknown[] }[])[0]!;
        expect(run.artifacts).toHaveLength(9);
        expect(run.results).toHaveLength(whole.errorCount + whole.warningCount);
        // Every result's artifact index still names its own file.
        for (const r of run.results as {
          locations: { physicalLocation: { artifactLocation: { uri: string; index: number } } }[];
        }[]) {
          const loc = r.locations[0]!.physicalLocation.artifactLocation;
          expect((run.artifacts[loc.index] as { location: { uri: string } }).location.uri).toBe(
            loc.uri,
          );
        }
      }
    }
  });

  it('merge-reports keeps unreadable files in path order, and exits 2 for them as lint does', async () => {
    const dir = mkdtempSync(path.join(work, 'shards-unread-'));
    const names = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `${n}.jsonl`);
    for (const [k, name] of names.entries()) {
      // b, d and e are links to nothing: lint cannot read them.
      if (['b.jsonl', 'd.jsonl', 'e.jsonl'].includes(name))
        symlinkSync(path.join(dir, 'nowhere', name), path.join(dir, name));
      else writeFileSync(path.join(dir, name), jsonl(3 + k));
    }
    for (const format of ['json', 'sarif']) {
      const outs: string[] = [];
      const codes: number[] = [];
      for (let i = 1; i <= 3; i++) {
        const out = path.join(dir, `unread${i}.${format}`);
        const r = await runCli(
          ['lint', '--shard', `${i}/3`, '--format', format, '-o', out, ...names],
          {
            cwd: dir,
          },
        );
        codes.push(r.code);
        outs.push(out);
      }
      expect(Math.max(...codes)).toBe(2);
      const merged = await runCli(['merge-reports', ...outs.reverse()], { cwd: dir });
      const unsharded = await runCli(['lint', '--format', format, ...names], { cwd: dir });
      expect(unsharded.code).toBe(2);
      expect(merged.code).toBe(2);
      expect(merged.stdout).toBe(unsharded.stdout);
    }
  });

  it('merge-reports refuses a report given twice (it would count every finding twice)', async () => {
    const dir = mkdtempSync(path.join(work, 'twice-'));
    writeFileSync(path.join(dir, 'a.jsonl'), jsonl(3));
    for (const format of ['json', 'sarif']) {
      const out = path.join(dir, `r.${format}`);
      await runCli(['lint', '--format', format, '-o', out, 'a.jsonl'], { cwd: dir });
      const r = await runCli(['merge-reports', out, out], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('histlint: error: cannot merge: a.jsonl is in more than one report\n');
    }
  });

  it('merge-reports refuses a mix of report kinds or a file that is no report', async () => {
    const dir = mkdtempSync(path.join(work, 'bad-'));
    writeFileSync(
      path.join(dir, 'a.json'),
      JSON.stringify({ files: [], errorCount: 0, warningCount: 0 }),
    );
    writeFileSync(path.join(dir, 'b.sarif'), JSON.stringify({ version: '2.1.0', runs: [] }));
    writeFileSync(path.join(dir, 'c.json'), '{"hello": 1}');
    expect((await runCli(['merge-reports', 'a.json', 'b.sarif'], { cwd: dir })).code).toBe(2);
    const r = await runCli(['merge-reports', 'a.json', 'c.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('c.json');
    expect(readFileSync(path.join(dir, 'a.json'), 'utf8')).toContain('files');
  });
});

describe('interrupting lint', () => {
  for (const jobs of ['1', '2']) {
    it(`exits 130 with --jobs ${jobs} when Ctrl-C arrives mid-run`, async () => {
      const dir = mkdtempSync(path.join(work, `abort${jobs}-`));
      for (let k = 0; k < 1500; k++) writeFileSync(path.join(dir, `a${k}.jsonl`), jsonl(3));
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 30);
      const r = await runCli(['lint', '--jobs', jobs, '--format', 'json', '.'], {
        cwd: dir,
        signal: controller.signal,
      });
      expect(r.code).toBe(130);
      expect(r.stderr).not.toMatch(/internal error|\n {4}at /);
    });
  }
});
