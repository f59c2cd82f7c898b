/**
 * OpenAI Chat Completions `messages` (SPEC §4): a bare messages array or a
 * request body holding `messages`, read into v1 and written back exactly.
 * The shapes follow the `openai` SDK's `ChatCompletionMessageParam` and
 * docs/formats/openai-chat.md lists the mapping.
 */
import { parseJson, setOwn, type JsonObject, type JsonValue } from '../model/json.js';
import { PART_TYPES, UNTYPED_BLOCK, type Message, type Part } from '../model/types.js';
import {
  providerDataOf,
  type Conversation,
  type ConversationFormat,
  type Loss,
  type WriteResult,
} from './format.js';
import {
  assertMessage,
  conversationLosses,
  fieldLosses,
  isPlainObject,
  isPlainTextPart,
  isRawPart,
  joinPointer,
  keepProviderData,
  keptField,
  keptNode,
  keptUnreadable,
  makeConversation,
  makeSourceLocator,
  mergeFields,
  messageList,
  type MessageSourceLoc,
  objectLosses,
  objectToArguments,
  PART_FIELDS,
  type PartWhere,
  providerDataLosses,
  providerExecutedParts,
  rawPart,
  readEach,
  readTextItem,
  requestBody,
  restOf,
  restoreFields,
  type SourceLoc,
} from './shared.js';
import { splitDataUrl, toDataUrl } from './kit/media.js';
import { groupTurns, writerTurnKey } from '../core/turns.js';

const FORMAT = 'openai-chat';

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

/** Roles a Chat Completions message may have (`function` is the deprecated one). */
const CHAT_ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/** Top-level keys of other formats' request bodies (Anthropic, Bedrock, Gemini, Responses, the v1 envelope), never of a Chat one. */
const FOREIGN_BODY_KEYS = [
  // The v1 envelope's version: a v1 file whose messages are broken is not a Chat history.
  'version',
  'system',
  'thinking',
  'mcp_servers',
  'output_config',
  'container',
  'context_management',
  'top_k',
  'stop_sequences',
  'anthropic_version',
  'anthropic_beta',
  'contents',
  'systemInstruction',
  'generationConfig',
  'input',
  'instructions',
  'previous_response_id',
  'toolConfig',
  'inferenceConfig',
  'additionalModelRequestFields',
];

/** Top-level keys only a Chat Completions body has: with one, `max_tokens` is not Anthropic's. */
const CHAT_BODY_KEYS = [
  'max_completion_tokens',
  'stream_options',
  'n',
  'response_format',
  'logprobs',
  'top_logprobs',
  'logit_bias',
  'frequency_penalty',
  'presence_penalty',
  'seed',
  'stop',
  'parallel_tool_calls',
  'functions',
  'function_call',
  'modalities',
  'audio',
  'prediction',
  'reasoning_effort',
  'verbosity',
  'web_search_options',
  'store',
  'user',
];

interface ChatContext {
  /** The value read was a bare messages array. */
  bare: boolean;
}

/** The media type of an `input_audio` format. */
function audioMediaType(format: string): string {
  return format === 'mp3' ? 'audio/mpeg' : `audio/${format}`;
}

