/**
 * Writes a v1 conversation as LangChain message dicts, in the shape `messages_to_dict` gives
 * (every field of each type's `data`, in its order): the list, or the body, it was read from,
 * exactly, with what v1 has no field for filled in from kept data; a message from elsewhere (an
 * operation's, another format's) with LangChain's defaults. Each tool result is one ToolMessage.
 * Kept data never sets a wire field: content, calls, results, ids and media come from v1.
 */
import { jsonEqual, parseJson, setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message, Part } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import type { Conversation, Loss, WriteResult } from '../format.js';
import { writeBody, writesBare } from '../kit/envelope.js';
import { isKeptPart, isPlainObject, keptField, keptNode, withoutWire } from '../kit/kept.js';
import { guessMediaType, toDataUrl } from '../kit/media.js';
import { contextOf, readHere } from '../kit/provenance.js';
import {
  argumentsToObject,
  conversationLosses,
  isPlainTextPart,
  objectLosses,
  PART_FIELDS,
  providerExecutedParts,
  type PartWhere,
} from '../shared.js';
import { CALL_DEFAULTS, CALL_KEYS, DATA_DEFAULTS, DATA_KEYS, FORMAT, HINTS } from './hints.js';
import type { LangChainContext } from './read.js';

/** The fields of a message dict only v1 sets. */
const MESSAGE_WIRE = ['type', 'data'];
/** The fields of `data` only v1 sets (kept data restores only a `null` one). */
const DATA_WIRE = [
  'content',
  'type',
  'tool_calls',
  'invalid_tool_calls',
  'tool_call_id',
  'name',
  'role',
  'status',
];
/** The fields of a content block only v1 sets, whatever their value. */
const BLOCK_WIRE = [
  'type',
  'text',
  'image_url',
  'url',
  'data',
  'base64',
  'mime_type',
  'source_type',
];
/** The fields of a tool call only v1 sets (likewise), and no block's. */
const CALL_WIRE = ['name', 'args', 'id', ...BLOCK_WIRE];

/** The v1 part fields a content block carries, by part type (a document's `name` has no field). */
const BLOCK_FIELDS: Readonly<Record<string, readonly string[]>> = {
  text: PART_FIELDS.text,
  image: PART_FIELDS.image,
  document: PART_FIELDS.document.filter((f) => f !== 'name'),
};

/** The message type of a v1 role (any other role is a `chat` message's). */
const TYPES: Readonly<Record<string, string>> = {
  system: 'system',
  user: 'human',
  assistant: 'ai',
};

/** The kept data of a v1 object, or undefined. */
const keptOf = (o: JsonObject): JsonObject | undefined => providerDataOf(o, FORMAT);

/** The `$absent` keys of kept data. */
function absentOf(kept: JsonObject | undefined): readonly string[] {
  const v = kept?.[HINTS.absent];
  return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
}

/** How one object of the LangChain shape is written. */
interface Shape {
  /** Its keys, in LangChain's order. */
  keys: readonly string[];
  /** What v1 says (undefined: nothing, so a kept value or the default). */
  own: Record<string, JsonValue | undefined>;
  /** The value of a key nothing sets. */
  defaults: Readonly<Record<string, JsonValue>>;
  /** The keys only v1 sets. */
  wire: readonly string[];
  /** A kept wire field that is `null` comes back. */
  nulls: boolean;
  /** The keys the source left out (`$absent`): out while they hold their default. */
  absent: readonly string[];
}

/**
 * An object in LangChain's shape: each key v1's value, else the kept one, else its default (a key
 * the source left out stays out while it holds the default); then the other kept fields.
 */
function shaped(kept: JsonObject | undefined, shape: Shape): JsonObject {
  const safe = withoutWire(kept, shape.wire, shape.nulls);
  const body: Record<string, JsonValue | undefined> = {};
  for (const k of shape.keys) {
    const fallback = shape.defaults[k];
    let v = shape.own[k];
    if (v === undefined && !keptField(safe, k)) v = fallback;
    const out = shape.absent.includes(k) && v !== undefined && fallback !== undefined;
    body[k] = out && jsonEqual(v!, fallback!) ? undefined : v;
  }
  return writeBody(safe, body);
}

