/**
 * Source positions (src/model/positions.ts): JSON pointers to the line and
 * column (1-based, UTF-16 columns) of the value they name in the original text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonEqual, parseJson, type JsonValue } from '../src/model/json.js';
import { LineIndex, locatePointers, type SourcePosition } from '../src/model/positions.js';

/** The position of each pointer in `text`. */
function positions(text: string, pointers: string[]): Record<string, SourcePosition> {
  const offsets = locatePointers(text, pointers);
  const index = new LineIndex(text);
  const out: Record<string, SourcePosition> = {};
  for (const p of pointers) {
    const off = offsets.get(p);
    expect(off, `no offset for ${p}`).toBeTypeOf('number');
    out[p] = index.position(off!);
  }
  return out;
}

/** Line and column of the first occurrence of `needle` (after `from`), counted by hand. */
function where(text: string, needle: string, from = 0): SourcePosition {
  const off = text.indexOf(needle, from);
  expect(off, needle).toBeGreaterThanOrEqual(0);
  return naivePosition(text, off);
}

/** A line and column computed the slow, obvious way. */
function naivePosition(text: string, offset: number): SourcePosition {
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/** Escapes one RFC 6901 token (written here independently of src/model/pointer.ts). */
const token = (k: string): string => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every node of a value with its pointer. */
function nodes(v: JsonValue, pointer = '', out: [string, JsonValue][] = []): [string, JsonValue][] {
  out.push([pointer, v]);
  if (Array.isArray(v)) v.forEach((x, i) => nodes(x, `${pointer}/${i}`, out));
  else if (typeof v === 'object' && v !== null) {
    for (const k of Object.keys(v))
      nodes((v as Record<string, JsonValue>)[k]!, `${pointer}/${token(k)}`, out);
  }
  return out;
}

/** The text of the JSON value that starts at `start` (an independent scanner). */
function valueTextAt(text: string, start: number): string {
  const skipString = (k: number): number => {
    k++;
    while (text[k] !== '"') k += text[k] === '\\' ? 2 : 1;
    return k + 1;
  };
  const c = text[start];
  if (c === '"') return text.slice(start, skipString(start));
  if (c === '{' || c === '[') {
    let depth = 0;
    let k = start;
    while (k < text.length) {
      const d = text[k];
      if (d === '"') {
        k = skipString(k);
        continue;
      }
      if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return text.slice(start, k + 1);
      }
      k++;
    }
    throw new Error('unbalanced');
  }
  const m = /^(?:-?[0-9][0-9.eE+-]*|true|false|null)/.exec(text.slice(start, start + 400));
  if (m === null)
    throw new Error(`no value at ${start}: ${JSON.stringify(text.slice(start, start + 20))}`);
  return m[0];
}

