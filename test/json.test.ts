/**
 * The lossless JSON reader and writer (src/model/json.ts): exact numbers,
 * any depth, no prototype pollution, duplicate keys, lone surrogates, the
 * layout of JSON.stringify, error offsets, and agreement with JSON.parse.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  JsonNumber,
  JsonParseError,
  jsonEqual,
  parseJson,
  stringifyJson,
  type JsonObject,
  type JsonValue,
} from '../src/model/json.js';

/** The error parseJson throws for `text` (fails the test when it parses). */
function parseError(text: string): JsonParseError {
  try {
    parseJson(text);
  } catch (e) {
    expect(e).toBeInstanceOf(JsonParseError);
    return e as JsonParseError;
  }
  throw new Error(`expected ${JSON.stringify(text)} not to parse`);
}

/** JSON.parse's verdict on `text`, as comparable text (numbers as doubles). */
function nativeVerdict(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return null;
  }
}

/** parseJson's verdict on `text`, in the same form; any error other than JsonParseError escapes. */
function ourVerdict(text: string): string | null {
  try {
    return JSON.stringify(parseJson(text));
  } catch (e) {
    if (e instanceof JsonParseError) {
      expect(e.offset).toBeGreaterThanOrEqual(0);
      expect(e.offset).toBeLessThanOrEqual(text.length);
      return null;
    }
    throw e;
  }
}

const fcJson = (v: fc.JsonValue): JsonValue => v as unknown as JsonValue;

describe('numbers', () => {
  const exact = [
    '12345678901234567890123',
    '1.0000000000000000001',
    '5e-400',
    '1e400',
    '1.0',
    '-0',
    '1E5',
    '-1.50',
    '0.1000',
  ];

  it.each(exact)('keeps the text of %s and writes it back exactly', (text) => {
    const v = parseJson(text);
    expect(v).toBeInstanceOf(JsonNumber);
    expect((v as JsonNumber).text).toBe(text);
    expect(stringifyJson(v, 0)).toBe(text);
    expect(stringifyJson(v, 2)).toBe(text);
  });

  it('round-trips exact numbers inside containers, compact and pretty', () => {
    const text = `{"a":[${exact.join(',')}],"b":{"c":${exact[0]}}}`;
    const v = parseJson(text);
    expect(stringifyJson(v, 0)).toBe(text);
    const pretty = stringifyJson(v, 2);
    for (const t of exact) expect(pretty).toContain(t);
    expect(jsonEqual(parseJson(pretty), v)).toBe(true);
  });

  it('reads ordinary numbers as plain JS numbers', () => {
    const v = parseJson('[0, 42, -7, 3.14, 0.1, 1e+21, 5e-324, 1.7976931348623157e+308, -2.5]');
    expect(v).toEqual([0, 42, -7, 3.14, 0.1, 1e21, 5e-324, 1.7976931348623157e308, -2.5]);
    for (const n of v as JsonValue[]) expect(typeof n).toBe('number');
  });

  it('JsonNumber converts to the nearest double for arithmetic and JSON.stringify', () => {
    const n = new JsonNumber('1.0');
    expect(Number(n)).toBe(1);
    expect(String(n)).toBe('1.0');
    expect(JSON.stringify({ n })).toBe('{"n":1}');
  });
});

describe('depth', () => {
  const arrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
  const objects = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

  it.each([20_000, 200_000])('parses and writes %i nested arrays without a stack overflow', (d) => {
    const text = arrays(d);
    const v = parseJson(text);
    let depth = 0;
    for (let x: JsonValue | undefined = v; Array.isArray(x); x = x[0]) depth++;
    expect(depth).toBe(d);
    expect(stringifyJson(v, 0)).toBe(text);
    expect(jsonEqual(v, parseJson(text))).toBe(true);
  });

  it.each([20_000, 200_000])(
    'parses and writes %i nested objects without a stack overflow',
    (d) => {
      const text = objects(d);
      const v = parseJson(text);
      expect(stringifyJson(v, 0)).toBe(text);
      const other = parseJson(text.replace('"a":1', '"a":2'));
      expect(jsonEqual(v, other)).toBe(false);
    },
  );

  it('writes deep values pretty with the layout of JSON.stringify', () => {
    // Pretty output grows with the square of the depth; 2,000 keeps it a few MB.
    const text = objects(2_000);
    const v = parseJson(text);
    const pretty = stringifyJson(v, 2);
    expect(pretty).toBe(JSON.stringify(JSON.parse(text), null, 2));
    expect(jsonEqual(parseJson(pretty), v)).toBe(true);
  });
});

