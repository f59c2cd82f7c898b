/**
 * Helpers shared by the formats whose history is a list of user/assistant
 * turns of content blocks (Anthropic Messages, AWS Bedrock Converse): reading
 * the request body or bare array and its messages, what a read remembers for
 * the write of the same format, how a group of v1 messages (grouped by
 * core/turns.ts, as the target rules see them) is written as one provider
 * turn, pointers for `locate`, losses, and plain text
 * carried as base64 in a v1 `data` field.
 */
import { setOwn, type JsonObject, type JsonValue } from '../model/json.js';
import type { Message, Part } from '../model/types.js';
import type { Locator, Loss, ReadResult } from './format.js';
import { providerDataOf } from './format.js';
import { parseDataUrl } from './kit/media.js';
import {
  fieldLosses,
  isPlainObject,
  joinPointer,
  keepProviderData,
  makeConversation,
  MESSAGE_FIELDS,
  notFormat,
  PART_FIELDS,
  providerDataLosses,
  providerExecutedParts,
  readEach,
  refusesKeptUrl,
  restOf,
  type PartWhere,
  isHintKey,
  sourceKey,
  storedKey,
} from './shared.js';

/** What a read of a block-turn format hands to the write of the same format. */
export interface TurnContext {
  /** The value read was a bare array of messages, not a request body. */
  bare: boolean;
  /** Every v1 message and part object the read produced, to tell them from ones an operation added. */
  read: WeakSet<object>;
  /** The request body's keys in the order read, so a write keeps it. */
  keys?: string[];
}

/** True when a v1 message came from the value read (by identity, or by carrying this format's providerData). */
export function isFromSource(
  ctx: TurnContext | undefined,
  message: Message,
  format: string,
): boolean {
  if (providerDataOf(message, format) !== undefined) return true;
  if (ctx === undefined) return false;
  // normalize copies a message when it drops one of its parts, but keeps the other part objects.
  return ctx.read.has(message) || message.parts.some((p) => ctx.read.has(p));
}

/** True when a v1 part came from the value read (by identity, or by carrying this format's providerData). */
export function isPartFromSource(
  ctx: TurnContext | undefined,
  part: Part,
  format: string,
): boolean {
  return providerDataOf(part, format) !== undefined || (ctx?.read.has(part) ?? false);
}

/** Moves the blocks `isResult` accepts to the front, keeping the order within both halves. */
export function resultsFirst<T>(blocks: readonly T[], isResult: (b: T) => boolean): T[] {
  return [...blocks.filter(isResult), ...blocks.filter((b) => !isResult(b))];
}

/** Where one v1 part came from, and how its fields map to the source's fields. */
export interface PartLocation {
  /** Pointer of the source node the part came from. */
  pointer: string;
  /** v1 field name → tokens below `pointer` of the source field it came from. */
  fields?: Record<string, readonly (string | number)[]>;
  /** Locations of a tool result's content parts, by content index. */
  content?: PartLocation[];
  /** Pointer of the whole content value, when `content` is not an array of blocks. */
  contentPointer?: string;
}

/** Where one v1 message came from. */
export interface MessageLocation {
  pointer: string;
  parts: PartLocation[];
}

/** The pointer of a path below a part, mapped through its field table as far as it goes. */
function pointerBelow(loc: PartLocation, path: readonly (string | number)[]): string {
  if (path.length === 0) return loc.pointer;
  const [first, second] = path;
  if (first === 'content' && (loc.content !== undefined || loc.contentPointer !== undefined)) {
    if (loc.contentPointer !== undefined) return loc.contentPointer;
    const inner = typeof second === 'number' ? loc.content![second] : undefined;
    if (inner !== undefined) return pointerBelow(inner, path.slice(2));
  }
  const mapped = typeof first === 'string' ? loc.fields?.[first] : undefined;
  return mapped === undefined ? loc.pointer : joinPointer(loc.pointer, ...mapped);
}

/** A {@link Locator} over the locations a read recorded; `base` is the pointer of the messages array. */
export function makeLocator(base: string, messages: readonly MessageLocation[]): Locator {
  return (messageIndex, partIndex, path = []) => {
    if (messageIndex === undefined) return base;
    const m = messages[messageIndex];
    if (m === undefined) return base;
    if (partIndex === undefined) return m.pointer;
    const part = m.parts[partIndex];
    return part === undefined ? m.pointer : pointerBelow(part, path);
  };
}

