/**
 * Reading inputs that are not regular files (SPEC §6, never lose data): a
 * named pipe (mkfifo, with a writer process), bash's process substitution
 * (`<(cat file)`, a /dev/fd/N of a pipe) and a character device are read to
 * their end, never sized with fstat nor seeked, and give every command the
 * same result as a regular file with the same bytes (JSONL line numbers and
 * the Claude Code session check included). Spawns bin/histlint.js (built by
 * `npm run build`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { collectOutput, ROOT, spawnCli, type CliResult } from './helpers/cli.js';
import {
  CLEAN,
  DANGLING,
  DANGLING_SESSION,
  EMPTY_PARTS,
  makeTree,
  oneLine,
  parseReport,
  removeTrees,
  type JsonReport,
} from './helpers/lint-fixtures.js';

const BIN = path.join(ROOT, 'bin/histlint.js');
const STACK = /^ {4}at /m;

afterAll(removeTrees);

/** Writers still running (a reader that never opened its pipe leaves one blocked). */
const writers: ChildProcess[] = [];
afterEach(() => {
  for (const w of writers.splice(0)) if (w.exitCode === null) w.kill('SIGKILL');
});

/** Makes a named pipe at `fifo` and starts a process that writes `source` into it. */
function fifoFrom(fifo: string, source: string): void {
  execFileSync('mkfifo', [fifo]);
  writers.push(spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', source, fifo], { stdio: 'ignore' }));
}

/** Runs `histlint ARGS` in bash, where `SUB` in ARGS becomes `<(cat FILE)`. */
function withSubstitution(args: string[], file: string, cwd: string): Promise<CliResult> {
  const words = args.map((a) => (a === 'SUB' ? '<(cat "$2")' : `'${a.replace(/'/g, `'\\''`)}'`));
  const script = `exec node "$1" ${words.join(' ')}`;
  const child = spawn('bash', ['-c', script, 'bash', BIN, file], {
    cwd,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collectOutput(child).then(({ code, stdout, stderr }) => ({
    code: code ?? -1,
    stdout,
    stderr,
  }));
}

/** A report's findings and errors, without the file names (a pipe's name is not the file's). */
function contentOf(r: CliResult): { code: number; files: Omit<JsonReport['files'][0], 'file'>[] } {
  expect(r.stderr).not.toMatch(STACK);
  const report = parseReport(r.stdout);
  return { code: r.code, files: report.files.map(({ file: _file, ...rest }) => rest) };
}

/** A v1 conversation on one line whose text part is about `bytes` long. */
function bigLine(bytes: number, dangling: boolean): string {
  const value = JSON.parse(dangling ? DANGLING : CLEAN) as {
    messages: { parts: { text?: string }[] }[];
  };
  value.messages[0]!.parts[0]!.text = 'x'.repeat(bytes);
  return JSON.stringify(value);
}

// A JSONL file whose finding is on line 3, after a blank line and a CRLF line.
const JSONL = `${oneLine(CLEAN)}\r\n\n${oneLine(DANGLING)}\n${oneLine(EMPTY_PARTS)}\n`;
// Bigger than one read chunk (1 MB) and than the 64 KB a session check reads first.
const BIG_JSONL = `${bigLine(1_500_000, false)}\n${bigLine(300_000, true)}\n${oneLine(EMPTY_PARTS)}`;
const BIG_JSON = bigLine(2_500_000, true);

describe('lint reads pipes to their end', () => {
  const dir = makeTree({
    'a.json': DANGLING,
    'a.jsonl': JSONL,
    'session.jsonl': DANGLING_SESSION,
    'big.jsonl': BIG_JSONL,
    'big.json': BIG_JSON,
  });
  const lint = (file: string, extra: string[] = []): Promise<CliResult> =>
    spawnCli(['lint', '--format', 'json', ...extra, file], { cwd: dir });

  it.each(['a.json', 'big.json'])(
    'process substitution of %s: the findings of the file',
    async (name) => {
      const expected = contentOf(await lint(name));
      expect(expected.code).toBe(1);
      const piped = await withSubstitution(['lint', '--format', 'json', 'SUB'], name, dir);
      expect(contentOf(piped)).toEqual(expected);
    },
  );

  it.each(['a.jsonl', 'session.jsonl', 'big.jsonl'])(
    'a named pipe %s: the findings of the file, on the same lines',
    async (name) => {
      const expected = contentOf(await lint(name));
      expect(expected.code).toBe(1);
      expect(expected.files[0]!.findings.length).toBeGreaterThan(0);
      const fifo = path.join(dir, `pipe-${name}`);
      fifoFrom(fifo, path.join(dir, name));
      const r = await lint(fifo);
      expect(contentOf(r)).toEqual(expected);
      expect(r.stderr).not.toMatch(/ESPIPE|seek/);
    },
  );

  it('the session check of a pipe uses the bytes it read (the session is one conversation)', async () => {
    const fifo = path.join(dir, 'pipe2-session.jsonl');
    fifoFrom(fifo, path.join(dir, 'session.jsonl'));
    const { files } = contentOf(await lint(fifo));
    // As one session: the dangling call is found on the assistant's line, and no line is its own conversation.
    expect(files[0]!.findings.map((f) => [f.ruleId, f.line])).toEqual([['dangling-tool-call', 2]]);
  });

  it('a named pipe among regular files, with worker threads: each read once, in order', async () => {
    const fifo = path.join(dir, 'pipe3.jsonl');
    fifoFrom(fifo, path.join(dir, 'big.jsonl'));
    const r = await spawnCli(
      ['lint', '--format', 'json', '--jobs', '2', 'a.json', fifo, 'a.jsonl'],
      { cwd: dir },
    );
    const report = contentOf(r);
    expect(report.files).toEqual([
      ...contentOf(await lint('a.json')).files,
      ...contentOf(await lint('big.jsonl')).files,
      ...contentOf(await lint('a.jsonl')).files,
    ]);
  });

  it('a character device reads as what it holds (/dev/null: an empty file)', async () => {
    writeFileSync(path.join(dir, 'empty.json'), '');
    expect(contentOf(await lint('/dev/null'))).toEqual(contentOf(await lint('empty.json')));
  });
});

describe('the other commands read pipes too', () => {
  const dir = makeTree({ 'a.json': DANGLING, 'a.jsonl': JSONL });

  it.each([
    [['normalize'], 'a.json'],
    [['sanitize'], 'a.json'],
    [['trim', '--max-messages', '2'], 'a.json'],
    [['convert', '--to', 'openai-chat'], 'a.json'],
    [['show', '--width', '20'], 'a.json'],
    [['stats', '--format', 'json'], 'a.json'],
    [['normalize'], 'a.jsonl'],
    [['stats', '--format', 'json'], 'a.jsonl'],
  ])('%s of <(cat %s) and of a named pipe: the output of the file', async (args, name) => {
    const file = await spawnCli([...args, name], { cwd: dir });
    expect(file.stderr).not.toMatch(STACK);
    expect(file.code).toBe(0);
    const byName = (out: string, shown: string | RegExp): string =>
      typeof shown === 'string' ? out.split(shown).join('FILE') : out.replace(shown, 'FILE');

    const piped = await withSubstitution([...args, 'SUB'], name, dir);
    expect(piped.code).toBe(0);
    expect(byName(piped.stdout, /\/dev\/fd\/\d+/g)).toBe(byName(file.stdout, name));

    const fifo = path.join(dir, `pipe-${args[0]}-${name}`);
    fifoFrom(fifo, path.join(dir, name));
    const named = await spawnCli([...args, fifo], { cwd: dir });
    expect(named.code).toBe(0);
    expect(byName(named.stdout, fifo)).toBe(byName(file.stdout, name));
  });
});
