/**
 * The one splitter of JSONL units (src/formats/kit/units.ts): every reader of lines (the engine,
 * the worker tasks, `lint --fix`, the document reader, `show`) gets the same lines, line ends and
 * numbers from it, whatever the bytes and however a stream cuts them into chunks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  eachByteLine,
  eachTextLine,
  isBlankLine,
  lineText,
  readLines,
  utf8BomLength,
} from '../../src/formats/kit/units.js';

/** Bytes with many line ends, carriage returns, blanks and some bytes that are not UTF-8. */
const jsonlBytes = fc
  .array(
    fc.oneof(
      fc.constantFrom(10, 13, 32, 9, 0x7b, 0x7d, 0x22, 0xc3, 0xa9, 0xff, 0xef, 0xbb, 0xbf),
      fc.integer({ min: 0, max: 255 }),
    ),
    { maxLength: 200 },
  )
  .map((a) => Uint8Array.from(a));

function byteLines(bytes: Uint8Array): { text: Uint8Array; eol: string; line: number }[] {
  const out: { text: Uint8Array; eol: string; line: number }[] = [];
  eachByteLine(bytes, (start, end, eol, line) => {
    out.push({ text: bytes.subarray(start, end), eol, line });
  });
  return out;
}

describe('eachByteLine', () => {
  it('gives back every byte: the lines and their line ends are the input', () => {
    fc.assert(
      fc.property(jsonlBytes, (bytes) => {
        const lines = byteLines(bytes);
        const joined = Buffer.concat(
          lines.map((l) => Buffer.concat([l.text, Buffer.from(l.eol === '' ? '' : '\n')])),
        );
        expect(Buffer.compare(joined, Buffer.from(bytes))).toBe(0);
        lines.forEach((l, k) => {
          expect(l.line).toBe(k + 1);
          // `\r\n` only for a line whose last byte is a CR before its `\n`.
          if (l.eol === '\r\n') expect(l.text[l.text.length - 1]).toBe(13);
          if (k < lines.length - 1) expect(l.eol).not.toBe('');
        });
      }),
    );
  });

  it('stops when asked, and starts at an offset with the given number', () => {
    const bytes = Buffer.from('\uFEFFa\nb\r\nc');
    const seen: [string, number][] = [];
    eachByteLine(
      bytes,
      (start, end, _eol, line) => {
        seen.push([bytes.subarray(start, end).toString(), line]);
        return line < 11;
      },
      utf8BomLength(bytes),
      10,
    );
    expect(seen).toEqual([
      ['a', 10],
      ['b\r', 11],
    ]);
  });
});

describe('eachTextLine', () => {
  it('agrees with eachByteLine on UTF-8 text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('\n', '\r\n', '\r', ' '))),
        (parts) => {
          const text = parts.join('');
          const fromText: [string, string, number][] = [];
          eachTextLine(text, (raw, eol, line) => void fromText.push([raw, eol, line]));
          const bytes = Buffer.from(text);
          const fromBytes = byteLines(bytes).map((l): [string, string, number] => {
            const raw = Buffer.from(l.text).toString();
            return [l.eol === '\r\n' ? raw.slice(0, -1) : raw, l.eol, l.line];
          });
          expect(fromText).toEqual(fromBytes);
        },
      ),
    );
  });
});

describe('lineText', () => {
  it('is the line without a final CR, undefined when blank, null when not UTF-8', () => {
    expect(lineText(Buffer.from('{"a":1}\r'))).toBe('{"a":1}');
    expect(lineText(Buffer.from(' \t\r'))).toBeUndefined();
    expect(lineText(Uint8Array.from([0x7b, 0xff, 0x7d]))).toBeNull();
    expect(isBlankLine('  ')).toBe(true);
    expect(isBlankLine(' x')).toBe(false);
  });
});

describe('readLines', () => {
  it('gives the lines eachByteLine gives, however the stream is cut into chunks', () => {
    fc.assert(
      fc.property(
        jsonlBytes,
        fc.integer({ min: 1, max: 17 }),
        fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1 }),
        (bytes, size, cuts) => {
          let at = 0;
          let k = 0;
          // A pipe fills only part of the buffer on each read.
          const read = (buffer: Buffer, offset: number, length: number): number => {
            const n = Math.min(length, cuts[k++ % cuts.length]!, bytes.length - at);
            buffer.set(bytes.subarray(at, at + n), offset);
            at += n;
            return n;
          };
          const got: string[] = [];
          const result = readLines(
            read,
            Buffer.alloc(size),
            Infinity,
            (line, index) => void got.push(`${index}:${Buffer.from(line).toString('hex')}`),
            () => expect.unreachable(),
          );
          const want = byteLines(bytes).map(
            (l, i) => `${i}:${Buffer.from(l.text).toString('hex')}`,
          );
          expect(got).toEqual(want);
          expect(result).toEqual({ lines: want.length, bytes: bytes.length });
        },
      ),
    );
  });

  it('reports a line over the limit by its length, never joining it', () => {
    const bytes = Buffer.from('ab\nabcdefgh\ncd');
    let at = 0;
    const read = (buffer: Buffer, offset: number, length: number): number => {
      const n = Math.min(length, bytes.length - at);
      buffer.set(bytes.subarray(at, at + n), offset);
      at += n;
      return n;
    };
    const lines: string[] = [];
    const long: [number, number][] = [];
    readLines(
      read,
      Buffer.alloc(3),
      4,
      (line) => void lines.push(Buffer.from(line).toString()),
      (length, index) => void long.push([length, index]),
    );
    expect(lines).toEqual(['ab', 'cd']);
    expect(long).toEqual([[8, 1]]);
  });
});
