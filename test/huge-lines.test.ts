/**
 * JSON texts longer than the longest string Node can hold (SPEC §6: a clear
 * one-line error, never a misleading one, and the other lines still run): a
 * JSONL line over the limit is named with its size and the limit, by lint and
 * by the document reader of the other commands, and skipped; a JSON file over
 * it gets the same kind of error. The limit is lowered with
 * HISTLINT_MAX_LINE_BYTES (or setMaxTextBytes in-process) so a few megabytes
 * stand for the real 512.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, afterAll, describe, expect, it } from 'vitest';
import { spawnCli, type CliResult } from './helpers/cli.js';
import {
  CLEAN,
  DANGLING,
  makeTree,
  oneLine,
  parseReport,
  removeTrees,
} from './helpers/lint-fixtures.js';
import { mergeRanges, runLintTaskSync, type TaskOptions } from '../src/lint/tasks.js';
import { readDocument, serializeDocument } from '../src/formats/kit/document.js';
import { maxTextBytes, setMaxTextBytes } from '../src/model/text-limit.js';
import { RULES } from '../src/rules/index.js';

afterAll(removeTrees);
afterEach(() => setMaxTextBytes(undefined));

const MB = 1024 * 1024;
const LIMIT = 2 * MB;
const ENV = { HISTLINT_MAX_LINE_BYTES: String(LIMIT) };
const STACK = /^ {4}at /m;

/** A clean v1 conversation on one line, `bytes` long. */
function lineOf(bytes: number): string {
  const value = JSON.parse(CLEAN) as { messages: { parts: { text: string }[] }[] };
  value.messages[0]!.parts[0]!.text = '';
  const base = JSON.stringify(value).length;
  value.messages[0]!.parts[0]!.text = 'x'.repeat(bytes - base);
  const line = JSON.stringify(value);
  expect(line.length).toBe(bytes);
  return line;
}

// Line 2 is over the limit; line 3 holds a dangling call; line 4 is at the limit exactly.
const LONG = lineOf(3 * MB);
const AT_LIMIT = lineOf(LIMIT);
const JSONL = [oneLine(CLEAN), LONG, oneLine(DANGLING), AT_LIMIT].join('\n') + '\n';
// Without the line at the limit: a line's length counts a CR before its LF, and stats
// tokenizes each text it reads (megabytes of one letter take that tokenizer minutes).
const THREE = [oneLine(CLEAN), LONG, oneLine(DANGLING)].join('\n') + '\n';
const TOO_LONG_2 = 'line 2 is 3.0 MB; the largest JSON text Node can parse is about 2.0 MB';

// A Claude Code session whose tool result (line 3) is over the limit.
const SESSION =
  [
    {
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      sessionId: 's',
      message: { role: 'user', content: 'go' },
    },
    {
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      sessionId: 's',
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }],
      },
    },
    {
      type: 'user',
      uuid: 'u2',
      parentUuid: 'a1',
      sessionId: 's',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x'.repeat(3 * MB) }],
      },
    },
  ]
    .map((e) => JSON.stringify(e))
    .join('\n') + '\n';

const dir = makeTree({
  'session.jsonl': SESSION,
  'big.jsonl': JSONL,
  'three.jsonl': THREE,
  'crlf.jsonl': THREE.replace(/\n/g, '\r\n'),
  'two.jsonl': [LONG, oneLine(DANGLING), LONG].join('\n'),
  'big.json': lineOf(3 * MB),
  'fits.json': AT_LIMIT,
});
const run = (args: string[]): Promise<CliResult> => spawnCli(args, { cwd: dir, env: ENV });

function noMisreading(r: CliResult): void {
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stdout + r.stderr).not.toMatch(/not UTF-8|invalid byte/);
}

