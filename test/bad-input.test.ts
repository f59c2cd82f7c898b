/**
 * Bad input (SPEC §2 "What counts as a conversation", §5.1, §5.2, §6;
 * SECURITY.md): every input in fixtures/bad/ plus inputs generated here
 * (20,000-deep nesting, a 300 MB string, directories, symlink loops, files
 * that vanish or change between glob and read).
 *
 * - Valid JSON conversations (BOM, exact numbers, lone surrogates, duplicate
 *   keys, `__proto__` keys, deep nesting, a huge string) are processed
 *   losslessly: the output parses back to an equal value, numbers keep their
 *   text, `__proto__` stays an own key, and no prototype is ever polluted.
 * - Everything else (not JSON, not UTF-8, not a conversation, not readable):
 *   `lint` reports a `parse-error` / `not-a-conversation` finding with line
 *   and column (or prints one line and stops); the file operations exit 2
 *   with one line naming the file, leave it byte-identical and still process
 *   the other files of the command.
 * - Never a stack trace, never a hang.
 */
import { spawn } from 'node:child_process';
import {
  closeSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonEqual, parseJson, type JsonObject, type JsonValue } from '../src/model/json.js';
import { ROOT, runCli, spawnCli, type CliResult } from './helpers/cli.js';

const BAD = path.join(ROOT, 'fixtures', 'bad');
const BIN = fileURLToPath(new URL('../bin/histlint.js', import.meta.url));

// ---------------------------------------------------------------------------
// The fixtures and what each must give.

/** Not valid JSON (or not UTF-8): the parse-error position, hand-computed (1-based, UTF-16 columns). */
const NOT_JSON: Record<string, { line: number; column: number | number[] }> = {
  // The string that never ends starts at column 72; its end is column 76.
  'truncated.json': { line: 1, column: [72, 76] },
  // Ends after "},\n": the end of input is line 5, column 1.
  'truncated-after-comma.json': { line: 5, column: 1 },
  // `],}`: the `}` where a property name must follow the comma.
  'trailing-comma-object.json': { line: 4, column: 64 },
  // `},\n  ]`: the `]` where a value must follow the comma.
  'trailing-comma-array.json': { line: 5, column: 3 },
  'empty.json': { line: 1, column: 1 },
  // " \n\t\r\n  \n": the end of input is on line 4.
  'whitespace-only.json': { line: 4, column: 1 },
  // A BOM and nothing else: the end of input, after the BOM.
  'bom-only.json': { line: 1, column: 1 },
  // The first BOM is a BOM; the second is a U+FEFF where a value must be.
  'double-bom.json': { line: 1, column: 1 },
  'utf16le-bom.json': { line: 1, column: 1 },
  'utf16be-bom.json': { line: 1, column: 1 },
  // UTF-16 without a BOM is valid UTF-8 with NUL bytes: `{` then U+0000.
  'utf16le-no-bom.json': { line: 1, column: 2 },
  // "caf" + 0xE9 (latin-1 é) on line 4 after 60 characters.
  'latin1-byte.json': { line: 4, column: 61 },
  // 0xC0 0xAF (an overlong "/") after 72 characters.
  'overlong-utf8.json': { line: 1, column: 73 },
  // 0xED 0xA0 0x80 (a surrogate encoded as UTF-8) after 72 characters.
  'utf8-encoded-surrogate.json': { line: 1, column: 73 },
  // 0xE2 0x82 and then the end of the file.
  'cut-multibyte.json': { line: 1, column: 73 },
  // 512 pseudo-random bytes: not UTF-8 within the first few bytes.
  'random-bytes.json': { line: 1, column: [1, 2, 3, 4, 5, 6, 7, 8] },
  // The PNG signature starts with 0x89.
  'png-header.json': { line: 1, column: 1 },
  'nul-bytes.json': { line: 1, column: 2 },
  'single-quotes.json': { line: 1, column: 2 },
  'comments.json': { line: 1, column: 1 },
  // `{"version":1,"score":` is 21 characters; NaN starts at 22.
  'nan.json': { line: 1, column: 22 },
  // `{"version":0` then `1`.
  'leading-zero.json': { line: 1, column: 13 },
  // A raw U+0001 inside a string.
  'raw-control-char.json': { line: 1, column: 74 },
  // `\x` is not a JSON escape.
  'bad-escape.json': { line: 1, column: 74 },
  // Two documents in one .json file.
  'two-values.json': { line: 2, column: 1 },
  // JSONL: line 1 is fine (a dangling call), line 2 is cut after `"parts":[` (49 characters).
  'bad-lines.jsonl': { line: 2, column: 50 },
};

/** Valid JSON that is not a conversation. */
const NOT_A_CONVERSATION = [
  'not-a-conversation.json',
  'scalar-string.json',
  'scalar-null.json',
  'scalar-number.json',
  'messages-not-an-array.json',
  'parts-not-an-array.json',
  'role-not-a-string.json',
  'part-without-type.json',
  // The shape exists only under a `__proto__` key: an own key, never the prototype.
  'messages-only-in-proto.json',
  'message-only-in-proto.json',
];

/** Valid conversations, each ending in an unanswered call (so normalize must write), with the call's id and name. */
const VALID: Record<string, { id: string; name: string }> = {
  'bom.json': { id: 'call_1', name: 'search' },
  'big-numbers.json': { id: 'call_1', name: 'search' },
  'lone-surrogates.json': { id: 'call_\ud800', name: 'search' },
  'duplicate-keys.json': { id: 'call_1', name: 'search' },
  'proto-keys.json': { id: 'valueOf', name: '__defineGetter__' },
};

/** The file operations and the report key of each. */
const OPERATIONS: { args: string[]; key: string }[] = [
  { args: ['normalize'], key: 'repair' },
  { args: ['sanitize'], key: 'sanitize' },
  { args: ['trim', '--max-messages', '5'], key: 'trim' },
  { args: ['convert', '--to', 'histlint'], key: 'convert' },
];

