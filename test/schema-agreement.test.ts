/**
 * The zod model (src/model/types.ts) and schemas/conversation.v1.schema.json
 * are one contract (SPEC §1): they accept and reject the same values.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson, type JsonObject, type JsonValue } from '../src/model/json.js';
import { ConversationSchema } from '../src/model/schema.js';
import { conversationArb, messagesArb } from './helpers/arbitraries.js';

const schemaText = readFileSync(
  new URL('../schemas/conversation.v1.schema.json', import.meta.url),
  'utf8',
);
const schema = JSON.parse(schemaText) as Record<string, unknown>;
// Unknown keywords and formats are errors; ajv's type-placement style checks are not the contract.
const ajv = new Ajv2020({
  strictSchema: true,
  strictTypes: false,
  strictRequired: false,
  allErrors: true,
  // The part dispatch is an OpenAPI-style discriminator: ajv uses it for speed.
  discriminator: true,
});
const validate = ajv.compile(schema);
// A validator that knows no `discriminator` keyword reads the same oneOf and must agree.
const plainValidate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);

const zodAccepts = (v: unknown): boolean => ConversationSchema.safeParse(v).success;
const schemaAccepts = (v: unknown): boolean => {
  const verdict = validate(v) === true;
  if ((plainValidate(v) === true) !== verdict)
    throw new Error('the schema reads differently without the discriminator');
  return verdict;
};

/** Both validators' verdicts, with the errors when they disagree. */
function verdicts(v: unknown): { zod: boolean; schema: boolean } {
  return { zod: zodAccepts(v), schema: schemaAccepts(v) };
}

const msg = (parts: JsonValue[], extra: JsonObject = {}): JsonObject => ({
  role: 'user',
  parts,
  ...extra,
});
const conv = (...messages: JsonValue[]): JsonValue => ({ version: 1, messages });
const text = { type: 'text', text: 'hi' };
const call = { type: 'tool-call', id: 'c1', name: 'search', arguments: '{"q":"x"}' };
const result = { type: 'tool-result', callId: 'c1', content: [text] };

const VALID: [string, JsonValue][] = [
  ['an empty envelope', { version: 1, messages: [] }],
  ['an empty bare array', []],
  [
    'every part type in its place',
    conv(
      { role: 'system', parts: [text] },
      msg([
        text,
        { type: 'image', url: 'https://x/a.png' },
        { type: 'image', url: 'https://x/a.png', mediaType: 'image/png' },
        { type: 'image', data: 'AAAA', mediaType: 'image/png' },
        { type: 'document', url: 'https://x/a.pdf', mediaType: 'application/pdf', name: 'a' },
        { type: 'document', data: 'AAAA', mediaType: 'application/pdf' },
      ]),
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'r', signature: 'sig', redacted: 'xx' },
          call,
          { type: 'tool-call', name: 'no-id', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        parts: [
          { ...result, name: 'search', failed: true },
          {
            type: 'tool-result',
            content: [
              { type: 'image', data: 'AAAA', mediaType: 'image/png' },
              { type: 'document', url: 'file:///x', mediaType: 'text/plain' },
            ],
          },
          { type: 'tool-result', callId: 'c2', content: [] },
        ],
      },
    ),
  ],
  ['a bare array of messages', [msg([text]), { role: 'assistant', parts: [call] }]],
  ['an unknown part type', conv(msg([{ type: 'audio', payload: { a: 1 } }]))],
  [
    'an unknown part type in tool-result content',
    conv({ role: 'tool', parts: [{ ...result, content: [{ type: 'audio' }] }] }),
  ],
  ['empty parts', conv(msg([]), { role: 'assistant', parts: [] })],
  ['non-UUID ids', conv(msg([text], { runId: 'run-1', conversationId: '' }))],
  [
    'arguments that are not a JSON object',
    conv({
      role: 'assistant',
      parts: [
        { ...call, arguments: '[1]' },
        { ...call, arguments: '' },
        { ...call, arguments: '{"pa' },
      ],
    }),
  ],
  [
    'extra fields everywhere',
    {
      version: 1,
      messages: [msg([{ ...text, cache: { a: [1] } }], { createdAt: 5, name: 'bob' })],
      metadata: { x: 1 },
      conversationId: 'c',
    },
  ],
  ['a tool-call with an empty name', conv({ role: 'assistant', parts: [{ ...call, name: '' }] })],
  [
    'parts in unusual roles',
    conv({ role: 'system', parts: [call, result, { type: 'image', url: 'x' }] }),
  ],
  ['an image url that is not http(s)', conv(msg([{ type: 'image', url: 'file:///etc/passwd' }]))],
  [
    'a document with data and a name',
    conv(msg([{ type: 'document', data: 'AA', mediaType: 'text/plain', name: 'n' }])),
  ],
  [
    'exact numbers in extra fields',
    parseJson('{"version":1,"messages":[],"n":1.0,"m":[12345678901234567890123]}'),
  ],
];

