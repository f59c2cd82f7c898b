/**
 * Reading Anthropic Messages requests into v1. One source message becomes one v1 message; a
 * user message that carries `tool_result` blocks becomes a v1 `tool` message. Blocks v1 has no
 * type for (server tools, web search results, MCP, container uploads, ...) become kept parts of
 * type `anthropic:<block type>`, so they survive every operation and write back unchanged.
 */
import { setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import { UNTYPED_BLOCK, type Message, type Part } from '../../model/types.js';
import type { ReadOptions, ReadResult } from '../format.js';
import {
  envelopeContext,
  envelopeData,
  readEnvelope,
  type EnvelopeContext,
} from '../kit/envelope.js';
import { isPlainObject, keepProviderData, keptPart, restOf } from '../kit/kept.js';
import { textToBase64 } from '../kit/media.js';
import { joinPointer, sourceMap, type FieldSources, type PartSource } from '../kit/source-map.js';
import { assertMessage, makeConversation, notFormat, objectToArguments } from '../shared.js';
import { addMessage, setIfAny, turnMessage, type ReadMessage } from '../turns.js';
import { FORMAT, HINTS } from './hints.js';

/** What a write of the same format needs: the bare array or the body, and the body's key order. */
export type AnthropicContext = EnvelopeContext;

/** One part read, and where it came from. */
interface ReadPart {
  part: Part;
  loc: PartSource;
}

/** A block's own `type` plus whatever the caller maps. */
const withType = (fields: FieldSources): FieldSources => ({ type: ['type'], ...fields });

/** A part for a block v1 cannot express: the whole block, kept (see the kit's keptPart). */
function unknownPart(block: JsonObject, pointer: string): ReadPart {
  const typed = typeof block.type === 'string';
  const part = keptPart(FORMAT, block, typed ? (block.type as string) : UNTYPED_BLOCK);
  return { part, loc: typed ? { pointer, fields: { type: ['type'] } } : { pointer } };
}

/** Reads an `image` or `document` block. */
function readMedia(block: JsonObject, pointer: string): ReadPart {
  const source = block.source;
  const kind = block.type as 'image' | 'document';
  if (!isPlainObject(source)) return unknownPart(block, pointer);
  const part: Part = { type: kind };
  const hints: JsonObject = {};
  const known: string[] = ['type'];
  const fields: Record<string, readonly (string | number)[]> = {};
  const mediaType = source.media_type;
  if (source.type === 'base64' && typeof source.data === 'string') {
    part.data = source.data;
    known.push('data');
    fields.data = ['source', 'data'];
    if (typeof mediaType === 'string') {
      part.mediaType = mediaType;
      known.push('media_type');
      fields.mediaType = ['source', 'media_type'];
    } else if (kind === 'document') {
      // v1 needs a media type for documents; base64 documents are PDFs.
      part.mediaType = 'application/pdf';
      setOwn(hints, HINTS.mediaType, false);
    }
  } else if (source.type === 'text' && kind === 'document' && typeof source.data === 'string') {
    const data = textToBase64(source.data);
    if (data === undefined) return unknownPart(block, pointer);
    part.data = data;
    known.push('data');
    fields.data = ['source', 'data'];
    setOwn(hints, HINTS.sourceType, 'text');
    if (typeof mediaType === 'string') {
      part.mediaType = mediaType;
      known.push('media_type');
      fields.mediaType = ['source', 'media_type'];
    } else {
      part.mediaType = 'text/plain';
      setOwn(hints, HINTS.mediaType, false);
    }
  } else if (source.type === 'url' && typeof source.url === 'string') {
    part.url = source.url;
    known.push('url');
    fields.url = ['source', 'url'];
    // URL documents are PDFs; the source has no media type of its own.
    if (kind === 'document') part.mediaType = 'application/pdf';
  } else {
    // file ids, content sources and anything newer have no v1 equivalent.
    return unknownPart(block, pointer);
  }
  const blockKnown = ['type', 'source'];
  if (kind === 'document' && typeof block.title === 'string') {
    part.name = block.title;
    blockKnown.push('title');
    fields.name = ['title'];
  }
  const rest = restOf(block, blockKnown) ?? {};
  setIfAny(rest, 'source', restOf(source, known));
  for (const k of Object.keys(hints)) setOwn(rest, k, hints[k]!);
  keepProviderData(part, FORMAT, rest);
  return { part, loc: { pointer, fields: withType(fields) } };
}

/** Reads one content block into a v1 part; `inResult` limits it to the content part types. */
function readBlock(
  ctx: AnthropicContext,
  block: JsonValue,
  pointer: string,
  inResult: boolean,
): ReadPart {
  if (!isPlainObject(block) || (Object.hasOwn(block, 'type') && typeof block.type !== 'string')) {
    return notFormat(FORMAT, `the content block at ${pointer} has no string "type"`);
  }
  // A block without a type is kept whole (as `anthropic:invalid`): lint reports it.
  const out =
    (typeof block.type === 'string' ? readKnownBlock(ctx, block, pointer, inResult) : undefined) ??
    unknownPart(block, pointer);
  ctx.read.add(out.part);
  return out;
}

function readKnownBlock(
  ctx: AnthropicContext,
  block: JsonObject,
  pointer: string,
  inResult: boolean,
): ReadPart | undefined {
  switch (block.type) {
    case 'text': {
      if (typeof block.text !== 'string') return undefined;
      const part: Part = { type: 'text', text: block.text };
      keepProviderData(part, FORMAT, restOf(block, ['type', 'text']));
      return { part, loc: { pointer, fields: withType({ text: ['text'] }) } };
    }
    case 'image':
    case 'document':
      return readMedia(block, pointer);
    case 'tool_use': {
      if (inResult) return undefined;
      if (block.id !== undefined && typeof block.id !== 'string') return undefined;
      if (block.name !== undefined && typeof block.name !== 'string') return undefined;
      if (block.input === undefined) return undefined;
      const part: Part = { type: 'tool-call' };
      if (typeof block.id === 'string') part.id = block.id;
      if (typeof block.name === 'string') part.name = block.name;
      part.arguments = objectToArguments(block.input);
      const rest = restOf(block, ['type', 'id', 'name', 'input']) ?? {};
      // Only objects come back from the arguments text by themselves.
      if (!isPlainObject(block.input)) setOwn(rest, HINTS.inputRaw, true);
      keepProviderData(part, FORMAT, rest);
      return {
        part,
        loc: { pointer, fields: withType({ id: ['id'], name: ['name'], arguments: ['input'] }) },
      };
    }
    case 'tool_result': {
      if (inResult) return undefined;
      if (block.tool_use_id !== undefined && typeof block.tool_use_id !== 'string')
        return undefined;
      if (block.is_error !== undefined && typeof block.is_error !== 'boolean') return undefined;
      const part: Part = { type: 'tool-result' };
      if (typeof block.tool_use_id === 'string') part.callId = block.tool_use_id;
      const rest = restOf(block, ['type', 'tool_use_id', 'content', 'is_error']) ?? {};
      const loc: PartSource = {
        pointer,
        fields: withType({ callId: ['tool_use_id'], failed: ['is_error'], content: ['content'] }),
      };
      const content = block.content;
      if (typeof content === 'string') {
        part.content = [{ type: 'text', text: content }];
        setOwn(rest, HINTS.contentString, true);
        loc.contentPointer = joinPointer(pointer, 'content');
      } else if (Array.isArray(content)) {
        const parts: Part[] = [];
        loc.content = [];
        content.forEach((b, c) => {
          const r = readBlock(ctx, b, joinPointer(pointer, 'content', c), true);
          parts.push(r.part);
          loc.content!.push(r.loc);
        });
        part.content = parts;
      } else if (content === undefined) {
        part.content = [];
        setOwn(rest, HINTS.noContent, true);
        loc.contentPointer = pointer;
      } else {
        return undefined;
      }
      if (typeof block.is_error === 'boolean') part.failed = block.is_error;
      keepProviderData(part, FORMAT, rest);
      return { part, loc };
    }
    case 'thinking': {
      if (inResult || typeof block.thinking !== 'string') return undefined;
      if (block.signature !== undefined && typeof block.signature !== 'string') return undefined;
      const part: Part = { type: 'reasoning', text: block.thinking };
      if (typeof block.signature === 'string') part.signature = block.signature;
      keepProviderData(part, FORMAT, restOf(block, ['type', 'thinking', 'signature']));
      return {
        part,
        loc: { pointer, fields: withType({ text: ['thinking'], signature: ['signature'] }) },
      };
    }
    case 'redacted_thinking': {
      if (inResult || typeof block.data !== 'string') return undefined;
      const part: Part = { type: 'reasoning', text: '', redacted: block.data };
      keepProviderData(part, FORMAT, restOf(block, ['type', 'data']));
      return { part, loc: { pointer, fields: withType({ redacted: ['data'] }) } };
    }
    default:
      return undefined;
  }
}

/** Reads the parts of one message's `content`, remembering every part object. */
function readContent(
  ctx: AnthropicContext,
  content: JsonValue[],
  pointer: string,
): { parts: Part[]; locs: PartSource[] } {
  const parts: Part[] = [];
  const locs: PartSource[] = [];
  content.forEach((b, k) => {
    const r = readBlock(ctx, b, joinPointer(pointer, k), false);
    parts.push(r.part);
    locs.push(r.loc);
  });
  return { parts, locs };
}

/** Reads the top-level `system` into a v1 system message, or undefined when it stays a request field. */
function readSystem(ctx: AnthropicContext, system: JsonValue | undefined): ReadMessage | undefined {
  if (typeof system === 'string' && system !== '') {
    const part: Part = { type: 'text', text: system };
    ctx.read.add(part);
    const message: Message = { role: 'system', parts: [part] };
    keepProviderData(message, FORMAT, { [HINTS.system]: 'string' });
    ctx.read.add(message);
    return { message, pointer: '/system', parts: [{ pointer: '/system' }] };
  }
  if (Array.isArray(system) && system.length > 0) {
    const { parts, locs } = readContent(ctx, system, '/system');
    const message: Message = { role: 'system', parts };
    keepProviderData(message, FORMAT, { [HINTS.system]: 'blocks' });
    ctx.read.add(message);
    return { message, pointer: '/system', parts: locs };
  }
  return undefined;
}

/** Reads one source message. */
function readMessage(
  ctx: AnthropicContext,
  m: JsonValue,
  pointer: string,
  index: number,
): ReadMessage {
  assertMessage(m, index, FORMAT);
  const content = m.content;
  const rest = restOf(m, ['role', 'content']) ?? {};
  let parts: Part[];
  let locs: PartSource[];
  if (typeof content === 'string') {
    const part: Part = { type: 'text', text: content };
    ctx.read.add(part);
    parts = [part];
    locs = [{ pointer: joinPointer(pointer, 'content') }];
    setOwn(rest, HINTS.string, true);
  } else if (Array.isArray(content)) {
    ({ parts, locs } = readContent(ctx, content, joinPointer(pointer, 'content')));
  } else {
    return notFormat(FORMAT, `message ${index} has no string or array "content"`);
  }
  return turnMessage(FORMAT, HINTS, ctx, m.role, parts, rest, pointer, locs);
}

/**
 * Reads an Anthropic Messages request body `{..., system?, messages}` or a bare messages array.
 * A top-level system prompt becomes the first v1 message; the body's other fields are kept on
 * the conversation (see the kit's envelopeData).
 */
export function readAnthropic(value: JsonValue, options?: ReadOptions): ReadResult {
  if (!Array.isArray(value) && !isPlainObject(value))
    return notFormat(FORMAT, 'not a request body or a messages array');
  const envelope = readEnvelope(value, FORMAT, 'messages', {}, options);
  const ctx: AnthropicContext = envelopeContext(FORMAT, envelope, options);
  const map = sourceMap(envelope.base, value, options);
  const messages: Message[] = [];
  const system = envelope.body === undefined ? undefined : readSystem(ctx, envelope.body.system);
  if (system !== undefined) addMessage(map, messages, system);
  envelope.list.forEach((m, k) => {
    addMessage(map, messages, readMessage(ctx, m, joinPointer(envelope.base, k), k));
  });
  // In the order the writer sets them.
  const taken = system === undefined ? ['messages'] : ['system', 'messages'];
  const conversation = makeConversation(messages, FORMAT, envelopeData(envelope, taken));
  return { conversation, context: ctx, locate: map.locate };
}
