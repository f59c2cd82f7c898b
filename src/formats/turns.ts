/**
 * Helpers shared by the formats whose history is a list of user/assistant
 * turns of content blocks (Anthropic Messages, AWS Bedrock Converse): the v1
 * message a source message becomes, how a group of v1 messages (grouped by
 * core/turns.ts, as the target rules see them) is written as one provider
 * turn, the top-level system prompt's blocks, and losses. The envelope, the
 * source map, provenance and kept parts are the kit's (src/formats/kit).
 */
import { setOwn, type JsonObject } from '../model/json.js';
import { type Message, type Part } from '../model/types.js';
import { providerDataOf } from '../model/provider-data.js';
import type { Loss } from './format.js';
import { isKeptPart, isPlainObject, keepProviderData, keptNode } from './kit/kept.js';
import { parseDataUrl } from './kit/media.js';
import { readHere, type ReadContext } from './kit/provenance.js';
import type { PartSource, SourceMap } from './kit/source-map.js';
import {
  fieldLosses,
  MESSAGE_FIELDS,
  PART_FIELDS,
  providerDataLosses,
  providerExecutedParts,
  type PartWhere,
} from './shared.js';

/**
 * The message hints these helpers write and read, as the format's HINTS declares them: `inline`
 * marks a system message read inside the history (not from the top-level system prompt), `role`
 * keeps a source role that is none of user, assistant and system.
 */
export interface TurnHints {
  inline: string;
  role: string;
}

/** Moves the blocks `isResult` accepts to the front, keeping the order within both halves. */
export function resultsFirst<T>(blocks: readonly T[], isResult: (b: T) => boolean): T[] {
  return [...blocks.filter(isResult), ...blocks.filter((b) => !isResult(b))];
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

/** One v1 message read, where it came from, and where each of its parts came from. */
export interface ReadMessage {
  message: Message;
  pointer: string;
  parts: PartSource[];
}

/**
 * A v1 message of a source message's role and parts: a user message holding
 * tool results is a `tool` message; a system message read inline gets the
 * inline hint, a role other than user and assistant the role hint (`hints`).
 * The message joins the read (`ctx`).
 */
export function turnMessage(
  format: string,
  hints: TurnHints,
  ctx: ReadContext,
  sourceRole: string,
  parts: Part[],
  rest: JsonObject,
  pointer: string,
  locs: PartSource[],
): ReadMessage {
  let role = sourceRole;
  if (role === 'user' && parts.some((p) => p.type === 'tool-result')) role = 'tool';
  // A system message inside the history stays there, also when written without this read's context.
  else if (role === 'system') setOwn(rest, hints.inline, true);
  else if (role !== 'user' && role !== 'assistant') setOwn(rest, hints.role, role);
  const message: Message = { role, parts };
  keepProviderData(message, format, rest);
  ctx.read.add(message);
  return { message, pointer, parts: locs };
}

/** Appends a message read to `messages` and records where it and its parts came from in `map`. */
export function addMessage(map: SourceMap, messages: Message[], read: ReadMessage): void {
  const i = messages.length;
  messages.push(read.message);
  map.message(i, read.pointer);
  read.parts.forEach((entry, j) => map.place(i, j, entry));
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
 * The block a kept part of this format holds (see the kit's keptPart), a copy, to be written back
 * as it was; any other part has no block here and is a loss (where `label` names), as is a kept
 * node that is no block, or one holding a URL the provider must not fetch.
 */
export function keptBlock(
  part: Part,
  format: string,
  losses: Loss[],
  where: { messageIndex?: number; partIndex?: number },
  label: string | undefined,
): JsonObject | undefined {
  const prefix = lossPrefix(label);
  if (!isKeptPart(part, format)) {
    losses.push({ ...where, what: `${prefix}unknown part type "${part.type}"` });
    return undefined;
  }
  const node = keptNode(part, format, losses, where, `${prefix}${part.type} block`);
  if (node === undefined) return undefined;
  // A hand-edited kept part may hold something other than a block: a content list holds blocks only.
  if (!isPlainObject(node)) {
    losses.push({ ...where, what: `${prefix}unknown part type "${part.type}"` });
    return undefined;
  }
  // A copy: the written value does not share its blocks with the conversation.
  const block: JsonObject = {};
  for (const k of Object.keys(node)) setOwn(block, k, node[k]!);
  return block;
}

/** The losses of a written v1 message's own fields: those besides role and parts, then other formats' data. */
export function turnMessageLosses(m: Message, index: number, format: string): Loss[] {
  return [
    ...fieldLosses(m, MESSAGE_FIELDS, { messageIndex: index }, 'message'),
    ...providerDataLosses(m, format, { messageIndex: index }),
  ];
}

/**
 * The role a v1 message is written with in a turn of this format: user for tool results, else
 * its own (unknown ones as user, a loss, unless read so from this format: the role hint).
 */
export function writtenRole(
  m: Message,
  index: number,
  format: string,
  hints: TurnHints,
  losses: Loss[],
): string {
  // The hint keeps a role of the source's own (a message read with role "developer" is written
  // back so); it never renames a message: a user message with a "system" hint stays a user one.
  if (providerDataOf(m, format)?.[hints.role] === m.role) return m.role;
  if (m.role === 'tool') return 'user';
  if (m.role === 'user' || m.role === 'assistant' || m.role === 'system') return m.role;
  losses.push({ messageIndex: index, what: `role "${m.role}" (written as user)` });
  return 'user';
}

/** What writing the turns of one conversation needs. */
export interface TurnWriter {
  messages: readonly Message[];
  /** The context the write was given (a read's of this format tells its messages apart). */
  context: unknown;
  format: string;
  /** The format's message hints (see {@link TurnHints}). */
  hints: TurnHints;
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
  const { messages, context, format, losses } = w;
  const lead = members.find((i) => readHere(context, messages[i]!, format)) ?? members[0]!;
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
    const dropped = readHere(context, m, format) ? undefined : providerExecutedParts(m);
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
  const exact = members.length === 1 && readHere(context, leadMessage, format);
  const role = writtenRole(leadMessage, lead, format, w.hints, losses);
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
