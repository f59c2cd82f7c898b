/**
 * Helpers every format adapter uses: arguments between text and objects,
 * `providerData` bookkeeping, data: URLs, pointers and locators, reading a
 * list of messages, and loss reporting.
 */
import { PROVIDER_STORAGE_SCHEMES, unsafeKeptScheme } from '../core/url.js';
import { SourceError } from '../model/errors.js';
import {
  JsonNumber,
  parseJson,
  setOwn,
  stringifyJson,
  type JsonObject,
  type JsonValue,
} from '../model/json.js';
import { escapePointerToken } from '../model/pointer.js';
import { isObject, type Message, type Part } from '../model/types.js';
import { providerDataOf, type Conversation, type Locator, type Loss } from './format.js';

/** The key of the object a call's arguments become when their text is not a JSON object (SPEC §4). */
export const TRUNCATED_ARGS_KEY = 'truncated_args';

/**
 * Tool-call arguments as an object, for formats whose arguments are objects:
 * the parsed text when it is a JSON object (numbers keep their text), else
 * `{"truncated_args": "<the verbatim text>"}`.
 */
export function argumentsToObject(text: string): JsonObject {
  try {
    const v = parseJson(text);
    if (isObject(v)) return v;
  } catch {
    // Not JSON: wrapped below.
  }
  return { [TRUNCATED_ARGS_KEY]: text };
}

/**
 * Tool-call arguments as the JSON value their text holds (any value, not only
 * an object), or `{"truncated_args": ...}` when the text is not JSON.
 */
export function argumentsToValue(text: string): JsonValue {
  try {
    return parseJson(text);
  } catch {
    return argumentsToObject(text);
  }
}

/** Tool-call arguments as text, from a format whose arguments are objects: compact JSON, numbers as written. */
export function objectToArguments(value: JsonValue): string {
  return stringifyJson(value, 0);
}

/**
 * How a tool input that is not a JSON object was written, kept as the `$input` hint: `absent`
 * (no input), `string` (the raw text, as the AI SDK keeps unparsable model output), `json`
 * (another JSON value: an array, a number).
 */
export type InputMode = 'absent' | 'string' | 'json';

/** An AI SDK tool `input` (ModelMessage or UIMessage) as arguments text, and the mode to write it back in. */
export function inputToArguments(input: JsonValue | undefined): {
  text: string;
  mode?: InputMode;
} {
  if (input === undefined) return { text: '', mode: 'absent' };
  if (typeof input === 'string') return { text: input, mode: 'string' };
  const text = objectToArguments(input);
  return isPlainObject(input) ? { text } : { text, mode: 'json' };
}

/**
 * Arguments text as an AI SDK tool `input`, in the mode a read recorded (`$input`); without one,
 * an object (SPEC §4: `{"truncated_args": ...}` when the text is not one). Undefined: no input.
 */
export function argumentsToInput(text: string, mode: JsonValue | undefined): JsonValue | undefined {
  if (mode === 'string') return text;
  if (mode === 'absent' && text === '') return undefined;
  if (mode === 'json') return argumentsToValue(text);
  return argumentsToObject(text);
}

// ---------------------------------------------------------------------------
// Objects and providerData

/** True when `v` is a plain JSON object (not an array, not a number wrapper). */
export function isPlainObject(v: JsonValue | undefined): v is JsonObject {
  return isObject(v) && !(v instanceof JsonNumber);
}

/** The fields of `obj` other than `known`, in their order, or undefined when there are none. */
export function restOf(obj: JsonObject, known: readonly string[]): JsonObject | undefined {
  let rest: JsonObject | undefined;
  for (const key of Object.keys(obj)) {
    if (known.includes(key)) continue;
    rest ??= {};
    // A source field named like a hint is kept escaped, so it is never read as one.
    setOwn(rest, storedKey(key), obj[key]!);
  }
  return rest;
}

/**
 * True for a hint an adapter wrote into providerData (`$name`); a source field that starts with
 * `$` is kept as `$$name` (see {@link restOf}) and is data.
 */