describe('prototype keys', () => {
  it('keeps __proto__, constructor and prototype as own keys without polluting Object.prototype', () => {
    const text =
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},' +
      '"prototype":{"polluted":true},"list":[{"__proto__":{"polluted":1}}]}';
    const v = parseJson(text) as JsonObject;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__', 'constructor', 'prototype', 'list']);
    expect(Object.prototype.hasOwnProperty.call(v, '__proto__')).toBe(true);
    expect(v['__proto__']).toEqual({ polluted: true });
    expect((v as Record<string, unknown>).polluted).toBeUndefined();
    const inner = (v.list as JsonObject[])[0]!;
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(Object.keys(inner)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    expect(stringifyJson(v, 0)).toBe(text);
    expect(jsonEqual(parseJson(stringifyJson(v, 2)), v)).toBe(true);
  });

  it('compares __proto__ keys as ordinary keys', () => {
    expect(jsonEqual(parseJson('{"__proto__":1}'), {})).toBe(false);
    expect(jsonEqual(parseJson('{"__proto__":1}'), parseJson('{"__proto__":1}'))).toBe(true);
    expect(jsonEqual(parseJson('{"__proto__":1}'), parseJson('{"__proto__":2}'))).toBe(false);
  });
});

describe('duplicate keys', () => {
  it('keeps the last value and reports each repeat with its offset', () => {
    const text = '{"a":1,"b":{"a":0,"a":5},"a":3}';
    const seen: [string, number][] = [];
    const v = parseJson(text, { onDuplicateKey: (key, offset) => seen.push([key, offset]) });
    expect(v).toEqual({ a: 3, b: { a: 5 } });
    expect(seen).toEqual([
      ['a', text.indexOf('"a":5')],
      ['a', text.lastIndexOf('"a"')],
    ]);
  });

  it('names the object that repeats a key by its pointer', () => {
    const seen: [string, string][] = [];
    parseJson('{"a":1,"a":2,"l":[{"x":1},{"y/~":{"x":1,"x":2}}],"o":{"k":[0,{"z":1,"z":1}]}}', {
      onDuplicateKey: (key, _offset, pointer) => seen.push([key, pointer]),
    });
    expect(seen).toEqual([
      ['a', ''],
      ['x', '/l/1/y~1~0'],
      ['z', '/o/k/1'],
    ]);
  });

  it('does not report the same key in different objects', () => {
    const seen: string[] = [];
    parseJson('[{"a":1},{"a":2}]', { onDuplicateKey: (k) => seen.push(k) });
    expect(seen).toEqual([]);
  });

  it('reports a repeated __proto__ and keeps the last one', () => {
    const seen: string[] = [];
    const v = parseJson('{"__proto__":1,"__proto__":2}', {
      onDuplicateKey: (k) => seen.push(k),
    }) as JsonObject;
    expect(seen).toEqual(['__proto__']);
    expect(v['__proto__']).toBe(2);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });
});

describe('strings', () => {
  it('keeps lone surrogate escapes through write and read', () => {
    for (const text of ['"\\ud800"', '"\\udfff"', '"a\\udc00b"', '{"\\ud800":"\\ud800"}']) {
      const v = parseJson(text);
      expect(v).toEqual(JSON.parse(text));
      const written = stringifyJson(v, 0);
      expect(jsonEqual(parseJson(written), v)).toBe(true);
      // Written as an escape, so the text stays well-formed (encodable as UTF-8).
      expect(() => encodeURIComponent(written)).not.toThrow();
    }
  });

  it('reads a raw lone surrogate and writes it as an escape', () => {
    const v = parseJson('"x\ud800y"');
    expect(v).toBe('x\ud800y');
    expect(stringifyJson(v, 0)).toBe('"x\\ud800y"');
  });

  it('decodes escapes, pairs and astral characters', () => {
    expect(parseJson('"\\ud83d\\ude00 \\u00e9 \\n\\t\\"\\\\\\/ 😀"')).toBe('😀 é \n\t"\\/ 😀');
    expect(parseJson('{"k\\"ey":"\\\\"}')).toEqual({ 'k"ey': '\\' });
  });
});

