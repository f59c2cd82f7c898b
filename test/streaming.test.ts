/**
 * Every command streams JSONL (issue 18, item 4; SPEC §6): normalize, sanitize, trim, convert,
 * stats and show read a JSONL file of one conversation per line line by line and write it line
 * by line, so a file many times the heap is processed with the heap a small file needs, and
 * gives what the same lines give in a small file (unchanged lines byte for byte). A file that
 * fails part-way writes nothing. The stream readers agree with the whole-file reader on any
 * bytes, however the stream cuts them. Spawns bin/histlint.js (built by `npm run build`) with a
 * small `--max-old-space-size`.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli, type CliResult } from './helpers/cli.js';
import { makeTree, removeTrees } from './helpers/lint-fixtures.js';
import {
  guessKind,
  JsonlReader,
  KindProbe,
  readDocument,
  type SourceUnit,
} from '../src/formats/kit/document.js';
import { setMaxTextBytes } from '../src/model/text-limit.js';

afterAll(removeTrees);

// Well under what the big file needs when read whole (that run dies of heap exhaustion), well
// over what one line and the program need.
const HEAP = { NODE_OPTIONS: '--max-old-space-size=48' };
const OUT_OF_MEMORY = /heap out of memory|Allocation failed|Reached heap limit/i;
const STACK = /^ {4}at /m;

const FILLER = 'lorem ipsum dolor é 日本 '.repeat(80);
const text = (t: string): object => ({ type: 'text', text: t });

/**
 * A block of 101 lines (one blank) of about 2.4 KB each: line 18 holds a dangling call, line 54
 * a system message, line 72 nine messages; some lines end in CRLF, some hold a number a new
 * serialization would write differently (`1.0`).
 */
function block(): string {
  const lines: string[] = [];
  for (let i = 0; i < 100; i++) {
    let messages: object[];
    if (i === 17)
      messages = [
        { role: 'user', parts: [text(`find ${FILLER}`)] },
        {
          role: 'assistant',
          parts: [{ type: 'tool-call', id: 'c1', name: 'search', arguments: '{}' }],
        },
      ];
    else if (i === 53)
      messages = [
        { role: 'system', parts: [text('secret')] },
        { role: 'user', parts: [text(FILLER)] },
      ];
    else if (i === 71)
      messages = Array.from({ length: 9 }, (_, k) => ({
        role: k % 2 === 1 ? 'assistant' : 'user',
        parts: [text(`turn ${k} ${FILLER.slice(0, 200)}`)],
      }));
    else
      messages = [
        { role: 'user', parts: [text(`q${i} ${FILLER}`)] },
        { role: 'assistant', parts: [text('a')] },
      ];
    let line = JSON.stringify({ version: 1, messages });
    if (i % 10 === 3) line = line.replace('"version":1', '"version":1,"x-temp":1.0');
    lines.push(line + (i % 7 === 0 ? '\r\n' : '\n'));
    if (i === 40) lines.push('\n');
  }
  return lines.join('');
}

const BLOCK = block();
const BLOCK_LINES = 101;
// About 29 MB.
const COPIES = 120;
const BIG = BLOCK.repeat(COPIES);

/** A run that finished on its own: no heap exhaustion, no stack. */
function finished(r: CliResult, code = 0): CliResult {
  expect(r.stderr).not.toMatch(OUT_OF_MEMORY);
  expect(r.stderr).not.toMatch(STACK);
  expect(r.code, r.stderr.slice(0, 2000)).toBe(code);
  return r;
}

interface Entry {
  file: string;
  line?: number;
  changed?: boolean;
  error?: { message: string };
  [key: string]: unknown;
}

function entriesOf(stderr: string): Entry[] {
  return (JSON.parse(stderr) as { files: Entry[] }).files;
}

/** The entries of the small file, as they stand for copy `k` of the block in the big one. */
function shifted(entries: readonly Entry[], k: number, file: string): Entry[] {
  return entries.map((e) => ({
    ...e,
    file,
    ...(e.line === undefined ? {} : { line: e.line + k * BLOCK_LINES }),
  }));
}

/** What `show --format json` prints. */
interface Shown {
  conversations: (Entry & { findings: { line: number }[] })[];
}

