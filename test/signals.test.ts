/**
 * SIGTERM (what `docker stop`, systemd and CI timeouts send) is handled like
 * Ctrl-C (SPEC §5.2): the first one lets the current file finish atomically,
 * the command stops between files, prints what it prints on Ctrl-C and exits
 * 143 (not killed by the signal); no temp file is left and every file holds
 * its old or its new content. A second signal exits at once, with the code of
 * that signal. Spawned bin/histlint.js (needs `npm run build`), each race run
 * several times.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../src/model/types.js';
import { ROOT, spawnCli } from './helpers/cli.js';
import type { MockLlm } from './helpers/mock-llm.js';
import { useMockLlm } from './helpers/run-suite.js';

const BIN = path.join(ROOT, 'bin/histlint.js');
const KEY = 'sk-test-SIGNALS-abcdef0123456789';
const STACK = /^\s+at /m;
const COUNT = 300;
const ROUNDS = 5;
const NAMES = Array.from({ length: COUNT }, (_, k) => `f${String(k).padStart(3, '0')}.json`);
/** A histlint temp file: `.<name>.histlint-<pid36>-<12 hex>.tmp`. */
const TEMP = /^\..+\.histlint-[0-9a-z]+-[0-9a-f]{12}\.tmp$/;
const EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
type Signal = keyof typeof EXIT;

let work: string;
let mock: MockLlm;
let counter = 0;
useMockLlm('histlint-signals-', (w, m) => {
  work = w;
  mock = m;
});

/** An input needing repair (an unanswered call), from 20 bytes to ~200 KB, so writes take a while. */
function original(k: number): string {
  const filler = 'lorem ipsum dolor '.repeat((k % 10) * 1200);
  return (
    JSON.stringify({
      version: 1,
      messages: [
        { role: 'user', parts: [{ type: 'text', text: `question ${k} ${filler}` }] },
        {
          role: 'assistant',
          parts: [{ type: 'tool-call', id: `call_${k}`, name: 'search', arguments: '{"q":1}' }],
        },
      ],
    }) + '\n'
  );
}

const OLD = new Map(NAMES.map((name, k) => [name, original(k)]));
/** What an uninterrupted `normalize --write` makes of each file. */
const NEW = new Map<string, string>();

/** A fresh folder with the originals. */
function populate(names: readonly string[] = NAMES): string {
  const dir = path.join(work, `d${++counter}`);
  mkdirSync(dir);
  for (const name of names) writeFileSync(path.join(dir, name), OLD.get(name)!);
  return dir;
}

beforeAll(async () => {
  const dir = populate();
  const r = await spawnCli(['normalize', '--write', `${path.basename(dir)}/*.json`], {
    cwd: work,
  });
  expect(r.code, r.stderr).toBe(0);
  for (const name of NAMES) NEW.set(name, readFileSync(path.join(dir, name), 'utf8'));
}, 120_000);

/**
 * Checks a folder after a run: nothing but the inputs there (no temp, no lock), each with its
 * old content or a whole repaired one (`exact`: the one an uninterrupted normalize writes).
 * Returns how many are new.
 */
function inspect(dir: string, exact: boolean): number {
  expect(readdirSync(dir).sort()).toEqual(NAMES);
  let fresh = 0;
  for (const name of NAMES) {
    const text = readFileSync(path.join(dir, name), 'utf8');
    if (text === OLD.get(name)) continue;
    fresh++;
    if (exact) expect(text, name).toBe(NEW.get(name));
    const value = JSON.parse(text) as { messages: Message[] };
    expect(value.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  }
  return fresh;
}

/** When to send the signal: once a temp file appears in `dir`, or once stderr matches. */
type Trigger = { temp: string } | { stderr: RegExp };

interface Signalled {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Whether the signal was sent before the run ended. */
  sent: boolean;
}

/** Spawns histlint and sends `signal` at the trigger. */
function signalledRun(argv: string[], signal: Signal, at: Trigger): Promise<Signalled> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: work,
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let sent = false;
    const send = (): void => {
      if (sent || child.exitCode !== null) return;
      sent = child.kill(signal);
    };
    const watcher =
      'temp' in at
        ? watch(at.temp, (_event, name) => {
            if (name !== null && TEMP.test(String(name))) send();
          })
        : undefined;
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      stderr += s;
      if ('stderr' in at && at.stderr.test(stderr)) send();
    });
    child.on('error', reject);
    child.on('close', (code, sig) => {
      watcher?.close();
      resolve({ code, signal: sig, stdout, stderr, sent });
    });
  });
}

