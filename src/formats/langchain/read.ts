/**
 * Reads LangChain message dicts (`messages_to_dict`) into v1 (see docs/formats/langchain.md): a
 * `human` message is a user one, `ai` an assistant one (its content, then its `tool_calls` and
 * `invalid_tool_calls` as tool calls), `system` a system one, `chat` one of its own role, and a
 * `tool` or `function` message a tool message of one result (`status: "error"` is a failed one).
 * Content blocks v1 has no type for are kept parts; what else v1 has no field for is kept in
 * providerData with the hints of ./hints.ts.
 */
import {
  jsonEqual,
  setOwn,
  stringifyJson,
  type JsonObject,
  type JsonValue,
} from '../../model/json.js';
import { UNTYPED_BLOCK, type Message, type Part } from '../../model/types.js';
import type { ReadOptions, ReadResult } from '../format.js';
import {
  envelopeContext,
  envelopeData,
  readEnvelope,
  type EnvelopeContext,
} from '../kit/envelope.js';
import {
  recordMessage,
  recordResultMessage,
  type LocatedPart,
  type Reading as KitReading,
} from '../kit/provenance.js';
import { isPlainObject, keepProviderData, keptPart, mergeFields, restOf } from '../kit/kept.js';
import { guessMediaType, splitDataUrl } from '../kit/media.js';
import { joinPointer, sourceMap, type FieldSource } from '../kit/source-map.js';
import { isPlainTextPart, makeConversation, notFormat } from '../shared.js';
import { isLangChainMessage, type LangChainMessage } from './detect.js';
import { CALL_DEFAULTS, CALL_KEYS, DATA_DEFAULTS, DATA_KEYS, FORMAT, HINTS } from './hints.js';

/** What a write of the same format needs to rebuild the original shape. */
export type LangChainContext = EnvelopeContext;

/** One read: the source map and the context. */
type Reading = KitReading<LangChainContext>;

/** The v1 role of each message type but `chat` (whose role is its own) and the tool results. */
const ROLES: Readonly<Record<string, string>> = {
  human: 'user',
  ai: 'assistant',
  system: 'system',
};

/** The `$absent` hint of a source object: the keys of its LangChain shape it leaves out. */
function absentHint(obj: JsonObject, keys: readonly string[]): JsonObject | undefined {
  const absent = keys.filter((k) => !Object.hasOwn(obj, k));
  return absent.length === 0 ? undefined : { [HINTS.absent]: absent };
}

/** The `$content` hint of a content list the default write would give as a string. */
function listHint(content: JsonValue | undefined): JsonObject | undefined {
  if (!Array.isArray(content)) return undefined;
  const asString = content.length === 0 || (content.length === 1 && isPlainTextPart(content[0]));
  return asString ? { [HINTS.content]: 'list' } : undefined;
}

/** An OpenAI-style `{type: "image_url", image_url: {url}}` block as a v1 image. */
function readImageUrl(
  item: JsonObject,
  image: JsonObject,
  url: string,
  pointer: string,
): LocatedPart {
  const split = splitDataUrl(url);
  const part: Part = split
    ? { type: 'image', data: split.data, mediaType: split.mediaType }
    : { type: 'image', url };
  const data = mergeFields({ [HINTS.block]: 'image_url' }, restOf(item, ['type', 'image_url']));
  const imageRest = restOf(image, ['url']);
  if (imageRest !== undefined) setOwn(data, 'image_url', imageRest);
  keepProviderData(part, FORMAT, data);
  const at = ['image_url', 'url'];
  return { part, pointer, fields: { url: at, data: at, mediaType: at } };
}

/**
 * A standard image or file block as a v1 image or document: langchain-core 0.3's `source_type`
 * `base64` (`data`, `mime_type`) or `url`, or langchain-core 1's `base64` or `url` without one;
 * undefined for another (a file id, a `source_type` of `id`), which is kept whole.
 */
function readStandardMedia(item: JsonObject, pointer: string): LocatedPart | undefined {
  const type = item.type === 'image' ? 'image' : 'document';
  const mime = typeof item.mime_type === 'string' ? item.mime_type : undefined;
  const hints: JsonObject = {};
  const fields: Record<string, string> = {};
  const own = ['type'];
  let part: Part;
  if (item.source_type === 'base64' && typeof item.data === 'string' && mime !== undefined) {
    part = { type, data: item.data, mediaType: mime };
    own.push('source_type', 'data', 'mime_type');
    Object.assign(fields, { data: 'data', mediaType: 'mime_type' });
  } else if (
    item.source_type === undefined &&
    typeof item.base64 === 'string' &&
    mime !== undefined
  ) {
    part = { type, data: item.base64, mediaType: mime };
    own.push('base64', 'mime_type');
    Object.assign(fields, { data: 'base64', mediaType: 'mime_type' });
    setOwn(hints, HINTS.block, 'v1');
  } else if (
    (item.source_type === 'url' || item.source_type === undefined) &&
    typeof item.url === 'string'
  ) {
    part = { type, url: item.url };
    own.push('url');
    fields.url = 'url';
    if (item.source_type === undefined) setOwn(hints, HINTS.block, 'v1');
    else own.push('source_type');
    if (mime !== undefined) {
      part.mediaType = mime;
      own.push('mime_type');
      fields.mediaType = 'mime_type';
    } else if (type === 'document') {
      // A v1 document needs a media type: the one its URL names, not written back.
      part.mediaType = guessMediaType(item.url);
      setOwn(hints, HINTS.absent, ['mime_type']);
    }
  } else return undefined;
  keepProviderData(part, FORMAT, mergeFields(hints, restOf(item, own)));
  return { part, pointer, fields };
}