/** The `input_audio` format of a media type. */
function audioFormat(mediaType: string): string {
  if (mediaType === 'audio/mpeg' || mediaType === 'audio/mp3') return 'mp3';
  if (mediaType === 'audio/wav' || mediaType === 'audio/x-wav' || mediaType === 'audio/wave')
    return 'wav';
  return mediaType.replace(/^audio\//, '');
}

// ---------------------------------------------------------------- detect

/**
 * True when `p` is a Chat Completions content part; with `untyped`, also an
 * object that lacks its `type` (OpenAI rejects it; it is read whole, and
 * lint reports it).
 */
function isChatPart(p: JsonValue, untyped = false): boolean {
  if (!isPlainObject(p) || Object.hasOwn(p, 'providerOptions')) return false;
  if (untyped && !Object.hasOwn(p, 'type')) return true;
  switch (p.type) {
    case 'text':
      return typeof p.text === 'string';
    case 'refusal':
      return typeof p.refusal === 'string';
    case 'image_url':
      return isPlainObject(p.image_url);
    case 'input_audio':
      return isPlainObject(p.input_audio);
    case 'file':
      return isPlainObject(p.file);
    default:
      return false;
  }
}

/**
 * True when `m` is a Chat Completions message (and not a v1, Gemini, Responses, Anthropic or AI
 * SDK one); with `untyped`, its content may hold parts without a `type`.
 */
function isChatMessage(m: JsonValue, untyped = false): boolean {
  if (!isPlainObject(m) || typeof m.role !== 'string' || !CHAT_ROLES.has(m.role)) return false;
  // v1 and Gemini have `parts`, Responses items a `type`, the AI SDK `providerOptions`.
  if (Object.hasOwn(m, 'parts') || Object.hasOwn(m, 'type') || Object.hasOwn(m, 'providerOptions'))
    return false;
  const c = m.content;
  // Only an assistant message may go without content (its tool calls say it all).
  if (c === undefined && m.role !== 'assistant') return false;
  if (c !== undefined && c !== null && typeof c !== 'string') {
    if (!Array.isArray(c) || !c.every((p) => isChatPart(p, untyped))) return false;
  }
  const calls = m.tool_calls;
  if (calls !== undefined) {
    if (!Array.isArray(calls)) return false;
    for (const t of calls) {
      if (!isPlainObject(t) || !(isPlainObject(t.function) || isPlainObject(t.custom)))
        return false;
    }
  }
  return true;
}

/** True when a message's content holds a Chat part with its type. */
function hasTypedPart(m: JsonValue): boolean {
  return isPlainObject(m) && Array.isArray(m.content) && m.content.some((p) => isChatPart(p));
}

/** True when a message uses something only Chat Completions has (a role, calls, null content, a part type). */
function hasChatFeature(m: JsonObject): boolean {
  if (m.role !== 'user' && m.role !== 'assistant') return true;
  if (Object.hasOwn(m, 'tool_calls') || Object.hasOwn(m, 'function_call') || m.content === null)
    return true;
  return Array.isArray(m.content) && m.content.some((p) => isPlainObject(p) && p.type !== 'text');
}

/** True when `value` is a Chat Completions messages array or request body. */
function detectChat(value: JsonValue): boolean {
  let messages: JsonValue | undefined;
  if (Array.isArray(value)) messages = value;
  else if (isPlainObject(value)) {
    if (FOREIGN_BODY_KEYS.some((k) => Object.hasOwn(value, k))) return false;
    // Chat tools are {type: "function", function} or {type: "custom", custom}; Anthropic's and others' are not.
    const tools = value.tools;
    if (
      Array.isArray(tools) &&
      tools.some(
        (t) => !isPlainObject(t) || !(isPlainObject(t.function) || isPlainObject(t.custom)),
      )
    )
      return false;
    messages = value.messages;
  }
  if (!Array.isArray(messages) || messages.length === 0) return false;
  // Parts without a type are Chat's when the history has typed Chat parts too (a Bedrock block,
  // `{"text": ...}`, has no type either).
  if (
    !messages.every((m) => isChatMessage(m)) &&
    !(messages.every((m) => isChatMessage(m, true)) && messages.some(hasTypedPart))
  )
    return false;
  // Anthropic requires max_tokens; a text-only body with it and nothing OpenAI-only is read as Anthropic.
  if (isPlainObject(value) && Object.hasOwn(value, 'max_tokens')) {
    return (
      CHAT_BODY_KEYS.some((k) => Object.hasOwn(value, k)) ||
      (Array.isArray(value.tools) && value.tools.length > 0) ||
      messages.some((m) => hasChatFeature(m as JsonObject))
    );
  }
  return true;
}

// ---------------------------------------------------------------- read

/** The content shape a write produces when no hint says otherwise (see {@link contentValue}). */
function defaultKind(items: JsonValue[], role: string, hasCalls: boolean): string {
  if (items.length === 0) return role === 'assistant' && hasCalls ? 'null' : 'string';
  if (items.length === 1 && isPlainTextPart(items[0])) return 'string';
  return 'array';
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

/** Reads one content part. */
function readContentPart(item: JsonValue, ptr: string): { part: Part; loc: SourceLoc } {
  if (!isPlainObject(item) || typeof item.type !== 'string') {
    return { part: rawPart(FORMAT, item, UNTYPED_BLOCK), loc: { ptr } };
  }
  const type = item.type;
  if (type === 'text' && typeof item.text === 'string') {
    return readTextItem(item, ptr, FORMAT);
  }
  if (type === 'refusal' && typeof item.refusal === 'string') {
    const data = mergeFields({ $type: 'refusal' }, restOf(item, ['type', 'refusal']));
    const part = keepProviderData({ type: 'text', text: item.refusal }, FORMAT, data);
    return { part, loc: { ptr, fields: { text: joinPointer(ptr, 'refusal') } } };
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
      const url = joinPointer(ptr, 'image_url', 'url');
      return { part, loc: { ptr, fields: { url, data: url, mediaType: url } } };
    }
  }
  if (type === 'input_audio' && isPlainObject(item.input_audio)) {
    const audio = item.input_audio;
    if (typeof audio.data === 'string' && typeof audio.format === 'string') {
      const mediaType = audioMediaType(audio.format);
      const data = mergeFields(restOf(item, ['type', 'input_audio']), undefined);
      if (audioFormat(mediaType) !== audio.format) setOwn(data, '$format', audio.format);
      const audioRest = restOf(audio, ['data', 'format']);
      if (audioRest !== undefined) setOwn(data, 'input_audio', audioRest);
      const part = keepProviderData(
        { type: 'document', data: audio.data, mediaType },
        FORMAT,
        data,
      );
      const fields = {
        data: joinPointer(ptr, 'input_audio', 'data'),
        mediaType: joinPointer(ptr, 'input_audio', 'format'),
      };
      return { part, loc: { ptr, fields } };
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
        if (split.mediaType.startsWith('audio/')) setOwn(data, '$type', 'file');
      } else {
        // Plain base64 (no data: URL) names no media type; PDF is the only kind Chat takes.
        part = { type: 'document', data: file.file_data, mediaType: 'application/pdf' };
        setOwn(data, '$base64', true);
      }
      if (typeof file.filename === 'string') part.name = file.filename;
      const fileRest = restOf(file, ['file_data', 'filename']);
      if (fileRest !== undefined) setOwn(data, 'file', fileRest);
      keepProviderData(part, FORMAT, data);
      const fileData = joinPointer(ptr, 'file', 'file_data');
      const fields: Record<string, string> = { data: fileData, mediaType: fileData };
      if (typeof file.filename === 'string') fields.name = joinPointer(ptr, 'file', 'filename');
      return { part, loc: { ptr, fields } };
    }
  }
  // Anything else (file_id files, other servers' part types) is kept whole.
  return { part: rawPart(FORMAT, item, type), loc: { ptr } };
}