const INVALID: [string, JsonValue][] = [
  ['a message without role', conv({ parts: [text] })],
  ['a bad role', conv({ role: 'developer', parts: [text] })],
  ['a role that is not a string', conv({ role: 1, parts: [text] })],
  ['a message without parts', conv({ role: 'user' })],
  ['parts that are not an array', conv({ role: 'user', parts: text })],
  ['a message that is not an object', conv('hello')],
  ['a null message', conv(null)],
  ['a runId that is not a string', conv(msg([text], { runId: 1 }))],
  ['a conversationId that is not a string', conv(msg([text], { conversationId: null }))],
  ['a message name that is not a string', conv(msg([text], { name: ['a'] }))],
  ['a part without type', conv(msg([{ text: 'hi' }]))],
  ['a part type that is not a string', conv(msg([{ type: 5, text: 'hi' }]))],
  ['a part that is not an object', conv(msg(['hi']))],
  ['a text part without text', conv(msg([{ type: 'text' }]))],
  ['a text part whose text is not a string', conv(msg([{ type: 'text', text: 5 }]))],
  [
    'an image with both url and data',
    conv(msg([{ type: 'image', url: 'https://x', data: 'AA', mediaType: 'image/png' }])),
  ],
  ['an image with neither url nor data', conv(msg([{ type: 'image', mediaType: 'image/png' }]))],
  ['image data without mediaType', conv(msg([{ type: 'image', data: 'AA' }]))],
  ['an image url that is not a string', conv(msg([{ type: 'image', url: 5 }]))],
  [
    'an image mediaType that is not a string',
    conv(msg([{ type: 'image', url: 'https://x', mediaType: 1 }])),
  ],
  ['a document without mediaType', conv(msg([{ type: 'document', url: 'https://x/a.pdf' }]))],
  ['a document with data and no mediaType', conv(msg([{ type: 'document', data: 'AA' }]))],
  [
    'a document with both url and data',
    conv(msg([{ type: 'document', url: 'https://x', data: 'AA', mediaType: 'a/b' }])),
  ],
  ['a document with neither url nor data', conv(msg([{ type: 'document', mediaType: 'a/b' }]))],
  [
    'a document name that is not a string',
    conv(msg([{ type: 'document', url: 'https://x', mediaType: 'a/b', name: 1 }])),
  ],
  [
    'a tool-call without name',
    conv({ role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', arguments: '{}' }] }),
  ],
  [
    'a tool-call without arguments',
    conv({ role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'n' }] }),
  ],
  [
    'non-string arguments (an object)',
    conv({ role: 'assistant', parts: [{ ...call, arguments: { q: 'x' } }] }),
  ],
  [
    'non-string arguments (null)',
    conv({ role: 'assistant', parts: [{ ...call, arguments: null }] }),
  ],
  ['a tool-call id that is not a string', conv({ role: 'assistant', parts: [{ ...call, id: 7 }] })],
  [
    'a tool-call name that is not a string',
    conv({ role: 'assistant', parts: [{ ...call, name: null }] }),
  ],
  [
    'a tool-result without content',
    conv({ role: 'tool', parts: [{ type: 'tool-result', callId: 'c1' }] }),
  ],
  [
    'tool-result content that is not an array',
    conv({ role: 'tool', parts: [{ ...result, content: 'ok' }] }),
  ],
  [
    'tool-result content holding a tool-call part',
    conv({ role: 'tool', parts: [{ ...result, content: [call] }] }),
  ],
  [
    'tool-result content holding a tool-result part',
    conv({ role: 'tool', parts: [{ ...result, content: [result] }] }),
  ],
  [
    'tool-result content holding a reasoning part',
    conv({ role: 'tool', parts: [{ ...result, content: [{ type: 'reasoning', text: 'r' }] }] }),
  ],
  [
    'tool-result content holding a non-object',
    conv({ role: 'tool', parts: [{ ...result, content: ['ok'] }] }),
  ],
  [
    'tool-result content holding a part without type',
    conv({ role: 'tool', parts: [{ ...result, content: [{ text: 'ok' }] }] }),
  ],
  [
    'tool-result content holding a bad text part',
    conv({ role: 'tool', parts: [{ ...result, content: [{ type: 'text' }] }] }),
  ],
  [
    'tool-result content holding a bad image',
    conv({ role: 'tool', parts: [{ ...result, content: [{ type: 'image', data: 'AA' }] }] }),
  ],
  ['failed that is not a boolean', conv({ role: 'tool', parts: [{ ...result, failed: 'yes' }] })],
  ['a callId that is not a string', conv({ role: 'tool', parts: [{ ...result, callId: 1 }] })],
  [
    'a tool-result name that is not a string',
    conv({ role: 'tool', parts: [{ ...result, name: 1 }] }),
  ],
  [
    'a reasoning part without text',
    conv({ role: 'assistant', parts: [{ type: 'reasoning', signature: 's' }] }),
  ],
  [
    'a reasoning signature that is not a string',
    conv({ role: 'assistant', parts: [{ type: 'reasoning', text: 'r', signature: 1 }] }),
  ],
  [
    'a reasoning redacted that is not a string',
    conv({ role: 'assistant', parts: [{ type: 'reasoning', text: 'r', redacted: {} }] }),
  ],
  ['version 2', { version: 2, messages: [] }],
  ['version "1"', { version: '1', messages: [] }],
  ['an envelope without version', { messages: [] }],
  ['an envelope without messages', { version: 1 }],
  ['messages that are not an array', { version: 1, messages: {} }],
  ['a string document', 'conversation'],
  ['a null document', null],
  ['a number document', 1],
  ['an array holding a non-message', [msg([text]), 3]],
];

