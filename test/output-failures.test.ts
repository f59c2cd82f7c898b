/**
 * Output that cannot be written (SPEC §5.2): a failing write to standard
 * output or standard error (`> /dev/full`, `2> /dev/full`) is one line on
 * standard error, when that still works, and exit 2 in every command, never a
 * stack trace and never the exit code the command would otherwise have had.
 * Later writes to the failed stream are dropped and the command stops between
 * files, as on Ctrl-C, so what it wrote is whole. A reader that went away
 * (EPIPE) stays quiet. Spawned through a shell against the real /dev/full, and
 * in-process with fake streams that fail at once or on the next tick.
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import type { OutputStream } from '../src/cli/io.js';
import { collectOutput, ROOT, runCli } from './helpers/cli.js';
import type { MockLlm } from './helpers/mock-llm.js';
import { useMockLlm } from './helpers/run-suite.js';

const BIN = path.join(ROOT, 'bin/histlint.js');
const KEY = 'sk-test-OUTPUT-abcdef0123456789';
const STACK = /^\s+at /m;
const NO_SPACE = 'no space left on device (ENOSPC)';
const STDOUT_LINE = `histlint: error: cannot write to standard output: ${NO_SPACE}\n`;
const FULL = '/dev/full';
const haveFull = existsSync(FULL);

let work: string;
let mock: MockLlm;
useMockLlm('histlint-output-', (w, m) => {
  work = w;
  mock = m;
  writeFileSync(path.join(work, 'clean.json'), JSON.stringify(CLEAN) + '\n');
  writeFileSync(path.join(work, 'broken.json'), JSON.stringify(broken(0)) + '\n');
});

const CLEAN = {
  version: 1,
  messages: [
    { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
    { role: 'assistant', parts: [{ type: 'text', text: 'hi there' }] },
  ],
};

/** A conversation with an unanswered call: lint finds an error, normalize changes it. */
function broken(k: number): unknown {
  return {
    version: 1,
    messages: [
      { role: 'user', parts: [{ type: 'text', text: `question ${k}` }] },
      {
        role: 'assistant',
        parts: [{ type: 'tool-call', id: `call_${k}`, name: 'search', arguments: '{}' }],
      },
    ],
  };
}

