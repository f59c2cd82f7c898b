/**
 * Anthropic Messages requests: `{model, max_tokens, system?, messages: [{role,
 * content: string | blocks}], tools, ...}`, or a bare `messages` array.
 *
 * One source message becomes one v1 message; a user message that carries
 * `tool_result` blocks becomes a v1 `tool` message. Blocks v1 has no type for
 * (server tools, web search results, MCP, container uploads, ...) become parts
 * of type `anthropic:<block type>` holding the block in providerData, so they
 * survive every operation and write back unchanged.
 */
import { setOwn, type JsonObject, type JsonValue } from '../model/json.js';
import { UNTYPED_BLOCK, type Message, type Part } from '../model/types.js';
import type { Conversation, ConversationFormat, Loss, ReadResult } from './format.js';
import { groupTurns, writerTurnKey } from '../core/turns.js';
import { providerDataOf } from './format.js';
import {
  argumentsToObject,
  argumentsToValue,
  assertMessage,
  conversationLosses,
  isPlainObject,
  joinPointer,
  keepProviderData,
  notFormat,
  objectToArguments,
  restOf,
  withoutSystemFields,
  type PartWhere,
} from './shared.js';
import {
  assembleBody,
  isFromSource,
  isPartFromSource,
  keptBlock,
  lossPrefix,
  mediaSource,
  mergeKept,
  partLosses,
  readTurns,
  setIfAny,
  skippedPartLoss,
  sortLosses,
  systemBlocks,
  turnMessage,
  writeTurn,
  type PartLocation,
  type ReadMessage,
  type TurnContext,
  type TurnWriter,
} from './turns.js';
import { base64ToText, textToBase64 } from './kit/media.js';

const FORMAT = 'anthropic';

/**
 * The wire fields only the v1 model sets (content, role, calls, results, media, system prompt):
 * kept data never sets one, at any depth, so what sanitize, lint and show checked is what the
 * provider receives. Kept data fills only fields v1 has no place for (`cache_control`, ...).
 */
const WIRE = [
  'role',
  'content',
  'type',
  'text',
  'source',
  'id',
  'name',
  'input',
  'tool_use_id',
  'is_error',
  'thinking',
  'signature',
  'data',
  'url',
  'media_type',
  'file_id',
  'title',
];

/** Prefix of the v1 part type of a block v1 cannot express. */
const UNKNOWN_PREFIX = 'anthropic:';

/** Block types only the Anthropic Messages API uses (`text` is shared with OpenAI chat parts). */
const ANTHROPIC_BLOCK_TYPES = new Set([
  'image',
  'document',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'server_tool_use',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
  'search_result',
  'tool_reference',
  'tool_addition',
]);

/** Content part types of other formats, whose presence means the value is not Anthropic. */
const FOREIGN_BLOCK_TYPES = new Set([
  'image_url',
  'input_audio',
  'file',
  'refusal',
  'input_text',
  'input_image',
  'input_file',
  'output_text',
  'tool-call',
  'tool-result',
  'reasoning',
  'function_call',
  'function_call_output',
]);

/** Message keys of other formats (OpenAI chat, v1, Gemini, AI SDK). */
const FOREIGN_MESSAGE_KEYS = [
  'parts',
  'tool_calls',
  'tool_call_id',
  'function_call',
  'providerOptions',
];

/** A block's own `type` plus whatever the caller maps. */
const withType = (
  fields: Record<string, readonly (string | number)[]>,
): Record<string, readonly (string | number)[]> => ({ type: ['type'], ...fields });

// ---------------------------------------------------------------------------
// Detection

