/**
 * Garbage in (SPEC §5.2, §6): fast-check properties feed `main` (in-process,
 * through runCli) random bytes, random JSON values, conversation-shaped JSON
 * with wrong types, duplicate and `__proto__` keys, mutated and truncated
 * valid conversations, and JSONL mixes of all of these. For normalize,
 * sanitize, trim, convert and lint, `main` never throws, always returns 0, 1
 * or 2, terminates, prints no stack trace and no internal error, pollutes no
 * prototype, writes valid JSON when it succeeds, and never changes a file it
 * refuses.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../src/model/json.js';
import { conversationArb } from './helpers/arbitraries.js';
import { runCli, type CliResult } from './helpers/cli.js';

/** The commands under test, each with the flags it may get. */
const COMMANDS: { args: string[]; flags: string[][]; writes: boolean }[] = [
  {
    args: ['normalize'],
    flags: [['--report-format', 'json'], ['--leave-pending'], ['--duplicates', 'keep-last']],
    writes: true,
  },
  {
    args: ['sanitize'],
    flags: [
      ['--report-format', 'json'],
      ['--duplicates', 'keep-last'],
    ],
    writes: true,
  },
  {
    args: ['trim', '--max-messages', '5'],
    flags: [['--keep-system'], ['--report-format', 'json']],
    writes: true,
  },
  { args: ['trim', '--max-tokens', '40'], flags: [['--keep-system']], writes: true },
  { args: ['convert', '--to', 'histlint'], flags: [['--report-format', 'json']], writes: true },
  {
    args: ['lint'],
    flags: [
      ['--format', 'json'],
      ['--format', 'sarif'],
      ['--format', 'junit'],
      ['--format', 'github'],
      ['--rule', 'duplicate-key=warn'],
      ['--leave-pending'],
      ['--quiet'],
    ],
    writes: false,
  },
];

/** Flags every command takes. */
const COMMON_FLAGS = [
  ['--pointer', '/messages'],
  ['--pointer', '/a~1b/0'],
  ['--from', 'auto'],
];

/** A command with a random subset of its flags. */
const commandArb = fc
  .tuple(fc.nat(COMMANDS.length - 1), fc.array(fc.nat(20), { maxLength: 3 }))
  .map(([c, picks]) => {
    const cmd = COMMANDS[c]!;
    const pool = [...cmd.flags, ...COMMON_FLAGS];
    // Rarely a pointer: most runs should reach the conversation.
    const flags = [...new Set(picks.map((p) => pool[p % pool.length]!))].filter(
      (f, k) => f[0] !== '--pointer' || k === 0,
    );
    return { cmd, flags: flags.flat() };
  });

// ---------------------------------------------------------------------------
// Text-level JSON builders: they can write duplicate keys and `__proto__`
// keys, which no JavaScript object can hold.

const KEYS = [
  'version',
  'messages',
  'role',
  'parts',
  'type',
  'text',
  'url',
  'data',
  'mediaType',
  'id',
  'callId',
  'name',
  'arguments',
  'content',
  'failed',
  'signature',
  'redacted',
  'runId',
  'conversationId',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
];

const keyArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);

function objectText(entries: [string, string][]): string {
  return '{' + entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',') + '}';
}

