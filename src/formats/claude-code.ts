/**
 * Claude Code session logs (read only): the events of a session JSONL file
 * as one array (the caller joins the lines), or a `{"loglines": [...]}`
 * export. The conversation is rebuilt from the `message` of the user and
 * assistant events of the main thread; see docs/formats/claude-code.md for
 * which events count and how blocks map.
 */
import { ReadOnlyFormatError } from '../model/errors.js';
import type { JsonObject, JsonValue } from '../model/json.js';
import { parsePointer, valueAt } from '../model/pointer.js';
import { UNTYPED_BLOCK, type Message, type Part } from '../model/types.js';
import type { ConversationFormat } from './format.js';
import {
  isPlainObject,
  keepProviderData,
  makeConversation,
  notFormat,
  objectToArguments,
  restOf,
} from './shared.js';

const FORMAT = 'claude-code';

/** The prefix of unknown part types: the block's own `type` follows. */
const UNKNOWN_PREFIX = 'claude-code:';

/** What a read leaves out of the conversation, by event index (for `show` and debugging). */
export interface ClaudeCodeContext {
  /** Events of sub-agent threads (`isSidechain: true`) in a main session file. */
  sidechainEvents: number[];
  /** Events on a branch the user abandoned by rewinding to an earlier prompt. */
  abandonedEvents: number[];
  /** Lines that are not user or assistant messages (summary, system, progress, snapshots, junk). */
  skippedEvents: number[];
  /** Every message event was a sidechain: the file is a sub-agent's own transcript, read whole. */
  subagentTranscript: boolean;
}

/** The source of each v1 part field, relative to the block's pointer. */
type FieldMap = Record<string, string>;

interface LocatedPart {
  pointer: string;
  fields: FieldMap;
}

interface LocatedMessage {
  pointer: string;
  parts: LocatedPart[];
}

function eventsOf(value: JsonValue): { events: JsonValue[]; base: string } | undefined {
  if (Array.isArray(value)) return { events: value, base: '' };
  if (isPlainObject(value) && Array.isArray(value.loglines)) {
    return { events: value.loglines, base: '/loglines' };
  }
  return undefined;
}

/**
 * A session event: a `type`, an identity (`uuid` or `sessionId`) and a
 * `message` or a `parentUuid`; or one of the bookkeeping lines a session
 * file may start with (a summary, a file-history snapshot, a queue
 * operation), so that the first line alone tells a session file.
 */
function isSessionEvent(e: JsonValue): boolean {
  if (!isPlainObject(e) || typeof e.type !== 'string') return false;
  if (('uuid' in e || 'sessionId' in e) && ('message' in e || 'parentUuid' in e)) return true;
  switch (e.type) {
    case 'summary':
      return typeof e.summary === 'string' && 'leafUuid' in e;
    case 'file-history-snapshot':
      return 'messageId' in e && 'snapshot' in e;
    case 'queue-operation':
      return 'operation' in e && 'sessionId' in e;
    default:
      return false;
  }
}

function isMessageEvent(e: JsonValue | undefined): e is JsonObject {
  return (
    isPlainObject(e) && (e.type === 'user' || e.type === 'assistant') && isPlainObject(e.message)
  );
}

function detectClaudeCode(value: JsonValue): boolean {
  const found = eventsOf(value);
  if (found === undefined) return false;
  // Messages of other formats have a top-level role; events never do.
  if (found.events.some((e) => isPlainObject(e) && 'role' in e)) return false;
  if (found.base === '/loglines') return found.events.some(isMessageEvent);
  return found.events.some(isSessionEvent);
}

// ------------------------------------------------------------------ blocks

function unknownPart(block: JsonValue): Part {
  const type = isPlainObject(block) && typeof block.type === 'string' ? block.type : UNTYPED_BLOCK;
  const part: Part = { type: UNKNOWN_PREFIX + type };
  keepProviderData(part, FORMAT, { block });
  return part;
}