describe('lint', () => {
  it.each(['big.jsonl', 'crlf.jsonl'])(
    '%s: the line over the limit is named with its size and the limit; the others are linted',
    async (name) => {
      const r = await run(['lint', '--format', 'json', name]);
      noMisreading(r);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`${name}: error: ${TOO_LONG_2}\n`);
      const file = parseReport(r.stdout).files[0]!;
      expect(file.error).toEqual({ message: TOO_LONG_2 });
      expect(file.findings.map((f) => [f.ruleId, f.line])).toEqual([['dangling-tool-call', 3]]);
    },
  );

  it('the stylish report says it too, in one line', async () => {
    const r = await run(['lint', 'big.jsonl']);
    noMisreading(r);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(`error  ${TOO_LONG_2}\n`);
    expect(r.stdout).toMatch(/3:\d+ +error .*dangling-tool-call/);
  });

  it('several lines over the limit are all named', async () => {
    const r = await run(['lint', '--format', 'json', 'two.jsonl']);
    noMisreading(r);
    expect(r.code).toBe(2);
    const file = parseReport(r.stdout).files[0]!;
    expect(file.error!.message).toBe(
      'line 1 is 3.0 MB, line 3 is 3.0 MB; the largest JSON text Node can parse is about 2.0 MB',
    );
    expect(file.findings.map((f) => [f.ruleId, f.line])).toEqual([['dangling-tool-call', 2]]);
  });

  it('a JSON file over the limit: its size and the limit', async () => {
    const r = await run(['lint', '--format', 'json', 'big.json', 'fits.json']);
    noMisreading(r);
    expect(r.code).toBe(2);
    const [big, fits] = parseReport(r.stdout).files;
    expect(big!.error).toEqual({
      message: 'the file is 3.0 MB; the largest JSON text Node can parse is about 2.0 MB',
    });
    expect(fits).toMatchObject({ file: 'fits.json', findings: [] });
    expect(fits!.error).toBeUndefined();
  });

  it('standard input is read the same way', async () => {
    const r = await spawnCli(['lint', '--format', 'json', '--stdin-filename', 'in.jsonl', '-'], {
      cwd: dir,
      env: ENV,
      stdin: JSONL,
    });
    noMisreading(r);
    expect(r.code).toBe(2);
    const file = parseReport(r.stdout).files[0]!;
    expect(file.error).toEqual({ message: TOO_LONG_2 });
    expect(file.findings.map((f) => [f.ruleId, f.line])).toEqual([['dangling-tool-call', 3]]);
  });

  it('--fix repairs the other lines and keeps the long one byte for byte', async () => {
    const fixDir = makeTree({ 'big.jsonl': JSONL });
    const file = path.join(fixDir, 'big.jsonl');
    const r = await spawnCli(['lint', '--fix', '--format', 'json', 'big.jsonl'], {
      cwd: fixDir,
      env: ENV,
    });
    noMisreading(r);
    expect(r.code).toBe(2);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(5);
    const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
    expect(sha(lines[1]!)).toBe(sha(LONG));
    expect(lines[0]).toBe(oneLine(CLEAN));
    expect(lines[2]).not.toBe(oneLine(DANGLING));
    expect(lines[3]).toBe(AT_LIMIT);
    expect(parseReport(r.stdout).files[0]!.findings).toEqual([]);
  });
});

describe('the document reader (normalize, sanitize, show, stats)', () => {
  it('normalize: a one-line error naming the line and the limit; the other lines are repaired', async () => {
    const r = await run(['normalize', '--check', 'big.jsonl']);
    noMisreading(r);
    expect(r.code).toBe(2);
    const errors = r.stderr.split('\n').filter((l) => l.includes('error'));
    expect(errors).toEqual([`big.jsonl:2:1: error: ${TOO_LONG_2}`]);
    // --check lists a file with an error by its errors only; the JSON report (below) has every line.
    expect(r.stderr).toContain('0 of 1 file would change, 1 failed');
  });

  it('normalize --report-format json: the line, the message, and the other lines', async () => {
    const r = await run(['normalize', '--report-format', 'json', 'big.jsonl']);
    noMisreading(r);
    expect(r.code).toBe(2);
    // Nothing written to standard output: a file with an unreadable line is not written at all.
    expect(r.stdout).toBe('');
    const report = JSON.parse(r.stderr) as {
      files: { line?: number; changed?: boolean; error?: { message: string; line?: number } }[];
    };
    expect(report.files.map((f) => [f.line, f.changed ?? null, f.error?.message ?? null])).toEqual([
      [1, false, null],
      [2, null, TOO_LONG_2],
      [3, true, null],
      [4, false, null],
    ]);
  });

  it('normalize of a JSON file over the limit: its size and the limit', async () => {
    const r = await run(['normalize', 'big.json']);
    noMisreading(r);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'big.json: error: the file is 3.0 MB; the largest JSON text Node can parse is about 2.0 MB\n',
    );
  });

  it('sanitize and stats name the line too', async () => {
    for (const args of [['sanitize', '--check'], ['stats']]) {
      const r = await run([...args, 'three.jsonl']);
      noMisreading(r);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(TOO_LONG_2);
    }
  });

  it('show --line 3 shows that line; show --line 2 names the limit', async () => {
    const three = await run(['show', '--line', '3', 'big.jsonl']);
    noMisreading(three);
    expect(three.stdout).toContain('tool-call');
    const two = await run(['show', '--line', '2', 'big.jsonl']);
    noMisreading(two);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain(TOO_LONG_2);
  });
});

