/**
 * isObjectJsonText (src/core/json-text.ts), the allocation-free check lint
 * runs on every tool call's arguments: it must answer what JSON.parse plus
 * "is a non-array object" answers, for hand-picked edge cases, deep nesting,
 * and random valid and mutated JSON texts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFlatObjectText, isObjectJsonText } from '../src/core/json-text.js';
import { isObjectJsonText as fromPairing } from '../src/core/pairing.js';

/** What isObjectJsonText must answer: JSON.parse succeeds and gives a plain object. */
function oracle(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch (e) {
    if (e instanceof SyntaxError) return false;
    throw e; // e.g. RangeError on depth: the caller decides
  }
}

/**
 * The oracle for very deep texts: JSON.parse may give up with a RangeError
 * (V8's does not today), and then the syntax answer `ifTooDeep` stands in.
 */
function deepOracle(text: string, ifTooDeep: boolean): boolean {
  try {
    return oracle(text);
  } catch (e) {
    if (e instanceof RangeError) return ifTooDeep;
    throw e;
  }
}

/** `depth` containers around `1`, inside {"a":...}; `kind(d)` picks "[" or "{" at level d. */
function nested(depth: number, kind: (d: number) => '[' | '{'): string {
  let open = '';
  let close = '';
  for (let d = 0; d < depth; d++) {
    const k = kind(d);
    open += k === '[' ? '[' : '{"k":';
    close = (k === '[' ? ']' : '}') + close;
  }
  return `{"a":${open}1${close}}`;
}

const alternate = (d: number): '[' | '{' => (d % 2 === 0 ? '[' : '{');

/** `text` with the closer at `at` turned into the other kind ("]" <-> "}"). */
function swapCloser(text: string, at: number): string {
  const swapped = { ']': '}', '}': ']' }[text[at]!];
  if (swapped === undefined) throw new Error(`no closer at ${at}`);
  return text.slice(0, at) + swapped + text.slice(at + 1);
}