/** An Anthropic image or document block as a v1 part; undefined for sources v1 cannot hold. */
function readMedia(block: JsonObject): Part | undefined {
  const source = block.source;
  if (!isPlainObject(source)) return undefined;
  const image = block.type === 'image';
  const part: Part = { type: image ? 'image' : 'document' };
  if (source.type === 'base64' && typeof source.data === 'string') {
    if (typeof source.media_type !== 'string') return undefined;
    part.data = source.data;
    part.mediaType = source.media_type;
  } else if (source.type === 'url' && typeof source.url === 'string') {
    part.url = source.url;
    if (typeof source.media_type === 'string') part.mediaType = source.media_type;
    // Anthropic fetches only PDFs by URL for documents.
    else if (!image) part.mediaType = 'application/pdf';
  } else {
    return undefined;
  }
  if (!image && typeof block.title === 'string') part.name = block.title;
  const rest = restOf(block, image ? ['type', 'source'] : ['type', 'source', 'title']);
  const sourceRest = restOf(source, ['type', 'data', 'media_type', 'url']);
  keepProviderData(part, FORMAT, sourceRest === undefined ? rest : { ...rest, source: sourceRest });
  return part;
}

function readContentBlock(block: JsonValue): Part {
  if (isPlainObject(block)) {
    if (block.type === 'text' && typeof block.text === 'string') {
      const part: Part = { type: 'text', text: block.text };
      keepProviderData(part, FORMAT, restOf(block, ['type', 'text']));
      return part;
    }
    if (block.type === 'image' || block.type === 'document') {
      const media = readMedia(block);
      if (media !== undefined) return media;
    }
  }
  return unknownPart(block);
}

function readBlock(block: JsonValue): { part: Part; fields: FieldMap } {
  if (!isPlainObject(block)) return { part: unknownPart(block), fields: {} };
  switch (block.type) {
    case 'text':
    case 'image':
    case 'document': {
      const part = readContentBlock(block);
      const fields: FieldMap =
        part.type === 'text'
          ? { text: '/text' }
          : { data: '/source/data', url: '/source/url', mediaType: '/source/media_type' };
      return { part, fields };
    }
    case 'thinking':
      if (typeof block.thinking === 'string') {
        const part: Part = { type: 'reasoning', text: block.thinking };
        if (typeof block.signature === 'string') part.signature = block.signature;
        keepProviderData(part, FORMAT, restOf(block, ['type', 'thinking', 'signature']));
        return { part, fields: { text: '/thinking', signature: '/signature' } };
      }
      break;
    case 'redacted_thinking':
      if (typeof block.data === 'string') {
        const part: Part = { type: 'reasoning', text: '', redacted: block.data };
        keepProviderData(part, FORMAT, restOf(block, ['type', 'data']));
        return { part, fields: { redacted: '/data' } };
      }
      break;
    case 'tool_use':
      if (typeof block.id === 'string' && typeof block.name === 'string') {
        const part: Part = {
          type: 'tool-call',
          id: block.id,
          name: block.name,
          arguments: objectToArguments(block.input ?? {}),
        };
        keepProviderData(part, FORMAT, restOf(block, ['type', 'id', 'name', 'input']));
        return { part, fields: { id: '/id', name: '/name', arguments: '/input' } };
      }
      break;
    case 'tool_result':
      if (typeof block.tool_use_id === 'string') {
        const part: Part = { type: 'tool-result', callId: block.tool_use_id };
        const c = block.content;
        part.content =
          typeof c === 'string'
            ? [{ type: 'text', text: c }]
            : Array.isArray(c)
              ? c.map(readContentBlock)
              : [];
        if (block.is_error === true) part.failed = true;
        // `is_error: false` is kept; `true` is the v1 `failed` flag.
        const known = ['type', 'tool_use_id', 'content'];
        if (block.is_error === true) known.push('is_error');
        keepProviderData(part, FORMAT, restOf(block, known));
        return { part, fields: { callId: '/tool_use_id', content: '/content' } };
      }
      break;
  }
  return { part: unknownPart(block), fields: {} };
}

