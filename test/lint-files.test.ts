/**
 * `lintFiles` (issue 18): results in input order whatever the jobs and sizes (a JSONL file cut
 * into byte ranges included), an abort that leaves no result for unfinished files and no thread
 * behind, progress that adds up to the input bytes, texts given inline, globs and folders, and
 * per-file rules from the config's overrides. Speed is measured by `npm run bench`, not here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  lintFiles,
  lintFilesWith,
  type LintFilesOptions,
  type LintFilesTuning,
  type LintProgress,
} from '../src/lint/files.js';
import { ROOT } from './helpers/cli.js';
import { DANGLING_AUTOGEN } from './helpers/lint-fixtures.js';

const work = mkdtempSync(path.join(tmpdir(), 'histlint-lint-files-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Threads need the built worker (tests run from src/, whose .ts a worker cannot load). */
const hasWorker = existsSync(path.join(ROOT, 'dist/lint/worker.js'));

/** A conversation; `k % 3 === 0` leaves its tool call unanswered, `k % 5 === 0` truncates its arguments. */
function conversation(k: number, padding = 0): string {
  const messages: unknown[] = [
    { role: 'user', parts: [{ type: 'text', text: `question ${k} ${'x'.repeat(padding)}` }] },
    {
      role: 'assistant',
      parts: [
        { type: 'tool-call', id: `c${k}`, name: 'f', arguments: k % 5 === 0 ? '{"a":' : '{}' },
      ],
    },
  ];
  if (k % 3 !== 0)
    messages.push({ role: 'tool', parts: [{ type: 'tool-result', callId: `c${k}`, content: [] }] });
  return JSON.stringify({ version: 1, messages });
}

function jsonl(lines: number, from = 0): string {
  return Array.from({ length: lines }, (_, k) => conversation(from + k) + '\n').join('');
}

/** A folder of JSON and JSONL files of very different sizes, and one JSONL big enough to cut. */
function corpus(name: string): string {
  const dir = path.join(work, name);
  mkdirSync(path.join(dir, 'sub'), { recursive: true });
  for (let k = 0; k < 150; k++) {
    const file = path.join(dir, k % 10 === 0 ? 'sub' : '', `f${String(k).padStart(3, '0')}`);
    if (k % 4 === 0) writeFileSync(`${file}.jsonl`, jsonl(1 + (k % 13), k));
    else writeFileSync(`${file}.json`, conversation(k, (k % 7) * 3000));
  }
  writeFileSync(path.join(dir, 'big.jsonl'), jsonl(3000));
  return dir;
}

/** Splits JSONL files of 64 kB and more into 16 kB ranges, and starts threads for any work. */
const SPLIT: LintFilesTuning = { splitMinBytes: 64 * 1024, rangeBytes: 16 * 1024, poolMinWork: 0 };

async function progressOf(
  inputs: string[],
  options: LintFilesOptions,
  tuning: LintFilesTuning = {},
): Promise<LintProgress[]> {
  const seen: LintProgress[] = [];
  await lintFilesWith(inputs, { ...options, onProgress: (p) => seen.push(p) }, tuning);
  return seen;
}