const EDGE_CASES: string[] = [
  // Objects, whitespace and the top level.
  '{}',
  ' {}',
  '\t\n\r {} \t\n\r',
  '{ }',
  '{\n}',
  '{"a":1}',
  '{ "a" : 1 , "b" : [ 1 , 2 ] , "c" : { } }',
  '{"a":1,"a":2}',
  '{"__proto__":1}',
  '{"":""}',
  '',
  ' ',
  '[]',
  '[{}]',
  '""',
  '"{}"',
  '1',
  'null',
  'true',
  '{',
  '}',
  '{}}',
  '{"a"}',
  '{"a":}',
  '{"a" 1}',
  '{"a"::1}',
  '{a:1}',
  "{'a':1}",
  '{1:1}',
  '{"a":1,}',
  '{,"a":1}',
  '{,}',
  '{"a":1 "b":2}',
  '{"a":1,,"b":2}',
  '{} x',
  '{}{}',
  '{} []',
  '{}\u0000',
  // Whitespace JSON does not allow.
  '\u00a0{}',
  '{}\u00a0',
  '\ufeff{}',
  '\u000b{}',
  '\u000c{}',
  '{}\u000b',
  '\u2028{}',
  '{"a":\u00a01}',
  '{"a"\u000c:1}',
  // Arrays.
  '{"a":[]}',
  '{"a":[ ]}',
  '{"a":[1,[2,{"b":[]}]]}',
  '{"a":[1,2,]}',
  '{"a":[,1]}',
  '{"a":[,]}',
  '{"a":[1 2]}',
  '{"a":[}',
  '{"a":]}',
  '{"a":[1}',
  '{"a":{]}',
  '{"a":[1]]}',
  '{"a":"x"]',
  // Numbers.
  '{"a":0}',
  '{"a":-0}',
  '{"a":10}',
  '{"a":0.5e-10}',
  '{"a":1E+2}',
  '{"a":1e2}',
  '{"a":-1.25e3}',
  '{"a":1e999}',
  '{"a":01}',
  '{"a":-01}',
  '{"a":00}',
  '{"a":0.}',
  '{"a":1.}',
  '{"a":.5}',
  '{"a":-}',
  '{"a":-.5}',
  '{"a":+1}',
  '{"a":1e}',
  '{"a":1e+}',
  '{"a":1E-}',
  '{"a":1.e5}',
  '{"a":1ee5}',
  '{"a":1e5.5}',
  '{"a":1.5.5}',
  '{"a":0x10}',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":-Infinity}',
  '{"a":1_000}',
  '{"a":--1}',
  '{"a":- 1}',
  '{"a":1 }',
  '{"a":-0.0e-0}',
  // Strings and escapes.
  '{"a":"\\"\\\\\\/\\b\\f\\n\\r\\t"}',
  '{"a":"\\u00e9\\uABCD\\uabcd"}',
  '{"a":"\\u0000"}',
  '{"a":"\\u12"}',
  '{"a":"\\u12"}x',
  '{"a":"\\uG123"}',
  '{"a":"\\u1G23"}',
  '{"a":"\\u12G4"}',
  '{"a":"\\u123G"}',
  '{"a":"\\u123 "}',
  '{"a":"\\u"}',
  '{"a":"\\u0"}',
  '{"a":"\\u00"}',
  '{"a":"\\u000"}',
  '{"a":"\\U0041"}',
  '{"a":"\\x41"}',
  '{"a":"\\a"}',
  '{"a":"\\\'"}',
  '{"a":"\\0"}',
  '{"a":"\\ "}',
  '{"a":"tab\there"}',
  '{"a":"line\nbreak"}',
  '{"a":"\u0000"}',
  '{"a":"\u001f"}',
  '{"a":"\u007f"}',
  '{"a\u0001":1}',
  '{"a":"abc}',
  '{"a":"abc\\"}',
  '{"a":"\\',
  '{"a":"',
  '{"',
  // Lone surrogates, escaped or raw, and other non-ASCII.
  '{"a":"\\ud800"}',
  '{"a":"\\udc00\\ud800"}',
  '{"a":"\ud800"}',
  '{"\udc00":1}',
  '{"a":"é日本🎉"}',
  '{"a":1}\ud800',
  '{"a":\ud800}',
  // Literals.
  '{"a":true,"b":false,"c":null}',
  '{"a":t}',
  '{"a":tru}',
  '{"a":truee}',
  '{"a":True}',
  '{"a":nul}',
  '{"a":nulll}',
  '{"a":fals}',
  '{"a":falsey}',
  '{"a":undefined}',
  '{"a":true',
  '{"a":null}}',
  // Truncated tool-call arguments.
  '{"path":"src/index.ts","limit":5',
  '{"path":"src/index.ts","limit":',
  '{"path":"src/index.ts",',
  '{"path":"src/in',
  '{"path":',
  '{"path"',
  '{"a":[1,2',
  '{"a":{"b":1}',
  // Nesting from shallow to as deep as a short text (the character walk) can go.
  ...[62, 63, 64, 65, 127, 128, 129, 300, 505].flatMap((depth) => {
    const text = nested(depth, alternate);
    return [
      text,
      text.replace('1', '1,'), // trailing comma at the deepest level
      swapCloser(text, text.indexOf('1') + 1), // wrong closer at the deepest level
      swapCloser(text, text.length - 2), // wrong closer at the outermost array
    ];
  }),
];

describe('isObjectJsonText on hand-picked edge cases', () => {
  it.each(EDGE_CASES.map((text) => [JSON.stringify(text).slice(0, 80), text]))(
    '%s',
    (_label, text) => {
      expect(isObjectJsonText(text)).toBe(oracle(text));
    },
  );

  it.each(EDGE_CASES.map((text) => [JSON.stringify(text).slice(0, 80), text]))(
    'the flat-object shortcut accepts only valid objects: %s',
    (_label, text) => {
      if (isFlatObjectText(text)) expect(oracle(text)).toBe(true);
    },
  );

  it('the table has both answers in quantity', () => {
    const accepted = EDGE_CASES.filter(oracle).length;
    expect(accepted).toBeGreaterThanOrEqual(30);
    expect(EDGE_CASES.length - accepted).toBeGreaterThanOrEqual(100);
  });

  it('is what pairing.ts exports', () => {
    expect(fromPairing).toBe(isObjectJsonText);
  });
});