const scalarTextArb = fc.oneof(
  fc.jsonValue({ maxDepth: 0 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '12345678901234567890123',
    '5e-400',
    '1e400',
    '-0',
    '1.0',
    '"\\ud800"',
    '"\\udc00x"',
    '""',
    '"call_1"',
    '"javascript:alert(1)"',
    '" HTTPS://x"',
    '"{\\"a\\":"',
    '"{}"',
    'null',
    '[]',
    '{}',
  ),
);

const typeTextArb = fc
  .constantFrom(
    'text',
    'image',
    'document',
    'tool-call',
    'tool-call',
    'tool-result',
    'tool-result',
    'reasoning',
    'audio',
    '',
  )
  .map((t) => JSON.stringify(t));

const roleTextArb = fc
  .constantFrom('system', 'user', 'assistant', 'assistant', 'tool', 'tool', 'developer', '')
  .map((r) => JSON.stringify(r));

const anyTextArb = fc.oneof(
  { weight: 3, arbitrary: scalarTextArb },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
);

/** Key-value pairs that make parts pair up, drop, or fail in interesting ways. */
const meaningfulEntryArb: fc.Arbitrary<[string, string]> = fc.constantFrom<[string, string]>(
  ['id', '"call_1"'],
  ['id', '"call_2"'],
  ['id', '"__proto__"'],
  ['callId', '"call_1"'],
  ['callId', '"call_2"'],
  ['callId', '"__proto__"'],
  ['name', '"search"'],
  ['arguments', '"{}"'],
  ['arguments', '"{\\"a\\":"'],
  ['url', '"javascript:alert(1)"'],
  ['url', '" HTTPS://example.com/x"'],
  ['url', '"java\\tscript:x"'],
  ['data', '"iVBORw0KGgo="'],
  ['content', '[]'],
  ['content', '[{"type":"image","url":"file:///etc/passwd"},{"type":"text","text":"r"}]'],
  ['content', '"not an array"'],
  ['text', '"hi"'],
  ['failed', 'true'],
);

/** A part-ish object: the real keys with values of the right or wrong type. */
const partTextArb: fc.Arbitrary<string> = fc
  .tuple(
    typeTextArb,
    fc.array(
      fc.oneof(
        { weight: 3, arbitrary: meaningfulEntryArb },
        {
          weight: 2,
          arbitrary: fc.tuple(
            keyArb,
            fc.oneof(
              anyTextArb,
              typeTextArb,
              fc.array(anyTextArb, { maxLength: 2 }).map((xs) => `[${xs.join(',')}]`),
              fc
                .array(
                  fc.tuple(
                    fc.constantFrom('type', 'url', 'text'),
                    fc.oneof(typeTextArb, anyTextArb),
                  ),
                  { maxLength: 3 },
                )
                .map((es) => `[${objectText(es)}]`),
            ),
          ),
        },
      ),
      { maxLength: 5 },
    ),
    fc.boolean(),
  )
  .map(([type, rest, typeFirst]) =>
    objectText(typeFirst ? [['type', type], ...rest] : [...rest, ['type', type]]),
  );

const partsTextArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.array(partTextArb, { maxLength: 4 }).map((ps) => `[${ps.join(',')}]`),
  },
  { weight: 1, arbitrary: anyTextArb },
);

const messageTextArb = fc
  .tuple(
    fc.oneof({ weight: 5, arbitrary: roleTextArb }, { weight: 1, arbitrary: anyTextArb }),
    partsTextArb,
    fc.array(fc.tuple(keyArb, anyTextArb), { maxLength: 3 }),
  )
  .map(([role, parts, extra]) =>
    objectText([['role', role], ['parts', parts], ...extra] as [string, string][]),
  );

/** Conversation-shaped JSON text with wrong types, duplicate keys and `__proto__` keys. */
const shapedTextArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(
      fc.oneof({ weight: 6, arbitrary: messageTextArb }, { weight: 1, arbitrary: anyTextArb }),
      {
        maxLength: 6,
      },
    ),
    fc.constantFrom('envelope', 'bare', 'proto', 'wrong-version'),
    fc.array(fc.tuple(keyArb, anyTextArb), { maxLength: 2 }),
  )
  .map(([messages, shape, extra]) => {
    const list = `[${messages.join(',')}]`;
    switch (shape) {
      case 'bare':
        return list;
      case 'proto':
        return objectText([
          ['version', '1'],
          ['__proto__', objectText([['messages', list]])],
          ...extra,
        ]);
      case 'wrong-version':
        return objectText([['version', '"1"'], ['messages', list], ...extra]);
      default:
        return objectText([['version', '1'], ...extra, ['messages', list]]);
    }
  });

/** A valid conversation's text (2-space or compact). */
const validTextArb = fc
  .tuple(conversationArb(), fc.constantFrom(0, 2))
  .map(([v, indent]) => stringifyJson(v, indent));