describe('lintFiles: order and jobs', () => {
  const dir = corpus('order');
  const inputs = ['sub', 'big.jsonl', 'f0*.json', 'f1*.jsonl', '.'];

  it('lists files in input order: each argument in turn, a folder or glob in path order, each file once', async () => {
    const run = await lintFiles(inputs, { cwd: dir, jobs: 1 });
    const names = run.files.map((f) => f.file);
    const sub = names.filter((n) => n.startsWith('sub/'));
    expect(sub).toHaveLength(15);
    expect(names.slice(0, 15)).toEqual(sub);
    expect(names[15]).toBe('big.jsonl');
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(151);
    expect(run.paths).toEqual(names.map((n) => path.join(dir, n)));
    expect(run.interrupted).toBe(false);
    // Every third conversation has an unanswered call; big.jsonl alone holds 1000 of them.
    const big = run.files[15]!;
    expect(big.findings.filter((f) => f.ruleId === 'dangling-tool-call')).toHaveLength(1000);
    expect(big.findings.map((f) => f.line)).toEqual(
      [...big.findings.map((f) => f.line)].sort((a, b) => a - b),
    );
  });

  it.runIf(hasWorker)(
    'gives the same results with 1, 2 and 3 jobs, a JSONL file cut into ranges included',
    async () => {
      const one = await lintFilesWith(inputs, { cwd: dir, jobs: 1 }, SPLIT);
      expect(one.errorCount).toBeGreaterThan(1000);
      for (const jobs of [2, 3]) {
        const progress = await progressOf(inputs, { cwd: dir, jobs }, SPLIT);
        // big.jsonl (about 300 kB) was cut: more pieces of work than files.
        expect(progress[0]!.total).toBeGreaterThan(one.files.length + 10);
        const many = await lintFilesWith(inputs, { cwd: dir, jobs }, SPLIT);
        expect(many).toEqual(one);
      }
      // Default jobs, whatever they decide, agree too.
      expect(await lintFilesWith(inputs, { cwd: dir }, SPLIT)).toEqual(one);
      expect(await lintFiles(inputs, { cwd: dir })).toEqual(one);
    },
  );
});

describe('lintFiles: abort', () => {
  const dir = path.join(work, 'abort');
  mkdirSync(dir);
  for (let k = 0; k < 1500; k++) writeFileSync(path.join(dir, `a${k}.jsonl`), jsonl(3, k));

  it('a signal aborted before the run: no results, interrupted', async () => {
    const controller = new AbortController();
    controller.abort();
    for (const jobs of [1, 2]) {
      const run = await lintFiles(['.'], { cwd: dir, jobs, signal: controller.signal });
      expect(run).toMatchObject({ files: [], paths: [], interrupted: true, errorCount: 0 });
    }
  });

  for (const jobs of [1, 2]) {
    it(`a signal aborted during the run (${jobs} jobs): the finished files in order, interrupted`, async () => {
      const all = await lintFiles(['.'], { cwd: dir, jobs: 1 });
      const controller = new AbortController();
      const run = await lintFiles(['.'], {
        cwd: dir,
        jobs,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.done === 100) controller.abort();
        },
      });
      expect(run.interrupted).toBe(true);
      expect(run.files.length).toBeGreaterThan(0);
      expect(run.files.length).toBeLessThan(all.files.length);
      // What is there is the start of the full run, unchanged.
      expect(run.files).toEqual(all.files.slice(0, run.files.length));
      expect(run.errorCount).toBe(run.files.reduce((n, f) => n + f.errorCount, 0));
    });
  }

  it.runIf(hasWorker)('leaves no thread that keeps the process alive', () => {
    // A process that aborts a two-thread run and returns must end by itself.
    const script = [
      `import { lintFiles } from ${JSON.stringify(path.join(ROOT, 'dist/lint/files.js'))};`,
      'const controller = new AbortController();',
      `const run = await lintFiles(['.'], { cwd: ${JSON.stringify(dir)}, jobs: 2, signal: controller.signal,`,
      '  onProgress: (p) => { if (p.done === 50) controller.abort(); } });',
      'console.log(JSON.stringify({ interrupted: run.interrupted, files: run.files.length }));',
    ].join('\n');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { interrupted: boolean; files: number };
    expect(out.interrupted).toBe(true);
    expect(out.files).toBeLessThan(1500);
  });
});

describe('lintFiles: progress', () => {
  const dir = corpus('progress');
  const bytesOf = (names: string[]): number =>
    names.reduce((n, name) => n + readFileSync(path.join(dir, name)).length, 0);

  for (const jobs of [1, 2]) {
    it(`reports bytes that add up to the input's (${jobs} jobs, a split file included)`, async () => {
      const run = await lintFiles(['.'], { cwd: dir, jobs: 1 });
      const seen = await progressOf(['.'], { cwd: dir, jobs }, SPLIT);
      expect(seen[0]).toEqual({ bytes: 0, done: 0, total: seen[0]!.total });
      const rest = seen.slice(1);
      expect(rest).toHaveLength(seen[0]!.total);
      expect(rest.map((p) => p.done)).toEqual(rest.map((_, k) => k + 1));
      expect(rest.every((p) => p.total === seen[0]!.total)).toBe(true);
      expect(rest.reduce((n, p) => n + p.bytes, 0)).toBe(bytesOf(run.files.map((f) => f.file)));
      expect(new Set(rest.map((p) => p.file))).toEqual(new Set(run.files.map((f) => f.file)));
    });
  }
});