/** Runs bin/histlint.js through bash with `redirect` (e.g. `> /dev/full`) applied to it. */
function spawnRedirected(argv: string[], redirect: string, env: Record<string, string> = {}) {
  const child = spawn(
    'bash',
    ['-c', `exec "$@" ${redirect}`, 'bash', process.execPath, BIN, ...argv],
    {
      cwd: work,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return collectOutput(child);
}

interface Row {
  name: string;
  argv: string[];
  /** The exit code with working output. */
  usual: number;
  /** Standard output differs from run to run (new ids). */
  fresh?: boolean;
  /** Scripts the mock for one run (`run` only). */
  before?: () => void;
  env?: Record<string, string>;
}

const RUN_ARGS = ['run', '--model', 'm', '--max-retries', '0', '--prompt', 'p'];

/** A command of every kind, each with something to say on standard output. */
const STDOUT_ROWS: Row[] = [
  { name: 'lint (clean, json report)', argv: ['lint', '--format', 'json', 'clean.json'], usual: 0 },
  { name: 'lint (errors, stylish report)', argv: ['lint', 'broken.json'], usual: 1 },
  { name: 'normalize', argv: ['normalize', 'broken.json'], usual: 0 },
  { name: 'sanitize', argv: ['sanitize', 'clean.json'], usual: 0 },
  { name: 'trim', argv: ['trim', '--max-messages', '1', 'clean.json'], usual: 0 },
  { name: 'convert', argv: ['convert', '--to', 'openai-chat', 'clean.json'], usual: 0 },
  { name: 'show', argv: ['show', 'clean.json'], usual: 0 },
  { name: 'stats', argv: ['stats', 'clean.json'], usual: 0 },
  { name: 'schema', argv: ['schema'], usual: 0 },
  { name: 'id', argv: ['id'], usual: 0 },
  { name: 'id -n 200000', argv: ['id', '-n', '200000'], usual: 0 },
  { name: 'rules', argv: ['rules'], usual: 0 },
  {
    name: 'run',
    argv: RUN_ARGS,
    usual: 0,
    before: () => mock.script({ text: 'the answer' }),
    env: { OPENAI_API_KEY: KEY },
  },
  { name: 'merge-reports', argv: ['merge-reports', 'report.json'], usual: 1 },
  { name: '--help', argv: ['--help'], usual: 0 },
  { name: '--version', argv: ['--version'], usual: 0 },
];

/** Commands whose report on standard error fails (their standard output works). */
const STDERR_ROWS: Row[] = [
  {
    name: 'normalize (result on stdout, report on stderr)',
    argv: ['normalize', 'broken.json'],
    usual: 0,
  },
  { name: 'normalize --check', argv: ['normalize', '--check', 'broken.json'], usual: 1 },
  {
    name: 'lint --max-warnings',
    argv: [
      'lint',
      '--max-warnings',
      '0',
      '--rule',
      'dangling-tool-call=warn',
      'broken.json',
      '--format',
      'stylish',
    ],
    usual: 1,
  },
  { name: 'no arguments (help on stderr)', argv: [], usual: 2 },
  {
    name: 'run',
    argv: RUN_ARGS,
    fresh: true,
    usual: 0,
    before: () => mock.script({ text: 'the answer' }),
    env: { OPENAI_API_KEY: KEY },
  },
];

function withBase(row: Row): string[] {
  return row.argv[0] === 'run' ? [...row.argv, '--base-url', mock.openaiBase] : row.argv;
}

describe.runIf(haveFull)('spawned, standard output is /dev/full', () => {
  it.each(STDOUT_ROWS)(
    '$name: one line on stderr, exit 2',
    async (row) => {
      if (row.argv[0] === 'merge-reports' && !existsSync(path.join(work, 'report.json'))) {
        const r = await runCli(['lint', '--format', 'json', '-o', 'report.json', 'broken.json'], {
          cwd: work,
        });
        expect(r.code).toBe(1);
      }
      row.before?.();
      const usual = await spawnRedirected(withBase(row), '', row.env);
      expect(usual.code, usual.stderr).toBe(row.usual);
      expect(usual.stdout).not.toBe('');
      row.before?.();
      const full = await spawnRedirected(withBase(row), `> ${FULL}`, row.env);
      expect(full.signal).toBeNull();
      expect(full.stderr).not.toMatch(STACK);
      expect(full.stderr.endsWith(STDOUT_LINE), full.stderr).toBe(true);
      // The line is the only thing a command that reports nothing on stderr says.
      if (usual.stderr === '') expect(full.stderr).toBe(STDOUT_LINE);
      expect(full.code).toBe(2);
    },
    30_000,
  );
});

describe.runIf(haveFull)('spawned, standard error is /dev/full', () => {
  it.each(STDERR_ROWS)(
    '$name: exit 2',
    async (row) => {
      row.before?.();
      const usual = await spawnRedirected(withBase(row), '', row.env);
      expect(usual.code, usual.stderr).toBe(row.usual);
      expect(usual.stderr).not.toBe('');
      row.before?.();
      const full = await spawnRedirected(withBase(row), `2> ${FULL}`, row.env);
      expect(full.signal).toBeNull();
      expect(full.code).toBe(2);
      // Standard output is not the place for the error.
      if (row.fresh) expect(JSON.parse(full.stdout)).toHaveProperty('messages');
      else expect(full.stdout).toBe(usual.stdout);
    },
    30_000,
  );

  it('both streams on /dev/full: exit 2', async () => {
    const full = await spawnRedirected(['lint', 'broken.json'], `> ${FULL} 2> ${FULL}`);
    expect(full.signal).toBeNull();
    expect(full.code).toBe(2);
  });

  it('normalize --write: the files written are whole, no temp file is left, exit 2', async () => {
    const dir = path.join(work, 'write');
    mkdirSync(dir);
    const names = Array.from({ length: 40 }, (_, k) => `f${String(k).padStart(2, '0')}.json`);
    const old = names.map((_, k) => JSON.stringify(broken(k)) + '\n');
    names.forEach((name, k) => writeFileSync(path.join(dir, name), old[k]!));
    const full = await spawnRedirected(['normalize', '--write', 'write/*.json'], `2> ${FULL}`);
    expect(full.signal).toBeNull();
    expect(full.code).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(names);
    let fresh = 0;
    names.forEach((name, k) => {
      const text = readFileSync(path.join(dir, name), 'utf8');
      if (text === old[k]) return;
      fresh++;
      const value = JSON.parse(text) as { messages: unknown[] };
      expect(value.messages).toHaveLength(3);
      expect(text).toContain('interrupted before execution');
    });
    expect(fresh).toBeGreaterThan(0);
    // What was not written is left for the next run, which finishes it.
    const next = await spawnRedirected(['normalize', '--write', 'write/*.json'], '');
    expect(next.code, next.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(names);
  });
});

/** An Error as node's fs makes one. */
function errno(code: string, description: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${description}, write`), {
    code,
    syscall: 'write',
    errno: -28,
  });
}

/**
 * How a write fails: it throws; it returns with the stream's `errored` set and the 'error' event
 * on the next tick (node's stream to a file or device); or only the event comes.
 */
type FailureKind = 'throw' | 'errored' | 'event';

/** A stream that fails from its `failAt`-th write on (0: the first). */
class FailingStream extends EventEmitter implements OutputStream {
  text = '';
  writes = 0;
  isTTY = false;
  errored: Error | null = null;
  constructor(
    private readonly error: NodeJS.ErrnoException,
    private readonly how: FailureKind,
    private readonly failAt = 0,
  ) {
    super();
  }
  write(chunk: string): boolean {
    this.writes++;
    if (this.writes - 1 < this.failAt) {
      this.text += chunk;
      return true;
    }
    if (this.how === 'throw') throw this.error;
    if (this.how === 'errored') this.errored = this.error;
    process.nextTick(() => this.emit('error', this.error));
    return false;
  }
}

/** A stream that keeps what it is given. */
function sink(): OutputStream & { text: string } {
  const s = {
    text: '',
    isTTY: false,
    write(chunk: string) {
      s.text += chunk;
      return true;
    },
  };
  return s;
}

function runWith(argv: string[], stdout: OutputStream, stderr: OutputStream, signal?: AbortSignal) {
  return main({
    argv,
    stdin: { isTTY: true, async *[Symbol.asyncIterator]() {} },
    stdout,
    stderr,
    cwd: work,
    env: {},
    ...(signal === undefined ? {} : { signal }),
  });
}

describe('in-process, a failing stream', () => {
  for (const how of ['throw', 'errored', 'event'] as const) {
    it(`standard output fails (${how}): one line, exit 2, later writes dropped`, async () => {
      const stdout = new FailingStream(errno('ENOSPC', 'no space left on device'), how);
      const stderr = sink();
      // lint with errors would exit 1.
      expect(await runWith(['lint', 'broken.json'], stdout, stderr)).toBe(2);
      expect(stderr.text).toBe(STDOUT_LINE);
      expect(stdout.writes).toBe(1);
    });

    it(`--version whose output fails (${how}): exit 2, not 0`, async () => {
      const stdout = new FailingStream(errno('ENOSPC', 'no space left on device'), how);
      const stderr = sink();
      expect(await runWith(['--version'], stdout, stderr)).toBe(2);
      expect(stderr.text).toBe(STDOUT_LINE);
    });

    it(`standard error fails (${how}): the command stops between files, exit 2`, async () => {
      const dir = path.join(work, `in-process-${how}`);
      mkdirSync(dir);
      const names = ['a.json', 'b.json', 'c.json', 'd.json'];
      names.forEach((name, k) =>
        writeFileSync(path.join(dir, name), JSON.stringify(broken(k)) + '\n'),
      );
      const stdout = sink();
      const stderr = new FailingStream(errno('ENOSPC', 'no space left on device'), how);
      const code = await runWith(
        ['normalize', '--write', ...names.map((n) => `in-process-${how}/${n}`)],
        stdout,
        stderr,
      );
      expect(code).toBe(2);
      // Nothing more is tried on the failed stream; standard output is no place for the error.
      expect(stderr.writes).toBe(1);
      expect(stdout.text).toBe('');
      const changed = names.filter((name, k) => {
        const text = readFileSync(path.join(dir, name), 'utf8');
        return text !== JSON.stringify(broken(k)) + '\n';
      });
      // Only an error event, on the next tick, may let one more file through.
      expect(changed).toEqual(how === 'event' ? changed.slice(0, 2) : ['a.json']);
      expect(changed[0]).toBe('a.json');
      expect(changed.length).toBeLessThan(names.length);
      expect(readdirSync(dir).sort()).toEqual(names);
    });
  }

  it('id -n stops at the first failed chunk', async () => {
    const stdout = new FailingStream(errno('ENOSPC', 'no space left on device'), 'errored');
    const stderr = sink();
    expect(await runWith(['id', '-n', '1000000'], stdout, stderr)).toBe(2);
    expect(stdout.writes).toBe(1);
    expect(stderr.text).toBe(STDOUT_LINE);
  });

  it('a failure names its code and stream', async () => {
    const stdout = sink();
    const stderr = new FailingStream(errno('EIO', 'i/o error'), 'throw', 0);
    expect(await runWith(['rules'], stdout, stderr)).toBe(0);
    // Nothing was written to standard error, so nothing failed there.
    const out = new FailingStream(errno('EIO', 'i/o error'), 'throw');
    const err = sink();
    expect(await runWith(['rules'], out, err)).toBe(2);
    expect(err.text).toBe('histlint: error: cannot write to standard output: i/o error (EIO)\n');
  });

  it('standard error fails after some lines: the failure is not reported on it again', async () => {
    const stdout = sink();
    const stderr = new FailingStream(errno('ENOSPC', 'no space left on device'), 'throw', 1);
    const code = await runWith(
      ['normalize', '--check', 'broken.json', 'clean.json'],
      stdout,
      stderr,
    );
    expect(code).toBe(2);
    expect(stderr.writes).toBe(2);
    expect(stdout.text).toBe('');
  });

  it('a reader that went away (EPIPE) is no error to report', async () => {
    const stdout = new FailingStream(errno('EPIPE', 'broken pipe'), 'throw');
    const stderr = sink();
    expect(await runWith(['lint', 'broken.json'], stdout, stderr)).toBe(2);
    expect(stderr.text).toBe('');
  });

  it('Ctrl-C still wins over a failure it did not cause', async () => {
    const controller = new AbortController();
    controller.abort();
    const stdout = sink();
    const stderr = sink();
    expect(
      await runWith(['normalize', '--check', 'broken.json'], stdout, stderr, controller.signal),
    ).toBe(130);
  });
});