/**
 * Copies kept fields onto a block built from v1 fields. Kept fields mirror the
 * source block's shape, so a kept object merges into the object the block
 * already has there (e.g. the extra fields of an image's `source`). `$` hints
 * are not copied, and a `skip` key is never set, at any depth: a writer passes
 * its wire fields (content, role, calls, results, media), which only the v1
 * model sets.
 */
export function mergeKept(
  target: JsonObject,
  kept: JsonObject | undefined,
  skip: readonly string[] = [],
): void {
  if (kept === undefined) return;
  for (const key of Object.keys(kept)) {
    if (isHintKey(key)) continue;
    const name = sourceKey(key);
    // Own fields only: `__proto__` would reach Object.prototype (and merge into it).
    const have = Object.hasOwn(target, name) ? target[name] : undefined;
    const add = kept[key]!;
    // Extra fields of an object the writer built (an image's `source`) merge into it.
    if (isPlainObject(have) && isPlainObject(add)) mergeKept(have, add, skip);
    // What the writer set from the v1 fields wins over kept data (see restoreFields).
    else if (!skip.includes(name) && !Object.hasOwn(target, name)) setOwn(target, name, add);
  }
}

/** Sets `obj[key]` to `value` when `value` has fields. */
export function setIfAny(obj: JsonObject, key: string, value: JsonObject | undefined): void {
  if (value !== undefined && Object.keys(value).length > 0) setOwn(obj, key, value);
}

/** Sorts losses in place by message, then part (conversation-level ones first), keeping the order of ties. */
export function sortLosses(losses: Loss[]): void {
  const key = (l: Loss): [number, number] => [l.messageIndex ?? -1, l.partIndex ?? -1];
  losses.sort((a, b) => {
    const [am, ap] = key(a);
    const [bm, bp] = key(b);
    return am - bm || ap - bp;
  });
}

/** Builds the request body: keys in the order read (`order`), then the history, then the kept fields. */
export function assembleBody(
  order: readonly string[] | undefined,
  kept: JsonObject | undefined,
  own: Record<string, JsonValue | undefined>,
): JsonObject {
  const body: JsonObject = {};
  // `key` is a request field; kept data holds a field named like a hint escaped (`$$name`).
  const place = (key: string): void => {
    if (Object.hasOwn(body, key)) return;
    const v = Object.hasOwn(own, key) ? own[key] : undefined;
    const stored = storedKey(key);
    if (v !== undefined) setOwn(body, key, v);
    else if (kept !== undefined && Object.hasOwn(kept, stored)) setOwn(body, key, kept[stored]!);
  };
  for (const k of order ?? []) place(k);
  for (const k of Object.keys(own)) place(k);
  if (kept !== undefined) for (const k of Object.keys(kept)) if (!isHintKey(k)) place(sourceKey(k));
  return body;
}

/** The url, base64 data and media type of an image or document part, a `data:` URL taken apart into data and media type. */
export function mediaSource(part: Part): {
  url: string | undefined;
  data: string | undefined;
  mediaType: string | undefined;
} {
  let url = typeof part.url === 'string' ? part.url : undefined;
  let data = typeof part.data === 'string' ? part.data : undefined;
  let mediaType = typeof part.mediaType === 'string' ? part.mediaType : undefined;
  const parsed = data === undefined && url !== undefined ? parseDataUrl(url) : undefined;
  if (parsed !== undefined) {
    // Any case, parameters dropped: the blocks written from it carry a bare media type.
    data = parsed.data;
    mediaType = parsed.mediaType.toLowerCase();
    url = undefined;
  }
  return { url, data, mediaType };
}

// ---------------------------------------------------------------------------
// Reading

/** One v1 message read, and where it came from. */
export interface ReadMessage {
  message: Message;
  loc: MessageLocation;
}

/**
 * Reads a request body `{..., system?, messages}` or a bare messages array:
 * `system` reads the body's system prompt into a v1 message (undefined leaves
 * it a request field) and `message` one source message. The other request
 * fields are kept on the conversation; a bare array is marked `$bare`.
 */