/** Reads a `content` value into parts (string → one text part, array → one part each). */
function readContent(
  content: JsonValue | undefined,
  msgPtr: string,
): { parts: Part[]; locs: SourceLoc[] } {
  const ptr = joinPointer(msgPtr, 'content');
  if (typeof content === 'string') {
    return { parts: [{ type: 'text', text: content }], locs: [{ ptr, fields: { text: ptr } }] };
  }
  const parts: Part[] = [];
  const locs: SourceLoc[] = [];
  if (Array.isArray(content)) {
    content.forEach((item, k) => {
      const r = readContentPart(item, joinPointer(ptr, k));
      parts.push(r.part);
      locs.push(r.loc);
    });
  }
  return { parts, locs };
}

/** Reads one `tool_calls` entry (or a legacy `function_call` when `legacy`). */
function readToolCall(tc: JsonValue, ptr: string, legacy: boolean): { part: Part; loc: SourceLoc } {
  const kind = !legacy && isPlainObject(tc) && tc.type === 'custom' ? 'custom' : 'function';
  const body = legacy ? tc : isPlainObject(tc) ? tc[kind] : undefined;
  if (!isPlainObject(tc) || !isPlainObject(body)) {
    // `$in` names the call list it came from.
    const from = legacy ? 'function_call' : 'tool_calls';
    return { part: rawPart(FORMAT, tc, from, { $in: from }), loc: { ptr } };
  }
  const bodyPtr = legacy ? ptr : joinPointer(ptr, kind);
  const part: Part = { type: 'tool-call' };
  const data: JsonObject = {};
  const fields: Record<string, string> = {};
  const mapped: string[] = [];
  if (!legacy) {
    mapped.push(kind);
    if (typeof tc.id === 'string') {
      part.id = tc.id;
      mapped.push('id');
      fields.id = joinPointer(ptr, 'id');
    }
    if (tc.type === 'function' || tc.type === 'custom') mapped.push('type');
    else if (tc.type === undefined) setOwn(data, '$noType', true);
    if (kind === 'custom') setOwn(data, '$kind', 'custom');
  } else {
    setOwn(data, '$legacy', true);
  }
  const bodyMapped: string[] = [];
  if (typeof body.name === 'string') {
    part.name = body.name;
    bodyMapped.push('name');
    fields.name = joinPointer(bodyPtr, 'name');
  }
  const argKey = kind === 'custom' ? 'input' : 'arguments';
  const args = body[argKey];
  bodyMapped.push(argKey);
  if (typeof args === 'string') part.arguments = args;
  else if (args === undefined) {
    part.arguments = '';
    setOwn(data, '$arguments', 'absent');
  } else {
    // Stored histories sometimes hold the arguments as an object: kept as its JSON text.
    part.arguments = objectToArguments(args);
    setOwn(data, '$arguments', 'json');
  }
  if (args !== undefined) fields.arguments = joinPointer(bodyPtr, argKey);
  if (legacy) {
    for (const [k, v] of Object.entries(restOf(body, bodyMapped) ?? {})) setOwn(data, k, v);
  } else {
    const bodyRest = restOf(body, bodyMapped);
    if (bodyRest !== undefined) setOwn(data, kind, bodyRest);
    for (const [k, v] of Object.entries(restOf(tc, mapped) ?? {})) setOwn(data, k, v);
  }
  return { part: keepProviderData(part, FORMAT, data), loc: { ptr, fields } };
}