/** A v1 image or document as a content block: the shape it was read in, else the standard one. */
function mediaBlock(p: Part, kept: JsonObject | undefined): JsonValue {
  const url = typeof p.url === 'string' ? p.url : undefined;
  const data = typeof p.data === 'string' ? p.data : undefined;
  const mime = typeof p.mediaType === 'string' ? p.mediaType : undefined;
  const shape = kept?.[HINTS.block];
  if (p.type === 'image' && shape === 'image_url') {
    const inner = isPlainObject(kept?.image_url) ? kept.image_url : undefined;
    const image = writeBody(withoutWire(inner, BLOCK_WIRE), {
      url: url ?? toDataUrl(String(mime), data!),
    });
    return writeBody(withoutWire(kept, BLOCK_WIRE), { type: 'image_url', image_url: image });
  }
  const type = p.type === 'image' ? 'image' : 'file';
  const v1 = shape === 'v1';
  const own: Record<string, JsonValue | undefined> =
    data !== undefined
      ? v1
        ? { type, base64: data, mime_type: mime }
        : { type, source_type: 'base64', data, mime_type: mime }
      : v1
        ? { type, url, mime_type: mime }
        : { type, source_type: 'url', url, mime_type: mime };
  // A document's media type guessed from its URL goes back only where the source had one.
  const defaults: Record<string, JsonValue> =
    url !== undefined && p.type === 'document' ? { mime_type: guessMediaType(url) } : {};
  return shaped(kept, {
    keys: Object.keys(own),
    own,
    defaults,
    wire: BLOCK_WIRE,
    nulls: false,
    absent: absentOf(kept),
  });
}

/** One content part as a block (a text part of a list read as a string: the string), or undefined with a loss. */
function contentBlock(
  p: Part,
  where: PartWhere,
  role: string,
  losses: Loss[],
): JsonValue | undefined {
  if (isKeptPart(p, FORMAT)) return keptNode(p, FORMAT, losses, where);
  const fields = Object.hasOwn(BLOCK_FIELDS, p.type) ? BLOCK_FIELDS[p.type] : undefined;
  if (fields === undefined) {
    const what = p.type === 'reasoning' ? 'reasoning part' : `${p.type} part in a ${role} message`;
    losses.push({ ...where, what });
    return undefined;
  }
  losses.push(...objectLosses(p, FORMAT, fields, where, `${p.type} part`));
  const kept = keptOf(p);
  if (p.type !== 'text') {
    if (typeof p.url !== 'string' && typeof p.data !== 'string') {
      losses.push({ ...where, what: `${p.type} part without url or data` });
      return undefined;
    }
    return mediaBlock(p, kept);
  }
  if (kept?.[HINTS.string] === true) return p.text as string;
  return writeBody(withoutWire(kept, BLOCK_WIRE), { type: 'text', text: p.text as string });
}

/**
 * A `content` value from written blocks: the list a `$content` hint asks for, one plain text
 * block's string, the list; undefined for none (so a kept `null`, else `""`).
 */
function contentValue(items: JsonValue[], hint: JsonValue | undefined): JsonValue | undefined {
  if (hint === 'list') return items;
  if (items.length === 0) return undefined;
  if (items.length === 1 && isPlainTextPart(items[0])) return (items[0] as JsonObject).text!;
  return items;
}

/** A tool call's `args` from its arguments text, as the read found it (an object by default). */
function argsValue(text: string, mode: JsonValue | undefined, invalid: boolean): JsonValue {
  if (mode === 'string') return text;
  if (mode === 'json') {
    try {
      return parseJson(text);
    } catch {
      return text;
    }
  }
  // An invalid call's args is the raw text; a call's is an object (SPEC §4: truncated_args).
  return invalid ? text : argumentsToObject(text);
}

