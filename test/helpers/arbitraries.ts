/**
 * fast-check arbitraries for version 1 conversations (SPEC §1), shared by the
 * property suites. With `valid: true` every value is schema-valid; otherwise
 * they also break the schema in the ways stored histories do (calls without
 * a name, images with both or neither of url and data, odd content items).
 */
import fc from 'fast-check';
import { JsonNumber, type JsonObject, type JsonValue } from '../../src/model/json.js';
import type { Message, Part } from '../../src/model/types.js';

/** Options of the conversation arbitraries. */
export interface ArbitraryOptions {
  /** Only schema-valid values (default false). */
  valid?: boolean;
  /** Longest message list (default 10). */
  maxMessages?: number;
}

/** A small pool of call ids, so duplicate ids, orphans and results before their call happen often. */
export const CALL_IDS = ['call_1', 'call_2', 'call_3', 'call_4'] as const;

/** The extra (unknown) field names the arbitraries add; none is a field of the v1 model. */
export const EXTRA_KEYS = ['metadata', 'createdAt', 'x-provider', 'cache_control', 'extraField'];

/** Number texts a double cannot keep: the reader keeps them as {@link JsonNumber}s. */
export const EXACT_NUMBER_TEXTS = [
  '12345678901234567890123',
  '1.0000000000000000001',
  '5e-400',
  '1e400',
  '1.0',
  '-0',
  '1E5',
  '0.10',
] as const;

/** A call id from the small pool. */
export const callIdArb = fc.constantFrom(...CALL_IDS);

/** A tool name. */
export const toolNameArb = fc.constantFrom('search', 'write_file', 'read', 'calc');

/** A {@link JsonNumber} whose text a double would lose. */
export const exactNumberArb: fc.Arbitrary<JsonValue> = fc
  .constantFrom(...EXACT_NUMBER_TEXTS)
  .map((t) => new JsonNumber(t));

/** Any JSON value (small), sometimes holding exact numbers. */
export const jsonArb: fc.Arbitrary<JsonValue> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => v as unknown as JsonValue), weight: 3 },
  { arbitrary: exactNumberArb, weight: 1 },
  { arbitrary: fc.array(exactNumberArb, { maxLength: 3 }), weight: 1 },
  {
    arbitrary: fc.record({ n: exactNumberArb, s: fc.string({ unit: 'binary', maxLength: 6 }) }),
    weight: 1,
  },
);

/** Extra fields an object may carry (preserved verbatim by every operation). */
export const extrasArb: fc.Arbitrary<JsonObject> = fc.dictionary(
  fc.constantFrom(...EXTRA_KEYS),
  jsonArb,
  { maxKeys: 2, noNullPrototype: true },
);

/** Adds extra fields to some of the values; the base's own fields win. */
function withExtras<T extends JsonObject>(base: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc
    .tuple(base, fc.option(extrasArb, { nil: undefined, freq: 3 }))
    .map(([b, e]) => (e === undefined ? b : ({ ...e, ...b } as T)));
}

/** Builds a part arbitrary from a record model whose optional keys may be absent (never undefined). */
function partRecord(
  model: Record<string, fc.Arbitrary<JsonValue>>,
  requiredKeys: string[],
): fc.Arbitrary<Part> {
  return withExtras(
    fc
      .record(model, { requiredKeys, noNullPrototype: true })
      .map((p) => p as unknown as JsonObject),
  ).map((p) => p as Part);
}

/** Tool-call arguments: mostly JSON objects, often truncated or not an object at all. */
export const argumentsArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('{}', '{"q":"cats"}', ' {"path": "a.txt", "n": 1.0} ', '{"a":[1,2,{"b":null}]}'),
  fc.constantFrom('{"pa', '', 'null', '[1]', '"text"', '{"a":', '{', '1', ' ', '{"a":1}}'),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  fc
    .dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }))
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 8 }),
);

/** Schemes for media URLs: safe ones in several spellings and many unsafe ones. */
export const SCHEMES = [
  'http',
  'https',
  'HTTPS',
  'HtTp',
  'file',
  'FILE',
  'data',
  'javascript',
  'ftp',
  'blob',
  'chrome-extension',
  's3',
  'gs',
  'mailto',
  'c',
] as const;