/** Reads a `tool` (or legacy `function`) message into a v1 tool message with one result. */
function readToolMessage(m: JsonObject, ptr: string): { message: Message; loc: MessageSourceLoc } {
  const mapped = ['role', 'content'];
  const result: Part = { type: 'tool-result' };
  const partData: JsonObject = {};
  const fields: Record<string, string> = {};
  if (typeof m.tool_call_id === 'string') {
    result.callId = m.tool_call_id;
    mapped.push('tool_call_id');
    fields.callId = joinPointer(ptr, 'tool_call_id');
  }
  if (typeof m.name === 'string') {
    // The legacy `name` is the function's name: it belongs on the result.
    result.name = m.name;
    mapped.push('name');
    setOwn(partData, '$name', true);
    fields.name = joinPointer(ptr, 'name');
  }
  const content = m.content;
  if (kindOf(content) === 'other') mapped.splice(mapped.indexOf('content'), 1);
  const { parts, locs } = readContent(content, ptr);
  result.content = parts;
  if (content !== undefined) fields.content = joinPointer(ptr, 'content');
  const hint = contentHint(content, 'tool', false);
  if (hint !== undefined) setOwn(partData, '$content', hint);
  keepProviderData(result, FORMAT, partData);
  const message: Message = { role: 'tool', parts: [result] };
  const data: JsonObject = {};
  if (m.role === 'function') setOwn(data, '$role', 'function');
  keepProviderData(message, FORMAT, mergeFields(data, restOf(m, mapped)));
  return { message, loc: { ptr, parts: [{ ptr, fields, children: locs }] } };
}