/** A v1 tool call as a `tool_calls` entry, or (`$invalid`) an `invalid_tool_calls` one. */
function callEntry(p: Part): { entry: JsonObject; invalid: boolean } {
  const kept = keptOf(p);
  const invalid = kept?.[HINTS.invalid] === true;
  const mode = kept?.[HINTS.args];
  const text = typeof p.arguments === 'string' ? p.arguments : '';
  const type = invalid ? 'invalid_tool_call' : 'tool_call';
  const own = {
    name: typeof p.name === 'string' ? p.name : undefined,
    args: argsValue(text, mode, invalid),
    id: typeof p.id === 'string' ? p.id : undefined,
    type,
  };
  const defaults = { ...CALL_DEFAULTS, type, args: argsValue('', mode, invalid) };
  const entry = shaped(kept, {
    keys: invalid ? CALL_KEYS.invalid : CALL_KEYS.valid,
    own,
    defaults,
    wire: CALL_WIRE,
    nulls: true,
    absent: absentOf(kept),
  });
  return { entry, invalid };
}

/**
 * Kept `data` of an AI message with the OpenAI `tool_calls` mirror in its `additional_kwargs`
 * cut to the calls written: LangChain rebuilds `tool_calls` from that mirror when the list is
 * empty, so a call an operation dropped (sanitize, trim) must not stay in it.
 */
function withCallMirror(
  data: JsonObject | undefined,
  ids: ReadonlySet<string>,
): JsonObject | undefined {
  const extra = data?.additional_kwargs;
  if (!isPlainObject(extra) || !Array.isArray(extra.tool_calls)) return data;
  const calls = extra.tool_calls;
  const kept = calls.filter((c) => !isPlainObject(c) || typeof c.id !== 'string' || ids.has(c.id));
  if (kept.length === calls.length) return data;
  const cut: JsonObject = {};
  for (const k of Object.keys(extra))
    if (k !== 'tool_calls' || kept.length > 0)
      setOwn(cut, k, k === 'tool_calls' ? kept : extra[k]!);
  const out: JsonObject = {};
  for (const k of Object.keys(data!)) setOwn(out, k, k === 'additional_kwargs' ? cut : data![k]!);
  return out;
}

/** A message dict of `type`: its `data` from v1 (`own`), the kept fields and LangChain's defaults. */
function messageDict(
  kept: JsonObject | undefined,
  keptData: JsonObject | undefined,
  type: string,
  own: Record<string, JsonValue | undefined>,
): JsonObject {
  const data = shaped(keptData, {
    keys: DATA_KEYS[type]!,
    own: { ...own, type },
    defaults: { ...DATA_DEFAULTS, type },
    wire: DATA_WIRE,
    nulls: true,
    absent: absentOf(kept),
  });
  return writeBody(withoutWire(kept, MESSAGE_WIRE), { type, data });
}

/** The kept `data` of a message's kept data. */
function keptDataOf(kept: JsonObject | undefined): JsonObject | undefined {
  return isPlainObject(kept?.data) ? kept.data : undefined;
}

/** The state of one write. */
interface Writing {
  context: unknown;
  losses: Loss[];
  out: JsonValue[];
}

/** Writes a v1 tool message: one ToolMessage (or FunctionMessage) a result, then a human message of anything else. */
function writeTool(m: Message, i: number, w: Writing): void {
  const kept = keptOf(m);
  w.losses.push(...objectLosses(m, FORMAT, ['role', 'parts'], { messageIndex: i }, 'message'));
  const others: Part[] = [];
  const otherAt: number[] = [];
  let first = true;
  m.parts.forEach((p, j) => {
    const where = { messageIndex: i, partIndex: j };
    if (p.type !== 'tool-result') {
      others.push(p);
      otherAt.push(j);
      return;
    }
    w.losses.push(
      ...objectLosses(p, FORMAT, PART_FIELDS['tool-result'], where, 'tool-result part'),
    );
    // A result without a call id answers by name: LangChain's FunctionMessage.
    const fn = kept?.[HINTS.type] === 'function' || typeof p.callId !== 'string';
    if (fn && p.failed === true)
      w.losses.push({ ...where, what: 'failed flag of a function result' });
    const content = Array.isArray(p.content) ? (p.content as Part[]) : [];
    const items = content.flatMap((c) => contentBlock(c, where, 'tool', w.losses) ?? []);
    const own = {
      content: contentValue(items, keptOf(p)?.[HINTS.content]),
      name: typeof p.name === 'string' ? p.name : undefined,
      tool_call_id: fn ? undefined : (p.callId as string),
      status: !fn && p.failed === true ? 'error' : undefined,
    };
    // The message's kept fields go with its first result.
    const mine = first ? kept : undefined;
    w.out.push(messageDict(mine, keptDataOf(mine), fn ? 'function' : 'tool', own));
    first = false;
  });
  if (m.parts.length === 0) w.losses.push({ messageIndex: i, what: 'empty tool message' });
  if (others.length === 0) return;
  // Text or media beside results (an Anthropic follow-up) go in a human message after them.
  const items: JsonValue[] = [];
  others.forEach((p, k) => {
    const block = contentBlock(p, { messageIndex: i, partIndex: otherAt[k]! }, 'tool', w.losses);
    if (block !== undefined) items.push(block);
  });
  if (items.length > 0)
    w.out.push(
      messageDict(undefined, undefined, 'human', { content: contentValue(items, undefined) }),
    );
}