describe('LineIndex', () => {
  it('gives 1-based lines and UTF-16 columns', () => {
    const text = 'ab\n😀c\r\n\nd';
    const index = new LineIndex(text);
    expect(index.position(0)).toEqual({ line: 1, column: 1 });
    expect(index.position(2)).toEqual({ line: 1, column: 3 });
    expect(index.position(3)).toEqual({ line: 2, column: 1 });
    expect(index.position(5)).toEqual({ line: 2, column: 3 });
    expect(index.position(6)).toEqual({ line: 2, column: 4 });
    expect(index.position(8)).toEqual({ line: 3, column: 1 });
    expect(index.position(9)).toEqual({ line: 4, column: 1 });
    expect(index.position(10)).toEqual({ line: 4, column: 2 });
  });

  it('agrees with a naive count at every offset of random texts', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', '\n', '\r', '😀', '中', ' ') }),
        (text) => {
          const index = new LineIndex(text);
          for (let k = 0; k <= text.length; k++) {
            expect(index.position(k)).toEqual(naivePosition(text, k));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('locatePointers', () => {
  const conversation = {
    version: 1,
    messages: [
      { role: 'user', parts: [{ type: 'text', text: 'héllo 😀 中文' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'text', text: 'ok' },
          { type: 'tool-call', id: 'c1', name: 'search', arguments: '{"q":1}' },
        ],
      },
    ],
  };

  it('resolves pointers into pretty JSON to the first character of the value', () => {
    const text = JSON.stringify(conversation, null, 2);
    const got = positions(text, [
      '',
      '/version',
      '/messages',
      '/messages/0',
      '/messages/0/role',
      '/messages/0/parts/0/text',
      '/messages/1/parts/1',
      '/messages/1/parts/1/arguments',
    ]);
    expect(got['']).toEqual({ line: 1, column: 1 });
    expect(got['/version']).toEqual({ line: 2, column: 14 });
    expect(got['/messages']).toEqual({ line: 3, column: 15 });
    expect(got['/messages/0']).toEqual({ line: 4, column: 5 });
    expect(got['/messages/0/role']).toEqual({ line: 5, column: 15 });
    expect(got['/messages/0/parts/0/text']).toEqual(where(text, '"héllo'));
    expect(got['/messages/1/parts/1']).toEqual(
      naivePosition(text, text.lastIndexOf('{', text.indexOf('"tool-call"'))),
    );
    expect(got['/messages/1/parts/1']!.column).toBe(9);
    expect(got['/messages/1/parts/1/arguments']).toEqual(where(text, '"{\\"q\\":1}"'));
  });

  it('resolves pointers into compact JSON, counting columns in UTF-16 units', () => {
    const text = '{"k":"😀😀中文","n":[1,{"x":true}],"m":"𝄞"}';
    const got = positions(text, ['/n/1/x', '/m', '/n/0']);
    const at = text.indexOf('true');
    expect(got['/n/1/x']).toEqual({ line: 1, column: at + 1 });
    // Two astral characters before the node: code points would give a smaller column.
    expect(Array.from(text.slice(0, at)).length + 1).toBe(at - 1);
    expect(got['/m']).toEqual({ line: 1, column: text.indexOf('"𝄞"') + 1 });
    expect(got['/n/0']).toEqual({ line: 1, column: text.indexOf('[1') + 2 });
  });

  it('resolves the root after leading whitespace', () => {
    const text = ' \r\n  [1, 2]';
    expect(positions(text, ['', '/1'])).toEqual({
      '': { line: 2, column: 3 },
      '/1': { line: 2, column: 7 },
    });
  });

  it('handles escaped keys: ~0, ~1, \\" and other escapes', () => {
    const text =
      '{"a/b": {"m~n": 1, "~1": 2, "say \\"hi\\"": 3, "back\\\\": 4, "\\u00e9x": 5, "": 6, "x": {"/": 7}}}';
    expect(parseJson(text)).toEqual({
      'a/b': { 'm~n': 1, '~1': 2, 'say "hi"': 3, 'back\\': 4, éx: 5, '': 6, x: { '/': 7 } },
    });
    const offsets = locatePointers(text, [
      '/a~1b/m~0n',
      '/a~1b/~01',
      '/a~1b/say "hi"',
      '/a~1b/back\\',
      '/a~1b/éx',
      '/a~1b/',
      '/a~1b/x/~1',
    ]);
    expect(text[offsets.get('/a~1b/m~0n')!]).toBe('1');
    expect(text[offsets.get('/a~1b/~01')!]).toBe('2');
    expect(text[offsets.get('/a~1b/say "hi"')!]).toBe('3');
    expect(text[offsets.get('/a~1b/back\\')!]).toBe('4');
    expect(text[offsets.get('/a~1b/éx')!]).toBe('5');
    expect(text[offsets.get('/a~1b/')!]).toBe('6');
    expect(text[offsets.get('/a~1b/x/~1')!]).toBe('7');
  });

  it('skips strings holding brackets, quotes and backslashes', () => {
    const text = '{"a": "]}\\"[{", "b": ["\\\\", "{"], "c": 1}';
    const offsets = locatePointers(text, ['/c', '/b/1']);
    expect(text[offsets.get('/c')!]).toBe('1');
    expect(text.slice(offsets.get('/b/1')!, offsets.get('/b/1')! + 3)).toBe('"{"');
  });

  describe('missing pointers fall back to the deepest existing ancestor', () => {
    const text = '{"a": {"b": [10, 20]}, "c": 3}';
    const offsetOf = (needle: string): number => text.indexOf(needle);

    it('when the ancestors are requested too', () => {
      const offsets = locatePointers(text, ['', '/a', '/a/b', '/c', '/a/b/9', '/a/zz/yy', '/q']);
      expect(offsets.get('/a/b/9')).toBe(offsetOf('[10'));
      expect(offsets.get('/a/zz/yy')).toBe(offsetOf('{"b"'));
      expect(offsets.get('/q')).toBe(0);
    });

    it('when only the missing pointer is requested', () => {
      const offsets = locatePointers(text, ['/a/b/9', '/a/zz/yy', '/q', '/c/x', '/a/b/0/deeper']);
      expect(offsets.get('/a/b/9')).toBe(offsetOf('[10'));
      expect(offsets.get('/a/zz/yy')).toBe(offsetOf('{"b"'));
      expect(offsets.get('/q')).toBe(0);
      expect(offsets.get('/c/x')).toBe(offsetOf('3'));
      expect(offsets.get('/a/b/0/deeper')).toBe(offsetOf('10'));
    });

    it('a missing message part falls back to the parts array', () => {
      const pretty = JSON.stringify(conversation, null, 2);
      const got = positions(pretty, ['/messages/1/parts/7']);
      const parts = pretty.indexOf('"parts"', pretty.indexOf('"assistant"'));
      expect(got['/messages/1/parts/7']).toEqual(where(pretty, '[', parts));
    });
  });

  it('resolves a repeated key to its last occurrence, as the reader keeps it', () => {
    const text = '{"a": 1, "b": {"x": 1}, "a": 2, "b": {"y": 2}}';
    const offsets = locatePointers(text, ['/a', '/b', '/b/y', '/b/x']);
    expect(offsets.get('/a')).toBe(text.indexOf('2'));
    expect(offsets.get('/b')).toBe(text.indexOf('{"y"'));
    expect(offsets.get('/b/y')).toBe(text.indexOf('2}'));
    // Not in the object the reader keeps: falls back to that object.
    expect(offsets.get('/b/x')).toBe(text.indexOf('{"y"'));
  });

  it('locates every node of random values, pretty and compact', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({
          maxDepth: 4,
          stringUnit: fc.constantFrom('a', '/', '~', '"', '\\', '😀', '中', '{', ']'),
        }),
        fc.constantFrom(0, 1, 2, '\t'),
        (raw, indent) => {
          const value = raw as unknown as JsonValue;
          const text = JSON.stringify(raw, null, indent);
          const all = nodes(value);
          const offsets = locatePointers(
            text,
            all.map(([p]) => p),
          );
          for (const [pointer, node] of all) {
            const off = offsets.get(pointer);
            expect(off, pointer).toBeTypeOf('number');
            const found = parseJson(valueTextAt(text, off!));
            expect(jsonEqual(found, node), `${pointer} in ${text}`).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('locates each node when asked for it alone', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.nat(), (raw, pick) => {
        const value = raw as unknown as JsonValue;
        const text = JSON.stringify(raw, null, 2);
        const all = nodes(value);
        const [pointer, node] = all[pick % all.length]!;
        const off = locatePointers(text, [pointer]).get(pointer)!;
        expect(jsonEqual(parseJson(valueTextAt(text, off)), node)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('locatePointers on texts with repeated keys and escaped key spellings', () => {
  /** A JSON text as a tree whose objects may repeat keys (what JSON.parse silently collapses). */
  type Node =
    | { kind: 'leaf'; text: string }
    | { kind: 'arr'; items: Node[] }
    | { kind: 'obj'; entries: [string, Node][] };

  const KEYS = ['a', 'b', 'a/b', 'm~n', 'say "hi"'];
  const nodeArb: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc
        .constantFrom('1', 'true', 'null', '"x"', '"]}\\""', '-2.5e3')
        .map((text) => ({ kind: 'leaf' as const, text })),
      fc.array(tie('node'), { maxLength: 4 }).map((items) => ({ kind: 'arr' as const, items })),
      fc
        .array(fc.tuple(fc.constantFrom(...KEYS), tie('node')), { maxLength: 5 })
        .map((entries) => ({ kind: 'obj' as const, entries })),
    ),
  })).node;

  /** Serializes `node` with the given spacing, spelling some keys with \u escapes; records each node's offset. */
  function serialize(root: Node, space: string, escapeEvery: number): [string, Map<Node, number>] {
    const at = new Map<Node, number>();
    let out = '';
    let keyCount = 0;
    const write = (n: Node): void => {
      at.set(n, out.length);
      if (n.kind === 'leaf') out += n.text;
      else if (n.kind === 'arr') {
        out += '[' + space;
        n.items.forEach((item, k) => {
          if (k > 0) out += ',' + space;
          write(item);
        });
        out += space + ']';
      } else {
        out += '{' + space;
        n.entries.forEach(([key, value], k) => {
          if (k > 0) out += ',' + space;
          const plain = JSON.stringify(key);
          // Every so often the first character is spelled as a \u escape: the same key on read.
          out +=
            ++keyCount % escapeEvery === 0
              ? `"\\u${key.charCodeAt(0).toString(16).padStart(4, '0')}${plain.slice(2)}`
              : plain;
          out += space + ':' + space;
          write(value);
        });
        out += space + '}';
      }
    };
    out += space;
    write(root);
    return [out + space, at];
  }

  /** Every pointer into the tree, including into values a later repeated key replaces. */
  function pointersOf(n: Node, base = ''): string[] {
    const out = [base];
    if (n.kind === 'arr') n.items.forEach((c, k) => out.push(...pointersOf(c, `${base}/${k}`)));
    if (n.kind === 'obj')
      for (const [key, c] of n.entries)
        out.push(...pointersOf(c, `${base}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`));
    return out;
  }

  /** The node a pointer names as the reader sees it (the last of repeated keys), or its deepest existing ancestor. */
  function resolve(root: Node, pointer: string): Node {
    let n = root;
    if (pointer === '') return n;
    for (const raw of pointer.slice(1).split('/')) {
      const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      let next: Node | undefined;
      if (n.kind === 'arr' && /^(0|[1-9][0-9]*)$/.test(token)) next = n.items[Number(token)];
      if (n.kind === 'obj') next = n.entries.filter(([k]) => k === token).pop()?.[1];
      if (next === undefined) return n;
      n = next;
    }
    return n;
  }

  it('gives the offset of the value the reader keeps, or of its deepest existing ancestor', () => {
    fc.assert(
      fc.property(
        nodeArb,
        fc.constantFrom('', ' ', '\n  '),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.constantFrom('/zz', '/a/9', '/0/a/zz', '/b/0/0/1'), { maxLength: 2 }),
        (root, space, escapeEvery, extra) => {
          const [text, at] = serialize(root, space, escapeEvery);
          const pointers = [...new Set([...pointersOf(root), ...extra])];
          const got = locatePointers(text, pointers);
          for (const p of pointers)
            expect(got.get(p), `${p} in ${text}`).toBe(at.get(resolve(root, p)));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