// ---------------------------------------------------------------- threading

/** A user event that is a typed prompt (not tool results). */
function isPrompt(e: JsonObject): boolean {
  if (e.type !== 'user' || !isPlainObject(e.message)) return false;
  const content = e.message.content;
  return !(
    Array.isArray(content) && content.some((b) => isPlainObject(b) && b.type === 'tool_result')
  );
}

/**
 * Events on abandoned branches: when the user rewinds, the new prompt is a
 * later sibling (same `parentUuid`) of an earlier prompt, and the earlier
 * prompt's whole subtree is no longer the conversation. Other siblings
 * (parallel tool calls and their results, progress lines) are kept.
 */
function abandonedEvents(events: readonly JsonValue[]): Set<number> {
  const byUuid = new Map<string, number>();
  events.forEach((e, i) => {
    if (isPlainObject(e) && typeof e.uuid === 'string' && !byUuid.has(e.uuid))
      byUuid.set(e.uuid, i);
  });
  const children = new Map<string, number[]>();
  events.forEach((e, i) => {
    if (!isPlainObject(e) || typeof e.parentUuid !== 'string' || !byUuid.has(e.parentUuid)) return;
    const list = children.get(e.parentUuid);
    if (list === undefined) children.set(e.parentUuid, [i]);
    else list.push(i);
  });
  const out = new Set<number>();
  const sidechain = (i: number): boolean => (events[i] as JsonObject).isSidechain === true;
  for (const siblings of children.values()) {
    // Every prompt but the last one on the same parent (and the same thread) was rewound away.
    const rewound = [false, true].flatMap((side) =>
      siblings
        .filter((i) => isPrompt(events[i] as JsonObject) && sidechain(i) === side)
        .slice(0, -1),
    );
    for (const start of rewound) {
      const stack = [start];
      while (stack.length > 0) {
        const i = stack.pop()!;
        if (out.has(i)) continue;
        out.add(i);
        const uuid = (events[i] as JsonObject).uuid;
        if (typeof uuid === 'string' && byUuid.get(uuid) === i)
          stack.push(...(children.get(uuid) ?? []));
      }
    }
  }
  return out;
}

/** The event's fields other than the message content, for `providerData`. */
function eventRecord(e: JsonObject): JsonObject {
  const record = restOf(e, ['message']) ?? {};
  const message = restOf(e.message as JsonObject, ['role', 'content']);
  if (message !== undefined) record.message = message;
  return record;
}

interface Group {
  indices: number[];
  role: string;
  messageId?: string;
  /** A user event of tool results only (no typed prompt). */
  results?: boolean;
}

/**
 * The assistant group of `messageId` that a later event of that id joins: the last group, or an
 * earlier one when only tool-result events were logged after it.
 */
function openMessage(groups: readonly Group[], messageId: string | undefined): Group | undefined {
  if (messageId === undefined) return undefined;
  for (let k = groups.length - 1; k >= 0; k--) {
    const g = groups[k]!;
    if (g.role === 'assistant') return g.messageId === messageId ? g : undefined;
    if (!g.results) return undefined;
  }
  return undefined;
}