/** Writes one v1 message. */
function writeMessage(m: Message, i: number, w: Writing): void {
  if (m.role === 'tool') return writeTool(m, i, w);
  const kept = keptOf(m);
  w.losses.push(
    ...objectLosses(m, FORMAT, ['role', 'parts', 'name'], { messageIndex: i }, 'message'),
  );
  const type =
    kept?.[HINTS.type] !== 'chat' && Object.hasOwn(TYPES, m.role) ? TYPES[m.role]! : 'chat';
  const ai = type === 'ai';
  // A provider-executed call and its result, in an assistant message not read here: dropped.
  const dropped = ai && !readHere(w.context, m, FORMAT) ? providerExecutedParts(m) : undefined;
  const items: JsonValue[] = [];
  const calls: JsonValue[] = [];
  const invalid: JsonValue[] = [];
  const ids = new Set<string>();
  m.parts.forEach((p, j) => {
    const where = { messageIndex: i, partIndex: j };
    const gone = dropped?.get(j);
    if (gone !== undefined) {
      w.losses.push({ ...where, what: gone });
      return;
    }
    const hint = isKeptPart(p, FORMAT) ? keptOf(p)?.[HINTS.in] : undefined;
    if (ai && (hint === 'tool_calls' || hint === 'invalid_tool_calls')) {
      const node = keptNode(p, FORMAT, w.losses, where);
      if (node !== undefined) (hint === 'tool_calls' ? calls : invalid).push(node);
      return;
    }
    if (p.type === 'tool-call' && ai) {
      w.losses.push(...objectLosses(p, FORMAT, PART_FIELDS['tool-call'], where, 'tool-call part'));
      const { entry, invalid: bad } = callEntry(p);
      (bad ? invalid : calls).push(entry);
      if (typeof p.id === 'string') ids.add(p.id);
      return;
    }
    const block = contentBlock(p, where, m.role, w.losses);
    if (block !== undefined) items.push(block);
  });
  const own: Record<string, JsonValue | undefined> = {
    content: contentValue(items, kept?.[HINTS.content]),
    name: typeof m.name === 'string' ? m.name : undefined,
  };
  if (type === 'chat')
    own.role = m.role === 'system' && kept?.[HINTS.role] === 'developer' ? 'developer' : m.role;
  if (ai) {
    own.tool_calls = calls.length > 0 ? calls : undefined;
    own.invalid_tool_calls = invalid.length > 0 ? invalid : undefined;
  }
  const keptData = ai ? withCallMirror(keptDataOf(kept), ids) : keptDataOf(kept);
  w.out.push(messageDict(kept, keptData, type, own));
}

/** Writes a conversation as a list of LangChain message dicts, or the `{"messages": [...]}` body it was read from. */
export function writeLangChain(conversation: Conversation, context?: unknown): WriteResult {
  const ctx = contextOf(context, FORMAT) as LangChainContext | undefined;
  const w: Writing = { context: ctx, losses: conversationLosses(conversation, FORMAT), out: [] };
  conversation.messages.forEach((m, i) => writeMessage(m, i, w));
  const { losses, out } = w;
  // A bare list by default: what messages_to_dict gives.
  if (writesBare(ctx, conversation, FORMAT, { fallback: true, losses }))
    return { value: out, losses };
  return { value: writeBody(keptOf(conversation), { messages: out }, ctx?.keys), losses };
}