const INTERRUPTED = 'interrupted before execution; no result was produced';

/**
 * A file every operation changes (except convert to the same format): a
 * system message, 8 messages, an unanswered call at the end. Its name sorts
 * after every fixture and contains none of their names.
 */
const GOOD_NAME = 'zz-good.json';
const GOOD_TEXT =
  JSON.stringify({
    version: 1,
    messages: [
      { role: 'system', parts: [{ type: 'text', text: 'be nice' }] },
      { role: 'user', parts: [{ type: 'text', text: 'q1' }] },
      {
        role: 'assistant',
        parts: [{ type: 'tool-call', id: 'call_1', name: 'search', arguments: '{"q":"a"}' }],
      },
      {
        role: 'tool',
        parts: [
          {
            type: 'tool-result',
            callId: 'call_1',
            name: 'search',
            content: [{ type: 'text', text: 'r1' }],
          },
        ],
      },
      { role: 'user', parts: [{ type: 'text', text: 'q2' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'a2' }] },
      { role: 'user', parts: [{ type: 'text', text: 'q3' }] },
      {
        role: 'assistant',
        parts: [{ type: 'tool-call', id: 'call_2', name: 'search', arguments: '{"q":"b"}' }],
      },
    ],
  }) + '\n';

// ---------------------------------------------------------------------------
// Helpers.

let work: string;
let counter = 0;
const goodOutputs = new Map<string, string>();

/** The prototypes' own keys before any test ran. */
const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
const protoKeysBefore = PROTOTYPES.map((p) => Reflect.ownKeys(p).map(String).sort());

beforeAll(async () => {
  work = realpathSync(mkdtempSync(path.join(tmpdir(), 'histlint-bad-input-')));
  // What each operation makes of the good file on its own.
  const dir = folder({ [GOOD_NAME]: GOOD_TEXT });
  for (const op of OPERATIONS) {
    const r = await runCli([...op.args, GOOD_NAME], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    goodOutputs.set(op.args[0]!, r.stdout);
  }
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A fresh folder holding the given files (text or bytes). */
function folder(files: Record<string, string | Uint8Array> = {}): string {
  const dir = path.join(work, `case-${++counter}`);
  mkdirSync(dir, { recursive: true });
  for (const [rel, data] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), data);
  }
  return dir;
}

/**
 * Checks what a file operation with --write left in the good file of `dir`:
 * its output. (convert to the same format changes nothing; whether it
 * rewrites the file anyway is tested on its own, below.)
 */
function expectGoodWritten(dir: string, op: string): void {
  const text = readFileSync(path.join(dir, GOOD_NAME), 'utf8');
  if (op === 'convert') expect([GOOD_TEXT, goodOutputs.get(op)]).toContain(text);
  else expect(text).toBe(goodOutputs.get(op));
}

/** Escapes a string for a regular expression. */
function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function fixture(name: string): Buffer {
  return readFileSync(path.join(BAD, name));
}

/** No stack trace, no internal error marker of a crash, in any output. */
function expectNoStack(r: CliResult): void {
  for (const text of [r.stdout, r.stderr]) {
    expect(text).not.toMatch(/\n\s+at .+[:(]/);
    expect(text).not.toContain('    at ');
    expect(text).not.toMatch(/\b(TypeError|RangeError|ReferenceError|SyntaxError):/);
  }
}

/** The non-empty lines of a text. */
function lines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() !== '');
}

/** The temp files histlint leaves in a folder (none should be left). */
function tempsIn(dir: string): string[] {
  return readdirSync(dir).filter((n) => /\.histlint-.*\.tmp$/.test(n));
}

/** Parses the JSON report a `--report-format json` run printed on standard error. */
function reportOf(r: CliResult): { files: Record<string, unknown>[] } {
  return JSON.parse(r.stderr) as { files: Record<string, unknown>[] };
}

/** Parses an output file or text the lossless way (a BOM is allowed and skipped). */
function parseOut(text: string): JsonValue {
  return parseJson(text.startsWith('\uFEFF') ? text.slice(1) : text);
}

/** Parses a fixture the lossless way. */
function parseFixture(name: string): JsonValue {
  return parseOut(fixture(name).toString('utf8'));
}

/** The synthesized result normalize adds for one unanswered call. */
function synthesized(id: string, name: string): JsonObject {
  return {
    role: 'tool',
    parts: [
      {
        type: 'tool-result',
        callId: id,
        name,
        content: [{ type: 'text', text: INTERRUPTED }],
      },
    ],
  };
}

/** `value` with one message appended (a structural copy: the input is not changed). */
function withAppended(value: JsonValue, message: JsonObject): JsonValue {
  if (Array.isArray(value)) return [...value, message];
  const obj = value as JsonObject;
  const copy: JsonObject = {};
  for (const key of Object.keys(obj)) {
    Object.defineProperty(copy, key, {
      value: key === 'messages' ? [...(obj.messages as JsonValue[]), message] : obj[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/** Object.prototype and friends still have exactly their own keys, and `({}).polluted` is undefined. */
function expectNoPollution(): void {
  const probe = {} as Record<string, unknown>;
  expect(probe.polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
  expect((Object as unknown as Record<string, unknown>).polluted).toBeUndefined();
  PROTOTYPES.forEach((p, k) => {
    expect(Reflect.ownKeys(p).map(String).sort()).toEqual(protoKeysBefore[k]);
  });
  expect(Object.getPrototypeOf(probe)).toBe(Object.prototype);
}

/** Spawns bin/histlint.js and kills it after `ms`; reports whether it had to be killed. */
function spawnWithTimeout(
  argv: string[],
  cwd: string,
  ms: number,
): Promise<CliResult & { timedOut: boolean; elapsed: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd,
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      // Keep memory bounded if a runaway run prints without end.
      if (stdout.length < 1_000_000) stdout += s;
    });
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      if (stderr.length < 1_000_000) stderr += s;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, ms);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr, timedOut, elapsed: Date.now() - started });
    });
  });
}