/** Reads one message. */
function readMessage(
  m: JsonValue,
  ptr: string,
  index: number,
): { message: Message; loc: MessageSourceLoc } {
  assertMessage(m, index, FORMAT);
  if (m.role === 'tool' || m.role === 'function') return readToolMessage(m, ptr);

  const role = m.role;
  const mapped = ['role'];
  const data: JsonObject = {};
  const parts: Part[] = [];
  const locs: SourceLoc[] = [];
  const assistant = role === 'assistant';

  if (assistant && typeof m.reasoning_content === 'string') {
    // DeepSeek/Kimi-style reasoning replay: a v1 reasoning part, written back to the same field.
    mapped.push('reasoning_content');
    parts.push(
      keepProviderData({ type: 'reasoning', text: m.reasoning_content }, FORMAT, {
        $field: 'reasoning_content',
      }),
    );
    const p = joinPointer(ptr, 'reasoning_content');
    locs.push({ ptr: p, fields: { text: p } });
  }

  const content = m.content;
  if (kindOf(content) !== 'other') mapped.push('content');
  const read = readContent(content, ptr);
  parts.push(...read.parts);
  locs.push(...read.locs);

  let hasCalls = false;
  if (assistant && Array.isArray(m.tool_calls)) {
    mapped.push('tool_calls');
    if (m.tool_calls.length === 0) setOwn(data, '$emptyToolCalls', true);
    m.tool_calls.forEach((tc, k) => {
      const r = readToolCall(tc, joinPointer(ptr, 'tool_calls', k), false);
      parts.push(r.part);
      locs.push(r.loc);
      hasCalls = true;
    });
  }
  if (assistant && isPlainObject(m.function_call)) {
    mapped.push('function_call');
    const r = readToolCall(m.function_call, joinPointer(ptr, 'function_call'), true);
    parts.push(r.part);
    locs.push(r.loc);
    hasCalls = true;
  }

  const hint = contentHint(content, role, hasCalls);
  if (hint !== undefined) setOwn(data, '$content', hint);
  const message: Message = { role: role === 'developer' ? 'system' : role, parts };
  if (role === 'developer') setOwn(data, '$role', 'developer');
  if (typeof m.name === 'string') {
    message.name = m.name;
    mapped.push('name');
  }
  keepProviderData(message, FORMAT, mergeFields(data, restOf(m, mapped)));
  return { message, loc: { ptr, parts: locs } };
}

// ---------------------------------------------------------------- write

interface WriteState {
  /** The conversation came from another format: drop what Chat does not accept, and say so. */
  strict: boolean;
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
  if (isRawPart(part, FORMAT)) return keptNode(part, FORMAT, state.losses, where);
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
      const refusal = data?.$type === 'refusal';
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
      const kind =
        typeof data?.$type === 'string'
          ? data.$type
          : mediaType.startsWith('audio/')
            ? 'input_audio'
            : 'file';
      if (kind === 'input_audio') {
        const format = typeof data?.$format === 'string' ? data.$format : audioFormat(mediaType);
        const audio: JsonObject = { data: part.data, format };
        restoreFields(audio, isPlainObject(data?.input_audio) ? data.input_audio : undefined, WIRE);
        const out: JsonObject = { type: 'input_audio', input_audio: audio };
        restoreFields(out, data, WIRE);
        return out;
      }
      const fileData = data?.$base64 === true ? part.data : toDataUrl(mediaType, part.data);
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
  const kind = data?.$kind === 'custom' ? 'custom' : 'function';
  const body: JsonObject = {};
  if (typeof part.name === 'string') body.name = part.name;
  const args = typeof part.arguments === 'string' ? part.arguments : '';
  const argKey = kind === 'custom' ? 'input' : 'arguments';
  if (data?.$arguments === 'json') {
    try {
      body[argKey] = parseJson(args);
    } catch {
      body[argKey] = args;
    }
  } else if (!(data?.$arguments === 'absent' && args === '')) body[argKey] = args;
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
  else if (data?.$noType !== true) out.type = kind;
  setOwn(out, kind, body);
  restoreFields(out, data, WIRE);
  return out;
}