export function isHintKey(key: string): boolean {
  return key.startsWith('$') && !key.startsWith('$$');
}

/** The key kept data holds a source field under (`$name` is kept as `$$name`). */
export function storedKey(field: string): string {
  return field.startsWith('$') ? `$${field}` : field;
}

/** The source field name of a key of kept data (`$$name` is the field `$name`). */
export function sourceKey(key: string): string {
  return key.startsWith('$$') ? key.slice(1) : key;
}

/** Sets `providerData[format]` on a v1 message, part or conversation when there is something to keep, and returns it. */
export function keepProviderData<T extends JsonObject>(
  target: T,
  format: string,
  data: JsonObject | undefined,
): T {
  if (data === undefined || Object.keys(data).length === 0) return target;
  const existing = target.providerData;
  const pd: JsonObject = isPlainObject(existing) ? existing : {};
  setOwn(pd, format, data);
  setOwn(target, 'providerData', pd);
  return target;
}

/**
 * Copies each field of `data` other than `skip` onto `target` (restoring kept fields on write),
 * skipping `$`-prefixed hints. A field the writer already set wins: kept data fills in what the
 * v1 fields do not say, and never overrides them (a stored `role` or `url` in providerData must
 * not turn a user message into a system prompt, or a checked URL into another one).
 */
export function restoreFields(
  target: JsonObject,
  data: JsonObject | undefined,
  skip: readonly string[] = [],
): void {
  if (data === undefined) return;
  for (const key of Object.keys(data)) {
    if (isHintKey(key)) continue;
    const name = sourceKey(key);
    if (skip.includes(name) || Object.hasOwn(target, name)) continue;
    setOwn(target, name, data[key]!);
  }
}

/**
 * Kept request data without the fields named `keys`, where this format sets a system prompt. A
 * reader turns such a field into a v1 system message, so one still in kept data was put there by
 * hand: written out, it would bring back a system prompt sanitize dropped, or add one no system
 * message holds. Whatever its shape (a provider may read shapes the reader does not), it is left
 * out, a loss, unless it sets nothing (`null`, `""`, `[]`, `{}`).
 */
export function withoutSystemFields(
  kept: JsonObject | undefined,
  keys: readonly string[],
  losses: Loss[],
): JsonObject | undefined {
  if (kept === undefined) return kept;
  let out = kept;
  for (const key of keys) {
    if (!Object.hasOwn(kept, key) || setsNothing(kept[key]!)) continue;
    if (out === kept) {
      out = {};
      for (const k of Object.keys(kept)) setOwn(out, k, kept[k]!);
    }
    delete out[key];
    losses.push({
      what: `"${key}" kept in providerData (a system message carries the system prompt)`,
    });
  }
  return out;
}