// ---------------------------------------------------------------------------

describe('fixtures/bad', () => {
  it('lists every fixture in exactly one table', () => {
    const listed = [...Object.keys(NOT_JSON), ...NOT_A_CONVERSATION, ...Object.keys(VALID)];
    expect(new Set(listed).size).toBe(listed.length);
    expect(readdirSync(BAD).sort()).toEqual([...listed].sort());
  });
});

describe('input that is not valid JSON', () => {
  for (const [name, where] of Object.entries(NOT_JSON)) {
    const columns = Array.isArray(where.column) ? where.column : [where.column];

    it(`${name}: lint reports a parse-error at ${where.line}:${columns.join('|')}`, async () => {
      const dir = folder({ [name]: fixture(name) });
      const r = await runCli(['lint', '--format', 'json', name], { cwd: dir });
      expectNoStack(r);
      expect(r.code, r.stderr).toBe(1);
      const report = JSON.parse(r.stdout) as {
        files: { file: string; findings: { ruleId: string; line: number; column: number }[] }[];
      };
      expect(report.files).toHaveLength(1);
      const errors = report.files[0]!.findings.filter((f) => f.ruleId === 'parse-error');
      expect(errors, JSON.stringify(report.files[0]!.findings)).toHaveLength(1);
      expect(errors[0]!.line).toBe(where.line);
      expect(columns).toContain(errors[0]!.column);

      // The stylish report says the same in one line.
      const human = await runCli(['lint', name], { cwd: dir });
      expectNoStack(human);
      expect(human.code).toBe(1);
      const hit = lines(human.stdout).filter((l) => /parse-error/.test(l));
      expect(hit).toHaveLength(1);
      expect(hit[0]).toMatch(new RegExp(`^\\s*${where.line}:(${columns.join('|')})\\s+error\\s`));
    });
  }
});

describe('valid JSON that is not a conversation', () => {
  for (const name of NOT_A_CONVERSATION) {
    it(`${name}: lint reports not-a-conversation with a line and column`, async () => {
      const dir = folder({ [name]: fixture(name) });
      const r = await runCli(['lint', '--format', 'json', name], { cwd: dir });
      expectNoStack(r);
      expect(r.code, r.stderr).toBe(1);
      const report = JSON.parse(r.stdout) as {
        files: { findings: { ruleId: string; line: number; column: number }[] }[];
      };
      const findings = report.files[0]!.findings;
      const hits = findings.filter((f) => f.ruleId === 'not-a-conversation');
      expect(hits, JSON.stringify(findings)).toHaveLength(1);
      expect(hits[0]!.line).toBeGreaterThanOrEqual(1);
      expect(hits[0]!.column).toBeGreaterThanOrEqual(1);
      expectNoPollution();
    });
  }
});

describe('the file operations refuse what they cannot read, and go on', () => {
  const refused = [...Object.keys(NOT_JSON), ...NOT_A_CONVERSATION];
  for (const op of OPERATIONS) {
    const cmd = op.args.join(' ');
    for (const name of refused) {
      it(`${cmd} --write ${name} ${GOOD_NAME}`, async () => {
        const before = fixture(name);
        const dir = folder({ [name]: before, [GOOD_NAME]: GOOD_TEXT });

        const r = await runCli([...op.args, '--write', name, GOOD_NAME], { cwd: dir });
        expectNoStack(r);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stdout).toBe('');
        // One line says what is wrong with the file, naming it.
        const errorLines = lines(r.stderr).filter((l) =>
          new RegExp(`^${escapeRe(name)}(:\\d+)*: error: `).test(l),
        );
        expect(errorLines, r.stderr).toHaveLength(1);
        expect(errorLines[0]!.startsWith(name), errorLines[0]).toBe(true);
        if (!name.endsWith('.jsonl')) {
          expect(lines(r.stderr).filter((l) => l.includes(name))).toHaveLength(1);
        }
        const where = NOT_JSON[name];
        if (where !== undefined) {
          const columns = Array.isArray(where.column) ? where.column : [where.column];
          expect(errorLines[0]).toMatch(
            new RegExp(`^${escapeRe(name)}:${where.line}:(${columns.join('|')}): `),
          );
        }
        // The file is untouched, nothing is left behind, and the good file was processed.
        expect(readFileSync(path.join(dir, name)).equals(before)).toBe(true);
        expect(tempsIn(dir)).toEqual([]);
        expect(lines(r.stderr).some((l) => l.startsWith(GOOD_NAME))).toBe(true);
        expectGoodWritten(dir, op.args[0]!);

        // The JSON report: an error entry (with line and column for a parse error) and the good entry.
        writeFileSync(path.join(dir, GOOD_NAME), GOOD_TEXT);
        const j = await runCli(
          [...op.args, '--check', '--report-format', 'json', name, GOOD_NAME],
          {
            cwd: dir,
          },
        );
        expectNoStack(j);
        expect(j.code, j.stderr).toBe(2);
        const entries = reportOf(j).files;
        const bad = entries.filter((e) => e.file === name && e.error !== undefined);
        expect(bad, j.stderr).toHaveLength(1);
        const error = bad[0]!.error as { message: string; line?: number; column?: number };
        expect(typeof error.message).toBe('string');
        expect(error.message).not.toContain('\n');
        expect(error.message.length).toBeGreaterThan(0);
        if (where !== undefined) {
          expect(error.column).toBeDefined();
          expect(bad[0]!.line ?? error.line).toBe(where.line);
        }
        const good = entries.filter((e) => e.file === GOOD_NAME);
        expect(good).toHaveLength(1);
        expect(good[0]!.error).toBeUndefined();
        expect(good[0]![op.key]).toBeDefined();
        expect(readFileSync(path.join(dir, name)).equals(before)).toBe(true);
      });
    }
  }

  it('convert to the format it is in is no change: --check exits 0, --write does not rewrite', async () => {
    // SPEC §5.1: "Change" means the operation changed the conversation, not its bytes.
    const dir = folder({ [GOOD_NAME]: GOOD_TEXT });
    const check = await runCli(
      ['convert', '--to', 'histlint', '--check', '--report-format', 'json', GOOD_NAME],
      { cwd: dir },
    );
    expect(reportOf(check).files[0]!.changed).toBe(false);
    expect(check.code, check.stderr).toBe(0);
    const write = await runCli(['convert', '--to', 'histlint', '--write', GOOD_NAME], {
      cwd: dir,
    });
    expect(write.code, write.stderr).toBe(0);
    expect(readFileSync(path.join(dir, GOOD_NAME), 'utf8')).toBe(GOOD_TEXT);
  });

  it('the same from standard input: exit 2, one line naming <stdin> or --stdin-filename', async () => {
    for (const name of ['truncated.json', 'random-bytes.json', 'scalar-null.json']) {
      for (const op of OPERATIONS) {
        const r = await runCli([...op.args, '-', '--stdin-filename', `in/${name}`], {
          stdin: fixture(name),
        });
        expectNoStack(r);
        expect(r.code, `${op.args.join(' ')} ${name}: ${r.stderr}`).toBe(2);
        expect(r.stdout).toBe('');
        expect(lines(r.stderr)).toHaveLength(1);
        expect(r.stderr.startsWith(`in/${name}`)).toBe(true);
      }
    }
  });
});