/** Writes a v1 tool message: one Chat `tool` message per result, then a user message for anything else. */
function writeToolMessage(m: Message, i: number, state: WriteState, out: JsonValue[]): void {
  const data = providerDataOf(m, FORMAT);
  const legacy = data?.$role === 'function';
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
    if ((pdata?.$name === true || legacy) && typeof part.name === 'string') msg.name = part.name;
    const content = Array.isArray(part.content) ? (part.content as Part[]) : [];
    const items = writeItems(content, 'tool', i, () => j, state);
    const value = contentValue(items, pdata?.$content, 'tool', false);
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

/**
 * True when a v1 message came from a Chat read: written with the read's
 * context (everything then is), or carrying this format's providerData on
 * the message or a part (a stored v1 file of a Chat read).
 */
function isFromChat(ctx: ChatContext | undefined, m: Message): boolean {
  if (ctx !== undefined || providerDataOf(m, FORMAT) !== undefined) return true;
  return m.parts.some((p) => isPlainObject(p) && providerDataOf(p, FORMAT) !== undefined);
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
  const role = m.role === 'system' && data?.$role === 'developer' ? 'developer' : m.role;
  const assistant = role === 'assistant';
  const msg: JsonObject = { role };
  if (name !== undefined) msg.name = name;
  const contentParts: { part: Part; where: PartWhere }[] = [];
  const calls: JsonValue[] = [];
  let functionCall: JsonObject | undefined;
  let reasoning: string | undefined;
  let written = 0;
  let droppedCount = 0;
  for (const { message, index: i } of members) {
    // A provider-executed call and its result, in one assistant message from another format: dropped.
    const dropped =
      state.strict && !isFromChat(undefined, message) ? providerExecutedParts(message) : undefined;
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
        if (assistant && pdata?.$field === 'reasoning_content' && reasoning === undefined) {
          reasoning = String(part.text);
        } else lose('reasoning part');
      } else if (part.type === 'tool-call') {
        if (!assistant) return lose(`tool-call part in a ${role} message`);
        state.losses.push(
          ...objectLosses(part, FORMAT, PART_FIELDS['tool-call'], where, 'tool-call part'),
        );
        if (pdata?.$legacy === true && functionCall === undefined) {
          functionCall = writeToolCall(part, true);
        } else calls.push(writeToolCall(part, false));
      } else if (pdata?.$in === 'tool_calls' && assistant && isRawPart(part, FORMAT)) {
        const node = keptNode(part, FORMAT, state.losses, where);
        if (node !== undefined) calls.push(node);
      } else if (pdata?.$in === 'function_call' && assistant && isRawPart(part, FORMAT)) {
        const node = keptNode(part, FORMAT, state.losses, where);
        if (node !== undefined) functionCall = node as JsonObject;
      } else if (part.type === 'tool-result') {
        lose(`tool-result part in a ${role} message`);
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
  const content = contentValue(items, data?.$content, role, hasCalls);
  // A content the reader could not map (an object, a number) was kept as it was: it comes back.
  const unreadable = items.length === 0 && !hasCalls ? keptUnreadable(data, 'content') : undefined;
  if (unreadable !== undefined) msg.content = unreadable;
  else if (content !== undefined) msg.content = content;
  if (reasoning !== undefined) msg.reasoning_content = reasoning;
  if (calls.length > 0 || data?.$emptyToolCalls === true) msg.tool_calls = calls;
  if (functionCall !== undefined) msg.function_call = functionCall;
  restoreFields(msg, data, WIRE);
  // An assistant's `"refusal": null` beside its content is no text: it comes back.
  const refusal = keptUnreadable(data, 'refusal');
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
function writeChat(conversation: Conversation, context: unknown): WriteResult {
  const ctx = context as ChatContext | undefined;
  const strict = ctx === undefined;
  const losses: Loss[] = [...conversationLosses(conversation, FORMAT)];
  const entries = conversation.messages.map((m) => ({
    key: writerTurnKey(FORMAT, m),
    source: isFromChat(ctx, m),
  }));
  /** The members written as one message, led by the one read from Chat (if any). */
  const writeGroup = (members: Member[], chunk: Chunk): void => {
    const state: WriteState = { strict, losses: chunk.losses };
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
  if (ctx?.bare === true) return { value: messages, losses };
  const data = providerDataOf(conversation, FORMAT);
  return { value: requestBody(data, { messages }), losses };
}

/** OpenAI Chat Completions messages, bare or inside a request body. */
export const openaiChatFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'OpenAI Chat Completions: a messages array or a request body with "messages" (system/developer/user/assistant/tool)',
  readOnly: false,
  target: 'openai-chat',
  detect: detectChat,
  read(value) {
    const { list, base, rest } = messageList(value, FORMAT, 'no "messages" array');
    const messages: Message[] = [];
    const locs: MessageSourceLoc[] = [];
    readEach(list, base, readMessage, messages, locs);
    return {
      conversation: makeConversation(messages, FORMAT, rest),
      context: { bare: Array.isArray(value) } satisfies ChatContext,
      locate: makeSourceLocator(base, locs),
    };
  },
  write: writeChat,
};
