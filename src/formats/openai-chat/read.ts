/**
 * Reads OpenAI Chat Completions `messages` (a bare array or a request body) into v1: content
 * parts, `tool_calls` and the legacy `function_call`, `tool` (and legacy `function`) messages as
 * one tool result each, and DeepSeek-style `reasoning_content`. What v1 has no field for is kept
 * in providerData with the hints of ./hints.ts; a block v1 cannot express is a kept part.
 */
import { setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import { UNTYPED_BLOCK, type Message, type Part } from '../../model/types.js';
import type { Conversation, ReadOptions, ReadResult } from '../format.js';
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
import { splitDataUrl } from '../kit/media.js';
import { joinPointer, sourceMap } from '../kit/source-map.js';
import { assertMessage, objectToArguments } from '../shared.js';
import { audioFormat, defaultKind, FORMAT, HINTS } from './hints.js';

/** What a write of the same format needs to rebuild the original shape. */
export type ChatContext = EnvelopeContext;

/** One read: the source map and the context. */
type Reading = KitReading<ChatContext>;

/** The media type of an `input_audio` format. */
function audioMediaType(format: string): string {
  return format === 'mp3' ? 'audio/mpeg' : `audio/${format}`;
}

/** The shape of a source `content` value. */
function kindOf(content: JsonValue | undefined): string {
  if (content === undefined) return 'absent';
  if (content === null) return 'null';
  if (typeof content === 'string') return 'string';
  return Array.isArray(content) ? 'array' : 'other';
}

/** The `$content` hint a message or result needs, or undefined when the default shape matches. */
function contentHint(
  content: JsonValue | undefined,
  role: string,
  hasCalls: boolean,
): string | undefined {
  const kind = kindOf(content);
  if (kind === 'string' || kind === 'other') return undefined;
  if (kind === 'array' && defaultKind(content as JsonValue[], role, hasCalls) === 'array')
    return undefined;
  if (kind === 'null' && defaultKind([], role, hasCalls) === 'null') return undefined;
  return kind;
}

/** Reads one content part (the node at `pointer`). */
function readContentPart(item: JsonValue, pointer: string): LocatedPart {
  if (!isPlainObject(item) || typeof item.type !== 'string') {
    return { part: keptPart(FORMAT, item, UNTYPED_BLOCK), pointer };
  }
  const type = item.type;
  if (type === 'text' && typeof item.text === 'string') {
    const part = keepProviderData(
      { type: 'text', text: item.text },
      FORMAT,
      restOf(item, ['type', 'text']),
    );
    return { part, pointer, fields: { text: 'text' } };
  }
  if (type === 'refusal' && typeof item.refusal === 'string') {
    const data = mergeFields({ [HINTS.type]: 'refusal' }, restOf(item, ['type', 'refusal']));
    const part = keepProviderData({ type: 'text', text: item.refusal }, FORMAT, data);
    return { part, pointer, fields: { text: 'refusal' } };
  }
  if (type === 'image_url' && isPlainObject(item.image_url)) {
    const img = item.image_url;
    if (typeof img.url === 'string') {
      const split = splitDataUrl(img.url);
      const part: Part = split
        ? { type: 'image', data: split.data, mediaType: split.mediaType }
        : { type: 'image', url: img.url };
      const data = mergeFields(restOf(item, ['type', 'image_url']), undefined);
      const imgRest = restOf(img, ['url']);
      if (imgRest !== undefined) setOwn(data, 'image_url', imgRest);
      keepProviderData(part, FORMAT, data);
      const url = ['image_url', 'url'];
      return { part, pointer, fields: { url, data: url, mediaType: url } };
    }
  }
  if (type === 'input_audio' && isPlainObject(item.input_audio)) {
    const audio = item.input_audio;
    if (typeof audio.data === 'string' && typeof audio.format === 'string') {
      const mediaType = audioMediaType(audio.format);
      const data = mergeFields(restOf(item, ['type', 'input_audio']), undefined);
      if (audioFormat(mediaType) !== audio.format) setOwn(data, HINTS.format, audio.format);
      const audioRest = restOf(audio, ['data', 'format']);
      if (audioRest !== undefined) setOwn(data, 'input_audio', audioRest);
      const part = keepProviderData(
        { type: 'document', data: audio.data, mediaType },
        FORMAT,
        data,
      );
      const fields = { data: ['input_audio', 'data'], mediaType: ['input_audio', 'format'] };
      return { part, pointer, fields };
    }
  }
  if (type === 'file' && isPlainObject(item.file)) {
    const file = item.file;
    const nameOk = file.filename === undefined || typeof file.filename === 'string';
    if (typeof file.file_data === 'string' && nameOk) {
      const split = splitDataUrl(file.file_data);
      const data = mergeFields(restOf(item, ['type', 'file']), undefined);
      let part: Part;
      if (split) {
        part = { type: 'document', data: split.data, mediaType: split.mediaType };
        // A file of audio would otherwise be written back as input_audio.
        if (split.mediaType.startsWith('audio/')) setOwn(data, HINTS.type, 'file');
      } else {
        // Plain base64 (no data: URL) names no media type; PDF is the only kind Chat takes.
        part = { type: 'document', data: file.file_data, mediaType: 'application/pdf' };
        setOwn(data, HINTS.base64, true);
      }
      if (typeof file.filename === 'string') part.name = file.filename;
      const fileRest = restOf(file, ['file_data', 'filename']);
      if (fileRest !== undefined) setOwn(data, 'file', fileRest);
      keepProviderData(part, FORMAT, data);
      const fileData = ['file', 'file_data'];
      const fields: Record<string, readonly string[]> = { data: fileData, mediaType: fileData };
      if (typeof file.filename === 'string') fields.name = ['file', 'filename'];
      return { part, pointer, fields };
    }
  }
  // Anything else (file_id files, other servers' part types) is kept whole.
  return { part: keptPart(FORMAT, item, type), pointer };
}

/** Reads a `content` value into parts (string → one text part, array → one part each). */
function readContent(content: JsonValue | undefined, msgPtr: string): LocatedPart[] {
  const pointer = joinPointer(msgPtr, 'content');
  // The text of a string content is the content node itself.
  if (typeof content === 'string') return [{ part: { type: 'text', text: content }, pointer }];
  if (!Array.isArray(content)) return [];
  return content.map((item, k) => readContentPart(item, joinPointer(pointer, k)));
}

/** Reads one `tool_calls` entry (or a legacy `function_call` when `legacy`) at `pointer`. */
function readToolCall(tc: JsonValue, pointer: string, legacy: boolean): LocatedPart {
  const kind = !legacy && isPlainObject(tc) && tc.type === 'custom' ? 'custom' : 'function';
  const body = legacy ? tc : isPlainObject(tc) ? tc[kind] : undefined;
  if (!isPlainObject(tc) || !isPlainObject(body)) {
    // The hint names the call list it came from.
    const from = legacy ? 'function_call' : 'tool_calls';
    return { part: keptPart(FORMAT, tc, from, { [HINTS.in]: from }), pointer };
  }
  /** A field of the call's body, below the entry (the legacy call is its body). */
  const inBody = (key: string): string | readonly string[] => (legacy ? key : [kind, key]);
  const part: Part = { type: 'tool-call' };
  const data: JsonObject = {};
  const fields: Record<string, string | readonly string[]> = {};
  const mapped: string[] = [];
  if (!legacy) {
    mapped.push(kind);
    if (typeof tc.id === 'string') {
      part.id = tc.id;
      mapped.push('id');
      fields.id = 'id';
    }
    if (tc.type === 'function' || tc.type === 'custom') mapped.push('type');
    else if (tc.type === undefined) setOwn(data, HINTS.noType, true);
    if (kind === 'custom') setOwn(data, HINTS.kind, 'custom');
  } else {
    setOwn(data, HINTS.legacy, true);
  }
  const bodyMapped: string[] = [];
  if (typeof body.name === 'string') {
    part.name = body.name;
    bodyMapped.push('name');
    fields.name = inBody('name');
  }
  const argKey = kind === 'custom' ? 'input' : 'arguments';
  const args = body[argKey];
  bodyMapped.push(argKey);
  if (typeof args === 'string') part.arguments = args;
  else if (args === undefined) {
    part.arguments = '';
    setOwn(data, HINTS.arguments, 'absent');
  } else {
    // Stored histories sometimes hold the arguments as an object: kept as its JSON text.
    part.arguments = objectToArguments(args);
    setOwn(data, HINTS.arguments, 'json');
  }
  if (args !== undefined) fields.arguments = inBody(argKey);
  if (legacy) {
    for (const [k, v] of Object.entries(restOf(body, bodyMapped) ?? {})) setOwn(data, k, v);
  } else {
    const bodyRest = restOf(body, bodyMapped);
    if (bodyRest !== undefined) setOwn(data, kind, bodyRest);
    for (const [k, v] of Object.entries(restOf(tc, mapped) ?? {})) setOwn(data, k, v);
  }
  return { part: keepProviderData(part, FORMAT, data), pointer, fields };
}

/** Reads a `tool` (or legacy `function`) message into a v1 tool message with one result. */
function readToolMessage(m: JsonObject, pointer: string, i: number, r: Reading): Message {
  const mapped = ['role', 'content'];
  const result: Part = { type: 'tool-result' };
  const partData: JsonObject = {};
  const fields: Record<string, string> = {};
  if (typeof m.tool_call_id === 'string') {
    result.callId = m.tool_call_id;
    mapped.push('tool_call_id');
    fields.callId = 'tool_call_id';
  }
  if (typeof m.name === 'string') {
    // The legacy `name` is the function's name: it belongs on the result.
    result.name = m.name;
    mapped.push('name');
    setOwn(partData, HINTS.name, true);
    fields.name = 'name';
  }
  const content = m.content;
  if (kindOf(content) === 'other') mapped.splice(mapped.indexOf('content'), 1);
  const items = readContent(content, pointer);
  result.content = items.map((c) => c.part);
  if (content !== undefined) fields.content = 'content';
  const hint = contentHint(content, 'tool', false);
  if (hint !== undefined) setOwn(partData, HINTS.content, hint);
  keepProviderData(result, FORMAT, partData);
  const message: Message = { role: 'tool', parts: [result] };
  const data: JsonObject = {};
  if (m.role === 'function') setOwn(data, HINTS.role, 'function');
  keepProviderData(message, FORMAT, mergeFields(data, restOf(m, mapped)));
  // The result is the whole message; its content parts are the content's items.
  recordResultMessage(r, i, pointer, message, fields, items);
  return message;
}

/** Reads message `i` (the node at `pointer`). */
function readMessage(m: JsonValue, pointer: string, i: number, r: Reading): Message {
  assertMessage(m, i, FORMAT);
  if (m.role === 'tool' || m.role === 'function') return readToolMessage(m, pointer, i, r);

  const role = m.role;
  const mapped = ['role'];
  const data: JsonObject = {};
  const parts: LocatedPart[] = [];
  const assistant = role === 'assistant';

  if (assistant && typeof m.reasoning_content === 'string') {
    // DeepSeek/Kimi-style reasoning replay: a v1 reasoning part, written back to the same field.
    mapped.push('reasoning_content');
    parts.push({
      part: keepProviderData({ type: 'reasoning', text: m.reasoning_content }, FORMAT, {
        [HINTS.field]: 'reasoning_content',
      }),
      pointer: joinPointer(pointer, 'reasoning_content'),
    });
  }

  const content = m.content;
  if (kindOf(content) !== 'other') mapped.push('content');
  parts.push(...readContent(content, pointer));

  if (assistant && typeof m.refusal === 'string') {
    // The model's refusal is text the provider sees again: a v1 text part, written back there.
    mapped.push('refusal');
    parts.push({
      part: keepProviderData({ type: 'text', text: m.refusal }, FORMAT, {
        [HINTS.field]: 'refusal',
      }),
      pointer: joinPointer(pointer, 'refusal'),
    });
  }

  let hasCalls = false;
  if (assistant && Array.isArray(m.tool_calls)) {
    mapped.push('tool_calls');
    if (m.tool_calls.length === 0) setOwn(data, HINTS.emptyToolCalls, true);
    m.tool_calls.forEach((tc, k) => {
      parts.push(readToolCall(tc, joinPointer(pointer, 'tool_calls', k), false));
      hasCalls = true;
    });
  }
  if (assistant && isPlainObject(m.function_call)) {
    mapped.push('function_call');
    parts.push(readToolCall(m.function_call, joinPointer(pointer, 'function_call'), true));
    hasCalls = true;
  }

  const hint = contentHint(content, role, hasCalls);
  if (hint !== undefined) setOwn(data, HINTS.content, hint);
  const message: Message = {
    role: role === 'developer' ? 'system' : role,
    parts: parts.map((p) => p.part),
  };
  if (role === 'developer') setOwn(data, HINTS.role, 'developer');
  if (typeof m.name === 'string') {
    message.name = m.name;
    mapped.push('name');
  }
  keepProviderData(message, FORMAT, mergeFields(data, restOf(m, mapped)));
  recordMessage(r, i, pointer, message, parts);
  return message;
}

/**
 * Reads a Chat Completions messages array, or a request body holding one, into v1; throws the
 * one-line `not openai-chat` error for anything else.
 */
export function readChat(value: JsonValue, options?: ReadOptions): ReadResult {
  const why = { why: 'no "messages" array' };
  const envelope = readEnvelope(value, FORMAT, 'messages', why, options);
  const ctx: ChatContext = envelopeContext(FORMAT, envelope, options);
  const r: Reading = { map: sourceMap(envelope.base, value, options), ctx };
  const messages = envelope.list.map((m, i) => readMessage(m, joinPointer(envelope.base, i), i, r));
  const conversation: Conversation = { version: 1, messages };
  keepProviderData(conversation, FORMAT, envelopeData(envelope, ['messages']));
  return { conversation, context: ctx, locate: r.map.locate };
}