describe('normalize --write stopped by a signal', () => {
  const cases: Signal[] = [...Array<Signal>(ROUNDS).fill('SIGTERM'), 'SIGINT', 'SIGINT'];
  it.each(cases.map((signal, round) => ({ signal, round })))(
    '$signal (round $round) at the first temp file: the current file finishes, no temp file, the summary so far',
    async ({ signal }) => {
      const dir = populate();
      const run = await signalledRun(
        ['normalize', '--write', `${path.basename(dir)}/*.json`],
        signal,
        { temp: dir },
      );
      expect(run.sent).toBe(true);
      expect(run.signal).toBeNull();
      expect(run.code, run.stderr).toBe(EXIT[signal]);
      expect(run.stderr).not.toMatch(STACK);
      const fresh = inspect(dir, true);
      // It stopped between files: what it wrote, it reported.
      expect(fresh).toBeGreaterThan(0);
      expect(fresh).toBeLessThan(COUNT);
      const changed = run.stderr.split('\n').filter((l) => /^d\d+\/f\d{3}\.json: changed/.test(l));
      expect(changed).toHaveLength(fresh);
      // The next run finishes the rest.
      const next = await spawnCli(['normalize', '--write', `${path.basename(dir)}/*.json`], {
        cwd: work,
      });
      expect(next.code, next.stderr).toBe(0);
      expect(inspect(dir, true)).toBe(COUNT);
    },
    120_000,
  );
});

describe('lint stopped by SIGTERM', () => {
  let dir: string;
  beforeAll(() => {
    dir = populate();
  });

  it.each([
    { jobs: ['--jobs', '1'], round: 0 },
    { jobs: ['--jobs', '1'], round: 1 },
    { jobs: ['--jobs', '1'], round: 2 },
    { jobs: [], round: 0 },
    { jobs: [], round: 1 },
  ])(
    'lint $jobs (round $round): exit 143, the report of what was linted',
    async ({ jobs }) => {
      const run = await signalledRun(
        ['lint', '--format', 'json', '--progress', ...jobs, path.basename(dir)],
        'SIGTERM',
        { stderr: /linted / },
      );
      expect(run.sent).toBe(true);
      expect(run.signal).toBeNull();
      expect(run.code, run.stderr).toBe(143);
      expect(run.stderr).not.toMatch(STACK);
      const report = JSON.parse(run.stdout) as { files: unknown[] };
      if (jobs.length > 0) expect(report.files.length).toBeLessThan(COUNT);
      expect(readdirSync(dir).sort()).toEqual(NAMES);
    },
    120_000,
  );

  it.each([0, 1, 2])(
    'lint --fix (round %i) at the first temp file: exit 143, no temp file, every file old or new',
    async () => {
      const fixDir = populate();
      const run = await signalledRun(
        ['lint', '--fix', '--format', 'json', path.basename(fixDir)],
        'SIGTERM',
        { temp: fixDir },
      );
      expect(run.sent).toBe(true);
      expect(run.signal).toBeNull();
      expect(run.code, run.stderr).toBe(143);
      expect(run.stderr).not.toMatch(STACK);
      const fresh = inspect(fixDir, false);
      expect(fresh).toBeGreaterThan(0);
      expect(fresh).toBeLessThan(COUNT);
    },
    120_000,
  );
});