/** True for a value that sets nothing: `null`, `""`, `[]`, `{}`. */
function setsNothing(v: JsonValue): boolean {
  if (v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

/**
 * True when kept data holds `field`: a source field the reader could not map (a content that is
 * an object, a tool name that is a number), which the writer puts back instead of a default of
 * its own. The fields that give authority (a role, a system prompt, a URL) are never taken so:
 * see restoreFields and withoutSystemFields.
 */
export function keptField(data: JsonObject | undefined, field: string): boolean {
  return data !== undefined && Object.hasOwn(data, field);
}

/**
 * A kept `field` the reader could not map (an object, a number: no provider reads it as
 * content), so writing it back keeps the round trip; undefined for anything a provider would
 * read (a string, an array), which only the v1 model may set.
 */
export function keptUnreadable(data: JsonObject | undefined, field: string): JsonValue | undefined {
  if (!keptField(data, field)) return undefined;
  const v = data![field]!;
  return typeof v === 'string' || Array.isArray(v) ? undefined : v;
}

/** A new object with the fields of `first`, then those of `second` (either may be absent). */
export function mergeFields(
  first: JsonObject | undefined,
  second: JsonObject | undefined,
): JsonObject {
  const out: JsonObject = {};
  for (const src of [first, second]) {
    if (src === undefined) continue;
    for (const k of Object.keys(src)) setOwn(out, k, src[k]!);
  }
  return out;
}

/**
 * A source node v1 cannot hold as a part: a part of type `<format>:<label>`
 * carrying the node whole as `providerData[format].part` (then the `hints`).
 */
export function rawPart(format: string, node: JsonValue, label: string, hints?: JsonObject): Part {
  const data: JsonObject = { part: node };
  if (hints !== undefined) for (const k of Object.keys(hints)) setOwn(data, k, hints[k]!);
  return keepProviderData({ type: `${format}:${label}` }, format, data);
}

/**
 * True, with a loss, when kept data a writer would write as it is (a block v1 cannot express)
 * holds a URL the provider would fetch from a place other than the web or its own storage:
 * sanitize drops such a part, and no writer brings one back. Every writer's kept blocks go
 * through here.
 */
export function refusesKeptUrl(
  kept: unknown,
  format: string,
  losses: Loss[],
  where: { messageIndex?: number; partIndex?: number },
  what: string,
): boolean {
  const scheme = unsafeKeptScheme(kept, PROVIDER_STORAGE_SCHEMES[format]);
  if (scheme === null) return false;
  losses.push({ ...where, what: `${what} with a ${scheme}: URL` });
  return true;
}

/** The node a {@link rawPart} keeps, to be written back as it was; undefined when {@link refusesKeptUrl}. */
export function keptNode(
  part: Part,
  format: string,
  losses: Loss[],
  where: { messageIndex?: number; partIndex?: number },
): JsonValue | undefined {
  const node = providerDataOf(part, format)!.part!;
  return refusesKeptUrl(node, format, losses, where, `${part.type} block`) ? undefined : node;
}

/** True for a {@link rawPart} of this format: a `<format>:` type whose providerData has the node. */
export function isRawPart(part: Part, format: string): boolean {
  const data = providerDataOf(part, format);
  return part.type.startsWith(`${format}:`) && data !== undefined && Object.hasOwn(data, 'part');
}

/** True for a plain `{type: "text", text}` part and nothing more: what a string content is written as. */
export function isPlainTextPart(v: JsonValue | undefined): boolean {
  return (
    isPlainObject(v) &&
    v.type === 'text' &&
    typeof v.text === 'string' &&
    Object.keys(v).length === 2
  );
}

/** A source `{type: "text", text}` item, whose `text` is a string, as a v1 text part keeping its other fields. */
export function readTextItem(
  item: JsonObject,
  ptr: string,
  format: string,
): { part: Part; loc: SourceLoc } {
  const text = item.text as string;
  const part = keepProviderData({ type: 'text', text }, format, restOf(item, ['type', 'text']));
  return { part, loc: { ptr, fields: { text: joinPointer(ptr, 'text') } } };
}

/**
 * A request body written from a format's kept request fields (`kept`): the
 * model first, as requests are usually written, then the defined fields of
 * `own`, then the other kept fields (hints left out).
 */
export function requestBody(
  kept: JsonObject | undefined,
  own: Record<string, JsonValue | undefined>,
): JsonObject {
  const body: JsonObject = {};
  if (kept !== undefined && Object.hasOwn(kept, 'model')) body.model = kept.model!;
  for (const key of Object.keys(own)) {
    const v = own[key];
    if (v !== undefined) setOwn(body, key, v);
  }
  restoreFields(body, kept);
  return body;
}

// ---------------------------------------------------------------------------
// Pointers and locators

/** Appends tokens to an RFC 6901 pointer. */
export function joinPointer(base: string, ...tokens: readonly (string | number)[]): string {
  let p = base;
  for (const t of tokens) p += '/' + escapePointerToken(t);
  return p;
}

/** Where one v1 part (or a tool result's content part) came from: absolute pointers. */
export interface SourceLoc {
  /** The source node of the part. */
  ptr: string;
  /** v1 field name → pointer of the source field it came from. */
  fields?: Record<string, string>;
  /** The locations of a tool result's content parts, by content index. */
  children?: SourceLoc[];
}

/** Where one v1 message and its parts came from. */
export interface MessageSourceLoc {
  ptr: string;
  parts: SourceLoc[];
}

/** A {@link Locator} over {@link MessageSourceLoc}s; `base` is the pointer of the message list. */
export function makeSourceLocator(base: string, locs: readonly MessageSourceLoc[]): Locator {
  return (messageIndex, partIndex, path = []) => {
    if (messageIndex === undefined) return base;
    const m = locs[messageIndex];
    if (m === undefined) return base;
    if (partIndex === undefined) return m.ptr;
    const found = m.parts[partIndex];
    if (found === undefined) return m.ptr;
    let loc: SourceLoc = found;
    let k = 0;
    while (k < path.length) {
      const key = String(path[k]);
      const child: SourceLoc | undefined = loc.children?.[Number(path[k + 1])];
      if (key === 'content' && k + 1 < path.length && child !== undefined) {
        loc = child;
        k += 2;
        continue;
      }
      return loc.fields?.[key] ?? loc.ptr;
    }
    return loc.ptr;
  };
}

// ---------------------------------------------------------------------------
// Reading messages

/** Throws the one-line error for a value that is not this format. */
export function notFormat(format: string, why: string): never {
  throw new SourceError(`not ${format}: ${why}`);
}

/**
 * The message list of a bare array or of a body's `messages` array, the
 * list's pointer and the body's other fields; throws (with `why`) for
 * anything else.
 */
export function messageList(
  value: JsonValue,
  format: string,
  why: string,
): { list: JsonValue[]; base: string; rest: JsonObject | undefined } {
  if (Array.isArray(value)) return { list: value, base: '', rest: undefined };
  if (isPlainObject(value) && Array.isArray(value.messages)) {
    return { list: value.messages, base: '/messages', rest: restOf(value, ['messages']) };
  }
  return notFormat(format, why);
}

/** Reads each source message of `list` (below pointer `base`) with `read`, appending to `messages` and `locs`. */
export function readEach<L>(
  list: readonly JsonValue[],
  base: string,
  read: (m: JsonValue, pointer: string, index: number) => { message: Message; loc: L },
  messages: Message[],
  locs: L[],
): void {
  list.forEach((m, i) => {
    const r = read(m, joinPointer(base, i), i);
    messages.push(r.message);
    locs.push(r.loc);
  });
}

/** Throws unless source message `index` is an object with a string `role`. */
export function assertMessage(
  m: JsonValue | undefined,
  index: number,
  format: string,
): asserts m is JsonObject & { role: string } {
  if (!isPlainObject(m)) notFormat(format, `message ${index} is not an object`);
  if (typeof m.role !== 'string') notFormat(format, `message ${index} has no string "role"`);
}

/** A v1 message (role, parts, then anything else). */
export function makeMessage(role: string, parts: Part[]): Message {
  return { role, parts };
}

/** A v1 conversation with the format's request-level fields kept. */
export function makeConversation(
  messages: Message[],
  format: string,
  requestRest: JsonObject | undefined,
): Conversation {
  const c: Conversation = { version: 1, messages };
  keepProviderData(c, format, requestRest);
  return c;
}

/** The name of each tool call id of a conversation (the first call's, when an id repeats). */
export function callNames(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type === 'tool-call' && typeof p.id === 'string' && typeof p.name === 'string') {
        if (!names.has(p.id)) names.set(p.id, p.name);
      }
    }
  }
  return names;
}