describe('a session (one conversation over all its lines)', () => {
  const TOO_LONG_3 = /^line 3 is 3\.0 MB; the largest JSON text Node can parse is about 2\.0 MB$/;

  it('lint names the line and reports no finding that the missing line could make false', async () => {
    const r = await run(['lint', '--format', 'json', 'session.jsonl']);
    noMisreading(r);
    expect(r.code).toBe(2);
    const file = parseReport(r.stdout).files[0]!;
    expect(file.error!.message).toMatch(TOO_LONG_3);
    // The call's result is on line 3: without it, "t1 has no result" would be false.
    expect(file.findings).toEqual([]);
  });

  it('normalize, show and --fix say so and change nothing', async () => {
    const fixDir = makeTree({ 'session.jsonl': SESSION });
    for (const args of [['normalize', '--write'], ['show'], ['lint', '--fix']]) {
      const r = await spawnCli([...args, 'session.jsonl'], { cwd: fixDir, env: ENV });
      noMisreading(r);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('line 3 is 3.0 MB; the largest JSON text Node can parse');
      expect(readFileSync(path.join(fixDir, 'session.jsonl'), 'utf8')).toBe(SESSION);
    }
  });
});

describe('in-process', () => {
  const options: TaskOptions = {
    rules: RULES.flatMap((r) =>
      r.meta.defaultSeverity === 'off' ? [] : [[r.meta.id, r.meta.defaultSeverity] as const],
    ) as TaskOptions['rules'],
    pointer: [],
    leavePending: false,
    kind: 'jsonl',
  };

  it('a file cut into ranges names the line by its number in the file', () => {
    setMaxTextBytes(LIMIT);
    expect(maxTextBytes()).toBe(LIMIT);
    const absolute = path.join(dir, 'big.jsonl');
    const cut = Buffer.byteLength(oneLine(CLEAN) + '\n');
    const end = Buffer.byteLength(JSONL);
    const parts = [
      { start: 0, end: cut },
      { start: cut, end },
    ].map((range) => runLintTaskSync({ file: 'big.jsonl', absolute, options, range }));
    const merged = mergeRanges(parts);
    expect(merged.error).toEqual({ message: TOO_LONG_2 });
    expect(merged.findings.map((f) => [f.ruleId, f.line])).toEqual([['dangling-tool-call', 3]]);
  });

  it('readDocument keeps every line; serializing would need the long one, so it refuses', () => {
    setMaxTextBytes(LIMIT);
    const doc = readDocument(Buffer.from(JSONL), 'jsonl');
    expect(doc.lines).toHaveLength(4);
    expect(doc.units.map((u) => [u.line, u.error?.message ?? null])).toEqual([
      [1, null],
      [2, TOO_LONG_2],
      [3, null],
      [4, null],
    ]);
    expect(doc.units[1]!.error).toMatchObject({ line: 2, column: 1 });
    expect(() => serializeDocument(doc, new Map([[2, doc.units[2]!.value!]]))).toThrow(TOO_LONG_2);
  });

  it('without a kind, a text over the limit that is not one JSON value is read as JSONL', () => {
    setMaxTextBytes(LIMIT);
    const doc = readDocument(Buffer.from(JSONL));
    expect(doc.kind).toBe('jsonl');
    expect(doc.units[1]!.error?.message).toBe(TOO_LONG_2);
    expect(() => readDocument(Buffer.from(lineOf(3 * MB)))).toThrow(
      'the file is 3.0 MB; the largest JSON text Node can parse is about 2.0 MB',
    );
  });

  it('the limit is at most the longest string this Node can hold', () => {
    setMaxTextBytes(undefined);
    expect(maxTextBytes()).toBe(2 ** 29 - 24);
    setMaxTextBytes(2 ** 40);
    expect(maxTextBytes()).toBe(2 ** 29 - 24);
  });
});

// A file with a BOM and bad bytes keeps today's answers under the per-line reader too.
describe('per-line reading keeps the other answers', () => {
  it('a BOM is kept; bad bytes are still a positioned not-UTF-8 error', () => {
    setMaxTextBytes(LIMIT);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSONL)]);
    const doc = readDocument(bom, 'jsonl');
    expect(doc.bom).toBe(true);
    expect(doc.units[0]!.value).toEqual(JSON.parse(CLEAN));
    const bad = Buffer.concat([Buffer.from(JSONL), Buffer.from('{"a":"\xff"}\n', 'latin1')]);
    expect(() => readDocument(bad, 'jsonl')).toThrow(
      expect.objectContaining({ message: 'not UTF-8: invalid byte 0xFF', line: 5, column: 7 }),
    );
  });
});

describe('a JSONL file read line by line (over the limit as a whole)', () => {
  it('writes back every unchanged line byte for byte, a BOM that starts a later line too', () => {
    setMaxTextBytes(64);
    const line = '{"version":1,"messages":[]}';
    // Under the limit line by line, over it as a whole: the document is read line by line.
    const bytes = Buffer.concat([
      Buffer.from(`${line}\n`),
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`${line}\r\n${line}\n`),
    ]);
    expect(bytes.length).toBeGreaterThan(maxTextBytes());
    const doc = readDocument(bytes, 'jsonl');
    expect(Buffer.from(serializeDocument(doc, new Map()))).toEqual(bytes);
  });
});