describe('a second signal exits at once', () => {
  it.each([
    { first: 'SIGTERM', second: 'SIGTERM' },
    { first: 'SIGINT', second: 'SIGINT' },
    { first: 'SIGINT', second: 'SIGTERM' },
  ] as { first: Signal; second: Signal }[])(
    '$first then $second while a file is being read: exit $second',
    async ({ first, second }) => {
      // The third input is standard input, which the test never ends: the first signal, which
      // waits for the current file, cannot end the run. (Not a FIFO: a thread stuck opening one
      // keeps even process.exit from returning, see the issue note.)
      const dir = populate(NAMES.slice(0, 2));
      const out = path.join(work, `out${counter}`);
      const child = spawn(
        process.execPath,
        [
          BIN,
          'normalize',
          '--out-dir',
          path.basename(out),
          '--stdin-filename',
          'f999.json',
          ...NAMES.slice(0, 2).map((n) => `${path.basename(dir)}/${n}`),
          '-',
        ],
        { cwd: work, env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] },
      );
      try {
        child.stdin.write('{"version":1,');
        let stderr = '';
        const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
          (resolve) => child.on('close', (code, signal) => resolve({ code, signal })),
        );
        await new Promise<void>((resolve) =>
          child.stderr.setEncoding('utf8').on('data', (s: string) => {
            stderr += s;
            if (stderr.includes(`${NAMES[1]}: changed`)) resolve();
          }),
        );
        child.kill(first);
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(child.exitCode, stderr).toBeNull();
        const sentAt = Date.now();
        child.kill(second);
        const end = await closed;
        expect(Date.now() - sentAt).toBeLessThan(5_000);
        expect(end.signal).toBeNull();
        expect(end.code).toBe(EXIT[second]);
        expect(stderr).not.toMatch(STACK);
        // What was written before is whole, and nothing else is there.
        const outDir = path.join(out, path.basename(dir));
        expect(readdirSync(outDir).sort()).toEqual(NAMES.slice(0, 2));
        for (const name of NAMES.slice(0, 2))
          expect(readFileSync(path.join(outDir, name), 'utf8')).toBe(NEW.get(name));
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    },
    60_000,
  );
});

describe('histlint run stopped by SIGTERM', () => {
  for (const where of ['-o', '--write'] as const) {
    it(`while the model answers (${where}): the request is aborted, the partial written, exit 143`, async () => {
      const dir = path.join(work, `run${++counter}`);
      mkdirSync(dir);
      const history = path.join(dir, 'history.json');
      writeFileSync(
        history,
        JSON.stringify({
          version: 1,
          messages: [{ role: 'user', parts: [{ type: 'text', text: 'earlier' }] }],
        }),
      );
      const out = where === '-o' ? path.join(dir, 'out.json') : history;
      let child: ReturnType<typeof spawn> | undefined;
      mock.script({ toolCalls: [{ id: 't1', name: 'nothing', arguments: '{}' }] }, () => {
        setTimeout(() => child?.kill('SIGTERM'), 50);
        return { hang: true };
      });
      const result = await new Promise<{
        code: number | null;
        signal: NodeJS.Signals | null;
        stderr: string;
      }>((resolve, reject) => {
        child = spawn(
          process.execPath,
          [
            BIN,
            'run',
            history,
            '--model',
            'm',
            '--base-url',
            mock.openaiBase,
            '--max-retries',
            '0',
            '--prompt',
            'p',
            ...(where === '-o' ? ['-o', out] : ['--write']),
          ],
          { cwd: work, env: { PATH: process.env.PATH ?? '', OPENAI_API_KEY: KEY }, stdio: 'pipe' },
        );
        let stderr = '';
        child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
        child.on('error', reject);
        child.on('close', (code, signal) => resolve({ code, signal, stderr }));
        child.stdin!.end();
      });
      expect(result.signal).toBeNull();
      expect(result.code, result.stderr).toBe(143);
      expect(result.stderr).toMatch(/failed at stage aborted/);
      expect(result.stderr).not.toContain(KEY);
      expect(mock.requests).toHaveLength(2);
      const written = JSON.parse(readFileSync(out, 'utf8')) as { messages: Message[] };
      expect(written.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'tool']);
      expect(readdirSync(dir).sort()).toEqual(
        where === '-o' ? ['history.json', 'out.json'] : ['history.json'],
      );
    });
  }
});