/** {@link shifted} for shown conversations: their findings' lines too. */
function shiftedShown(shown: Shown['conversations'], k: number, file: string): unknown[] {
  return shifted(shown, k, file).map((c) => ({
    ...c,
    findings: (c.findings as { line: number }[]).map((f) => ({
      ...f,
      line: f.line + k * BLOCK_LINES,
    })),
  }));
}

/** The lines of JSONL bytes with their line ends. */
function linesOf(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let start = 0; start < bytes.length;) {
    const nl = bytes.indexOf(10, start);
    const end = nl === -1 ? bytes.length : nl + 1;
    out.push(bytes.subarray(start, end));
    start = end;
  }
  return out;
}

describe('a JSONL file larger than the heap would allow if read whole', () => {
  const dir = makeTree({ 'small.jsonl': BLOCK, 'big.jsonl': BIG });

  it.each([
    [['normalize'], 'repair'],
    [['sanitize'], 'sanitize'],
    [['trim', '--max-messages', '4'], 'trim'],
    [['convert', '--to', 'openai-chat', '--lossy'], 'convert'],
  ])('%s: the output and report of the same lines in a small file', async (args, key) => {
    const small = finished(
      await spawnCli([...args, '--report-format', 'json', 'small.jsonl', '-o', `small-${key}`], {
        cwd: dir,
      }),
    );
    const smallOut = readFileSync(path.join(dir, `small-${key}`));
    const smallEntries = entriesOf(small.stderr);
    // The block has lines that change and lines that do not, and the unchanged ones are
    // written as they were read.
    const changed = smallEntries.filter((e) => e.changed === true).length;
    expect(changed).toBeGreaterThan(0);
    const inputLines = linesOf(Buffer.from(BLOCK)).filter((l) => l.toString().trim() !== '');
    const outputLines = linesOf(smallOut).filter((l) => l.toString().trim() !== '');
    expect(outputLines).toHaveLength(inputLines.length);
    smallEntries.forEach((e, k) => {
      if (e.changed === false) expect(outputLines[k]!.equals(inputLines[k]!)).toBe(true);
      else expect(outputLines[k]!.equals(inputLines[k]!)).toBe(false);
    });

    const big = finished(
      await spawnCli([...args, '--report-format', 'json', 'big.jsonl', '-o', `big-${key}`], {
        cwd: dir,
        env: HEAP,
      }),
    );
    const bigOut = readFileSync(path.join(dir, `big-${key}`));
    expect(bigOut.length).toBe(smallOut.length * COPIES);
    expect(bigOut.equals(Buffer.concat(Array.from({ length: COPIES }, () => smallOut)))).toBe(true);
    const bigEntries = entriesOf(big.stderr);
    expect(bigEntries).toHaveLength(smallEntries.length * COPIES);
    for (const k of [0, 1, COPIES - 1])
      expect(bigEntries.slice(k * smallEntries.length, (k + 1) * smallEntries.length)).toEqual(
        shifted(smallEntries, k, 'big.jsonl'),
      );
  });

  it('stats: the counts of the small file, times the copies', async () => {
    const run = async (file: string, env?: Record<string, string>): Promise<unknown> =>
      JSON.parse(
        finished(await spawnCli(['stats', '--format', 'json', file], { cwd: dir, env })).stdout,
      );
    const small = (await run('small.jsonl')) as { total: Record<string, unknown> };
    const big = (await run('big.jsonl', HEAP)) as { total: Record<string, unknown> };
    const times = (v: unknown): unknown =>
      typeof v === 'number'
        ? v * COPIES
        : typeof v === 'object' && v !== null
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, times(x)]))
          : v;
    expect(small.total.conversations).toBe(100);
    expect(big.total).toEqual({ ...(times(small.total) as object), file: 'total' });
    expect(big.total.bytes).toBe(Buffer.byteLength(BIG));
  });

  it('show: the conversations of the small file, on their lines', async () => {
    const small = finished(
      await spawnCli(['show', '--format', 'json', 'small.jsonl'], { cwd: dir }),
    );
    const big = finished(
      await spawnCli(['show', '--format', 'json', 'big.jsonl'], { cwd: dir, env: HEAP }),
    );
    const smallShown = (JSON.parse(small.stdout) as Shown).conversations;
    const bigShown = (JSON.parse(big.stdout) as Shown).conversations;
    expect(smallShown).toHaveLength(100);
    expect(smallShown.some((c) => (c.errorCount as number) > 0)).toBe(true);
    expect(bigShown).toHaveLength(100 * COPIES);
    for (const k of [0, 57, COPIES - 1])
      expect(bigShown.slice(k * 100, (k + 1) * 100)).toEqual(
        shiftedShown(smallShown, k, 'big.jsonl'),
      );
  });

  it('--write of a file with nothing to change only reads it', async () => {
    const file = path.join(dir, 'big.jsonl');
    const before = statSync(file);
    const r = finished(
      await spawnCli(['trim', '--max-messages', '100', '--write', 'big.jsonl'], {
        cwd: dir,
        env: HEAP,
      }),
    );
    expect(r.stderr).not.toMatch(/: changed/);
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(readdirSync(dir).filter((n) => n.includes('.histlint'))).toEqual([]);
  });
});