export function readTurns(
  value: JsonValue,
  format: string,
  read: WeakSet<object>,
  system: (body: JsonObject) => ReadMessage | undefined,
  message: (m: JsonValue, pointer: string, index: number) => ReadMessage,
): ReadResult {
  let body: JsonObject | undefined;
  let history: JsonValue | undefined;
  if (Array.isArray(value)) history = value;
  else if (isPlainObject(value)) {
    body = value;
    history = value.messages;
  } else {
    return notFormat(format, 'not a request body or a messages array');
  }
  if (!Array.isArray(history)) return notFormat(format, 'no "messages" array');
  const messages: Message[] = [];
  const locs: MessageLocation[] = [];
  let requestRest: JsonObject | undefined;
  if (body !== undefined) {
    const sys = system(body);
    if (sys !== undefined) {
      messages.push(sys.message);
      locs.push(sys.loc);
    }
    requestRest = restOf(body, sys === undefined ? ['messages'] : ['system', 'messages']);
  }
  const base = body === undefined ? '' : '/messages';
  readEach(history, base, message, messages, locs);
  // A bare array stays one when written back from a stored v1 file, without this context.
  if (body === undefined) requestRest = { $bare: true };
  const conversation = makeConversation(messages, format, requestRest);
  const context: TurnContext = { bare: body === undefined, read };
  if (body !== undefined) context.keys = Object.keys(body);
  return { conversation, context, locate: makeLocator(base, locs) };
}

/**
 * A v1 message of a source message's role and parts: a user message holding
 * tool results is a `tool` message; a system message read inline gets the
 * `$inline` hint, a role other than user and assistant the `$role` hint.
 */
export function turnMessage(
  format: string,
  read: WeakSet<object>,
  sourceRole: string,
  parts: Part[],
  rest: JsonObject,
  pointer: string,
  locs: PartLocation[],
): ReadMessage {
  let role = sourceRole;
  if (role === 'user' && parts.some((p) => p.type === 'tool-result')) role = 'tool';
  // A system message inside the history stays there, also when written without this read's context.
  else if (role === 'system') setOwn(rest, '$inline', true);
  else if (role !== 'user' && role !== 'assistant') setOwn(rest, '$role', role);
  const message: Message = { role, parts };
  keepProviderData(message, format, rest);
  read.add(message);
  return { message, loc: { pointer, parts: locs } };
}

// ---------------------------------------------------------------------------
// Writing

/** The prefix of a loss inside a tool result's content (`label` names where). */
export function lossPrefix(label: string | undefined): string {
  return label === undefined ? '' : `${label}: `;
}

/**
 * The loss of a part written as no block, before its own type's checks: a
 * part a tool result's content cannot hold (only text, media and kept
 * blocks), or a blank text part (the APIs reject blank text blocks; one read
 * that way stays as it was).
 */
export function skippedPartLoss(
  part: Part,
  where: PartWhere,
  label: string | undefined,
  inResult: boolean,
  fromSource: boolean,
  format: string,
): Loss | undefined {
  const prefix = lossPrefix(label);
  if (
    inResult &&
    !['text', 'image', 'document'].includes(part.type) &&
    !part.type.startsWith(`${format}:`)
  ) {
    return { ...where, what: `${prefix}${part.type} part inside a tool result` };
  }
  const text = typeof part.text === 'string' ? part.text : '';
  if (part.type === 'text' && !fromSource && text.trim() === '') {
    return { ...where, what: `${prefix}blank text part` };
  }
  return undefined;
}

/** The fields and other formats' data of a written part that the format does not carry. */
export function partLosses(part: Part, where: PartWhere, format: string): Loss[] {
  // A result's `name` is the call's: these formats pair by id alone.
  const known = (PART_FIELDS as Record<string, readonly string[]>)[part.type];
  return [
    ...providerDataLosses(part, format, where),
    ...(known === undefined ? [] : fieldLosses(part, known, where, `${part.type} part`)),
  ];
}

/**
 * The block of a part of type `<format>:<block type>`, carried through from a read of this
 * format; any other type has no block here and is recorded as a loss (where `label` names).
 */
export function keptBlock(
  part: Part,
  format: string,
  losses: Loss[],
  where: { messageIndex?: number; partIndex?: number },
  label: string | undefined,
): JsonObject | undefined {
  const pd = part.type.startsWith(`${format}:`) ? providerDataOf(part, format) : undefined;
  if (pd === undefined) {
    losses.push({ ...where, what: `${lossPrefix(label)}unknown part type "${part.type}"` });
    return undefined;
  }
  if (refusesKeptUrl(pd, format, losses, where, `${lossPrefix(label)}${part.type} block`))
    return undefined;
  const block: JsonObject = {};
  mergeKept(block, pd);
  return block;
}

/** The losses of a written v1 message's own fields: those besides role and parts, then other formats' data. */
export function turnMessageLosses(m: Message, index: number, format: string): Loss[] {
  return [
    ...fieldLosses(m, MESSAGE_FIELDS, { messageIndex: index }, 'message'),
    ...providerDataLosses(m, format, { messageIndex: index }),
  ];
}

