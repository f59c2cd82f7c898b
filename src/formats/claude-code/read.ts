/**
 * Reads a Claude Code session (the events of a session JSONL file as one array, the caller
 * joining the lines, or a `{"loglines": [...]}` export) into v1. The conversation is rebuilt
 * from the `message` of the user and assistant events of the main thread (see thread.ts for
 * which events count); its blocks map as Anthropic's do, see docs/formats/claude-code.md.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { UNTYPED_BLOCK, type Message, type Part } from '../../model/types.js';
import type { ReadOptions, ReadResult } from '../format.js';
import { isPlainObject, keepProviderData, keptPart, restOf } from '../kit/kept.js';
import {
  joinPointer,
  sourceMap,
  readBase,
  type SourceMap,
  type FieldSources,
} from '../kit/source-map.js';
import { makeConversation, notFormat, objectToArguments } from '../shared.js';
import { eventsOf, isMessageEvent, isSessionEvent } from './detect.js';
import { FORMAT } from './hints.js';
import { threadOf } from './thread.js';
import { keepSession, type PartSource } from './write.js';

/** Where a text part's fields are in its block. */
const TEXT_FIELDS: FieldSources = { text: 'text' };

/** Where an image's or document's fields are in its block. */
const MEDIA_FIELDS: FieldSources = {
  data: ['source', 'data'],
  url: ['source', 'url'],
  mediaType: ['source', 'media_type'],
  name: 'title',
};

/** A block v1 has no type for, kept whole as a `claude-code:<block type>` part. */
function unknownPart(block: JsonValue): Part {
  const type = isPlainObject(block) && typeof block.type === 'string' ? block.type : UNTYPED_BLOCK;
  return keptPart(FORMAT, block, type);
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

/** A text, image or document block (a message's, or a tool result's content) as a v1 part. */
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

/** Where the fields of a part read by readContentBlock are in its block. */
function contentFields(part: Part): FieldSources | undefined {
  if (part.type === 'text') return TEXT_FIELDS;
  return part.type === 'image' || part.type === 'document' ? MEDIA_FIELDS : undefined;
}

/** A tool result block as a v1 part, recorded as part `j` of message `i` (its content parts too). */
function readToolResult(block: JsonObject, map: SourceMap, i: number, j: number, at: string): Part {
  const part: Part = { type: 'tool-result', callId: block.tool_use_id as string };
  const c = block.content;
  const content =
    typeof c === 'string'
      ? [{ type: 'text', text: c }]
      : Array.isArray(c)
        ? c.map(readContentBlock)
        : [];
  part.content = content;
  if (block.is_error === true) part.failed = true;
  // `is_error: false` is kept; `true` is the v1 `failed` flag.
  const known = ['type', 'tool_use_id', 'content'];
  if (block.is_error === true) known.push('is_error');
  keepProviderData(part, FORMAT, restOf(block, known));
  const entry = map.part(i, j, at, { callId: 'tool_use_id', content: 'content' });
  // A string content is one text part with no node of its own.
  if (typeof c === 'string') entry.contentPointer = joinPointer(at, 'content');
  else
    content.forEach((p, k) => map.child(entry, k, joinPointer(at, 'content', k), contentFields(p)));
  return part;
}

/** One block of a message's content as a v1 part, recorded as part `j` of message `i`. */
function readBlock(block: JsonValue, map: SourceMap, i: number, j: number, at: string): Part {
  if (isPlainObject(block)) {
    switch (block.type) {
      case 'text':
      case 'image':
      case 'document': {
        const part = readContentBlock(block);
        map.part(i, j, at, contentFields(part));
        return part;
      }
      case 'thinking':
        if (typeof block.thinking === 'string') {
          const part: Part = { type: 'reasoning', text: block.thinking };
          if (typeof block.signature === 'string') part.signature = block.signature;
          keepProviderData(part, FORMAT, restOf(block, ['type', 'thinking', 'signature']));
          map.part(i, j, at, { text: 'thinking', signature: 'signature' });
          return part;
        }
        break;
      case 'redacted_thinking':
        if (typeof block.data === 'string') {
          const part: Part = { type: 'reasoning', text: '', redacted: block.data };
          keepProviderData(part, FORMAT, restOf(block, ['type', 'data']));
          map.part(i, j, at, { redacted: 'data' });
          return part;
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
          map.part(i, j, at, { id: 'id', name: 'name', arguments: 'input' });
          return part;
        }
        break;
      case 'tool_result':
        if (typeof block.tool_use_id === 'string') return readToolResult(block, map, i, j, at);
        break;
    }
  }
  map.part(i, j, at);
  return unknownPart(block);
}

/** The event's fields other than the message content, for `providerData`. */
function eventRecord(e: JsonObject): JsonObject {
  const record = restOf(e, ['message']) ?? {};
  const message = restOf(e.message as JsonObject, ['role', 'content']);
  if (message !== undefined) record.message = message;
  return record;
}

/** Reads a session's events (or a loglines export) into one v1 conversation. */
export function readClaudeCode(value: JsonValue, options?: ReadOptions): ReadResult {
  const found = eventsOf(value);
  if (found === undefined)
    notFormat(FORMAT, 'not an array of session events or {"loglines": [...]}');
  const events = found.events;
  const base = readBase(found.base, options);
  if (!events.some((e) => isSessionEvent(e) || isMessageEvent(e))) {
    notFormat(FORMAT, 'no session events (objects with "type" and "message" or "parentUuid")');
  }
  const { groups, context } = threadOf(events);
  const map = sourceMap(base, value, options);
  const messages: Message[] = [];
  const sources: PartSource[][] = [];
  groups.forEach((group, mi) => {
    map.message(mi, joinPointer(base, group.indices[0]!));
    const parts: Part[] = [];
    const from: PartSource[] = [];
    for (const i of group.indices) {
      const content = ((events[i] as JsonObject).message as JsonObject).content;
      const at = joinPointer(base, i, 'message', 'content');
      if (typeof content === 'string') {
        map.part(mi, parts.length, at);
        parts.push({ type: 'text', text: content });
        from.push({ event: i, block: -1 });
      } else if (Array.isArray(content)) {
        content.forEach((block, k) => {
          parts.push(readBlock(block, map, mi, parts.length, joinPointer(at, k)));
          from.push({ event: i, block: k });
        });
      }
    }
    sources.push(from);
    const role =
      group.role === 'user' && parts.some((p) => p.type === 'tool-result') ? 'tool' : group.role;
    const message: Message = { role, parts };
    const records = group.indices.map((i) => eventRecord(events[i] as JsonObject));
    keepProviderData(message, FORMAT, records.length === 1 ? records[0] : { events: records });
    messages.push(message);
  });
  const conversation = makeConversation(messages, FORMAT, undefined);
  keepSession(context, {
    root: value,
    base: found.base,
    events,
    messages: conversation.messages.slice(),
    groups: groups.map((g) => g.indices),
    sources,
  });
  return { conversation, context, locate: map.locate };
}