/** Reads one item of a content list (the node at `pointer`). */
function readBlock(item: JsonValue, pointer: string): LocatedPart {
  if (typeof item === 'string') {
    const part = keepProviderData({ type: 'text', text: item }, FORMAT, { [HINTS.string]: true });
    return { part, pointer };
  }
  if (!isPlainObject(item) || typeof item.type !== 'string') {
    return { part: keptPart(FORMAT, item, UNTYPED_BLOCK), pointer };
  }
  if (item.type === 'text' && typeof item.text === 'string') {
    const part = keepProviderData(
      { type: 'text', text: item.text },
      FORMAT,
      restOf(item, ['type', 'text']),
    );
    return { part, pointer, fields: { text: 'text' } };
  }
  const image = item.image_url;
  if (item.type === 'image_url' && isPlainObject(image) && typeof image.url === 'string') {
    return readImageUrl(item, image, image.url, pointer);
  }
  if (item.type === 'image' || item.type === 'file') {
    const media = readStandardMedia(item, pointer);
    if (media !== undefined) return media;
  }
  return { part: keptPart(FORMAT, item, item.type), pointer };
}

/** A `content` value as located parts: a string is one text part ("" none), a list one part an item; undefined for anything else. */
function readContent(content: JsonValue | undefined, pointer: string): LocatedPart[] | undefined {
  // The text of a string content is the content node itself.
  if (typeof content === 'string')
    return content === '' ? [] : [{ part: { type: 'text', text: content }, pointer }];
  if (!Array.isArray(content)) return undefined;
  return content.map((item, k) => readBlock(item, joinPointer(pointer, k)));
}

/** Reads one entry of `tool_calls` (or, `invalid`, of `invalid_tool_calls`) at `pointer`. */
function readCall(tc: JsonValue, pointer: string, invalid: boolean): LocatedPart {
  const list = invalid ? 'invalid_tool_calls' : 'tool_calls';
  if (!isPlainObject(tc))
    return { part: keptPart(FORMAT, tc, 'tool_call', { [HINTS.in]: list }), pointer };
  const part: Part = { type: 'tool-call' };
  const mapped: string[] = [];
  const fields: Record<string, string> = {};
  const hints: JsonObject = invalid ? { [HINTS.invalid]: true } : {};
  if (typeof tc.id === 'string') {
    part.id = tc.id;
    mapped.push('id');
    fields.id = 'id';
  }
  if (typeof tc.name === 'string') {
    part.name = tc.name;
    mapped.push('name');
    fields.name = 'name';
  }
  const args = tc.args;
  if (args === undefined) part.arguments = '';
  else {
    mapped.push('args');
    fields.arguments = 'args';
    // A call's args is an object, an invalid call's the raw text: anything else says so.
    if (typeof args === 'string') {
      part.arguments = args;
      if (!invalid) setOwn(hints, HINTS.args, 'string');
    } else {
      part.arguments = stringifyJson(args, 0);
      if (invalid || !isPlainObject(args)) setOwn(hints, HINTS.args, 'json');
    }
  }
  if (tc.type === (invalid ? 'invalid_tool_call' : 'tool_call')) mapped.push('type');
  const keys = invalid ? CALL_KEYS.invalid : CALL_KEYS.valid;
  const rest = keptFields(tc, mapped, keys, CALL_DEFAULTS);
  keepProviderData(part, FORMAT, mergeFields(mergeFields(hints, absentHint(tc, keys)), rest));
  return { part, pointer, fields };
}

/**
 * The fields of `obj` to keep: those not `mapped`, but for a key of the LangChain shape (`keys`)
 * that holds its default, which a write gives back anyway.
 */
function keptFields(
  obj: JsonObject,
  mapped: readonly string[],
  keys: readonly string[],
  defaults: Readonly<Record<string, JsonValue>>,
): JsonObject | undefined {
  const plain = keys.filter((k) => {
    const fallback = defaults[k];
    return fallback !== undefined && Object.hasOwn(obj, k) && jsonEqual(obj[k]!, fallback);
  });
  return restOf(obj, [...mapped, ...plain]);
}

/**
 * The kept data of a message: its hints, the `$absent` keys of its type's shape, the fields of
 * `data` a write would not give back (under `data`), and the message dict's fields besides `type`
 * and `data`.
 */