describe('isObjectJsonText around the length where JSON.parse takes over (1024)', () => {
  // A string member padded so the whole text is exactly `length` characters.
  const padded = (length: number, tail = ''): string => {
    const base = `{"k":""${tail}}`;
    return `{"k":"${'x'.repeat(length - base.length)}"${tail}}`;
  };
  it.each([1000, 1023, 1024, 1025, 1100])('%i characters', (length) => {
    const texts = [
      padded(length),
      padded(length, ',"n":01'),
      padded(length, ',"a":[1,2,]'),
      padded(length, ',"e":"\\q"'),
      padded(length).slice(0, -1),
      ` \u00a0${padded(length - 2)}`,
      `[${padded(length - 2)}]`,
    ];
    expect(texts[0]).toHaveLength(length);
    for (const text of texts) expect(isObjectJsonText(text)).toBe(oracle(text));
  });
});

describe('isObjectJsonText on deep nesting', () => {
  const N = 100_000;
  const cases: [string, string, boolean][] = [
    ['100,000 nested arrays', `{"a":${'['.repeat(N)}${']'.repeat(N)}}`, true],
    ['100,000 nested arrays, one unclosed', `{"a":${'['.repeat(N)}${']'.repeat(N - 1)}}`, false],
    ['100,000 nested objects', `{"a":${'{"a":'.repeat(N)}1${'}'.repeat(N)}}`, true],
    ['100,000 alternating containers', nested(N, alternate), true],
    [
      '100,000 alternating containers, one closer swapped deep inside',
      swapCloser(nested(N, alternate), nested(N, alternate).indexOf('1') + N / 2),
      false,
    ],
    ['100,000 nested arrays, never closed', `{"a":${'['.repeat(N)}`, false],
    ['100,000 opening arrays then a brace', `{"a":${'['.repeat(N)}}`, false],
  ];

  it.each(cases)('%s', (_label, text, ifTooDeep) => {
    expect(isObjectJsonText(text)).toBe(deepOracle(text, ifTooDeep));
  });

  it('keeps working on short texts after a deep one', () => {
    for (let round = 0; round < 3; round++) {
      expect(isObjectJsonText(cases[0]![1])).toBe(true);
      for (const depth of [1, 64, 65, 200]) {
        const text = nested(depth, alternate);
        expect(isObjectJsonText(text)).toBe(oracle(text));
        const broken = swapCloser(text, text.length - 2);
        expect(isObjectJsonText(broken)).toBe(oracle(broken));
      }
    }
  });
});

/** Counts the oracle's answers, to check a generator gives both often enough. */
class Tally {
  accepted = 0;
  rejected = 0;
  flat = 0;

  /** Checks `text` against the oracle (and the flat-object shortcut's soundness) and counts the answer. */
  check(text: string): void {
    const expected = oracle(text);
    if (expected) this.accepted++;
    else this.rejected++;
    expect(isObjectJsonText(text)).toBe(expected);
    if (isFlatObjectText(text)) {
      this.flat++;
      expect(expected).toBe(true);
    }
  }

  /** Fails when either answer was seen fewer than `min` times. */
  expectBoth(min: number): void {
    expect(this.accepted).toBeGreaterThanOrEqual(min);
    expect(this.rejected).toBeGreaterThanOrEqual(min);
  }
}

const RUNS = 2000;

/** JSON whitespace, for padding and for JSON.stringify's indent. */
const jsonSpace = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r'), maxLength: 4 });

/** Valid JSON texts of objects, in varied layouts and with any code units in strings. */
const objectText = fc
  .tuple(
    fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue({ stringUnit: 'binary' }), {
      maxKeys: 4,
    }),
    jsonSpace,
    jsonSpace,
    jsonSpace,
  )
  .map(([value, indent, before, after]) => before + JSON.stringify(value, null, indent) + after);

/** Characters rich in JSON syntax, plus control characters and non-ASCII. */
const MUTATION_CHARS = [
  ...'{}[]:,"\\ 0123456789-+.eE tfalsenu',
  '\t',
  '\n',
  '\r',
  '\u0000',
  '\u000b',
  '\u000c',
  '\u001f',
  '\u007f',
  '\u00a0',
  '\ufeff',
  '\u2028',
  'é',
  '\ud800',
  '\udc00',
  '🎉',
];