/** The role a v1 message is written with: user for tool results, else its own (unknown ones as user, a loss, unless read so from this format). */
export function turnRole(m: Message, index: number, format: string, losses: Loss[]): string {
  // The hint keeps a role of the source's own (a message read with role "developer" is written
  // back so); it never renames a message: a user message with a "system" hint stays a user one.
  if (providerDataOf(m, format)?.$role === m.role) return m.role;
  if (m.role === 'tool') return 'user';
  if (m.role === 'user' || m.role === 'assistant' || m.role === 'system') return m.role;
  losses.push({ messageIndex: index, what: `role "${m.role}" (written as user)` });
  return 'user';
}

/** What writing the turns of one conversation needs. */
export interface TurnWriter {
  messages: readonly Message[];
  ctx: TurnContext | undefined;
  format: string;
  /** The provider's name, for the loss of a message it can express nothing of. */
  provider: string;
  /** Where the losses go. */
  losses: Loss[];
  /** Writes one v1 part as blocks (none when it is not written, with a loss). */
  writePart(part: Part, where: PartWhere): JsonObject[];
  /** True for a tool result block. */
  isResult(block: JsonObject): boolean;
}

/**
 * Writes the blocks of the system messages at `indices` for the top-level
 * system prompt: text parts and kept blocks only (other parts are losses).
 */
export function systemBlocks(w: TurnWriter, indices: readonly number[]): JsonObject[] {
  const blocks: JsonObject[] = [];
  for (const i of indices) {
    const m = w.messages[i]!;
    w.losses.push(...turnMessageLosses(m, i, w.format));
    m.parts.forEach((p, j) => {
      const where = { messageIndex: i, partIndex: j };
      if (p.type !== 'text' && !p.type.startsWith(`${w.format}:`)) {
        w.losses.push({ ...where, what: `${p.type} part in the system prompt` });
        return;
      }
      blocks.push(...w.writePart(p, where));
    });
  }
  return blocks;
}

/** One provider turn written from v1 messages. */
export interface WrittenTurn {
  /** The message whose fields the turn keeps: the first read from the source, else the first. */
  lead: number;
  role: string;
  blocks: JsonObject[];
}

/**
 * Writes the v1 messages at `members` as one provider turn: the blocks of all
 * their parts, results first in a user turn that is not exactly one message
 * read from the source. A provider-executed call answered in its own
 * assistant message from another format is dropped with its result (one loss
 * each, see {@link providerExecutedParts}). Undefined when the messages had
 * parts but none could be written (with a loss, unless every part was such a
 * dropped pair, whose losses say it already).
 */
export function writeTurn(w: TurnWriter, members: readonly number[]): WrittenTurn | undefined {
  const { messages, ctx, format, losses } = w;
  const lead = members.find((i) => isFromSource(ctx, messages[i]!, format)) ?? members[0]!;
  const leadMessage = messages[lead]!;
  let blocks: JsonObject[] = [];
  let partCount = 0;
  let droppedCount = 0;
  // A result whose call is earlier in this same turn stays after it: moved first, it would come
  // before its call, which the next read drops and normalize writes again, without end.
  const callsSoFar = new Set<string>();
  const pinned = new Set<JsonObject>();
  for (const i of members) {
    const m = messages[i]!;
    losses.push(...turnMessageLosses(m, i, format));
    const dropped = isFromSource(ctx, m, format) ? undefined : providerExecutedParts(m);
    m.parts.forEach((p, j) => {
      const what = dropped?.get(j);
      if (what !== undefined) {
        losses.push({ messageIndex: i, partIndex: j, what });
        droppedCount++;
        return;
      }
      partCount++;
      const written = w.writePart(p, { messageIndex: i, partIndex: j });
      if (p.type === 'tool-call' && typeof p.id === 'string') callsSoFar.add(p.id);
      if (p.type === 'tool-result' && typeof p.callId === 'string' && callsSoFar.has(p.callId))
        for (const b of written) pinned.add(b);
      blocks.push(...written);
    });
  }
  const exact = members.length === 1 && isFromSource(ctx, leadMessage, format);
  const role = turnRole(leadMessage, lead, format, losses);
  // All results of a turn go first in its user message (providers.md §3, §5).
  if (!exact && role === 'user')
    blocks = resultsFirst(blocks, (b) => w.isResult(b) && !pinned.has(b));
  if (blocks.length === 0 && partCount > 0) {
    losses.push({ messageIndex: lead, what: `message with nothing ${w.provider} can express` });
    return undefined;
  }
  if (blocks.length === 0 && droppedCount > 0) return undefined;
  return { lead, role, blocks };
}