// ---------------------------------------------------------------------------
// Losses

/** Where a loss inside a message's part is. */
export type PartWhere = { messageIndex: number; partIndex: number };

/** The v1 conversation fields a writer carries (`providerData` aside); any other is a loss. */
export const CONVERSATION_FIELDS = ['version', 'messages'] as const;

/** The v1 message fields a writer carries (`providerData` aside); any other is a loss. */
export const MESSAGE_FIELDS = ['role', 'parts'] as const;

/** The fields of each v1 part type a writer carries (`providerData` aside); any other is a loss. */
export const PART_FIELDS = {
  text: ['type', 'text'],
  image: ['type', 'url', 'data', 'mediaType'],
  document: ['type', 'url', 'data', 'mediaType', 'name'],
  'tool-call': ['type', 'id', 'name', 'arguments'],
  'tool-result': ['type', 'callId', 'name', 'content', 'failed'],
  reasoning: ['type', 'text', 'signature', 'redacted'],
} as const satisfies Record<string, readonly string[]>;

/** Losses for `providerData` of other formats, and v1 fields a format cannot express, on one object. */
export function providerDataLosses(
  obj: JsonObject,
  format: string,
  where: { messageIndex?: number; partIndex?: number },
): Loss[] {
  const pd = obj.providerData;
  if (!isPlainObject(pd)) return [];
  // An entry of shape hints only ($-keys) carries no data another format could lose.
  return Object.keys(pd)
    .filter((k) => k !== format)
    .filter((k) => {
      const entry = pd[k];
      return !isPlainObject(entry) || Object.keys(entry).some((key) => !isHintKey(key));
    })
    .map((k) => ({ ...where, what: `providerData.${k}` }));
}