describe('lintFiles: texts', () => {
  const dir = path.join(work, 'texts');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'on-disk.jsonl'), jsonl(9));

  it('lints { path, text } as that file, without reading it, in input order', async () => {
    const fromDisk = await lintFiles(['on-disk.jsonl'], { cwd: dir });
    const run = await lintFiles(
      [
        { path: 'not-there.jsonl', text: jsonl(9) },
        'on-disk.jsonl',
        { path: 'bytes.jsonl', text: Buffer.from(jsonl(9)) },
        { text: conversation(3) },
      ],
      { cwd: dir },
    );
    expect(run.files.map((f) => f.file)).toEqual([
      'not-there.jsonl',
      'on-disk.jsonl',
      'bytes.jsonl',
      '<text>',
    ]);
    const findings = fromDisk.files[0]!.findings;
    expect(findings.length).toBeGreaterThan(3);
    for (const k of [0, 1, 2]) expect(run.files[k]!.findings).toEqual(findings);
    // Without a path, a text is read as JSON: one conversation, its call unanswered.
    expect(run.files[3]!.findings.map((f) => f.ruleId)).toEqual(['dangling-tool-call']);
    expect(run.paths).toEqual([undefined, path.join(dir, 'on-disk.jsonl'), undefined, undefined]);
  });

  it('holds a text to strict UTF-8, as a file', async () => {
    const bad = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    const run = await lintFiles([{ path: 'bad.json', text: bad }], { cwd: dir });
    expect(run.files[0]!.findings.map((f) => f.ruleId)).toEqual(['parse-error']);
  });
});

describe('lintFiles: globs, folders, ignore', () => {
  const dir = corpus('globs');

  it('expands globs and folders as lint does, with the ignore patterns of the config and the options', async () => {
    const run = await lintFiles(['*.jsonl', 'sub'], {
      cwd: dir,
      config: { ignore: ['f00*'] },
      ignore: ['sub/f1*'],
    });
    const names = run.files.map((f) => f.file);
    const top = names.filter((n) => !n.startsWith('sub/'));
    expect(top).toEqual([...top].sort());
    expect(top.every((n) => n.endsWith('.jsonl') && !n.startsWith('f00'))).toBe(true);
    expect(top).toContain('big.jsonl');
    const sub = names.filter((n) => n.startsWith('sub/'));
    expect(sub.length).toBeGreaterThan(0);
    expect(sub.every((n) => !n.startsWith('sub/f1'))).toBe(true);
    // The config's "f00*" is relative to its folder: it does not reach into sub/.
    expect(sub).toContain('sub/f000.jsonl');
  });

  it('says which named input it passes over, and throws for a pattern that matches nothing', async () => {
    const notes: string[] = [];
    const run = await lintFiles(['f001.json', 'f002.json'], {
      cwd: dir,
      ignore: ['f001.json'],
      onWarning: (m) => notes.push(m),
    });
    expect(run.files.map((f) => f.file)).toEqual(['f002.json']);
    expect(notes).toEqual(['histlint: f001.json: skipped (it matches an ignore pattern)']);
    await expect(lintFiles(['nothing-*.json'], { cwd: dir })).rejects.toThrow(
      'no files match the pattern "nothing-*.json"',
    );
    const quiet = await lintFiles(['nothing-*.json', 'f002.json'], {
      cwd: dir,
      errorOnUnmatchedPattern: false,
    });
    expect(quiet.files.map((f) => f.file)).toEqual(['f002.json']);
  });

  it("lints the config's files when there are no inputs, relative to its folder", async () => {
    const run = await lintFiles([], {
      cwd: work,
      config: { files: ['sub/*.json'] },
      configDir: dir,
    });
    expect(run.files.length).toBeGreaterThan(0);
    expect(run.paths.every((p) => p!.startsWith(path.join(dir, 'sub') + path.sep))).toBe(true);
  });

  it('select sees every file before any is read and picks what is linted', async () => {
    let seen = 0;
    const run = await lintFiles(['.'], {
      cwd: dir,
      select: (files) => {
        seen = files.length;
        return files.filter((_, k) => k % 2 === 0);
      },
    });
    expect(seen).toBe(151);
    expect(run.files).toHaveLength(76);
    await expect(
      lintFiles(['.'], {
        cwd: dir,
        select: () => {
          throw new Error('stop here');
        },
      }),
    ).rejects.toThrow('stop here');
  });
});