describe('valid conversations are read and written losslessly', () => {
  for (const [name, call] of Object.entries(VALID)) {
    it(`${name}: normalize --write writes exactly the input plus the synthesized result`, async () => {
      const before = fixture(name);
      const input = parseFixture(name);
      const dir = folder({ [name]: before });
      const r = await runCli(['normalize', '--write', name], { cwd: dir });
      expectNoStack(r);
      expect(r.code, r.stderr).toBe(0);
      const written = readFileSync(path.join(dir, name), 'utf8');
      expect(
        jsonEqual(parseOut(written), withAppended(input, synthesized(call.id, call.name))),
      ).toBe(true);
      // A BOM stays; none is added.
      expect(written.startsWith('\uFEFF')).toBe(before[0] === 0xef);
      // The same bytes go to standard output without --write.
      const out = await runCli(['normalize', name], { cwd: folder({ [name]: before }) });
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toBe(written);
      // Writing it again changes nothing.
      const again = await runCli(['normalize', '--check', name], { cwd: dir });
      expect(again.code, again.stderr).toBe(0);
      expectNoPollution();
    });

    it(`${name}: sanitize, trim and convert keep it as well`, async () => {
      const input = parseFixture(name);
      const repaired = withAppended(input, synthesized(call.id, call.name));
      const dir = folder({ [name]: fixture(name) });
      const expectations: [string[], JsonValue][] = [
        // No system message survives the last-wins reading of duplicate keys, so sanitize = normalize.
        [['sanitize', name], repaired],
        // At most 50 messages: trim returns the history unchanged.
        [['trim', '--max-messages', '50', name], input],
        [['convert', '--to', 'histlint', name], input],
      ];
      for (const [args, expected] of expectations) {
        const r = await runCli(args, { cwd: dir });
        expectNoStack(r);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        expect(jsonEqual(parseOut(r.stdout), expected), `${args.join(' ')}:\n${r.stdout}`).toBe(
          true,
        );
      }
      // lint reads it without a parse-error or not-a-conversation finding.
      const lint = await runCli(['lint', '--format', 'json', name], { cwd: dir });
      expectNoStack(lint);
      const findings = (JSON.parse(lint.stdout) as { files: { findings: { ruleId: string }[] }[] })
        .files[0]!.findings;
      expect(findings.map((f) => f.ruleId)).not.toContain('parse-error');
      expect(findings.map((f) => f.ruleId)).not.toContain('not-a-conversation');
      expectNoPollution();
    });
  }

  it('big-numbers.json: every number is written with its exact source text', async () => {
    const r = await runCli(['normalize', 'big-numbers.json'], {
      cwd: folder({ 'big-numbers.json': fixture('big-numbers.json') }),
    });
    expect(r.code, r.stderr).toBe(0);
    for (const text of [
      '"budget": 12345678901234567890123,',
      '"tiny": 5e-400,',
      '"huge": 1e400,',
      '"negZero": -0,',
      '"oneDotZero": 1.0,',
      '"precise": 0.1000000000000000000001,',
      '"exp": 1E5,',
      '9007199254740993,',
      '-9007199254740993,',
      '1.7976931348623157e309,',
      '4.9e-325,',
      '0.10,',
      '100e-2\n',
      '"tokens": 18446744073709551616,',
      '"score": 3.14159265358979323846264338327950288\n',
    ]) {
      expect(r.stdout).toContain(text);
    }
    expect(r.stdout).not.toMatch(/Infinity|NaN|null/);
  });

  it('lone-surrogates.json: lone surrogates stay escapes, never U+FFFD', async () => {
    const r = await runCli(['normalize', 'lone-surrogates.json'], {
      cwd: folder({ 'lone-surrogates.json': fixture('lone-surrogates.json') }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('\uFFFD');
    const value = JSON.parse(r.stdout) as { messages: { parts: { text: string }[] }[] };
    const texts = value.messages[0]!.parts.map((p) => p.text);
    expect(texts).toEqual([
      'high \ud800 alone',
      'low \udc00 alone',
      'reversed \udc00\ud800 pair',
      'at the end \udbff',
      'a real pair \ud83d\ude00 and escapes \u0000 / "',
    ]);
    expect((value.messages[0] as unknown as Record<string, string>)['\ud800key']).toBe('\udfff');
  });

  it('duplicate-keys.json: the last one wins everywhere, as JSON.parse reads it; lint can report them', async () => {
    const dir = folder({ 'duplicate-keys.json': fixture('duplicate-keys.json') });
    const r = await runCli(['sanitize', '--report-format', 'json', 'duplicate-keys.json'], {
      cwd: dir,
    });
    expect(r.code, r.stdout).toBe(0);
    const out = JSON.parse(r.stdout) as {
      version: number;
      messages: { role: string; parts: { text?: string }[]; meta?: unknown }[];
    };
    const native = JSON.parse(fixture('duplicate-keys.json').toString('utf8')) as typeof out;
    // "role": "system", "role": "user" is a user message for sanitize as for every other reader.
    expect(out.messages[0]!.role).toBe('user');
    expect(out.messages[0]).toEqual(native.messages[0]);
    expect((reportOf(r).files[0]!.sanitize as { systemPrompts: number }).systemPrompts).toBe(0);
    const lint = await runCli(
      ['lint', '--format', 'json', '--rule', 'duplicate-key=warn', 'duplicate-keys.json'],
      { cwd: dir },
    );
    const findings = (
      JSON.parse(lint.stdout) as { files: { findings: { ruleId: string; line: number }[] }[] }
    ).files[0]!.findings.filter((f) => f.ruleId === 'duplicate-key');
    expect(findings.map((f) => f.line)).toEqual([3, 7, 8, 9]);
  });

  it('proto-keys.json: __proto__ stays an own key at every level; nothing is polluted', async () => {
    const dir = folder({ 'proto-keys.json': fixture('proto-keys.json') });
    for (const args of [
      ['normalize'],
      ['sanitize'],
      ['trim', '--max-messages', '3'],
      ['convert', '--to', 'histlint'],
    ]) {
      const r = await runCli([...args, 'proto-keys.json'], { cwd: dir });
      expectNoStack(r);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      // JSON.parse makes `__proto__` an own property too: compare through it.
      const out = JSON.parse(r.stdout) as Record<string, unknown> & {
        messages: Record<string, unknown>[];
      };
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      expect(Object.hasOwn(out, '__proto__')).toBe(true);
      expect(out['__proto__']).toEqual({ polluted: 'envelope' });
      expect(out['constructor']).toEqual({ prototype: { polluted: 'envelope-constructor' } });
      expect(out['prototype']).toEqual({ polluted: 'envelope-prototype' });
      const first = out.messages.find((m) => Object.hasOwn(m, '__proto__'));
      if (args[0] !== 'trim') {
        expect(first, r.stdout).toBeDefined();
        expect(first!.role).toBe('user');
        expect(first!['__proto__']).toEqual({ polluted: 'message', role: 'system' });
        const part = (first!.parts as Record<string, unknown>[])[0]!;
        expect(part.type).toBe('text');
        expect(Object.hasOwn(part, '__proto__')).toBe(true);
        expect(part['__proto__']).toEqual({
          polluted: 'part',
          type: 'image',
          url: 'javascript:alert(1)',
        });
        expect(part['prototype']).toEqual({ polluted: 'part-prototype' });
      }
      // The calls named like Object.prototype members pair like any other id.
      const results = out.messages
        .flatMap((m) => m.parts as Record<string, unknown>[])
        .filter((p) => p.type === 'tool-result')
        .map((p) => p.callId);
      expect(results.slice(0, 3)).toEqual(['__proto__', 'constructor', 'hasOwnProperty']);
      if (args[0] === 'normalize' || args[0] === 'sanitize') expect(results[3]).toBe('valueOf');
      else expect(results).toHaveLength(3);
      expectNoPollution();
    }
    // sanitize drops nothing: the javascript: URL sits in an extra field, not in a media part.
    const s = await runCli(['sanitize', '--report-format', 'json', 'proto-keys.json'], {
      cwd: dir,
    });
    const report = reportOf(s).files[0]!.sanitize as {
      unsafeParts: unknown[];
      systemPrompts: number;
      repair: { dropped: unknown[]; synthesized: { callId: string }[] };
    };
    expect(report.unsafeParts).toEqual([]);
    expect(report.systemPrompts).toBe(0);
    expect(report.repair.dropped).toEqual([]);
    expect(report.repair.synthesized.map((x) => x.callId)).toEqual(['valueOf']);
    // lint reads the same calls as answered.
    const lint = await runCli(['lint', '--format', 'json', 'proto-keys.json'], { cwd: dir });
    const ids = (
      JSON.parse(lint.stdout) as { files: { findings: { ruleId: string; message: string }[] }[] }
    ).files[0]!.findings.filter((f) => f.ruleId === 'dangling-tool-call').map((f) => f.message);
    expect(ids).toHaveLength(1);
    expect(ids[0]).toContain('valueOf');
    expectNoPollution();
  });
});

describe('deep nesting', () => {
  /** A conversation with `depth` nested arrays in an envelope extra field and nested objects in a part extra field. */
  function deepConversation(depth: number): string {
    const arrays = '['.repeat(depth) + '1' + ']'.repeat(depth);
    const objects = '{"a":'.repeat(depth) + 'null' + '}'.repeat(depth);
    return (
      `{"version":1,"deep":${arrays},"messages":[` +
      `{"role":"user","parts":[{"type":"text","text":"hi","deep":${objects}}]},` +
      `{"role":"assistant","parts":[{"type":"tool-call","id":"c1","name":"f","arguments":"{}"}]}]}\n`
    );
  }

  it('1,000 levels are written losslessly by every operation', async () => {
    const text = deepConversation(1000);
    const input = parseJson(text);
    const dir = folder({ 'deep.json': text });
    const repaired = withAppended(input, synthesized('c1', 'f'));
    for (const [args, expected] of [
      [['normalize'], repaired],
      [['sanitize'], repaired],
      [['trim', '--max-messages', '5'], input],
      [['convert', '--to', 'histlint'], input],
    ] as [string[], JsonValue][]) {
      const r = await runCli([...args, 'deep.json'], { cwd: dir });
      expectNoStack(r);
      expect(r.code, r.stderr).toBe(0);
      expect(jsonEqual(parseJson(r.stdout), expected)).toBe(true);
    }
  });

  it('20,000 levels: written losslessly or refused in one line (exit 2); the other files still run', async () => {
    const text = deepConversation(20_000);
    const input = parseJson(text);
    for (const op of OPERATIONS) {
      const dir = folder({ 'deep.json': text, [GOOD_NAME]: GOOD_TEXT });
      const r = await runCli([...op.args, '--write', 'deep.json', GOOD_NAME], { cwd: dir });
      expectNoStack(r);
      const written = readFileSync(path.join(dir, 'deep.json'), 'utf8');
      if (r.code === 2) {
        const mine = lines(r.stderr).filter((l) => l.includes('deep.json'));
        expect(mine, r.stderr).toHaveLength(1);
        expect(mine[0]).toMatch(/^deep\.json\b.*error/);
        expect(written).toBe(text);
      } else {
        expect(r.code, r.stderr).toBe(0);
        const expected =
          op.args[0] === 'normalize' || op.args[0] === 'sanitize'
            ? withAppended(input, synthesized('c1', 'f'))
            : input;
        expect(jsonEqual(parseJson(written), expected)).toBe(true);
      }
      expect(tempsIn(dir)).toEqual([]);
      expectGoodWritten(dir, op.args[0]!);
    }
  });

  it('--check and --write need no output text: 100,000 levels that need no change are "unchanged"', async () => {
    const n = 100_000;
    const text =
      `{"version":1,"x":${'['.repeat(n)}${']'.repeat(n)},` +
      `"messages":[{"role":"user","parts":[{"type":"text","text":"hi"}]}]}`;
    const dir = folder({ 'deep.json': text });
    for (const op of ['normalize', 'sanitize']) {
      for (const how of ['--check', '--write']) {
        const r = await runCli([op, how, 'deep.json'], { cwd: dir });
        expectNoStack(r);
        expect(r.code, `${op} ${how}: ${r.stderr}`).toBe(0);
        // --check lists only what would change, then its summary line.
        expect(r.stderr).toBe(
          how === '--check' ? '0 of 1 file would change\n' : 'deep.json: unchanged\n',
        );
      }
    }
    expect(readFileSync(path.join(dir, 'deep.json'), 'utf8')).toBe(text);
  });

  it('20,000 levels: lint and lint --fix finish, and --fix still fixes the other files', async () => {
    const text = deepConversation(20_000);
    const dir = folder({ 'deep.json': text, [GOOD_NAME]: GOOD_TEXT });
    const r = await runCli(['lint', '--format', 'json', 'deep.json'], { cwd: dir });
    expectNoStack(r);
    expect(r.code, r.stderr).toBe(1);
    const findings = (JSON.parse(r.stdout) as { files: { findings: { ruleId: string }[] }[] })
      .files[0]!.findings;
    expect(findings.map((f) => f.ruleId)).toEqual(['dangling-tool-call']);

    // --fix must write deep.json losslessly or report it in one line, and go on with the next file.
    const fix = await runCli(['lint', '--fix', '--format', 'json', 'deep.json', GOOD_NAME], {
      cwd: dir,
    });
    expectNoStack(fix);
    expect([0, 1, 2]).toContain(fix.code);
    expect(fix.stdout, fix.stderr).not.toBe('');
    const files = (JSON.parse(fix.stdout) as { files: { file: string }[] }).files.map(
      (f) => f.file,
    );
    expect(files).toEqual(['deep.json', GOOD_NAME]);
    expect(readFileSync(path.join(dir, GOOD_NAME), 'utf8')).not.toBe(GOOD_TEXT);
    const deepNow = readFileSync(path.join(dir, 'deep.json'), 'utf8');
    if (deepNow !== text) {
      expect(
        jsonEqual(parseJson(deepNow), withAppended(parseJson(text), synthesized('c1', 'f'))),
      ).toBe(true);
    }
  });

  it('20,000 levels that are not a conversation, or never close, are refused in one line', async () => {
    const cases: Record<string, string> = {
      'arrays.json': '['.repeat(20_000) + ']'.repeat(20_000),
      'objects.json': '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000),
      'unclosed.json': '['.repeat(20_000),
      'messages-deep.json': `{"version":1,"messages":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
    };
    const dir = folder(cases);
    for (const name of Object.keys(cases)) {
      for (const op of OPERATIONS) {
        const r = await runCli([...op.args, '--write', name], { cwd: dir });
        expectNoStack(r);
        expect(r.code, `${op.args[0]} ${name}: ${r.stderr}`).toBe(2);
        expect(lines(r.stderr)).toHaveLength(1);
        expect(r.stderr.startsWith(name)).toBe(true);
        expect(readFileSync(path.join(dir, name), 'utf8')).toBe(cases[name]);
      }
      const lint = await runCli(['lint', '--format', 'json', name], { cwd: dir });
      expectNoStack(lint);
      expect(lint.code, lint.stderr).toBe(1);
      const ids = (
        JSON.parse(lint.stdout) as { files: { findings: { ruleId: string }[] }[] }
      ).files[0]!.findings.map((f) => f.ruleId);
      expect(ids).toEqual([name === 'unclosed.json' ? 'parse-error' : 'not-a-conversation']);
    }
  });
});

describe('a 300 MB string', () => {
  const MiB = 1024 * 1024;
  const COUNT = 300;
  /** 1 MiB of text; the string is 300 of them between « and ». */
  const CHUNK = Buffer.from('abcdefghijklmnop'.repeat(MiB / 16), 'utf8');
  const PREFIX =
    '{"version":1,"conversationId":"big","messages":[{"role":"user","parts":[{"type":"text","text":"';
  const SUFFIX =
    '"}]},{"role":"assistant","parts":[{"type":"tool-call","id":"c1","name":"f","arguments":"{}"}]}]}\n';

  /** Writes the big file with a stream: memory stays at one chunk. */
  async function writeBig(file: string): Promise<void> {
    const out = createWriteStream(file);
    const write = async (data: string | Buffer): Promise<void> => {
      if (!out.write(data)) await once(out, 'drain');
    };
    await write(PREFIX + '«');
    for (let k = 0; k < COUNT; k++) await write(CHUNK);
    out.end('»' + SUFFIX);
    await once(out, 'finish');
  }

  /** Compares a file with a sequence of expected pieces, reading it piece by piece. */
  function expectFileIs(file: string, pieces: Iterable<Buffer>): void {
    const fd = openSync(file, 'r');
    try {
      let position = 0;
      const scratch = Buffer.alloc(MiB);
      for (const piece of pieces) {
        for (let done = 0; done < piece.length;) {
          const want = Math.min(scratch.length, piece.length - done);
          const got = readSync(fd, scratch, 0, want, position);
          expect(got, `short read at byte ${position}`).toBe(want);
          if (!scratch.subarray(0, got).equals(piece.subarray(done, done + got))) {
            throw new Error(`the output differs from the expected bytes near byte ${position}`);
          }
          done += got;
          position += got;
        }
      }
      expect(statSync(file).size).toBe(position);
    } finally {
      closeSync(fd);
    }
  }

  it(
    'is linted, and normalized losslessly in place beside another file',
    { timeout: 600_000 },
    async () => {
      const dir = folder({ [GOOD_NAME]: GOOD_TEXT });
      const big = path.join(dir, 'big.json');
      await writeBig(big);
      expect(statSync(big).size).toBe(PREFIX.length + SUFFIX.length + 4 + COUNT * MiB);

      // What normalize writes, from the same conversation with a placeholder for the string.
      const small = await runCli(['normalize', '-', '--stdin-filename', 'small.json'], {
        stdin: `${PREFIX}@@BIG@@${SUFFIX}`,
      });
      expect(small.code, small.stderr).toBe(0);
      const [head, tail, ...rest] = small.stdout.split('@@BIG@@');
      expect(rest).toEqual([]);

      // lint, in its own process (it must not exhaust memory or hang).
      const lint = await spawnCli(['lint', '--format', 'json', 'big.json'], { cwd: dir });
      expectNoStack(lint);
      expect(lint.code, lint.stderr).toBe(1);
      const findings = (JSON.parse(lint.stdout) as { files: { findings: { ruleId: string }[] }[] })
        .files[0]!.findings;
      expect(findings.map((f) => f.ruleId)).toEqual(['dangling-tool-call']);

      const r = await spawnCli(['normalize', '--write', 'big.json', GOOD_NAME], { cwd: dir });
      expectNoStack(r);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(path.join(dir, GOOD_NAME), 'utf8')).toBe(goodOutputs.get('normalize'));
      expect(tempsIn(dir)).toEqual([]);
      expectFileIs(
        big,
        (function* () {
          yield Buffer.from(head + '«', 'utf8');
          for (let k = 0; k < COUNT; k++) yield CHUNK;
          yield Buffer.from('»' + tail!, 'utf8');
        })(),
      );
      rmSync(big);
    },
  );
});

describe('paths that are not readable files', () => {
  it('a folder among the files (even one named like a file) is walked, as lint walks it', async () => {
    for (const op of OPERATIONS) {
      const dir = folder({ [GOOD_NAME]: GOOD_TEXT, 'folder.json/inner.json': GOOD_TEXT });
      const r = await runCli([...op.args, '--write', 'folder.json', GOOD_NAME], { cwd: dir });
      expectNoStack(r);
      expect(r.code, r.stderr).toBe(0);
      expect(lines(r.stderr).filter((l) => l.startsWith('folder.json/inner.json: '))).toHaveLength(
        1,
      );
      expectGoodWritten(dir, op.args[0]!);
      expect(readFileSync(path.join(dir, 'folder.json/inner.json'), 'utf8')).toBe(
        readFileSync(path.join(dir, GOOD_NAME), 'utf8'),
      );
    }
  });

  it('a folder with no conversation files: one line, exit 2', async () => {
    for (const op of OPERATIONS) {
      const dir = folder({ 'empty/notes.txt': 'hello\n' });
      const r = await runCli([...op.args, '--check', 'empty'], { cwd: dir });
      expectNoStack(r);
      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toContain('empty');
    }
  });

  it('lint of a folder with no conversation files: one line, exit 2', async () => {
    const dir = folder({ 'empty/notes.txt': 'hello\n' });
    const r = await runCli(['lint', 'empty'], { cwd: dir });
    expectNoStack(r);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain('empty');
  });

  it('a missing file named explicitly: one line, exit 2, the other files run', async () => {
    for (const op of OPERATIONS) {
      const dir = folder({ [GOOD_NAME]: GOOD_TEXT });
      const r = await runCli([...op.args, '--write', 'missing.json', GOOD_NAME], { cwd: dir });
      expectNoStack(r);
      expect(r.code, r.stderr).toBe(2);
      const mine = lines(r.stderr).filter((l) => l.includes('missing.json'));
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatch(/^missing\.json: .*error/);
      expect(existsSync(path.join(dir, 'missing.json'))).toBe(false);
      expectGoodWritten(dir, op.args[0]!);
    }
    const dir = folder({ [GOOD_NAME]: GOOD_TEXT });
    const lint = await runCli(['lint', 'missing.json'], { cwd: dir });
    expectNoStack(lint);
    expect(lint.code).toBe(2);
    expect(lines(lint.stderr)).toHaveLength(1);
    expect(lint.stderr).toContain('missing.json');
  });

  it('a symlink to itself and a dangling symlink, named explicitly: one line each, exit 2', async () => {
    for (const op of OPERATIONS) {
      const dir = folder({ [GOOD_NAME]: GOOD_TEXT });
      symlinkSync('self.json', path.join(dir, 'self.json'));
      symlinkSync('nowhere.json', path.join(dir, 'dangling.json'));
      const r = await runCli([...op.args, '--write', 'self.json', 'dangling.json', GOOD_NAME], {
        cwd: dir,
      });
      expectNoStack(r);
      expect(r.code, r.stderr).toBe(2);
      expect(lines(r.stderr).filter((l) => l.includes('self.json'))).toHaveLength(1);
      expect(lines(r.stderr).filter((l) => l.includes('dangling.json'))).toHaveLength(1);
      expectGoodWritten(dir, op.args[0]!);
      expect(existsSync(path.join(dir, 'nowhere.json'))).toBe(false);
    }
  });

  /** A folder with a real file in a subfolder whose symlinks point back up (`ways` of them). */
  function loopFolder(ways: number): string {
    const dir = folder({ [`tree/a.json`]: GOOD_TEXT, [`tree/sub/b.json`]: GOOD_TEXT });
    for (let k = 0; k < ways; k++) symlinkSync('..', path.join(dir, 'tree', 'sub', `up${k}`));
    symlinkSync('loop.json', path.join(dir, 'tree', 'loop.json'));
    return dir;
  }

  it('a symlink loop under a glob: every command terminates without a stack trace', async () => {
    const dir = loopFolder(1);
    for (const args of [
      ['normalize', '--check', 'tree/**/*.json'],
      ['sanitize', '--check', 'tree/**/*.json'],
      ['lint', 'tree/**/*.json'],
      ['lint', 'tree'],
    ]) {
      const r = await spawnWithTimeout(args, dir, 20_000);
      expect(r.timedOut, `${args.join(' ')} did not finish in 20 s`).toBe(false);
      expectNoStack(r);
      expect([0, 1, 2]).toContain(r.code);
      expect(r.stdout + r.stderr).toContain('a.json');
    }
    expect(readFileSync(path.join(dir, 'tree/a.json'), 'utf8')).toBe(GOOD_TEXT);
  });

  it('a symlink loop with several ways back up under a glob: terminates in seconds', async () => {
    // Three links to the parent make the paths through the loop grow as 3^depth.
    const dir = loopFolder(3);
    const commands = [
      ['normalize', '--check', 'tree/**/*.json'],
      ['lint', 'tree/**/*.json'],
      ['lint', 'tree'],
    ];
    const runs = await Promise.all(commands.map((args) => spawnWithTimeout(args, dir, 10_000)));
    const hung = commands.filter((_, k) => runs[k]!.timedOut).map((args) => args.join(' '));
    expect(hung, 'commands that did not finish in 10 s').toEqual([]);
    for (const r of runs) {
      expectNoStack(r);
      expect([0, 1, 2]).toContain(r.code);
    }
  });

  it('a file deleted and one rewritten between glob and read', async () => {
    const files: Record<string, string> = {};
    const names: string[] = [];
    for (let k = 0; k < 120; k++) {
      const name = `f${String(k).padStart(3, '0')}.json`;
      names.push(name);
      files[name] = GOOD_TEXT;
    }
    const dir = folder(files);
    const gone = names[names.length - 2]!;
    const changed = names[names.length - 1]!;
    const NEW_TEXT = fixture('truncated.json');
    let fired = false;
    // When the first file is being written (the glob is expanded by then), pull the rug.
    const watcher = watch(dir, (_event, name) => {
      if (fired || name === null || !/\.histlint-.*\.tmp$/.test(String(name))) return;
      fired = true;
      rmSync(path.join(dir, gone));
      writeFileSync(path.join(dir, changed), NEW_TEXT);
    });
    let r: CliResult;
    try {
      r = await runCli(['normalize', '--write', '--report-format', 'json', 'f*.json'], {
        cwd: dir,
      });
    } finally {
      watcher.close();
    }
    expect(fired).toBe(true);
    expectNoStack(r);
    expect(r.code, r.stderr).toBe(2);
    const entries = reportOf(r).files;
    expect(entries.map((e) => e.file)).toEqual(names);
    for (const e of entries) {
      if (e.file === gone) {
        expect((e.error as { message: string }).message).toMatch(/no such file/);
      } else if (e.file === changed) {
        expect((e.error as { line: number }).line).toBe(1);
      } else {
        expect(e.error, String(e.file)).toBeUndefined();
        expect(readFileSync(path.join(dir, String(e.file)), 'utf8')).toBe(
          goodOutputs.get('normalize'),
        );
      }
    }
    expect(existsSync(path.join(dir, gone))).toBe(false);
    expect(readFileSync(path.join(dir, changed)).equals(NEW_TEXT)).toBe(true);
    expect(tempsIn(dir)).toEqual([]);
  });

  it('a file rewritten between two runs is read afresh', async () => {
    const dir = folder({ 'h.json': GOOD_TEXT });
    const first = await runCli(['normalize', '--write', 'h.json'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(path.join(dir, 'h.json'), fixture('random-bytes.json'));
    const second = await runCli(['normalize', '--write', 'h.json'], { cwd: dir });
    expectNoStack(second);
    expect(second.code).toBe(2);
    expect(readFileSync(path.join(dir, 'h.json')).equals(fixture('random-bytes.json'))).toBe(true);
    writeFileSync(path.join(dir, 'h.json'), GOOD_TEXT);
    const third = await runCli(['normalize', '--write', 'h.json'], { cwd: dir });
    expect(third.code, third.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'h.json'), 'utf8')).toBe(goodOutputs.get('normalize'));
  });
});

describe('standard output closed by its reader', () => {
  // `histlint ... | head`: the reader goes away; the CLI stops without a stack trace.
  it.each([['rules'], ['schema']])('%s stops quietly', async (command) => {
    const child = spawn(process.execPath, [BIN, command], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const [code] = (await once(child, 'close')) as [number | null];
    expect(stderr).toBe('');
    expect(code).not.toBe(1);
  });
});

describe('prototype pollution', () => {
  it('nothing any test here read has reached a prototype', () => {
    expectNoPollution();
  });
});