/** Losses for the fields of `obj` a writer does not carry (not in `carried`, not `providerData`). */
export function fieldLosses(
  obj: JsonObject,
  carried: readonly string[],
  where: { messageIndex?: number; partIndex?: number },
  label: string,
): Loss[] {
  return Object.keys(obj)
    .filter((k) => k !== 'providerData' && !carried.includes(k))
    .map((k) => ({ ...where, what: `${label} field "${k}"` }));
}

/**
 * The provider-executed tool calls of an assistant message and their results,
 * by part index, each with the loss a writer reports when it drops it: a
 * `tool-call` answered by a `tool-result` later in the same assistant message
 * (e.g. an AI SDK call with `providerExecuted: true` and its result, such as
 * a web search the provider ran). No provider request but the AI SDK's can
 * replay such a call as a client call: written as one, it is left without a
 * result in the next turn, or its result lands in the assistant turn. Each
 * result is paired with the first earlier call of its id not yet paired.
 * Empty for any other message. Writers drop both parts only for a message
 * from another format (one read from their own format is written as read).
 */
export function providerExecutedParts(m: Message): Map<number, string> {
  const dropped = new Map<number, string>();
  if (m.role !== 'assistant' || !Array.isArray(m.parts)) return dropped;
  /** Unpaired calls so far: id → their part indices, in order. */
  const open = new Map<string, number[]>();
  m.parts.forEach((p, j) => {
    if (!isPlainObject(p)) return;
    if (p.type === 'tool-call' && typeof p.id === 'string') {
      const list = open.get(p.id);
      if (list === undefined) open.set(p.id, [j]);
      else list.push(j);
      return;
    }
    if (p.type !== 'tool-result' || typeof p.callId !== 'string') return;
    const call = open.get(p.callId)?.shift();
    if (call === undefined) return;
    const name = m.parts[call]!.name;
    const named = typeof name === 'string' ? ` (${name})` : '';
    dropped.set(call, `provider-executed tool call "${p.callId}"${named}`);
    dropped.set(j, `result of provider-executed tool call "${p.callId}"`);
  });
  return dropped;
}

/** Losses of one object: other formats' `providerData`, then the fields not in `carried` (named with `label`). */
export function objectLosses(
  obj: JsonObject,
  format: string,
  carried: readonly string[],
  where: { messageIndex?: number; partIndex?: number },
  label: string,
): Loss[] {
  return [...providerDataLosses(obj, format, where), ...fieldLosses(obj, carried, where, label)];
}

/** Losses of a conversation's own fields: other formats' `providerData`, then fields besides version and messages. */
export function conversationLosses(conversation: Conversation, format: string): Loss[] {
  return objectLosses(conversation, format, CONVERSATION_FIELDS, {}, 'conversation');
}

/** Losses of message `index`'s own fields: other formats' `providerData`, then fields besides role and parts. */
export function messageLosses(m: Message, index: number, format: string): Loss[] {
  return objectLosses(m, format, MESSAGE_FIELDS, { messageIndex: index }, 'message');
}