describe('the schema file', () => {
  it('is draft 2020-12 with the version in its $id', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(String(schema.$id)).toMatch(/v1/);
    expect(String(schema.$id)).toMatch(/^https?:\/\//);
  });

  it('compiles with ajv (unknown keywords are errors)', () => {
    expect(typeof validate).toBe('function');
  });
});

describe('zod and the JSON Schema agree', () => {
  it.each(VALID)('both accept %s', (_name, value) => {
    expect(verdicts(value)).toEqual({ zod: true, schema: true });
  });

  it.each(INVALID)('both reject %s', (_name, value) => {
    expect(verdicts(value)).toEqual({ zod: false, schema: false });
  });

  it('both accept every schema-valid generated conversation', () => {
    fc.assert(
      fc.property(conversationArb({ valid: true }), (value) => {
        expect(verdicts(value)).toEqual({ zod: true, schema: true });
      }),
      { numRuns: 300 },
    );
  });

  it('agree on generated conversations that may break the schema', () => {
    fc.assert(
      fc.property(messagesArb(), fc.boolean(), (messages, wrap) => {
        const value: JsonValue = wrap ? { version: 1, messages } : messages;
        const v = verdicts(value);
        expect(v.zod, stringifyJson(value, 0)).toBe(v.schema);
      }),
      { numRuns: 500 },
    );
  });

  it('agree on random mutations of valid conversations', () => {
    fc.assert(
      fc.property(
        conversationArb({ valid: true }),
        fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
        (value, mutations) => {
          let v = value;
          for (const m of mutations) v = mutate(v, m);
          const got = verdicts(v);
          expect(got.zod, stringifyJson(v, 0)).toBe(got.schema);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

interface Mutation {
  kind: 'delete' | 'set' | 'add';
  at: number;
  key: string;
  value: JsonValue;
}

const POOL: JsonValue[] = [
  null,
  0,
  1,
  2,
  '',
  'x',
  'user',
  'developer',
  'tool-call',
  'tool-result',
  'reasoning',
  'image',
  'document',
  'text',
  true,
  [],
  {},
  { type: 'text' },
  { type: 'text', text: 't' },
  { type: 'tool-call', name: 'n', arguments: '{}' },
  { type: 'reasoning', text: 'r' },
  { type: 'image', url: 'https://x' },
  { type: 'image', data: 'AA' },
  { type: 'audio' },
  { role: 'user', parts: [] },
];
const KEYS = [
  'type',
  'text',
  'url',
  'data',
  'mediaType',
  'name',
  'id',
  'arguments',
  'callId',
  'content',
  'failed',
  'signature',
  'redacted',
  'role',
  'parts',
  'runId',
  'conversationId',
  'version',
  'messages',
];

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('delete' as const, 'set' as const, 'add' as const),
  at: fc.nat(),
  key: fc.constantFrom(...KEYS),
  value: fc.constantFrom(...POOL),
});

/** Every container in a value, with its path. */
function containers(
  v: JsonValue,
  path: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  if (
    typeof v !== 'object' ||
    v === null ||
    !(Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype)
  )
    return out;
  out.push(path);
  if (Array.isArray(v)) v.forEach((x, i) => containers(x, [...path, i], out));
  else for (const k of Object.keys(v)) containers((v as JsonObject)[k]!, [...path, k], out);
  return out;
}

/** A copy of `value` with one change in one of its containers. */
function mutate(value: JsonValue, m: Mutation): JsonValue {
  const copy = parseJson(stringifyJson(value, 0));
  const all = containers(copy);
  const path = all[m.at % all.length]!;
  let target: JsonValue = copy;
  for (const step of path) target = (target as Record<string | number, JsonValue>)[step]!;
  const fresh = parseJson(stringifyJson(m.value, 0));
  if (Array.isArray(target)) {
    const i = target.length === 0 ? 0 : m.at % target.length;
    if (m.kind === 'delete') target.splice(i, 1);
    else if (m.kind === 'set' && target.length > 0) target[i] = fresh;
    else target.push(fresh);
  } else {
    const obj = target as JsonObject;
    const keys = Object.keys(obj);
    if (m.kind === 'delete' && keys.length > 0) delete obj[keys[m.at % keys.length]!];
    else if (m.kind === 'set' && keys.length > 0) obj[keys[m.at % keys.length]!] = fresh;
    else obj[m.key] = fresh;
  }
  return copy;
}