function readClaudeCode(value: JsonValue) {
  const found = eventsOf(value);
  if (found === undefined)
    notFormat(FORMAT, 'not an array of session events or {"loglines": [...]}');
  const { events, base } = found;
  if (!events.some((e) => isSessionEvent(e) || isMessageEvent(e))) {
    notFormat(FORMAT, 'no session events (objects with "type" and "message" or "parentUuid")');
  }

  const context: ClaudeCodeContext = {
    sidechainEvents: [],
    abandonedEvents: [],
    skippedEvents: [],
    subagentTranscript: false,
  };
  const messageEvents = events.flatMap((e, i) => (isMessageEvent(e) ? [i] : []));
  const main = messageEvents.filter((i) => (events[i] as JsonObject).isSidechain !== true);
  // A sub-agent's own file holds nothing but its sidechain: that is the conversation then.
  context.subagentTranscript = main.length === 0 && messageEvents.length > 0;
  const thread = new Set(context.subagentTranscript ? messageEvents : main);
  const abandoned = abandonedEvents(events);

  const groups: Group[] = [];
  events.forEach((e, i) => {
    if (!isMessageEvent(e)) {
      context.skippedEvents.push(i);
      return;
    }
    if (!thread.has(i)) {
      context.sidechainEvents.push(i);
      return;
    }
    if (abandoned.has(i)) {
      context.abandonedEvents.push(i);
      return;
    }
    const message = e.message as JsonObject;
    const role = message.role === 'user' || message.role === 'assistant' ? message.role : e.type;
    const messageId = typeof message.id === 'string' ? message.id : undefined;
    // One API message is logged as one event per content block, and the results of its first
    // calls may be logged between its blocks (Claude Code runs a tool while the rest streams).
    // Claude Code sends it as one assistant message followed by the results: so is it read.
    const owner = role === 'assistant' ? openMessage(groups, messageId) : undefined;
    if (owner !== undefined) {
      owner.indices.push(i);
      return;
    }
    const group: Group = { indices: [i], role: role as string };
    if (messageId !== undefined) group.messageId = messageId;
    if (role === 'user' && !isPrompt(e)) group.results = true;
    groups.push(group);
  });

  const messages: Message[] = [];
  const located: LocatedMessage[] = [];
  for (const group of groups) {
    const parts: Part[] = [];
    const loc: LocatedMessage = { pointer: `${base}/${group.indices[0]}`, parts: [] };
    for (const i of group.indices) {
      const content = ((events[i] as JsonObject).message as JsonObject).content;
      const at = `${base}/${i}/message/content`;
      if (typeof content === 'string') {
        parts.push({ type: 'text', text: content });
        loc.parts.push({ pointer: at, fields: {} });
      } else if (Array.isArray(content)) {
        content.forEach((block, k) => {
          const { part, fields } = readBlock(block);
          parts.push(part);
          loc.parts.push({ pointer: `${at}/${k}`, fields });
        });
      }
    }
    const role =
      group.role === 'user' && parts.some((p) => p.type === 'tool-result') ? 'tool' : group.role;
    const message: Message = { role, parts };
    const records = group.indices.map((i) => eventRecord(events[i] as JsonObject));
    keepProviderData(message, FORMAT, records.length === 1 ? records[0] : { events: records });
    messages.push(message);
    located.push(loc);
  }
  return { conversation: makeConversation(messages, FORMAT, undefined), context, located, base };
}

/** The Claude Code session log format (read only). */
export const claudeCodeFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'Claude Code session logs (read only): the events of a session JSONL file, or a {"loglines": [...]} export',
  readOnly: true,
  target: 'anthropic',
  detect: detectClaudeCode,
  read(value) {
    const { conversation, context, located, base } = readClaudeCode(value);
    return {
      conversation,
      context,
      locate(messageIndex, partIndex, path = []) {
        const m = messageIndex === undefined ? undefined : located[messageIndex];
        if (m === undefined) return base;
        const p = partIndex === undefined ? undefined : m.parts[partIndex];
        if (p === undefined) return m.pointer;
        const head = path[0];
        const field = head === undefined ? undefined : p.fields[String(head)];
        if (field === undefined) return p.pointer;
        // Below a tool result's content: the block of that index, when the content is a list.
        if (head === 'content' && typeof path[1] === 'number') {
          const blocks = valueAt(value, parsePointer(p.pointer + field));
          if (Array.isArray(blocks) && path[1] < blocks.length)
            return `${p.pointer}${field}/${path[1]}`;
        }
        return valueAt(value, parsePointer(p.pointer + field)) === undefined
          ? p.pointer
          : p.pointer + field;
      },
    };
  },
  write() {
    // Reached by --check (which writes to compare); the write modes refuse earlier with the same words.
    throw new ReadOnlyFormatError('claude-code');
  },
};
