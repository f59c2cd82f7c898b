/**
 * Writes a v1 conversation as OpenAI Chat Completions `messages`: the bare array or the request
 * body it was read from, exactly, when it was read from Chat; a history from another format is
 * written as Chat accepts it (what Chat cannot carry is dropped, and listed as a loss). The
 * shapes follow the `openai` SDK's `ChatCompletionMessageParam`; docs/formats/openai-chat.md
 * lists the mapping.
 */
import { parseJson, setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import { PART_TYPES, type Message, type Part } from '../../model/types.js';
import { groupTurns, writerTurnKey } from '../../core/turns.js';
import { type Conversation, type Loss, type WriteResult } from '../format.js';
import { providerDataOf } from '../../model/provider-data.js';
import { writeBody, writesBare } from '../kit/envelope.js';
import {
  isKeptPart,
  isPlainObject,
  keptField,
  keptNode,
  keptUnreadable,
  restoreFields,
} from '../kit/kept.js';
import { toDataUrl } from '../kit/media.js';
import { contextOf, conversationReadHere, readHere } from '../kit/provenance.js';
import {
  conversationLosses,
  fieldLosses,
  objectLosses,
  PART_FIELDS,
  type PartWhere,
  providerDataLosses,
  providerExecutedParts,
} from '../shared.js';
import { audioFormat, defaultKind, FORMAT, HINTS } from './hints.js';
import type { ChatContext } from './read.js';

/**
 * The wire fields only the v1 model sets, at any level (content, role, calls, results, media):
 * kept data never restores one, so what sanitize, lint and show checked is what the provider
 * receives. Kept data fills only fields v1 has no place for.
 */
const WIRE = [
  'role',
  'content',
  'tool_calls',
  'function_call',
  'tool_call_id',
  'name',
  'type',
  'text',
  'refusal',
  'image_url',
  'input_audio',
  'file',
  'id',
  'function',
  'custom',
  'arguments',
  'input',
  'url',
  'data',
  'format',
  'file_data',
  'file_id',
  'filename',
];

/** What every part of one write needs. */
interface WriteState {
  /**
   * The conversation came from another format (no trace of a Chat read): drop what Chat does
   * not accept, and say so. A history read from Chat is written as it was read.
   */
  strict: boolean;
  /** The context the write was given (a Chat read's, or none): which messages were read here. */
  context: unknown;
  losses: Loss[];
}

/** Which v1 content part types a role's `content` takes (Chat Completions rules). */
function allowedIn(role: string, type: string): boolean {
  if (role === 'user') return type === 'text' || type === 'image' || type === 'document';
  return type === 'text';
}

/** Writes one content part, or undefined when it is dropped (with a loss). */
function writeContentPart(
  part: Part,
  role: string,
  where: PartWhere,
  state: WriteState,
): JsonValue | undefined {
  const data = providerDataOf(part, FORMAT);
  const lose = (what: string): undefined => {
    state.losses.push({ ...where, what });
    return undefined;
  };
  if (isKeptPart(part, FORMAT)) return keptNode(part, FORMAT, state.losses, where);
  if (!(PART_TYPES as readonly string[]).includes(part.type)) {
    return lose(`unknown part type "${part.type}"`);
  }
  if (state.strict && !allowedIn(role, part.type)) {
    return lose(
      role === 'tool' ? `${part.type} in a tool result` : `${part.type} part in a ${role} message`,
    );
  }
  state.losses.push(...providerDataLosses(part, FORMAT, where));
  switch (part.type) {
    case 'text': {
      state.losses.push(...fieldLosses(part, PART_FIELDS.text, where, 'text part'));
      const refusal = data?.[HINTS.type] === 'refusal';
      const out: JsonObject = refusal
        ? { type: 'refusal', refusal: part.text! }
        : { type: 'text', text: part.text! };
      restoreFields(out, data, WIRE);
      return out;
    }
    case 'image': {
      state.losses.push(...fieldLosses(part, PART_FIELDS.image, where, 'image part'));
      let url: string;
      if (typeof part.url === 'string') url = part.url;
      else if (typeof part.data === 'string') url = toDataUrl(String(part.mediaType), part.data);
      else return lose('image part without url or data');
      const image: JsonObject = { url };
      restoreFields(image, isPlainObject(data?.image_url) ? data.image_url : undefined, WIRE);
      const out: JsonObject = { type: 'image_url', image_url: image };
      restoreFields(out, data, WIRE);
      return out;
    }
    case 'document': {
      state.losses.push(...fieldLosses(part, PART_FIELDS.document, where, 'document part'));
      const mediaType = String(part.mediaType);
      if (typeof part.data !== 'string') return lose('document given by url');
      const keptType = data?.[HINTS.type];
      const kind =
        typeof keptType === 'string'
          ? keptType
          : mediaType.startsWith('audio/')
            ? 'input_audio'
            : 'file';
      if (kind === 'input_audio') {
        const keptFormat = data?.[HINTS.format];
        const format = typeof keptFormat === 'string' ? keptFormat : audioFormat(mediaType);
        const audio: JsonObject = { data: part.data, format };
        restoreFields(audio, isPlainObject(data?.input_audio) ? data.input_audio : undefined, WIRE);
        const out: JsonObject = { type: 'input_audio', input_audio: audio };
        restoreFields(out, data, WIRE);
        return out;
      }
      const fileData = data?.[HINTS.base64] === true ? part.data : toDataUrl(mediaType, part.data);
      const file: JsonObject = { file_data: fileData };
      if (typeof part.name === 'string') file.filename = part.name;
      restoreFields(file, isPlainObject(data?.file) ? data.file : undefined, WIRE);
      const out: JsonObject = { type: 'file', file };
      restoreFields(out, data, WIRE);
      return out;
    }
    default:
      return lose(`${part.type} part in a ${role} message`);
  }
}

/**
 * A `content` value from written parts: no parts → null (assistant with calls)
 * or "", one plain text part → its string, otherwise the array; a `$content`
 * hint from the read restores `null`, absent or a one-part array.
 */
function contentValue(
  items: JsonValue[],
  hint: JsonValue | undefined,
  role: string,
  hasCalls: boolean,
): JsonValue | undefined {
  if (hint === 'array') return items;
  if (items.length === 0 && hint === 'null') return null;
  if (items.length === 0 && hint === 'absent') return undefined;
  const kind = defaultKind(items, role, hasCalls);
  if (kind === 'null') return null;
  if (kind === 'string') return items.length === 0 ? '' : ((items[0] as JsonObject).text as string);
  return items;
}

/** Writes the content parts of one message (or tool result). */
function writeItems(
  parts: readonly Part[],
  role: string,
  messageIndex: number,
  partIndex: (k: number) => number,
  state: WriteState,
): JsonValue[] {
  const items: JsonValue[] = [];
  parts.forEach((part, k) => {
    const w = writeContentPart(part, role, { messageIndex, partIndex: partIndex(k) }, state);
    if (w !== undefined) items.push(w);
  });
  return items;
}

/** Writes a tool call part as a `tool_calls` entry, or as a legacy `function_call`. */
function writeToolCall(part: Part, legacy: boolean): JsonObject {
  const data = providerDataOf(part, FORMAT);
  const kind = data?.[HINTS.kind] === 'custom' ? 'custom' : 'function';
  const body: JsonObject = {};
  if (typeof part.name === 'string') body.name = part.name;
  const args = typeof part.arguments === 'string' ? part.arguments : '';
  const argKey = kind === 'custom' ? 'input' : 'arguments';
  if (data?.[HINTS.arguments] === 'json') {
    try {
      body[argKey] = parseJson(args);
    } catch {
      body[argKey] = args;
    }
  } else if (!(data?.[HINTS.arguments] === 'absent' && args === '')) body[argKey] = args;
  if (legacy) {
    restoreFields(body, data, WIRE);
    return body;
  }
  const bodyRest = data?.[kind];
  restoreFields(body, isPlainObject(bodyRest) ? bodyRest : undefined, WIRE);
  const out: JsonObject = {};
  if (typeof part.id === 'string') out.id = part.id;
  // A kept `type` the reader could not map (`""`, a number) comes back; any other comes from v1.
  const keptType = data?.type;
  const oddType =
    keptField(data, 'type') &&
    (keptType === '' || keptType === null || ['number', 'boolean'].includes(typeof keptType));
  if (oddType) out.type = keptType!;
  else if (data?.[HINTS.noType] !== true) out.type = kind;
  setOwn(out, kind, body);
  restoreFields(out, data, WIRE);
  return out;
}

/** Writes a v1 tool message: one Chat `tool` message per result, then a user message for anything else. */
function writeToolMessage(m: Message, i: number, state: WriteState, out: JsonValue[]): void {
  const data = providerDataOf(m, FORMAT);
  const legacy = data?.[HINTS.role] === 'function';
  const others: { part: Part; index: number }[] = [];
  let first = true;
  m.parts.forEach((part, j) => {
    if (part.type !== 'tool-result') {
      others.push({ part, index: j });
      return;
    }
    const where = { messageIndex: i, partIndex: j };
    const pdata = providerDataOf(part, FORMAT);
    state.losses.push(
      ...objectLosses(part, FORMAT, PART_FIELDS['tool-result'], where, 'tool-result part'),
    );
    if (part.failed === true) state.losses.push({ ...where, what: 'failed flag of a tool result' });
    const msg: JsonObject = { role: legacy ? 'function' : 'tool' };
    if (typeof part.callId === 'string') msg.tool_call_id = part.callId;
    if ((pdata?.[HINTS.name] === true || legacy) && typeof part.name === 'string')
      msg.name = part.name;
    const content = Array.isArray(part.content) ? (part.content as Part[]) : [];
    const items = writeItems(content, 'tool', i, () => j, state);
    const value = contentValue(items, pdata?.[HINTS.content], 'tool', false);
    const unreadable = first && items.length === 0 ? keptUnreadable(data, 'content') : undefined;
    if (unreadable !== undefined) msg.content = unreadable;
    else if (value !== undefined) msg.content = value;
    if (first) restoreFields(msg, data, WIRE);
    first = false;
    out.push(msg);
  });
  if (m.parts.length === 0) state.losses.push({ messageIndex: i, what: 'empty tool message' });
  if (others.length > 0) {
    // Text or media beside results (e.g. an Anthropic follow-up) go in a user message after them.
    const items: JsonValue[] = [];
    for (const { part, index } of others) {
      const where = { messageIndex: i, partIndex: index };
      if (part.type === 'tool-call' || part.type === 'reasoning') {
        state.losses.push({ ...where, what: `${part.type} part in a tool message` });
        continue;
      }
      const w = writeContentPart(part, 'user', where, state);
      if (w !== undefined) items.push(w);
    }
    if (items.length > 0)
      out.push({ role: 'user', content: contentValue(items, undefined, 'user', false)! });
  }
}

/** Writes one v1 message (a tool message may give several). */
function writeMessage(m: Message, i: number, state: WriteState, out: JsonValue[]): void {
  if (m.role === 'tool') {
    state.losses.push(
      ...objectLosses(m, FORMAT, ['role', 'parts'], { messageIndex: i }, 'message'),
    );
    writeToolMessage(m, i, state, out);
    return;
  }
  writeMerged([{ message: m, index: i }], 0, state, out);
}

/** A v1 message and its index, as {@link writeMerged} takes them. */
interface Member {
  message: Message;
  index: number;
}

/**
 * Writes non-tool v1 messages as one Chat message: the role and kept fields
 * of `members[leadAt]`, the content parts of all of them in order, then all
 * their calls in order. More than one only for adjacent assistant messages
 * from another format (see {@link writeChat}).
 */
function writeMerged(
  members: readonly Member[],
  leadAt: number,
  state: WriteState,
  out: JsonValue[],
): void {
  const lead = members[leadAt]!;
  let name: string | undefined;
  for (const { message: m, index: i } of members) {
    state.losses.push(
      ...objectLosses(m, FORMAT, ['role', 'parts', 'name'], { messageIndex: i }, 'message'),
    );
    if (typeof m.name !== 'string') continue;
    // One Chat message has one name: a different one of a merged message is lost.
    if (name === undefined) name = m.name;
    else if (m.name !== name) state.losses.push({ messageIndex: i, what: 'message field "name"' });
  }
  const data = providerDataOf(lead.message, FORMAT);
  const m = lead.message;
  const role = m.role === 'system' && data?.[HINTS.role] === 'developer' ? 'developer' : m.role;
  const assistant = role === 'assistant';
  const msg: JsonObject = { role };
  if (name !== undefined) msg.name = name;
  const contentParts: { part: Part; where: PartWhere }[] = [];
  const calls: JsonValue[] = [];
  let functionCall: JsonObject | undefined;
  let reasoning: string | undefined;
  let refusalText: string | undefined;
  let written = 0;
  let droppedCount = 0;
  for (const { message, index: i } of members) {
    // A provider-executed call and its result, in one assistant message not read from Chat (a Chat
    // read never puts a result in an assistant message): dropped.
    const dropped = readHere(state.context, message, FORMAT)
      ? undefined
      : providerExecutedParts(message);
    message.parts.forEach((part, j) => {
      const where = { messageIndex: i, partIndex: j };
      const pdata = providerDataOf(part, FORMAT);
      const lose = (what: string): void => {
        state.losses.push({ ...where, what });
      };
      const droppedWhat = dropped?.get(j);
      if (droppedWhat !== undefined) {
        droppedCount++;
        return lose(droppedWhat);
      }
      written++;
      if (part.type === 'reasoning') {
        if (assistant && pdata?.[HINTS.field] === 'reasoning_content' && reasoning === undefined) {
          reasoning = String(part.text);
        } else lose('reasoning part');
      } else if (part.type === 'tool-call') {
        if (!assistant) return lose(`tool-call part in a ${role} message`);
        state.losses.push(
          ...objectLosses(part, FORMAT, PART_FIELDS['tool-call'], where, 'tool-call part'),
        );
        if (pdata?.[HINTS.legacy] === true && functionCall === undefined) {
          functionCall = writeToolCall(part, true);
        } else calls.push(writeToolCall(part, false));
      } else if (pdata?.[HINTS.in] === 'tool_calls' && assistant && isKeptPart(part, FORMAT)) {
        const node = keptNode(part, FORMAT, state.losses, where);
        if (node !== undefined) calls.push(node);
      } else if (pdata?.[HINTS.in] === 'function_call' && assistant && isKeptPart(part, FORMAT)) {
        const node = keptNode(part, FORMAT, state.losses, where);
        if (node !== undefined) functionCall = node as JsonObject;
      } else if (part.type === 'tool-result') {
        lose(`tool-result part in a ${role} message`);
      } else if (
        part.type === 'text' &&
        assistant &&
        pdata?.[HINTS.field] === 'refusal' &&
        refusalText === undefined
      ) {
        refusalText = String(part.text);
      } else {
        contentParts.push({ part, where });
      }
    });
  }
  // Nothing but such pairs: no message is left to write (their losses say so).
  if (written === 0 && droppedCount > 0) return;
  const hasCalls = calls.length > 0 || functionCall !== undefined;
  const items: JsonValue[] = [];
  for (const { part, where } of contentParts) {
    const w = writeContentPart(part, role, where, state);
    if (w !== undefined) items.push(w);
  }
  const content = contentValue(items, data?.[HINTS.content], role, hasCalls);
  // A content the reader could not map (an object, a number) was kept as it was: it comes back.
  const unreadable = items.length === 0 && !hasCalls ? keptUnreadable(data, 'content') : undefined;
  if (unreadable !== undefined) msg.content = unreadable;
  else if (content !== undefined) msg.content = content;
  if (reasoning !== undefined) msg.reasoning_content = reasoning;
  if (calls.length > 0 || data?.[HINTS.emptyToolCalls] === true) msg.tool_calls = calls;
  if (functionCall !== undefined) msg.function_call = functionCall;
  restoreFields(msg, data, WIRE);
  // An assistant's `"refusal": null` beside its content is no text: it comes back.
  const refusal = refusalText ?? keptUnreadable(data, 'refusal');
  if (refusal !== undefined) msg.refusal = refusal;
  out.push(msg);
}

/** What one group of v1 messages wrote (see {@link writeChat}). */
interface Chunk {
  out: JsonValue[];
  losses: Loss[];
  /** The members of an assistant group, which a later assistant group may join. */
  assistant?: Member[];
  /** The group holds a message read from Chat. */
  source: boolean;
}

/**
 * Writes a conversation as a Chat Completions body (or the bare array it was
 * read from). Adjacent assistant messages of another format (e.g. Gemini's
 * one call a model content) become one assistant message, so the tool
 * messages answering all their calls follow it directly (providers.md §1);
 * two messages read from Chat stay apart, as core/turns.ts `groupTurns` groups them.
 */
export function writeChat(conversation: Conversation, context?: unknown): WriteResult {
  const ctx = contextOf(context, FORMAT) as ChatContext | undefined;
  const strict = !conversationReadHere(ctx, conversation, FORMAT);
  const losses: Loss[] = [...conversationLosses(conversation, FORMAT)];
  // Written with a Chat read's context, every message is the file's own: the context's set of read
  // nodes does not say it (a caller may read the file again to write what an earlier read gave, as
  // `histlint run` does), and two of them must never merge. Without one, a message is Chat's when
  // it carries a trace of the format (a stored v1 file of a Chat read).
  const entries = conversation.messages.map((m) => ({
    key: writerTurnKey(FORMAT, m),
    source: ctx !== undefined || readHere(undefined, m, FORMAT),
  }));
  /** The members written as one message, led by the one read from Chat (if any). */
  const writeGroup = (members: Member[], chunk: Chunk): void => {
    const state: WriteState = { strict, context: ctx, losses: chunk.losses };
    if (members.length === 1) {
      writeMessage(members[0]!.message, members[0]!.index, state, chunk.out);
      return;
    }
    const lead = members.findIndex((e) => entries[e.index]!.source);
    writeMerged(members, Math.max(lead, 0), state, chunk.out);
  };
  const chunks: Chunk[] = [];
  for (const group of groupTurns(entries)) {
    const members = group.map((i) => ({ message: conversation.messages[i]!, index: i }));
    const source = group.some((i) => entries[i]!.source);
    const chunk: Chunk = { out: [], losses: [], source };
    writeGroup(members, chunk);
    if (entries[group[0]!]!.key !== 'assistant') {
      chunks.push(chunk);
      continue;
    }
    // A tool message that wrote nothing left two assistant messages side by side: they become one.
    const previous = chunks.findLast((c) => c.out.length > 0);
    if (previous?.assistant !== undefined && !(source && previous.source)) {
      const merged = [...previous.assistant, ...members];
      previous.out = [];
      previous.losses.length = 0;
      writeGroup(merged, previous);
      previous.assistant = merged;
      previous.source ||= source;
      continue;
    }
    chunk.assistant = members;
    chunks.push(chunk);
  }
  const messages = chunks.flatMap((c) => c.out);
  // By message (a merge writes two messages' losses together); a sort keeps ties in order.
  const chunkLosses = chunks.flatMap((c) => c.losses);
  chunkLosses.sort((a, b) => (a.messageIndex ?? -1) - (b.messageIndex ?? -1));
  losses.push(...chunkLosses);
  if (writesBare(ctx, conversation, FORMAT, { losses })) return { value: messages, losses };
  const kept = providerDataOf(conversation, FORMAT);
  return { value: writeBody(kept, { messages }, ctx?.keys), losses };
}
