/**
 * Stored documents (src/formats/kit/document.ts): strict UTF-8 with positioned
 * errors, BOMs, JSON and JSONL units, and writing back what was read.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeUtf8,
  kindFromName,
  readDocument,
  serializeDocument,
} from '../src/formats/kit/document.js';
import { SourceError } from '../src/model/errors.js';
import { JsonNumber, jsonEqual, parseJson, type JsonValue } from '../src/model/json.js';

const encoder = new TextEncoder();

/** Bytes of strings (UTF-8) and raw byte values, concatenated. */
function bytes(...pieces: (string | number[])[]): Uint8Array {
  const chunks = pieces.map((p) =>
    typeof p === 'string' ? encoder.encode(p) : Uint8Array.from(p),
  );
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The SourceError `f` throws (fails the test when it returns). */
function sourceError(f: () => unknown): SourceError {
  let result: unknown;
  try {
    result = f();
  } catch (e) {
    expect(e).toBeInstanceOf(SourceError);
    return e as SourceError;
  }
  throw new Error(`expected a SourceError, got ${JSON.stringify(result)}`);
}

const BOM = [0xef, 0xbb, 0xbf];

describe('decodeUtf8', () => {
  it('decodes valid UTF-8, including astral characters and a literal U+FFFD', () => {
    const text = '{"a":"é 中 😀 \ufffd"}';
    expect(decodeUtf8(encoder.encode(text))).toEqual({ text, bom: false });
  });

  it('strips a UTF-8 BOM and remembers it', () => {
    expect(decodeUtf8(bytes(BOM, '[1]'))).toEqual({ text: '[1]', bom: true });
    expect(decodeUtf8(bytes(BOM))).toEqual({ text: '', bom: true });
    expect(decodeUtf8(bytes('[1]'))).toEqual({ text: '[1]', bom: false });
  });

  it.each([
    ['UTF-16 LE', [0xff, 0xfe, 0x5b, 0x00, 0x5d, 0x00]],
    ['UTF-16 BE', [0xfe, 0xff, 0x00, 0x5b, 0x00, 0x5d]],
  ])('refuses a %s byte order mark with a clear message', (_name, raw) => {
    const e = sourceError(() => decodeUtf8(Uint8Array.from(raw)));
    expect(e.message).toMatch(/UTF-16/);
    expect(e.message).toMatch(/UTF-8/);
    expect(e.message).not.toContain('\n');
    expect(e.line).toBe(1);
    expect(e.column).toBe(1);
    sourceError(() => readDocument(Uint8Array.from(raw), 'json'));
  });

  // Line 2 is ` "é😀` before the bad byte: 5 UTF-16 units, so the bad byte is column 6.
  const prefix = '{"a":\n "é😀';
  it.each([
    ['a lone continuation byte', [0x80]],
    ['an overlong 2-byte encoding', [0xc0, 0xaf]],
    ['an overlong 2-byte encoding (C1)', [0xc1, 0xbf]],
    ['an overlong 3-byte encoding', [0xe0, 0x80, 0xaf]],
    ['an overlong 4-byte encoding', [0xf0, 0x80, 0x80, 0xaf]],
    ['an encoded surrogate ED A0 80', [0xed, 0xa0, 0x80]],
    ['an encoded low surrogate ED BF BF', [0xed, 0xbf, 0xbf]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['the byte F5', [0xf5, 0x80, 0x80, 0x80]],
    ['the byte FF', [0xff]],
    ['a lead byte followed by ASCII', [0xe2, 0x41]],
    ['a 4-byte sequence cut to 3 bytes inside the text', [0xf0, 0x9f, 0x98, 0x41]],
  ])('rejects %s with its line and column', (_name, bad) => {
    const raw = bytes(prefix, bad, '"}');
    const e = sourceError(() => decodeUtf8(raw));
    expect(e.message).toMatch(/UTF-8/);
    expect(e.message).toContain(`0x${bad[0]!.toString(16).toUpperCase()}`);
    expect({ line: e.line, column: e.column }).toEqual({ line: 2, column: 6 });
    const viaRead = sourceError(() => readDocument(raw, 'json'));
    expect({ line: viaRead.line, column: viaRead.column }).toEqual({ line: 2, column: 6 });
  });

  it.each([
    ['E2 82', [0xe2, 0x82]],
    ['E2', [0xe2]],
    ['F0 9F 98', [0xf0, 0x9f, 0x98]],
    ['C3', [0xc3]],
  ])('rejects a sequence %s truncated at the end of the file', (_name, bad) => {
    const raw = bytes('["a",\r\n"中', bad);
    const e = sourceError(() => decodeUtf8(raw));
    expect({ line: e.line, column: e.column }).toEqual({ line: 2, column: 3 });
  });

  it('counts columns after a BOM as an editor shows them (without the BOM)', () => {
    const e = sourceError(() => decodeUtf8(bytes(BOM, '[1,', [0x80], ']')));
    expect({ line: e.line, column: e.column }).toEqual({ line: 1, column: 4 });
  });

  it('positions a bad byte on the first line and after many lines', () => {
    const first = sourceError(() => decodeUtf8(bytes([0x80], '[]')));
    expect({ line: first.line, column: first.column }).toEqual({ line: 1, column: 1 });
    const many = sourceError(() => decodeUtf8(bytes('[\n'.repeat(100), 'ab', [0xc0, 0x80])));
    expect({ line: many.line, column: many.column }).toEqual({ line: 101, column: 3 });
  });

  it('never returns a replacement character for bad bytes', () => {
    for (let b = 0x80; b <= 0xff; b++) {
      let text: string | undefined;
      try {
        text = decodeUtf8(bytes('"', [b], '"')).text;
      } catch (e) {
        expect(e).toBeInstanceOf(SourceError);
      }
      expect(text).toBeUndefined();
    }
  });
});

describe('kindFromName', () => {
  it.each([
    ['a.json', 'json'],
    ['/some/long/folder/path/with.dots/conversation.JSON', 'json'],
    ['.json', 'json'],
    ['a.jsonl', 'jsonl'],
    ['C:\\logs\\A.JSONL', 'jsonl'],
    ['x.NdJson', 'jsonl'],
    ['x.ndjson', 'jsonl'],
    ['json', undefined],
    ['a.jsonl.bak', undefined],
    ['folder.json/file.txt', undefined],
    ['a.jso', undefined],
    ['', undefined],
  ])('%s is %s', (name, kind) => {
    expect(kindFromName(name)).toBe(kind);
  });
});

describe('JSON documents', () => {
  it('reads one unit with its value and no line', () => {
    const doc = readDocument(bytes('{"a": [1.0, 2]}'), 'json');
    expect(doc.kind).toBe('json');
    expect(doc.bom).toBe(false);
    expect(doc.units).toHaveLength(1);
    expect(doc.units[0]!.line).toBeUndefined();
    expect(jsonEqual(doc.units[0]!.value!, { a: [new JsonNumber('1.0'), 2] })).toBe(true);
  });

  it('writes 2-space indent and a final newline', () => {
    const doc = readDocument(bytes('{"b":1,"a":[1.0,{}],"c":"x\\ny"}'), 'json');
    expect(serializeDocument(doc, new Map())).toBe(
      '{\n  "b": 1,\n  "a": [\n    1.0,\n    {}\n  ],\n  "c": "x\\ny"\n}\n',
    );
  });

  it('writes a replacement value', () => {
    const doc = readDocument(bytes('[1]\n'), 'json');
    expect(serializeDocument(doc, new Map([[0, { x: [true] }]]))).toBe(
      '{\n  "x": [\n    true\n  ]\n}\n',
    );
  });

  it('writes a replacement value even when it is null', () => {
    const doc = readDocument(bytes('[1]\n'), 'json');
    expect(serializeDocument(doc, new Map<number, JsonValue>([[0, null]]))).toBe('null\n');
  });

  it('keeps CRLF line ends', () => {
    const doc = readDocument(bytes('{\r\n  "a": 1,\r\n  "s": "x\\ny"\r\n}\r\n'), 'json');
    expect(doc.eol).toBe('\r\n');
    expect(serializeDocument(doc, new Map())).toBe('{\r\n  "a": 1,\r\n  "s": "x\\ny"\r\n}\r\n');
    expect(serializeDocument(doc, new Map([[0, { x: [1, 2] }]]))).toBe(
      '{\r\n  "x": [\r\n    1,\r\n    2\r\n  ]\r\n}\r\n',
    );
  });

  it('keeps a BOM on write', () => {
    const doc = readDocument(bytes(BOM, '{"a":1}'), 'json');
    expect(doc.bom).toBe(true);
    expect(doc.units[0]!.text).toBe('{"a":1}');
    const out = serializeDocument(doc, new Map());
    expect(out).toBe('\ufeff{\n  "a": 1\n}\n');
    expect(Array.from(encoder.encode(out).subarray(0, 3))).toEqual(BOM);
    const again = readDocument(encoder.encode(out), 'json');
    expect(again.bom).toBe(true);
    expect(again.units[0]!.value).toEqual({ a: 1 });
  });

  it('does not add a BOM that was not there', () => {
    const out = serializeDocument(readDocument(bytes('[]'), 'json'), new Map());
    expect(out).toBe('[]\n');
  });

  it('gives a parse error its line and column in the file', () => {
    const doc = readDocument(bytes('{\n  "a": 1,\n}\n'), 'json');
    const e = doc.units[0]!.error!;
    expect(e).toBeInstanceOf(SourceError);
    expect(doc.units[0]!.value).toBeUndefined();
    expect({ line: e.line, column: e.column }).toEqual({ line: 3, column: 1 });
    const crlf = readDocument(bytes('{\r\n  "a": tru\r\n}'), 'json').units[0]!.error!;
    expect({ line: crlf.line, column: crlf.column }).toEqual({ line: 2, column: 8 });
    const astral = readDocument(bytes('{"😀中": x}'), 'json').units[0]!.error!;
    expect({ line: astral.line, column: astral.column }).toEqual({ line: 1, column: 9 });
  });

  it('positions a parse error after a BOM without counting it', () => {
    const e = readDocument(bytes(BOM, '{"a":}'), 'json').units[0]!.error!;
    expect({ line: e.line, column: e.column }).toEqual({ line: 1, column: 6 });
  });
});

describe('JSONL documents', () => {
  const lines = [
    '{"a":1}',
    '',
    '   ',
    '{ "b" : [1.0, 2] }\r',
    '[{"role":"user","parts":[]}]\r',
    '',
    '{"bad": }',
    '{"c":"\\u00e9",  "d":12345678901234567890123}',
  ];
  const text = lines.join('\n');

  it('skips blank lines and numbers units by their JSONL line', () => {
    const doc = readDocument(bytes(text), 'jsonl');
    expect(doc.kind).toBe('jsonl');
    expect(doc.units.map((u) => u.line)).toEqual([1, 4, 5, 7, 8]);
    expect(doc.lines).toHaveLength(8);
    expect(doc.units[0]!.value).toEqual({ a: 1 });
    expect(doc.units[1]!.text).toBe('{ "b" : [1.0, 2] }');
    expect(jsonEqual(doc.units[1]!.value!, { b: [new JsonNumber('1.0'), 2] })).toBe(true);
    expect(
      jsonEqual(doc.units[4]!.value!, { c: 'é', d: new JsonNumber('12345678901234567890123') }),
    ).toBe(true);
  });

  it('makes a bad line a unit error at its JSONL line and column', () => {
    const doc = readDocument(bytes(text), 'jsonl');
    const bad = doc.units[3]!;
    expect(bad.line).toBe(7);
    expect(bad.value).toBeUndefined();
    expect(bad.error).toBeInstanceOf(SourceError);
    expect({ line: bad.error!.line, column: bad.error!.column }).toEqual({ line: 7, column: 9 });
    // The other units still parse.
    expect(doc.units.filter((u) => u.error !== undefined)).toHaveLength(1);
  });

  it('writes an unchanged document back byte for byte (blank lines, spacing, CRLF)', () => {
    const doc = readDocument(bytes(text), 'jsonl');
    expect(serializeDocument(doc, new Map())).toBe(text);
    const withFinal = text + '\n';
    expect(serializeDocument(readDocument(bytes(withFinal), 'jsonl'), new Map())).toBe(withFinal);
  });

  it('rewrites only the changed lines, compact, keeping their line ends', () => {
    const doc = readDocument(bytes(text), 'jsonl');
    const out = serializeDocument(
      doc,
      new Map<number, JsonValue>([
        [1, { b: [new JsonNumber('1.0'), 3] }],
        [4, { c: 'é' }],
      ]),
    );
    const expected = [...lines];
    expected[3] = '{"b":[1.0,3]}\r';
    expected[7] = '{"c":"é"}';
    expect(out).toBe(expected.join('\n'));
  });

  it('keeps a BOM and reads the first line without it', () => {
    const doc = readDocument(bytes(BOM, '{"a":1}\n{"a":2}\n'), 'jsonl');
    expect(doc.bom).toBe(true);
    expect(doc.units.map((u) => u.value)).toEqual([{ a: 1 }, { a: 2 }]);
    expect(serializeDocument(doc, new Map())).toBe('\ufeff{"a":1}\n{"a":2}\n');
  });

  it('recognizes JSONL without a kind when the whole is not one JSON value', () => {
    const doc = readDocument(bytes('{"a":1}\n{"a":2}\n'));
    expect(doc.kind).toBe('jsonl');
    expect(readDocument(bytes('{"a":\n1}\n')).kind).toBe('json');
  });

  it('round-trips values with exact numbers through write and read', () => {
    const doc = readDocument(bytes('{"x":1}\n\n{"y":2}\r\n'), 'jsonl');
    const values = new Map<number, JsonValue>([
      [0, parseJson('{"n":[1.0,-0,5e-400,1E5],"s":"\\ud800"}')],
    ]);
    const again = readDocument(encoder.encode(serializeDocument(doc, values)), 'jsonl');
    expect(jsonEqual(again.units[0]!.value!, values.get(0)!)).toBe(true);
    expect(again.units[1]!.value).toEqual({ y: 2 });
    expect(again.units.map((u) => u.line)).toEqual([1, 3]);
  });
});