/** Why a messages array is not Anthropic, or null; `found` learns whether an Anthropic-only block occurs. */
function messagesProblem(messages: JsonValue[], found: { anthropic: boolean }): string | null {
  // A block without a type (rejected by the API, reported by lint) is read when typed blocks are
  // there too: a Bedrock block, `{"text": ...}`, has no type either.
  let untyped: number | undefined;
  let typed = false;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isPlainObject(m)) return `message ${i} is not an object`;
    if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'system') {
      return `message ${i} has role ${JSON.stringify(m.role)}`;
    }
    if (FOREIGN_MESSAGE_KEYS.some((k) => Object.hasOwn(m, k))) {
      return `message ${i} has a field of another format`;
    }
    const content = m.content;
    if (typeof content === 'string') continue;
    if (!Array.isArray(content)) return `message ${i} has no string or array "content"`;
    for (const b of content) {
      if (isPlainObject(b) && !Object.hasOwn(b, 'type')) {
        untyped ??= i;
        continue;
      }
      if (!isPlainObject(b) || typeof b.type !== 'string') {
        return `message ${i} has a content block without a string "type"`;
      }
      typed = true;
      if (FOREIGN_BLOCK_TYPES.has(b.type)) return `message ${i} has a "${b.type}" block`;
      // AI SDK parts: images and files by an `image`/`data` field, provider options.
      if ((b.type === 'image' || b.type === 'document') && !isPlainObject(b.source)) {
        return `message ${i} has an image or document without a source`;
      }
      if (Object.hasOwn(b, 'providerOptions')) return `message ${i} has a part of another format`;
      if (isAnthropicOnlyBlock(b)) found.anthropic = true;
    }
  }
  if (untyped !== undefined && !typed)
    return `message ${untyped} has a content block without a string "type"`;
  return null;
}

/** True for a block shape no other supported format uses. */
function isAnthropicOnlyBlock(b: JsonObject): boolean {
  const type = b.type as string;
  if (type === 'text') return Object.hasOwn(b, 'cache_control') || Object.hasOwn(b, 'citations');
  if (type === 'image' || type === 'document') return isPlainObject(b.source);
  if (ANTHROPIC_BLOCK_TYPES.has(type)) return true;
  // Server tool results: web_search_tool_result, bash_code_execution_tool_result, ...
  return type.endsWith('_tool_result') && typeof b.tool_use_id === 'string';
}

/** Request fields only the Anthropic Messages API has. */
const ANTHROPIC_REQUEST_FIELDS = [
  'anthropic_version',
  'anthropic_beta',
  'stop_sequences',
  'top_k',
  'mcp_servers',
  'container',
  'output_config',
  'context_management',
];

/** Request fields only OpenAI chat has. */
const OPENAI_REQUEST_FIELDS = [
  'max_completion_tokens',
  'n',
  'response_format',
  'frequency_penalty',
  'presence_penalty',
  'logprobs',
  'top_logprobs',
  'logit_bias',
  'seed',
  'stream_options',
  'parallel_tool_calls',
  'functions',
  'function_call',
  'reasoning_effort',
  'modalities',
  'audio',
  'prediction',
  'web_search_options',
];

/** True when a request body has request-level fields only Anthropic uses. */
function hasAnthropicRequestFields(body: JsonObject): boolean {
  if (ANTHROPIC_REQUEST_FIELDS.some((k) => Object.hasOwn(body, k))) return true;
  const system = body.system;
  const systemOk =
    typeof system === 'string' ||
    (Array.isArray(system) &&
      system.length > 0 &&
      system.every((b) => isPlainObject(b) && typeof b.type === 'string'));
  // No other supported format has a top-level `system` beside `messages` (Bedrock's is untyped blocks).
  if (systemOk) return true;
  // OpenAI nests a tool's name under `function`; Anthropic tools carry it at the top.
  const tools = body.tools;
  if (
    Array.isArray(tools) &&
    tools.some(
      (t) => isPlainObject(t) && typeof t.name === 'string' && !Object.hasOwn(t, 'function'),
    )
  ) {
    return true;
  }
  const choice = body.tool_choice;
  if (isPlainObject(choice) && ['auto', 'any', 'tool', 'none'].includes(choice.type as string)) {
    return true;
  }
  const thinking = body.thinking;
  return isPlainObject(thinking) && typeof thinking.type === 'string';
}

/**
 * True for a body that is Anthropic only by elimination: `max_tokens` (which
 * Anthropic requires), every message's content a string or a non-empty array
 * of typed blocks, and no field only OpenAI chat has (the Chat reader leaves
 * such a body to this one).
 */