describe('layout', () => {
  const ordinary = fc.jsonValue();
  const unicode = fc.jsonValue({ stringUnit: 'binary' });
  const surrogates = fc.jsonValue({
    stringUnit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    maxDepth: 3,
  });

  it('stringifyJson(v, 2) is JSON.stringify(v, null, 2) and compact is JSON.stringify(v)', () => {
    fc.assert(
      fc.property(fc.oneof(ordinary, unicode, surrogates), (raw) => {
        const v = fcJson(raw);
        expect(stringifyJson(v, 2)).toBe(JSON.stringify(raw, null, 2));
        expect(stringifyJson(v, 0)).toBe(JSON.stringify(raw));
        expect(stringifyJson(v, 4)).toBe(JSON.stringify(raw, null, 4));
      }),
      { numRuns: 300 },
    );
  });

  it('writes a value holding a JsonNumber with the same layout, the number as written', () => {
    // Without one, stringifyJson is JSON.stringify; with one, its own writer: the two must agree.
    fc.assert(
      fc.property(ordinary, fc.constantFrom(0, 2), (raw, indent) => {
        const text = JSON.stringify([raw, 0], null, indent);
        const at = text.lastIndexOf('0');
        const expected = text.slice(0, at) + '1.50' + text.slice(at + 1);
        const v = [fcJson(raw), new JsonNumber('1.50')];
        expect(stringifyJson(v, indent)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('defaults to 2-space indent', () => {
    expect(stringifyJson({ a: [1, { b: null }], c: {}, d: [] })).toBe(
      JSON.stringify({ a: [1, { b: null }], c: {}, d: [] }, null, 2),
    );
  });

  it('parseJson reads what stringifyJson writes, deep-equal', () => {
    fc.assert(
      fc.property(fc.oneof(ordinary, unicode, surrogates), fc.constantFrom(0, 2), (raw, indent) => {
        const v = fcJson(raw);
        expect(jsonEqual(parseJson(stringifyJson(v, indent)), v)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parse errors', () => {
  it('truncated input: at the end', () => {
    const cases: [string, number][] = [
      ['{"a": [1, 2', 11],
      ['{"a":', 5],
      ['{"a": ', 6],
      ['[', 1],
      ['{', 1],
      ['', 0],
      ['   ', 3],
      ['[1,', 3],
      ['{"a":1', 6],
    ];
    for (const [text, offset] of cases) expect(parseError(text).offset, text).toBe(offset);
    expect(parseError('{"a": [1, 2').offset).toBe(11);
    expect(parseError('{"a": [1, 2').message).toMatch(/end/i);
    expect(parseError('').offset).toBe(0);
  });

  it('unterminated string: at its opening quote or at the end', () => {
    const e = parseError('{"a": "abc');
    expect([6, 10]).toContain(e.offset);
  });

  it('trailing comma: at the closing bracket', () => {
    expect(parseError('[1, 2,]').offset).toBe(6);
    expect(parseError('{"a": 1,}').offset).toBe(8);
    expect(parseError('{\n  "a": [1,\n  ]\n}').offset).toBe(15);
  });

  it('bad escape: at the backslash or the escaped character', () => {
    expect([3, 4]).toContain(parseError('"ab\\x"').offset);
    expect([8, 9, 12]).toContain(parseError('{"k": "a\\u12G4"}').offset);
    expect([2, 3]).toContain(parseError('["\\a"]').offset);
  });

  it('raw control character in a string: at that character', () => {
    expect(parseError('"a\tb"').offset).toBe(2);
    expect(parseError('{"k\u0001": 1}').offset).toBe(3);
    expect(parseError('["x\\n", "y\nz"]').offset).toBe(10);
    expect(parseError('"\\"\u001f"').offset).toBe(3);
  });

  it('leading zeros, NaN, Infinity and other non-JSON numbers', () => {
    expect(parseError('01').offset).toBe(1);
    expect(parseError('[1, 007]').offset).toBe(5);
    expect(parseError('NaN').offset).toBe(0);
    expect(parseError('[1, NaN]').offset).toBe(4);
    expect([0, 1]).toContain(parseError('-Infinity').offset);
    expect(parseError('[.5]').offset).toBe(1);
    expect([1, 2]).toContain(parseError('1.').offset);
    expect([0, 1]).toContain(parseError('+1').offset);
  });

  it('trailing garbage: at its first character', () => {
    expect(parseError('{"a":1} x').offset).toBe(8);
    expect(parseError('[1]]').offset).toBe(3);
    expect(parseError('1 2').offset).toBe(2);
    expect(parseError('\ufeff{}').offset).toBe(0);
  });

  it('missing colon or comma: at the unexpected token', () => {
    expect(parseError('{"a" 1}').offset).toBe(5);
    expect(parseError('[1 2]').offset).toBe(3);
    expect(parseError('{"a":1 "b":2}').offset).toBe(7);
    expect(parseError('{a:1}').offset).toBe(1);
  });
});

describe('agreement with JSON.parse', () => {
  const SPECIALS = [
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '"',
    '\\',
    '0',
    '1',
    '-',
    '+',
    '.',
    'e',
    'E',
    't',
    'r',
    'n',
    'u',
    'l',
    'f',
    ' ',
    '\n',
    '\r',
    '\t',
    '\u0000',
    '\u001f',
    '\u007f',
    '\u00a0',
    '\u2028',
    '\ufeff',
    '\ud800',
    '/',
    'x',
  ];
  const specialArb = fc.constantFrom(...SPECIALS);

  /** A JSON text with a few random edits. */
  const mutatedArb = fc
    .tuple(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom(0, 1, 2),
      fc.array(
        fc.record({
          kind: fc.constantFrom('delete', 'insert', 'replace', 'truncate', 'duplicate'),
          at: fc.nat(),
          len: fc.integer({ min: 1, max: 4 }),
          ch: specialArb,
        }),
        { minLength: 1, maxLength: 3 },
      ),
    )
    .map(([v, indent, edits]) => {
      let t = JSON.stringify(v, null, indent);
      for (const e of edits) {
        const at = e.at % (t.length + 1);
        if (e.kind === 'delete') t = t.slice(0, at) + t.slice(at + e.len);
        else if (e.kind === 'insert') t = t.slice(0, at) + e.ch + t.slice(at);
        else if (e.kind === 'replace') t = t.slice(0, at) + e.ch + t.slice(at + 1);
        else if (e.kind === 'truncate') t = t.slice(0, at);
        else t = t.slice(0, at) + t.slice(at, at + e.len) + t.slice(at);
      }
      return t;
    });

  const check = (text: string): void => {
    expect(ourVerdict(text), JSON.stringify(text)).toBe(nativeVerdict(text));
  };

  it('accepts and rejects the same random strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary-ascii' }),
          fc.string({ unit: specialArb, maxLength: 12 }),
        ),
        check,
      ),
      { numRuns: 2000 },
    );
  });

  it('accepts and rejects the same mutated JSON texts, with equal values', () => {
    fc.assert(fc.property(mutatedArb, check), { numRuns: 2000 });
  });

  it('agrees on hand-picked edge cases', () => {
    const cases = [
      '"\\u0000"',
      '"\u007f"',
      '" "',
      '"\u2028"',
      '-0',
      '-',
      '1e',
      '1e+',
      '1E-2',
      '0.0e0',
      '[1,2]x',
      '[]',
      '{}',
      ' \t\r\n1 \t\r\n',
      '\u00a01',
      '\u20281',
      'truex',
      'nul',
      '"\\',
      '"\\"',
      '"\\\\"',
      '"a\\\\\\"b"',
      '{"a":1,"a":2}',
      '{"":""}',
      '[,1]',
      '[1,,2]',
      '{,}',
      '{"a":1,,"b":2}',
      '"\\uD834\\uDD1E"',
      '"\\u00e9"',
      '"\\U00e9"',
      "'a'",
      '/* c */1',
    ];
    for (const c of cases) check(c);
  });
});

describe('jsonEqual', () => {
  it('compares structure, not key order', () => {
    expect(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual({}, null)).toBe(false);
    expect(jsonEqual([1], [1, 1])).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual(true, 1)).toBe(false);
    expect(jsonEqual(null, null)).toBe(true);
  });

  it('compares JsonNumbers by their text', () => {
    expect(jsonEqual(new JsonNumber('1.0'), new JsonNumber('1.0'))).toBe(true);
    expect(jsonEqual(new JsonNumber('1.0'), new JsonNumber('1.00'))).toBe(false);
    expect(jsonEqual(new JsonNumber('1.0'), 1)).toBe(false);
    expect(jsonEqual(1, new JsonNumber('1.0'))).toBe(false);
    expect(jsonEqual(parseJson('[1.0]'), parseJson('[1.0]'))).toBe(true);
    expect(jsonEqual(parseJson('[1.0]'), parseJson('[1]'))).toBe(false);
  });

  it('agrees with a recursive deep equality on random values', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3 }), (a, b) => {
        expect(jsonEqual(fcJson(a), fcJson(b))).toBe(
          JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b)),
        );
        expect(jsonEqual(fcJson(a), fcJson(structuredClone(a)))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

/** A copy with object keys sorted, so JSON texts compare structure. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      Object.defineProperty(out, k, {
        value: sortKeys((v as Record<string, unknown>)[k]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  // JSON text does not tell 0 from -0.
  return Object.is(v, -0) ? 0 : v;
}