/** Text edits that break JSON in the ways real files break. */
const mutationArb = fc.record({
  kind: fc.constantFrom('delete', 'insert', 'replace', 'duplicate', 'swap'),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  length: fc.nat(12),
  text: fc.oneof(
    fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"',
      '\\',
      '\\u',
      '\\ud800',
      'null',
      '0',
      '-',
      'e',
      '\u0000',
      '\n',
      '\r\n',
      '\ufeff',
      '"__proto__":',
      ' ',
    ),
    fc.string({ maxLength: 4 }),
  ),
});

function mutate(
  text: string,
  mutations: { kind: string; at: number; length: number; text: string }[],
): string {
  let out = text;
  for (const m of mutations) {
    const at = Math.floor(m.at * out.length);
    switch (m.kind) {
      case 'delete':
        out = out.slice(0, at) + out.slice(at + m.length);
        break;
      case 'insert':
        out = out.slice(0, at) + m.text + out.slice(at);
        break;
      case 'replace':
        out = out.slice(0, at) + m.text + out.slice(at + Math.max(1, m.text.length));
        break;
      case 'duplicate':
        out = out.slice(0, at + m.length) + out.slice(at, at + m.length) + out.slice(at + m.length);
        break;
      default: {
        const b = Math.floor(((m.at * 7919) % 1) * out.length);
        const [x, y] = at < b ? [at, b] : [b, at];
        out =
          out.slice(0, x) +
          out.slice(y, y + 1) +
          out.slice(x + 1, y) +
          out.slice(x, x + 1) +
          out.slice(y + 1);
      }
    }
  }
  return out;
}

/** Replaces or removes one value somewhere inside a valid conversation: still JSON, maybe not a conversation. */
const valueMutatedTextArb = fc
  .tuple(validTextArb, fc.nat(), fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }))
  .map(([text, pick, replacement]) => {
    const root = JSON.parse(text) as unknown;
    // Every container slot, found without recursion.
    const slots: [Record<string, unknown> | unknown[], string | number][] = [];
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const v = stack.pop();
      if (Array.isArray(v)) v.forEach((x, k) => (slots.push([v, k]), stack.push(x)));
      else if (typeof v === 'object' && v !== null) {
        for (const [k, x] of Object.entries(v)) {
          slots.push([v as Record<string, unknown>, k]);
          stack.push(x);
        }
      }
    }
    if (slots.length === 0) return text;
    const [container, key] = slots[pick % slots.length]!;
    if (replacement !== undefined)
      (container as Record<string | number, unknown>)[key] = replacement;
    else if (Array.isArray(container)) container.splice(key as number, 1);
    else delete container[key as string];
    return JSON.stringify(root);
  });

const textMutatedArb = fc
  .tuple(
    fc.oneof(validTextArb, shapedTextArb),
    fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
  )
  .map(([t, ms]) => mutate(t, ms));

const mutatedTextArb = fc.oneof(textMutatedArb, valueMutatedTextArb);

const truncatedTextArb = fc
  .tuple(fc.oneof(validTextArb, shapedTextArb), fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([t, f]) => t.slice(0, Math.floor(t.length * f)));

/** Several texts as JSONL, with LF or CRLF line ends and blank lines. */
const jsonlTextArb = fc
  .tuple(
    fc.array(
      fc.oneof(
        { weight: 3, arbitrary: validTextArb.map((t) => stringifyJson(parseJson(t), 0)) },
        { weight: 1, arbitrary: shapedTextArb },
        { weight: 1, arbitrary: truncatedTextArb.map((t) => t.replace(/[\r\n]/g, ' ')) },
        { weight: 1, arbitrary: fc.constantFrom('', '   ', '\t') },
      ),
      { maxLength: 5 },
    ),
    fc.constantFrom('\n', '\r\n'),
    fc.boolean(),
  )
  .map(([lines, eol, finalEol]) => lines.join(eol) + (finalEol ? eol : ''));

/** Bytes around a text: a UTF-8 BOM, a UTF-16 encoding, stray bytes. */
function encode(text: string, how: string): Uint8Array {
  switch (how) {
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'stray':
      return Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([0xc3])]);
    default:
      return Buffer.from(text, 'utf8');
  }
}

const encodingArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant('utf8') },
  { weight: 1, arbitrary: fc.constantFrom('bom', 'utf16le', 'stray') },
);

// ---------------------------------------------------------------------------

let work: string;
let fileCounter = 0;
const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
const protoKeysBefore = PROTOTYPES.map((p) => Reflect.ownKeys(p).map(String).sort());

beforeAll(() => {
  work = realpathSync(mkdtempSync(path.join(tmpdir(), 'histlint-garbage-')));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function expectNoPollution(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  PROTOTYPES.forEach((p, k) =>
    expect(Reflect.ownKeys(p).map(String).sort()).toEqual(protoKeysBefore[k]),
  );
}

/** Runs `main`, failing (instead of hanging) when it takes more than 20 s. */
async function run(argv: string[], options: Parameters<typeof runCli>[1]): Promise<CliResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`histlint ${argv.join(' ')} did not finish in 20 s`)),
      20_000,
    );
  });
  try {
    return await Promise.race([runCli(argv, options), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What every run must give, whatever the input. */
function expectSane(r: CliResult, argv: string[]): void {
  const context = `histlint ${JSON.stringify(argv)}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`;
  expect([0, 1, 2], context).toContain(r.code);
  for (const text of [r.stdout, r.stderr]) {
    expect(text, context).not.toContain('    at ');
    expect(text, context).not.toMatch(/\b(TypeError|RangeError|ReferenceError|SyntaxError)\b/);
    expect(text, context).not.toContain('internal error');
  }
}

/** Checks a transform's standard output: valid JSON (or JSONL lines) when it wrote one. */
function expectValidOutput(r: CliResult, kind: 'json' | 'jsonl', argv: string[]): void {
  if (r.stdout === '') return;
  const text = r.stdout.startsWith('\uFEFF') ? r.stdout.slice(1) : r.stdout;
  if (kind === 'json') expect(() => parseJson(text), argv.join(' ')).not.toThrow();
  else {
    for (const line of text.split('\n')) {
      if (line.trim() !== '') expect(() => parseJson(line), argv.join(' ')).not.toThrow();
    }
  }
}

/** Runs one command on `bytes` from standard input under a name that picks JSON, JSONL or a guess. */
async function checkStdin(
  bytes: Uint8Array,
  pick: { cmd: (typeof COMMANDS)[number]; flags: string[] },
  name: 'x.json' | 'x.jsonl' | undefined,
): Promise<void> {
  const argv = [...pick.cmd.args, '-', ...pick.flags];
  if (name !== undefined) argv.push('--stdin-filename', name);
  const r = await run(argv, { stdin: bytes, cwd: work });
  expectSane(r, argv);
  if (r.code === 2) expect(r.stderr, argv.join(' ')).not.toBe('');
  if (pick.cmd.writes && r.code !== 2 && name !== undefined && !argv.includes('--pointer')) {
    expectValidOutput(r, name === 'x.jsonl' ? 'jsonl' : 'json', argv);
  }
}

const nameArb = fc.constantFrom<'x.json' | 'x.jsonl' | undefined>(
  'x.json',
  'x.json',
  'x.jsonl',
  undefined,
);

describe('garbage in: main never throws, exits 0/1/2, prints no stack trace', () => {
  it('random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        commandArb,
        nameArb,
        async (bytes, pick, name) => {
          await checkStdin(bytes, pick, name);
        },
      ),
      { numRuns: 250 },
    );
    expectNoPollution();
  });

  it('random JSON values', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
        encodingArb,
        commandArb,
        nameArb,
        async (text, how, pick, name) => {
          await checkStdin(encode(text, how), pick, name);
        },
      ),
      { numRuns: 250 },
    );
    expectNoPollution();
  });

  it('conversation-shaped JSON with wrong types, duplicate keys and __proto__ keys', async () => {
    await fc.assert(
      fc.asyncProperty(
        shapedTextArb,
        encodingArb,
        commandArb,
        nameArb,
        async (text, how, pick, name) => {
          await checkStdin(encode(text, how), pick, name);
        },
      ),
      { numRuns: 400 },
    );
    expectNoPollution();
  });

  it('valid conversations: every operation succeeds (0 or 1) and writes JSON', async () => {
    await fc.assert(
      fc.asyncProperty(validTextArb, commandArb, async (text, pick) => {
        const argv = [...pick.cmd.args, '-', '--stdin-filename', 'x.json', ...pick.flags];
        const r = await run(argv, { stdin: text, cwd: work });
        expectSane(r, argv);
        if (!argv.includes('--pointer')) {
          // Only trim may refuse (exit 1: nothing left); lint exits 1 for findings.
          expect(r.code, `${argv.join(' ')}\n${r.stderr}`).not.toBe(2);
          if (pick.cmd.writes) expectValidOutput(r, 'json', argv);
        }
      }),
      { numRuns: 300 },
    );
    expectNoPollution();
  });

  it('mutated valid conversations', async () => {
    await fc.assert(
      fc.asyncProperty(
        mutatedTextArb,
        encodingArb,
        commandArb,
        nameArb,
        async (text, how, pick, name) => {
          await checkStdin(encode(text, how), pick, name);
        },
      ),
      { numRuns: 400 },
    );
    expectNoPollution();
  });

  it('truncated texts', async () => {
    await fc.assert(
      fc.asyncProperty(truncatedTextArb, commandArb, nameArb, async (text, pick, name) => {
        await checkStdin(encode(text, 'utf8'), pick, name);
      }),
      { numRuns: 300 },
    );
    expectNoPollution();
  });

  it('JSONL mixes of good, shaped and truncated lines', async () => {
    await fc.assert(
      fc.asyncProperty(jsonlTextArb, encodingArb, commandArb, async (text, how, pick) => {
        await checkStdin(encode(text, how), pick, 'x.jsonl');
      }),
      { numRuns: 300 },
    );
    expectNoPollution();
  });

  it('--write on a file: a refused file keeps its bytes; a written one is valid JSON', async () => {
    const inputArb = fc.oneof(validTextArb, shapedTextArb, mutatedTextArb, truncatedTextArb);
    const writers = COMMANDS.filter((c) => c.writes);
    await fc.assert(
      fc.asyncProperty(
        inputArb,
        encodingArb,
        fc.nat(writers.length - 1),
        fc.constantFrom('json', 'jsonl'),
        async (text, how, c, ext) => {
          const name = `g${++fileCounter}.${ext}`;
          const file = path.join(work, name);
          const bytes = encode(ext === 'jsonl' ? text.replace(/\r?\n/g, ' ') : text, how);
          writeFileSync(file, bytes);
          const argv = [...writers[c]!.args, '--write', name];
          const r = await run(argv, { cwd: work });
          expectSane(r, argv);
          const after = readFileSync(file);
          if (r.code === 2) {
            expect(Buffer.from(after).equals(Buffer.from(bytes)), argv.join(' ')).toBe(true);
            expect(r.stderr.startsWith(name), r.stderr).toBe(true);
          } else if (!Buffer.from(after).equals(Buffer.from(bytes))) {
            const out = after.toString('utf8').replace(/^\uFEFF/, '');
            for (const unit of ext === 'json' ? [out] : out.split(/\r?\n/)) {
              if (unit.trim() !== '') expect(() => parseJson(unit)).not.toThrow();
            }
          }
          rmSync(file);
        },
      ),
      { numRuns: 250 },
    );
    expectNoPollution();
  });

  it('every command on the same garbage terminates with 0, 1 or 2', async () => {
    const inputArb = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
      shapedTextArb.map((t) => Buffer.from(t)),
      mutatedTextArb.map((t) => Buffer.from(t)),
    );
    await fc.assert(
      fc.asyncProperty(inputArb, async (bytes) => {
        for (const cmd of COMMANDS) {
          await checkStdin(bytes, { cmd, flags: [] }, 'x.json');
        }
        for (const args of [['show'], ['stats']]) {
          const argv = [...args, '-', '--stdin-filename', 'x.json'];
          const r = await run(argv, { stdin: bytes, cwd: work });
          expectSane(r, argv);
        }
      }),
      { numRuns: 100 },
    );
    expectNoPollution();
  });
});