/** A media URL with a random scheme (or none), including the spellings browsers normalize. */
export const urlArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'https://example.com/cat.png',
    'http://example.com/a.pdf',
    'HTTPS://EXAMPLE.COM/X.PNG',
    ' \u0001https://example.com/x ',
    '\thttp://example.com/x',
    'ht\ttp://example.com/x',
    'h\nttps://example.com/x',
    'https://exa mple.com/strange host',
    'https:',
    'file:///etc/passwd',
    ' file:///etc/passwd',
    'data:image/png;base64,iVBORw0KGgo=',
    'javascript:alert(1)',
    '//evil.example/x.png',
    'relative/x.png',
    '/abs/x.png',
    '',
    ' ',
    'c:\\images\\x.png',
    '1http://x',
  ),
  fc
    .tuple(fc.constantFrom(...SCHEMES), fc.constantFrom(':', '://', ':/'), fc.webSegment())
    .map(([s, sep, rest]) => s + sep + rest),
  fc.webUrl(),
  fc.string({ maxLength: 12 }),
);

const mediaTypeArb = fc.constantFrom('image/png', 'image/jpeg', 'application/pdf', 'text/plain');
/** Base64 data: short random strings, or the first bytes of a PNG, a JPEG or an HTML page. */
const base64Arb = fc.oneof(
  { arbitrary: fc.base64String({ maxLength: 12 }), weight: 4 },
  {
    arbitrary: fc.constantFrom(
      'iVBORw0KGgoAAAANSUhEUg==',
      '/9j/4AAQSkZJRgABAQAAAQ==',
      'PCFET0NUWVBFIGh0bWw+PGh0bWw+',
    ),
    weight: 1,
  },
);
const textArb = fc.string({ maxLength: 16 });
const binaryTextArb = fc.string({ unit: 'binary', maxLength: 8 });

/** An `image` or `document` part. */
function mediaArb(type: 'image' | 'document', valid: boolean): fc.Arbitrary<Part> {
  const kind = fc.constant(type);
  const nameArb = fc.string({ maxLength: 8 });
  const urlModel: Record<string, fc.Arbitrary<JsonValue>> = {
    type: kind,
    url: urlArb,
    mediaType: mediaTypeArb,
  };
  const dataModel: Record<string, fc.Arbitrary<JsonValue>> = {
    type: kind,
    data: base64Arb,
    mediaType: mediaTypeArb,
  };
  if (type === 'document') {
    urlModel.name = nameArb;
    dataModel.name = nameArb;
  }
  const urlRequired = type === 'document' ? ['type', 'url', 'mediaType'] : ['type', 'url'];
  const byUrl = partRecord(urlModel, urlRequired);
  const byData = partRecord(dataModel, ['type', 'data', 'mediaType']);
  if (valid) return fc.oneof({ arbitrary: byUrl, weight: 3 }, { arbitrary: byData, weight: 1 });
  const both = partRecord({ ...urlModel, data: base64Arb }, ['type', 'url', 'data']);
  const neither = partRecord({ type: kind, mediaType: mediaTypeArb }, ['type']);
  const dataNoType = partRecord({ type: kind, data: base64Arb }, ['type', 'data']);
  return fc.oneof(
    { arbitrary: byUrl, weight: 6 },
    { arbitrary: byData, weight: 2 },
    { arbitrary: both, weight: 1 },
    { arbitrary: neither, weight: 1 },
    { arbitrary: dataNoType, weight: 1 },
  );
}

/** A `text` part. */
export const textPartArb: fc.Arbitrary<Part> = partRecord(
  { type: fc.constant('text'), text: fc.oneof(textArb, binaryTextArb) },
  ['type', 'text'],
);

/** A part of a type version 1 does not know (carried through unchanged). */
export const unknownPartArb: fc.Arbitrary<Part> = partRecord(
  {
    type: fc.constantFrom('audio', 'file', 'citation', 'x-custom', 'Text', 'tool_call'),
    url: urlArb,
    payload: jsonArb,
  },
  ['type'],
);

/** A `reasoning` part with opaque signature / redacted fields. */
export const reasoningPartArb: fc.Arbitrary<Part> = partRecord(
  {
    type: fc.constant('reasoning'),
    text: textArb,
    signature: base64Arb,
    redacted: base64Arb,
  },
  ['type', 'text'],
);

/** A `tool-call` part: id from the small pool or absent; name absent only when not `valid`. */
export function toolCallPartArb(valid = false): fc.Arbitrary<Part> {
  return partRecord(
    {
      type: fc.constant('tool-call'),
      id: callIdArb,
      name: toolNameArb,
      arguments: argumentsArb,
    },
    valid ? ['type', 'name', 'arguments'] : ['type', 'arguments'],
  );
}