function isTextBlockBody(body: JsonObject, messages: JsonValue[]): boolean {
  if (!Object.hasOwn(body, 'max_tokens')) return false;
  if (OPENAI_REQUEST_FIELDS.some((k) => Object.hasOwn(body, k))) return false;
  return (
    messages.length > 0 &&
    messages.every(
      (m) =>
        isPlainObject(m) &&
        (typeof m.content === 'string' || (Array.isArray(m.content) && m.content.length > 0)),
    )
  );
}

/** True when `value` is an Anthropic Messages request body or an unambiguous bare messages array. */
export function isAnthropic(value: JsonValue): boolean {
  const found = { anthropic: false };
  if (Array.isArray(value)) {
    return value.length > 0 && messagesProblem(value, found) === null && found.anthropic;
  }
  if (!isPlainObject(value)) return false;
  if (
    ['input', 'contents', 'version', 'inferenceConfig', 'toolConfig', 'modelId'].some((k) =>
      Object.hasOwn(value, k),
    )
  ) {
    return false;
  }
  const messages = value.messages;
  if (!Array.isArray(messages) || messagesProblem(messages, found) !== null) return false;
  return found.anthropic || hasAnthropicRequestFields(value) || isTextBlockBody(value, messages);
}

// ---------------------------------------------------------------------------
// Reading

interface ReadState {
  read: WeakSet<object>;
}

/** A part for a block v1 cannot express: the whole block, kept in providerData. */
function unknownPart(block: JsonObject, pointer: string): { part: Part; loc: PartLocation } {
  const type = typeof block.type === 'string' ? block.type : UNTYPED_BLOCK;
  const part: Part = { type: UNKNOWN_PREFIX + type };
  // Escaped like any kept source fields: a `$` field is data, never a hint (see restOf). An
  // empty block is kept too (as a hint alone): it comes back as `{}`.
  keepProviderData(part, FORMAT, restOf(block, []) ?? { $empty: true });
  return {
    part,
    loc: { pointer, fields: typeof block.type === 'string' ? { type: ['type'] } : {} },
  };
}