function messageData(
  m: LangChainMessage,
  mapped: readonly string[],
  hints: JsonObject | undefined,
): JsonObject {
  const keys = DATA_KEYS[m.type]!;
  const out = mergeFields(hints, absentHint(m.data, keys));
  const rest = keptFields(m.data, mapped, keys, DATA_DEFAULTS);
  if (rest !== undefined) setOwn(out, 'data', rest);
  return mergeFields(out, restOf(m, ['type', 'data']));
}

/** Reads a `tool` or `function` message (at `pointer`) into a v1 tool message with one result. */
function readResult(m: LangChainMessage, pointer: string, i: number, r: Reading): Message {
  const d = m.data;
  const mapped = d.type === m.type ? ['type'] : [];
  const result: Part = { type: 'tool-result' };
  const fields: Record<string, FieldSource> = {};
  if (m.type === 'tool' && typeof d.tool_call_id === 'string') {
    result.callId = d.tool_call_id;
    mapped.push('tool_call_id');
    fields.callId = ['data', 'tool_call_id'];
  }
  if (typeof d.name === 'string') {
    // A ToolMessage's or FunctionMessage's name is the tool's: it belongs on the result.
    result.name = d.name;
    mapped.push('name');
    fields.name = ['data', 'name'];
  }
  const items = readContent(d.content, joinPointer(pointer, 'data', 'content'));
  result.content = (items ?? []).map((c) => c.part);
  if (items !== undefined) {
    mapped.push('content');
    fields.content = ['data', 'content'];
  }
  if (m.type === 'tool' && (d.status === 'success' || d.status === 'error')) {
    mapped.push('status');
    if (d.status === 'error') {
      result.failed = true;
      fields.failed = ['data', 'status'];
    }
  }
  keepProviderData(result, FORMAT, listHint(d.content));
  const hints = m.type === 'function' ? { [HINTS.type]: 'function' } : undefined;
  const message: Message = { role: 'tool', parts: [result] };
  keepProviderData(message, FORMAT, messageData(m, mapped, hints));
  // The result is the whole message; its content parts are the content's items.
  recordResultMessage(r, i, pointer, message, fields, items ?? []);
  return message;
}

/** Reads message `i` (the node at `pointer`). */
function readMessage(m: LangChainMessage, pointer: string, i: number, r: Reading): Message {
  if (m.type === 'tool' || m.type === 'function') return readResult(m, pointer, i, r);
  const d = m.data;
  const dataAt = joinPointer(pointer, 'data');
  const mapped = d.type === m.type ? ['type'] : [];
  const hints: JsonObject = {};
  const located: LocatedPart[] = [];
  const items = readContent(d.content, joinPointer(dataAt, 'content'));
  if (items !== undefined) {
    mapped.push('content');
    located.push(...items);
    Object.assign(hints, listHint(d.content));
  }
  let role = ROLES[m.type] ?? 'user';
  if (m.type === 'chat') {
    setOwn(hints, HINTS.type, 'chat');
    if (typeof d.role === 'string') {
      role = d.role;
      mapped.push('role');
      // OpenAI's developer role is its system role (langchain-openai sends a ChatMessage's role as is).
      if (role === 'developer') {
        role = 'system';
        setOwn(hints, HINTS.role, 'developer');
      }
    }
  }
  if (m.type === 'ai') {
    for (const list of ['tool_calls', 'invalid_tool_calls']) {
      const calls = d[list];
      if (!Array.isArray(calls)) continue;
      mapped.push(list);
      calls.forEach((tc, k) =>
        located.push(readCall(tc, joinPointer(dataAt, list, k), list === 'invalid_tool_calls')),
      );
    }
  }
  const message: Message = { role, parts: located.map((l) => l.part) };
  if (typeof d.name === 'string') {
    message.name = d.name;
    mapped.push('name');
  }
  keepProviderData(message, FORMAT, messageData(m, mapped, hints));
  recordMessage(r, i, pointer, message, located);
  return message;
}

/**
 * Reads a list of LangChain message dicts, bare or under `messages`, into v1; throws the one-line
 * `not langchain` error for anything else.
 */
export function readLangChain(value: JsonValue, options?: ReadOptions): ReadResult {
  const why = { why: 'no list of message dicts' };
  const envelope = readEnvelope(value, FORMAT, 'messages', why, options);
  const ctx: LangChainContext = envelopeContext(FORMAT, envelope, options);
  const r: Reading = { map: sourceMap(envelope.base, value, options), ctx };
  const messages = envelope.list.map((m, i) => {
    if (!isLangChainMessage(m))
      notFormat(FORMAT, `message ${i} is no {"type", "data"} message dict`);
    return readMessage(m, joinPointer(envelope.base, i), i, r);
  });
  // The bare list is what messages_to_dict gives: a body alone says so (`$bare: false`).
  const kept = envelopeData(envelope, ['messages'], undefined, true);
  return {
    conversation: makeConversation(messages, FORMAT, kept),
    context: ctx,
    locate: r.map.locate,
  };
}