/** A part allowed in a tool result's `content` (plus, when not `valid`, things that are not). */
export function contentPartArb(valid = false): fc.Arbitrary<JsonValue> {
  const good: fc.Arbitrary<JsonValue> = fc.oneof(
    { arbitrary: textPartArb, weight: 3 },
    { arbitrary: mediaArb('image', valid), weight: 2 },
    { arbitrary: mediaArb('document', valid), weight: 2 },
    { arbitrary: unknownPartArb, weight: 1 },
  );
  if (valid) return good;
  return fc.oneof(
    { arbitrary: good, weight: 10 },
    { arbitrary: toolCallPartArb(), weight: 1 },
    { arbitrary: fc.constantFrom<JsonValue>('text', null, 3, []), weight: 1 },
  );
}

/** A `tool-result` part: callId from the small pool or absent. */
export function toolResultPartArb(valid = false): fc.Arbitrary<Part> {
  return partRecord(
    {
      type: fc.constant('tool-result'),
      callId: callIdArb,
      name: toolNameArb,
      content: fc.array(contentPartArb(valid), { maxLength: 3 }),
      failed: fc.boolean(),
    },
    ['type', 'content'],
  );
}

/** Any part, of every type, known or not. */
export function partArb(valid = false): fc.Arbitrary<Part> {
  return fc.oneof(
    textPartArb,
    mediaArb('image', valid),
    mediaArb('document', valid),
    toolCallPartArb(valid),
    toolResultPartArb(valid),
    reasoningPartArb,
    unknownPartArb,
  );
}

/** The message roles of version 1. */
export const roleArb = fc.constantFrom('system', 'user', 'assistant', 'tool');

/** Parts typical for a role, with any part now and then. */
function partForRole(role: string, valid: boolean): fc.Arbitrary<Part> {
  const any = { arbitrary: partArb(valid), weight: 1 };
  switch (role) {
    case 'assistant':
      return fc.oneof(
        { arbitrary: toolCallPartArb(valid), weight: 5 },
        { arbitrary: textPartArb, weight: 2 },
        { arbitrary: reasoningPartArb, weight: 1 },
        any,
      );
    case 'tool':
      return fc.oneof({ arbitrary: toolResultPartArb(valid), weight: 6 }, any);
    case 'user':
      return fc.oneof(
        { arbitrary: textPartArb, weight: 3 },
        { arbitrary: mediaArb('image', valid), weight: 2 },
        { arbitrary: mediaArb('document', valid), weight: 1 },
        any,
      );
    default:
      return fc.oneof({ arbitrary: textPartArb, weight: 4 }, any);
  }
}

/** A message of any role, with role-typical parts, optional ids and name, and extra fields. */
export function messageArb(options: ArbitraryOptions = {}): fc.Arbitrary<Message> {
  const valid = options.valid ?? false;
  const idArb = fc.oneof(fc.uuid({ version: 7 }), fc.constantFrom('run-1', 'not-a-uuid', ''));
  return roleArb.chain((role) =>
    withExtras(
      fc
        .record(
          {
            role: fc.constant(role),
            parts: fc.array(partForRole(role, valid), { maxLength: 4 }),
            runId: idArb,
            conversationId: idArb,
            name: fc.string({ maxLength: 6 }),
          },
          { requiredKeys: ['role', 'parts'], noNullPrototype: true },
        )
        .map((m) => m as unknown as JsonObject),
    ).map((m) => m as Message),
  );
}

/** A message list: the input of every operation. */
export function messagesArb(options: ArbitraryOptions = {}): fc.Arbitrary<Message[]> {
  return fc.array(messageArb(options), { maxLength: options.maxMessages ?? 10 });
}

/** A stored conversation: the version 1 envelope (with extra top-level fields) or a bare array. */
export function conversationArb(options: ArbitraryOptions = {}): fc.Arbitrary<JsonValue> {
  const envelope = withExtras(
    fc
      .record(
        {
          version: fc.constant(1),
          messages: messagesArb(options),
          conversationId: fc.uuid({ version: 7 }),
        },
        { requiredKeys: ['version', 'messages'], noNullPrototype: true },
      )
      .map((e) => e as unknown as JsonObject),
  );
  return fc.oneof(
    { arbitrary: envelope as fc.Arbitrary<JsonValue>, weight: 3 },
    { arbitrary: messagesArb(options) as fc.Arbitrary<JsonValue>, weight: 1 },
  );
}