/** Reads an `image` or `document` block. */
function readMedia(block: JsonObject, pointer: string): { part: Part; loc: PartLocation } {
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
      hints.$mediaType = false;
    }
  } else if (source.type === 'text' && kind === 'document' && typeof source.data === 'string') {
    const data = textToBase64(source.data);
    if (data === undefined) return unknownPart(block, pointer);
    part.data = data;
    known.push('data');
    fields.data = ['source', 'data'];
    hints.$sourceType = 'text';
    if (typeof mediaType === 'string') {
      part.mediaType = mediaType;
      known.push('media_type');
      fields.mediaType = ['source', 'media_type'];
    } else {
      part.mediaType = 'text/plain';
      hints.$mediaType = false;
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
  state: ReadState,
  block: JsonValue,
  pointer: string,
  inResult: boolean,
): { part: Part; loc: PartLocation } {
  if (!isPlainObject(block) || (Object.hasOwn(block, 'type') && typeof block.type !== 'string')) {
    return notFormat(FORMAT, `the content block at ${pointer} has no string "type"`);
  }
  // A block without a type is kept whole (as `anthropic:invalid`): lint reports it.
  const out =
    (typeof block.type === 'string'
      ? readKnownBlock(state, block, pointer, inResult)
      : undefined) ?? unknownPart(block, pointer);
  state.read.add(out.part);
  return out;
}

function readKnownBlock(
  state: ReadState,
  block: JsonObject,
  pointer: string,
  inResult: boolean,
): { part: Part; loc: PartLocation } | undefined {
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
      if (!isPlainObject(block.input)) setOwn(rest, '$inputRaw', true);
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
      const loc: PartLocation = {
        pointer,
        fields: withType({ callId: ['tool_use_id'], failed: ['is_error'], content: ['content'] }),
      };
      const content = block.content;
      if (typeof content === 'string') {
        part.content = [{ type: 'text', text: content }];
        setOwn(rest, '$contentString', true);
        loc.contentPointer = joinPointer(pointer, 'content');
      } else if (Array.isArray(content)) {
        const parts: Part[] = [];
        loc.content = [];
        content.forEach((b, c) => {
          const r = readBlock(state, b, joinPointer(pointer, 'content', c), true);
          parts.push(r.part);
          loc.content!.push(r.loc);
        });
        part.content = parts;
      } else if (content === undefined) {
        part.content = [];
        setOwn(rest, '$noContent', true);
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
  state: ReadState,
  content: JsonValue[],
  pointer: string,
): { parts: Part[]; locs: PartLocation[] } {
  const parts: Part[] = [];
  const locs: PartLocation[] = [];
  content.forEach((b, k) => {
    const r = readBlock(state, b, joinPointer(pointer, k), false);
    parts.push(r.part);
    locs.push(r.loc);
  });
  return { parts, locs };
}

/** Reads the top-level `system` into a v1 system message, or undefined when it stays a request field. */
function readSystem(state: ReadState, system: JsonValue | undefined): ReadMessage | undefined {
  if (typeof system === 'string' && system !== '') {
    const part: Part = { type: 'text', text: system };
    state.read.add(part);
    const message: Message = { role: 'system', parts: [part] };
    keepProviderData(message, FORMAT, { $system: 'string' });
    state.read.add(message);
    return {
      message,
      loc: { pointer: '/system', parts: [{ pointer: '/system' }] },
    };
  }
  if (Array.isArray(system) && system.length > 0) {
    const { parts, locs } = readContent(state, system, '/system');
    const message: Message = { role: 'system', parts };
    keepProviderData(message, FORMAT, { $system: 'blocks' });
    state.read.add(message);
    return { message, loc: { pointer: '/system', parts: locs } };
  }
  return undefined;
}

/** Reads one source message. */
function readMessage(state: ReadState, m: JsonValue, pointer: string, index: number): ReadMessage {
  assertMessage(m, index, FORMAT);
  const content = m.content;
  const rest = restOf(m, ['role', 'content']) ?? {};
  let parts: Part[];
  let locs: PartLocation[];
  if (typeof content === 'string') {
    const part: Part = { type: 'text', text: content };
    state.read.add(part);
    parts = [part];
    locs = [{ pointer: joinPointer(pointer, 'content') }];
    setOwn(rest, '$string', true);
  } else if (Array.isArray(content)) {
    ({ parts, locs } = readContent(state, content, joinPointer(pointer, 'content')));
  } else {
    return notFormat(FORMAT, `message ${index} has no string or array "content"`);
  }
  return turnMessage(FORMAT, state.read, m.role, parts, rest, pointer, locs);
}

function readAnthropic(value: JsonValue): ReadResult {
  const state: ReadState = { read: new WeakSet() };
  return readTurns(
    value,
    FORMAT,
    state.read,
    (body) => readSystem(state, body.system),
    (m, pointer, index) => readMessage(state, m, pointer, index),
  );
}

// ---------------------------------------------------------------------------
// Writing

interface WriteState {
  ctx: TurnContext | undefined;
  losses: Loss[];
}

/** Writes an `image` or `document` part. */
function writeMedia(
  state: WriteState,
  part: Part,
  where: PartWhere,
  label: string | undefined,
): JsonObject | undefined {
  const pd = providerDataOf(part, FORMAT);
  // A part from another format is adapted to what Anthropic takes; one read here is written as read.
  const foreign = !isPartFromSource(state.ctx, part, FORMAT);
  const kind = part.type as 'image' | 'document';
  const source: JsonObject = {};
  const { url, data, mediaType } = mediaSource(part);
  const keepMediaType = pd?.$mediaType !== false;
  if (data !== undefined) {
    let text: string | undefined;
    if (kind === 'document') {
      const plain = mediaType?.split(';')[0]?.trim() === 'text/plain';
      if (pd?.$sourceType === 'text' || (foreign && plain)) text = base64ToText(data);
    }
    if (text !== undefined) {
      source.type = 'text';
      if (keepMediaType && mediaType !== undefined) {
        source.media_type = foreign ? 'text/plain' : mediaType;
      }
      source.data = text;
    } else {
      source.type = 'base64';
      if (keepMediaType && mediaType !== undefined) source.media_type = mediaType;
      source.data = data;
      if (foreign && kind === 'document' && mediaType !== 'application/pdf') {
        // Reported as lost, so left out: the API refuses other base64 document types.
        state.losses.push({
          ...where,
          what: `${lossPrefix(label)}document type ${mediaType ?? '(none)'} (Anthropic takes PDF and plain text)`,
        });
        return undefined;
      }
    }
  } else if (url !== undefined) {
    source.type = 'url';
    source.url = url;
    if (foreign && kind === 'document' && mediaType !== 'application/pdf') {
      state.losses.push({
        ...where,
        what: `${lossPrefix(label)}document type ${mediaType ?? '(none)'} (Anthropic URL documents are PDF)`,
      });
      return undefined;
    }
  } else {
    state.losses.push({ ...where, what: `${lossPrefix(label)}${kind} part without url or data` });
    return undefined;
  }
  const block: JsonObject = { type: kind, source };
  if (kind === 'document' && typeof part.name === 'string') block.title = part.name;
  mergeKept(block, pd, WIRE);
  return block;
}

/** Writes one v1 part as a content block, or records why it cannot be written. */
function writePart(
  state: WriteState,
  part: Part,
  where: PartWhere,
  inResult: boolean,
  label?: string,
): JsonObject | undefined {
  const block = writeBlock(state, part, where, inResult, label);
  // What a written part does not carry; a part not written at all is one loss already.
  if (block !== undefined) state.losses.push(...partLosses(part, where, FORMAT));
  return block;
}

function writeBlock(
  state: WriteState,
  part: Part,
  where: PartWhere,
  inResult: boolean,
  label: string | undefined,
): JsonObject | undefined {
  const pd = providerDataOf(part, FORMAT);
  const fromSource = isPartFromSource(state.ctx, part, FORMAT);
  const skipped = skippedPartLoss(part, where, label, inResult, fromSource, FORMAT);
  if (skipped !== undefined) {
    state.losses.push(skipped);
    return undefined;
  }
  switch (part.type) {
    case 'text': {
      const block: JsonObject = {
        type: 'text',
        text: typeof part.text === 'string' ? part.text : '',
      };
      mergeKept(block, pd, WIRE);
      return block;
    }
    case 'image':
    case 'document':
      return writeMedia(state, part, where, label);
    case 'tool-call': {
      const block: JsonObject = { type: 'tool_use' };
      if (typeof part.id === 'string') block.id = part.id;
      // A block read without one is written back as it was: nothing is lost.
      else if (!fromSource)
        state.losses.push({ ...where, what: `${lossPrefix(label)}tool call without id` });
      if (typeof part.name === 'string') block.name = part.name;
      const args = typeof part.arguments === 'string' ? part.arguments : '';
      // Only an input that was not an object is the arguments text parsed as is.
      block.input = pd?.$inputRaw === true ? argumentsToValue(args) : argumentsToObject(args);
      mergeKept(block, pd, WIRE);
      return block;
    }
    case 'tool-result': {
      const block: JsonObject = { type: 'tool_result' };
      if (typeof part.callId === 'string') block.tool_use_id = part.callId;
      else if (!fromSource)
        state.losses.push({ ...where, what: `${lossPrefix(label)}tool result without callId` });
      const content = Array.isArray(part.content) ? (part.content as Part[]) : [];
      const only = content.length === 1 ? content[0] : undefined;
      if (
        pd?.$contentString === true &&
        only?.type === 'text' &&
        typeof only.text === 'string' &&
        only.providerData === undefined
      ) {
        block.content = only.text;
      } else if (!(pd?.$noContent === true && content.length === 0)) {
        const blocks: JsonValue[] = [];
        content.forEach((c, k) => {
          const b = writePart(state, c, where, true, `tool result content ${k}`);
          if (b !== undefined) blocks.push(b);
        });
        block.content = blocks;
      }
      if (typeof part.failed === 'boolean') block.is_error = part.failed;
      mergeKept(block, pd, WIRE);
      return block;
    }
    case 'reasoning': {
      if (typeof part.redacted === 'string') {
        if (typeof part.text === 'string' && part.text !== '') {
          state.losses.push({
            ...where,
            what: `${lossPrefix(label)}text of a redacted reasoning part`,
          });
        }
        const block: JsonObject = { type: 'redacted_thinking', data: part.redacted };
        mergeKept(block, pd, WIRE);
        return block;
      }
      // Anthropic rejects thinking without a signature; one read that way stays as it was.
      if (typeof part.signature !== 'string' && !fromSource) {
        state.losses.push({
          ...where,
          what: `${lossPrefix(label)}reasoning part without signature`,
        });
        return undefined;
      }
      const block: JsonObject = {
        type: 'thinking',
        thinking: typeof part.text === 'string' ? part.text : '',
      };
      if (typeof part.signature === 'string') block.signature = part.signature;
      mergeKept(block, pd, WIRE);
      return block;
    }
    default:
      return keptBlock(part, FORMAT, state.losses, where, label);
  }
}

/** The top-level `system` value from the v1 system messages that go there. */
function writeSystem(
  writer: TurnWriter,
  messages: readonly Message[],
  indices: readonly number[],
): JsonValue | undefined {
  if (indices.length === 0) return undefined;
  const blocks = systemBlocks(writer, indices);
  const first = messages[indices[0]!]!;
  const hint = providerDataOf(first, FORMAT)?.$system;
  const only = blocks.length === 1 ? blocks[0]! : undefined;
  const plain =
    only !== undefined && Object.keys(only).length === 2 && typeof only.text === 'string';
  if (indices.length === 1 && hint !== 'blocks' && plain) return only.text as string;
  return blocks.length === 0 ? undefined : blocks;
}

function writeAnthropic(
  conversation: Conversation,
  context?: unknown,
): { value: JsonValue; losses: Loss[] } {
  const ctx = context as TurnContext | undefined;
  const state: WriteState = { ctx, losses: [] };
  state.losses.push(...conversationLosses(conversation, FORMAT));
  const messages = conversation.messages;
  const bare = ctx?.bare ?? providerDataOf(conversation, FORMAT)?.$bare === true;

  // Leading system messages go to the top-level `system`; later ones, and ones read inline, stay inline.
  const top: number[] = [];
  const turns: number[] = [];
  let leading = true;
  messages.forEach((m, i) => {
    const hinted = providerDataOf(m, FORMAT)?.$system !== undefined;
    const toTop =
      !bare && m.role === 'system' && (hinted || (leading && !isFromSource(ctx, m, FORMAT)));
    (toTop ? top : turns).push(i);
    if (m.role !== 'system') leading = false;
  });
  const writer: TurnWriter = {
    messages,
    ctx,
    format: FORMAT,
    provider: 'Anthropic',
    losses: state.losses,
    writePart: (p, where) => {
      const block = writePart(state, p, where, false);
      return block === undefined ? [] : [block];
    },
    isResult: (b) => b.type === 'tool_result',
  };
  const system = writeSystem(writer, messages, top);

  const entries = turns.map((i) => ({
    key: writerTurnKey(FORMAT, messages[i]!),
    source: isFromSource(ctx, messages[i]!, FORMAT),
  }));
  const out: JsonValue[] = [];
  for (const group of groupTurns(entries)) {
    const members = group.map((g) => turns[g]!);
    const turn = writeTurn(writer, members);
    if (turn === undefined) continue;
    const { role, blocks } = turn;
    const pd = providerDataOf(messages[turn.lead]!, FORMAT);
    const message: JsonObject = { role };
    const only = blocks.length === 1 ? blocks[0]! : undefined;
    if (
      pd?.$string === true &&
      members.length === 1 &&
      only !== undefined &&
      Object.keys(only).length === 2 &&
      typeof only.text === 'string'
    ) {
      message.content = only.text;
    } else {
      message.content = blocks;
    }
    mergeKept(message, pd, WIRE);
    out.push(message);
  }

  // A system prompt only ever comes from a system message (see withoutSystemFields).
  const kept = bare
    ? undefined
    : withoutSystemFields(providerDataOf(conversation, FORMAT), ['system'], state.losses);
  sortLosses(state.losses);
  if (bare) return { value: out, losses: state.losses };
  const value = assembleBody(ctx?.keys, kept, { system, messages: out });
  return { value, losses: state.losses };
}

/** The Anthropic Messages format. */
export const anthropicFormat: ConversationFormat = {
  name: 'anthropic',
  description:
    'Anthropic Messages request: {"model", "max_tokens", "system", "messages": [...]} or a bare messages array with Anthropic content blocks',
  readOnly: false,
  target: 'anthropic',
  detect: isAnthropic,
  read: readAnthropic,
  write: writeAnthropic,
};