describe('standard input is read as it arrives', () => {
  const dir = makeTree({ 'small.jsonl': BLOCK });

  it.each([[['--stdin-filename', 'in.jsonl']], [[]]])(
    'normalize %s: the output of the same lines in a small file',
    async (naming) => {
      const small = finished(await spawnCli(['normalize', ...naming], { cwd: dir, stdin: BLOCK }));
      expect(small.stdout).not.toBe(BLOCK);
      const big = finished(
        await spawnCli(['normalize', '--report-format', 'json', ...naming], {
          cwd: dir,
          stdin: BIG,
          env: HEAP,
        }),
      );
      expect(big.stdout.length).toBe(small.stdout.length * COPIES);
      expect(big.stdout === small.stdout.repeat(COPIES)).toBe(true);
      expect(entriesOf(big.stderr)).toHaveLength(100 * COPIES);
    },
  );

  it('show: the conversations of the file', async () => {
    const file = finished(
      await spawnCli(['show', '--format', 'json', 'small.jsonl'], { cwd: dir }),
    );
    const piped = finished(
      await spawnCli(['show', '--format', 'json', '--stdin-filename', 'small.jsonl'], {
        cwd: dir,
        stdin: BIG,
        env: HEAP,
      }),
    );
    const fileShown = (JSON.parse(file.stdout) as Shown).conversations;
    const pipedShown = (JSON.parse(piped.stdout) as Shown).conversations;
    expect(pipedShown).toHaveLength(100 * COPIES);
    for (const k of [0, COPIES - 1])
      expect(pipedShown.slice(k * 100, (k + 1) * 100)).toEqual(
        shiftedShown(fileShown, k, 'small.jsonl'),
      );
  });
});

describe('a line that fails in the middle of a big file', () => {
  const broken = (): string => {
    const lines = BIG.split('\n');
    lines[6000] = '{"version":1,"messages":[';
    return lines.join('\n');
  };

  it('--write: that file untouched, no temp file, the other files written', async () => {
    const bad = broken();
    const dir = makeTree({ 'a.jsonl': BLOCK, 'bad.jsonl': bad, 'c.jsonl': BLOCK });
    const r = finished(
      await spawnCli(
        ['normalize', '--write', '--report-format', 'json', 'a.jsonl', 'bad.jsonl', 'c.jsonl'],
        { cwd: dir, env: HEAP },
      ),
      2,
    );
    expect(readFileSync(path.join(dir, 'bad.jsonl'), 'utf8') === bad).toBe(true);
    for (const name of ['a.jsonl', 'c.jsonl'])
      expect(readFileSync(path.join(dir, name), 'utf8')).not.toBe(BLOCK);
    expect(readdirSync(dir).sort()).toEqual(['a.jsonl', 'bad.jsonl', 'c.jsonl']);
    const errors = entriesOf(r.stderr).filter((e) => e.error !== undefined);
    expect(errors.map((e) => [e.file, e.line])).toEqual([['bad.jsonl', 6001]]);
  });

  it('standard output and -o: nothing of it appears', async () => {
    const dir = makeTree({ 'bad.jsonl': broken() });
    const printed = finished(await spawnCli(['sanitize', 'bad.jsonl'], { cwd: dir, env: HEAP }), 2);
    expect(printed.stdout).toBe('');
    expect(printed.stderr).toMatch(/bad\.jsonl:6001:\d+: error: /);
    expect(printed.stderr).toMatch(/would change \(not written: the file has errors\)/);
    finished(await spawnCli(['sanitize', 'bad.jsonl', '-o', 'out.jsonl'], { cwd: dir }), 2);
    expect(readdirSync(dir)).toEqual(['bad.jsonl']);
  });
});