const mutation = fc.record({
  op: fc.constantFrom('delete', 'insert', 'replace'),
  at: fc.nat(),
  ch: fc.constantFrom(...MUTATION_CHARS),
});

/** `text` with one character deleted, inserted or replaced at a position picked by `at`. */
function mutate(text: string, m: { op: string; at: number; ch: string }): string {
  const pos = m.at % (text.length + 1);
  if (m.op === 'insert') return text.slice(0, pos) + m.ch + text.slice(pos);
  if (pos === text.length) return text + m.ch;
  return text.slice(0, pos) + (m.op === 'replace' ? m.ch : '') + text.slice(pos + 1);
}

describe('isObjectJsonText agrees with JSON.parse (properties)', () => {
  it('on fc.json() texts, with ASCII and with any code units', () => {
    const tally = new Tally();
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.json({ stringUnit: 'binary' })), (text) => {
        tally.check(text);
      }),
      { numRuns: RUNS },
    );
    tally.expectBoth(100);
  });

  it('on objects wrapped around fc.jsonValue() values, in varied layouts', () => {
    const tally = new Tally();
    fc.assert(
      fc.property(objectText, (text) => tally.check(text)),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(fc.json(), jsonSpace, (inner, space) => {
        tally.check(`{${space}"k"${space}:${space}${inner}${space}}`);
      }),
      { numRuns: RUNS },
    );
    // Every text is valid, so only acceptances are expected here.
    expect(tally.accepted).toBe(2 * RUNS);
    expect(tally.flat).toBeGreaterThan(RUNS / 4);
  });

  it('the flat-object shortcut accepts every flat object, whatever its layout and strings', () => {
    const primitive = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: 'binary' }), primitive, { maxKeys: 5 }),
        jsonSpace,
        jsonSpace,
        (value, indent, around) => {
          const text = around + JSON.stringify(value, null, indent) + around;
          expect(isFlatObjectText(text)).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('on valid texts with one to three characters deleted, inserted or replaced', () => {
    const tally = new Tally();
    fc.assert(
      fc.property(
        fc.oneof(objectText, fc.json()),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        (text, mutations) => {
          tally.check(mutations.reduce(mutate, text));
        },
      ),
      { numRuns: RUNS },
    );
    tally.expectBoth(100);
  });

  it('on number-like values', () => {
    const tally = new Tally();
    const unit = fc.constantFrom(...'0123456789-+.eE', '0', '1', 'x', ' ');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 8 }), (number) => {
        tally.check(`{"n":${number}}`);
        tally.check(`{"n":[${number}]}`);
      }),
      { numRuns: RUNS },
    );
    tally.expectBoth(100);
  });

  it('on string-like values and keys with escapes', () => {
    const tally = new Tally();
    const unit = fc.constantFrom(
      ...'\\\\\\\\u"0129aAfFgG/bnrtx\' é',
      '\\u', // more chances of a short or bad \uXXXX
      '\\u0',
      '\t',
      '\n',
      '\u0000',
      '\u001f',
      '\u007f',
      '\ud800',
      '\udc00',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 10 }), (body) => {
        tally.check(`{"s":"${body}"}`);
        tally.check(`{"${body}":1}`);
      }),
      { numRuns: RUNS },
    );
    tally.expectBoth(100);
  });

  it('on sequences of JSON tokens and near-tokens', () => {
    const tally = new Tally();
    const token = fc.constantFrom(
      ...['"k"', '"k":', ':', ',', '[', ']', '{', '}', '{}', '[]', '"x"', '1', '-1.5e3', '01'],
      ...['1.', 'true', 'tru', 'false', 'null', 'nul', ' ', '\n', '\u00a0', '"\\u12"'],
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 12 }), (tokens) => {
        tally.check(`{${tokens.join('')}}`);
        tally.check(`{"a":${tokens.join('')}}`);
        tally.check(tokens.join(''));
      }),
      { numRuns: RUNS },
    );
    tally.expectBoth(100);
  });
});