describe('lintFiles: rules', () => {
  const dir = corpus('rules');
  const ids = (run: Awaited<ReturnType<typeof lintFiles>>, file: string): Set<string> =>
    new Set(run.files.find((f) => f.file === file)!.findings.map((f) => f.ruleId));

  it("takes each file's rules from the config's overrides, then the rules option over them", async () => {
    const config = {
      rules: { 'truncated-arguments': 'error' as const },
      overrides: [{ files: ['sub/**'], rules: { 'dangling-tool-call': 'off' as const } }],
    };
    const run = await lintFiles(['f004.jsonl', 'sub/f020.jsonl'], {
      cwd: dir,
      config,
      configDir: dir,
    });
    // Both files hold conversations with an unanswered call and with truncated arguments.
    expect(ids(run, 'f004.jsonl')).toEqual(new Set(['dangling-tool-call', 'truncated-arguments']));
    expect(ids(run, 'sub/f020.jsonl')).toEqual(new Set(['truncated-arguments']));
    const layered = await lintFiles(['f004.jsonl', 'sub/f020.jsonl'], {
      cwd: dir,
      config,
      configDir: dir,
      rules: new Map([['truncated-arguments', 'off' as const]]),
    });
    expect(ids(layered, 'f004.jsonl')).toEqual(new Set(['dangling-tool-call']));
    expect(ids(layered, 'sub/f020.jsonl')).toEqual(new Set());
    const severities = await lintFiles(['f004.jsonl'], {
      cwd: dir,
      rules: { 'dangling-tool-call': 'warn' },
    });
    expect(severities.files[0]!.findings.some((f) => f.severity === 'warn')).toBe(true);
    expect(severities.warningCount).toBeGreaterThan(0);
  });

  it('refuses unknown rules, severities, targets and jobs with one line', async () => {
    await expect(lintFiles(['f000.jsonl'], { cwd: dir, rules: { nope: 'off' } })).rejects.toThrow(
      'rules: unknown rule "nope"',
    );
    await expect(
      lintFiles(['f000.jsonl'], { cwd: dir, rules: { 'dangling-tool-call': 'loud' as 'off' } }),
    ).rejects.toThrow('rules["dangling-tool-call"]: expected one of off|warn|error');
    await expect(lintFiles(['f000.jsonl'], { cwd: dir, jobs: 0 })).rejects.toThrow('jobs:');
    await expect(
      lintFiles(['f000.jsonl'], { cwd: dir, target: 'nobody' as 'none' }),
    ).rejects.toThrow('target: expected one of');
    await expect(lintFiles(['f000.jsonl'], { cwd: dir, pointer: 'a/b' })).rejects.toThrow(
      'pointer: invalid JSON pointer',
    );
  });
});

describe('lintFiles: read-only formats', () => {
  it('marks a file read in a read-only format (readOnly), in this thread and in workers', async () => {
    const dir = path.join(work, 'read-only');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'a.json'), conversation(3));
    writeFileSync(path.join(dir, 'agents.json'), DANGLING_AUTOGEN);
    for (const jobs of hasWorker ? [1, 2] : [1]) {
      const run = await lintFilesWith(['.'], { cwd: dir, jobs }, { poolMinWork: 0 });
      const byName = new Map(run.files.map((f) => [f.file, f]));
      expect(byName.get('a.json')!.readOnly, `jobs ${jobs}`).toBeUndefined();
      expect(byName.get('agents.json')!.readOnly, `jobs ${jobs}`).toBe('autogen');
      expect(byName.get('agents.json')!.findings.length).toBeGreaterThan(0);
    }
  });
});