describe('the stream readers agree with the whole-file reader', () => {
  /** JSONL-ish text: JSON lines, blanks, CRLF, BOMs, broken lines and bytes that are not UTF-8. */
  const pieces = fc.array(
    fc.oneof(
      fc.constantFrom('{"a":1}', '[1,2]', '"x"', '{"a":', ' ', '\t', '\r', '\uFEFF', '\u00A0', 'é'),
      fc.constantFrom('\n', '\r\n', '\n\n'),
      fc.constantFrom(new Uint8Array([0xff]), new Uint8Array([0xc3]), new Uint8Array([0xef, 0xbb])),
      fc.json({ maxDepth: 1 }),
    ),
    { maxLength: 14 },
  );
  const bytesOf = (parts: (string | Uint8Array)[]): Buffer =>
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
  /** `bytes` cut at the given offsets. */
  const cut = (bytes: Buffer, cuts: number[]): Buffer[] => {
    const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
    const out: Buffer[] = [];
    let from = 0;
    for (const c of [...at, bytes.length]) {
      out.push(bytes.subarray(from, c));
      from = c;
    }
    return out;
  };
  const shape = (u: SourceUnit): unknown => ({
    line: u.line,
    text: u.text,
    value: u.value,
    error: u.error?.message,
  });

  it('JsonlReader: the units, lines and errors of readDocument, however the bytes are cut', () => {
    fc.assert(
      fc.property(
        pieces,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        (parts, cuts, tiny) => {
          // A tiny limit makes some lines too long to read.
          setMaxTextBytes(tiny ? 12 : undefined);
          try {
            const bytes = bytesOf(parts);
            let expected: { units: unknown[]; bom: boolean } | { error: string };
            try {
              const doc = readDocument(bytes, 'jsonl');
              expected = { units: doc.units.map(shape), bom: doc.bom };
            } catch (e) {
              expected = { error: (e as Error).message };
            }
            const units: unknown[] = [];
            const rebuilt: Buffer[] = [];
            const reader = new JsonlReader((line) => {
              if (line.unit !== undefined) units.push(shape(line.unit));
              rebuilt.push(Buffer.from(line.bytes), Buffer.from(line.eol === '' ? '' : '\n'));
            });
            let actual: typeof expected;
            try {
              for (const chunk of cut(bytes, cuts)) reader.push(chunk);
              const length = reader.end();
              actual = { units, bom: reader.bom };
              expect(length).toBe(bytes.length);
              // Every byte but the BOM is in a line as read (a long line is counted, not kept).
              if (!tiny)
                expect(Buffer.concat(rebuilt).equals(bytes.subarray(reader.bom ? 3 : 0))).toBe(
                  true,
                );
            } catch (e) {
              actual = { error: (e as Error).message };
            }
            expect(actual).toEqual(expected);
          } finally {
            setMaxTextBytes(undefined);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('KindProbe: JSONL only where guessKind says JSONL', () => {
    fc.assert(
      fc.property(pieces, fc.array(fc.nat(), { maxLength: 6 }), (parts, cuts) => {
        const bytes = bytesOf(parts);
        const probe = new KindProbe();
        let kind: 'jsonl' | 'whole' | undefined;
        for (const chunk of cut(bytes, cuts)) kind ??= probe.push(chunk);
        kind ??= probe.end();
        if (kind !== 'jsonl') return;
        // Bytes that are not UTF-8 after the first lines fail as a whole and as a stream alike
        // (the test above): the kind is for the rest.
        let text: string;
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          return;
        }
        expect(readDocument(bytes).kind).toBe('jsonl');
        expect(guessKind(text)).toBe('jsonl');
      }),
      { numRuns: 400 },
    );
  });

  it('KindProbe: two JSON lines are JSONL, one JSON text over lines is not', () => {
    const decide = (text: string): string => {
      const probe = new KindProbe();
      return probe.push(Buffer.from(text)) ?? probe.end();
    };
    expect(decide('{"a":1}\n\n{"b":2}\n')).toBe('jsonl');
    expect(decide('{\n  "a": 1\n}\n')).toBe('whole');
    expect(decide('{"a":1}\n')).toBe('whole');
    expect(decide('\u00A0\n{"a":1}\n{"b":2}\n')).toBe('whole');
  });
});
