/**
 * AWS Bedrock Converse requests: `{modelId?, system?: [{text} | {cachePoint} |
 * {guardContent}], messages: [{role, content: [ContentBlock]}], toolConfig,
 * inferenceConfig, ...}`, or a bare `messages` array. A content block is an
 * object keyed by its kind (`{text}`, `{toolUse: {...}}`, ...), without `type`.
 *
 * One source message becomes one v1 message; a user message that carries
 * `toolResult` blocks becomes a v1 `tool` message. Blocks v1 has no type for
 * (video, guard content, server tool use and its result, ...) become parts of
 * type `bedrock:<kind>` holding the block in providerData. A `cachePoint`
 * travels with the part before it (`cachePoint` in its providerData).
 */
import { parseJson, setOwn, type JsonObject, type JsonValue } from '../model/json.js';
import type { Message, Part } from '../model/types.js';
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
  resultsFirst,
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

const FORMAT = 'bedrock';

/**
 * The wire fields only the v1 model sets (content, role, calls, results, media, system prompt):
 * kept data never sets one, at any depth, so what sanitize, lint and show checked is what the
 * provider receives. A kept `cachePoint` is the block after the one it was kept on, not a field
 * of it, so it is never set either.
 */
const WIRE = [
  'role',
  'content',
  'text',
  'json',
  'image',
  'document',
  'video',
  'toolUse',
  'toolResult',
  'toolUseId',
  'name',
  'input',
  'status',
  'reasoningContent',
  'reasoningText',
  'signature',
  'redactedContent',
  'format',
  'source',
  'bytes',
  's3Location',
  'uri',
  'url',
  'cachePoint',
];

/** Prefix of the v1 part type of a block v1 cannot express. */
const UNKNOWN_PREFIX = 'bedrock:';

/** The keys a Converse content block is keyed by (SDK `ContentBlock` members). */
const BLOCK_KINDS = new Set([
  'text',
  'image',
  'document',
  'video',
  'audio',
  'toolUse',
  'toolResult',
  'reasoningContent',
  'cachePoint',
  'guardContent',
  'citationsContent',
  'searchResult',
]);

/** The keys a tool result's content block is keyed by. */
const RESULT_KINDS = new Set([...BLOCK_KINDS, 'json']);

/** The members of a reasoning block. */
const REASONING_KINDS = new Set(['reasoningText', 'redactedContent']);

/** The keys of a system block (SDK `SystemContentBlock` members). */
const SYSTEM_KINDS = new Set(['text', 'cachePoint', 'guardContent']);

/** Document formats and their media types (SDK `DocumentFormat`). */
const DOCUMENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  html: 'text/html',
  txt: 'text/plain',
  md: 'text/markdown',
};

/** Image formats Bedrock takes (SDK `ImageFormat`). */
const IMAGE_FORMATS = new Set(['gif', 'jpeg', 'png', 'webp']);

/** True for an `s3://` URI, which Bedrock takes as an `s3Location`. */
function isS3Uri(url: string): boolean {
  return url.toLowerCase().startsWith('s3://');
}

/** The media type of a document format. */
function documentMediaType(format: string): string {
  return DOCUMENT_TYPES[format] ?? `application/${format}`;
}

/** The document format of a media type. */
function documentFormat(mediaType: string): string | undefined {
  const bare = mediaType.split(';')[0]!.trim().toLowerCase();
  for (const [format, type] of Object.entries(DOCUMENT_TYPES)) if (type === bare) return format;
  return bare.startsWith('application/') ? bare.slice('application/'.length) : undefined;
}

/** The image format of a media type. */
function imageFormat(mediaType: string): string {
  const bare = mediaType.split(';')[0]!.trim().toLowerCase();
  const sub = bare.startsWith('image/') ? bare.slice('image/'.length) : bare;
  return sub === 'jpg' ? 'jpeg' : sub;
}

/** The ASCII text a base64 string encodes, when it encodes exactly that (else undefined). */
function asciiOfBase64(data: string): string | undefined {
  try {
    const binary = atob(data);
    if (!/^[\x20-\x7e]*$/.test(binary) || btoa(binary) !== data) return undefined;
    return binary;
  } catch {
    return undefined;
  }
}

/** The one content-block kind a block is keyed by, or undefined. */
function kindOf(block: JsonObject, kinds: ReadonlySet<string>): string | undefined {
  const found = Object.keys(block).filter((k) => kinds.has(k));
  return found.length === 1 ? found[0] : undefined;
}

// ---------------------------------------------------------------------------
// Detection

/** Why a messages array is not Bedrock, or null; `found` learns whether any block occurs. */
function messagesProblem(messages: JsonValue[], found: { blocks: boolean }): string | null {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isPlainObject(m)) return `message ${i} is not an object`;
    if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'system') {
      return `message ${i} has role ${JSON.stringify(m.role)}`;
    }
    if (['parts', 'tool_calls', 'tool_call_id', 'function_call'].some((k) => Object.hasOwn(m, k))) {
      return `message ${i} has a field of another format`;
    }
    if (!Array.isArray(m.content)) return `message ${i} has no "content" array`;
    for (const b of m.content) {
      if (!isPlainObject(b) || Object.hasOwn(b, 'type') || kindOf(b, BLOCK_KINDS) === undefined) {
        return `message ${i} has a content block that is not a Converse block`;
      }
      found.blocks = true;
    }
  }
  return null;
}

/** True for a Converse `system` list: blocks keyed by text, cachePoint or guardContent. */
function isSystemList(system: JsonValue | undefined): boolean {
  return (
    Array.isArray(system) &&
    system.every(
      (b) => isPlainObject(b) && !Object.hasOwn(b, 'type') && kindOf(b, SYSTEM_KINDS) !== undefined,
    )
  );
}

/** True when `value` is a Bedrock Converse request body or a bare array of Converse messages. */
export function isBedrock(value: JsonValue): boolean {
  const found = { blocks: false };
  if (Array.isArray(value)) {
    return value.length > 0 && messagesProblem(value, found) === null && found.blocks;
  }
  if (!isPlainObject(value)) return false;
  if (['input', 'contents', 'version'].some((k) => Object.hasOwn(value, k))) return false;
  const messages = value.messages;
  if (!Array.isArray(messages) || messagesProblem(messages, found) !== null) return false;
  if (value.system !== undefined && !isSystemList(value.system)) return false;
  if (found.blocks) return true;
  // No block to go by: a system list of Converse blocks with no messages (what a history of a
  // system prompt alone is written as), or with the Converse request fields.
  return (
    isSystemList(value.system) &&
    (messages.length === 0 ||
      ['inferenceConfig', 'toolConfig', 'modelId'].some((k) => Object.hasOwn(value, k)))
  );
}

// ---------------------------------------------------------------------------
// Reading

interface ReadState {
  read: WeakSet<object>;
  /** Ids of server-side tool uses (Nova code interpreter), whose results stay unknown parts too. */
  serverIds: Set<string>;
}

interface ReadPart {
  part: Part;
  loc: PartLocation;
}

/** A part for a block v1 cannot express: the whole block, kept in providerData. */
function unknownPart(block: JsonObject, pointer: string, name?: string): ReadPart {
  const kind = name ?? (Object.keys(block).length === 1 ? Object.keys(block)[0]! : 'block');
  const part: Part = { type: UNKNOWN_PREFIX + kind };
  // Escaped like any kept source fields: a `$` field is data, never a hint (see restOf). An
  // empty block is kept too (as a hint alone): it comes back as `{}`.
  keepProviderData(part, FORMAT, restOf(block, []) ?? { $empty: true });
  return { part, loc: { pointer } };
}

/** What a block keeps beyond v1, in the block's own shape: its fields beside `kind`, and `innerKept` under it. */
function outerKept(block: JsonObject, kind: string, innerKept: JsonObject | undefined): JsonObject {
  const kept = restOf(block, [kind]) ?? {};
  setIfAny(kept, kind, innerKept);
  return kept;
}

/** Reads an `image` or `document` block. */
function readMedia(
  block: JsonObject,
  kind: 'image' | 'document',
  pointer: string,
): ReadPart | undefined {
  const inner = block[kind];
  if (!isPlainObject(inner) || !isPlainObject(inner.source)) return undefined;
  const source = inner.source;
  const part: Part = { type: kind };
  const fields: Record<string, readonly (string | number)[]> = {};
  const hints: JsonObject = {};
  const sourceKnown: string[] = [];
  let sourceKept: JsonObject | undefined;
  if (typeof source.bytes === 'string') {
    part.data = source.bytes;
    sourceKnown.push('bytes');
    fields.data = [kind, 'source', 'bytes'];
  } else if (kind === 'document' && typeof source.text === 'string') {
    const data = textToBase64(source.text);
    if (data === undefined) return undefined;
    part.data = data;
    sourceKnown.push('text');
    fields.data = [kind, 'source', 'text'];
    hints.$sourceType = 'text';
  } else if (isPlainObject(source.s3Location) && typeof source.s3Location.uri === 'string') {
    part.url = source.s3Location.uri;
    // A uri that does not say s3:// is written back as an s3Location only with this hint.
    if (!isS3Uri(part.url)) hints.$sourceType = 's3Location';
    sourceKnown.push('s3Location');
    fields.url = [kind, 'source', 's3Location', 'uri'];
    sourceKept = {};
    setIfAny(sourceKept, 's3Location', restOf(source.s3Location, ['uri']));
  } else {
    // Document `content` sources and anything newer have no v1 equivalent.
    return undefined;
  }
  const known = ['source'];
  const format = inner.format;
  if (typeof format === 'string') {
    const mediaType = kind === 'image' ? `image/${format}` : documentMediaType(format);
    part.mediaType = mediaType;
    known.push('format');
    fields.mediaType = [kind, 'format'];
    // Keep the format exactly when the media type would not give it back.
    const back = kind === 'image' ? imageFormat(mediaType) : documentFormat(mediaType);
    if (back !== format) hints.$format = format;
  } else if (format !== undefined) {
    return undefined;
  }
  if (kind === 'document' && typeof inner.name === 'string') {
    part.name = inner.name;
    known.push('name');
    fields.name = [kind, 'name'];
  }
  const innerKept = restOf(inner, known) ?? {};
  setIfAny(innerKept, 'source', { ...restOf(source, sourceKnown), ...sourceKept });
  keepProviderData(part, FORMAT, { ...outerKept(block, kind, innerKept), ...hints });
  return { part, loc: { pointer, fields } };
}

/** Reads one block of a message's content (or, with `inResult`, of a tool result's content). */
function readBlock(
  state: ReadState,
  block: JsonValue,
  pointer: string,
  inResult: boolean,
): ReadPart {
  if (!isPlainObject(block))
    return notFormat(FORMAT, `the content block at ${pointer} is not an object`);
  const out = readKnownBlock(state, block, pointer, inResult) ?? unknownPart(block, pointer);
  state.read.add(out.part);
  return out;
}

function readKnownBlock(
  state: ReadState,
  block: JsonObject,
  pointer: string,
  inResult: boolean,
): ReadPart | undefined {
  if (Object.hasOwn(block, 'type')) return undefined;
  const kind = kindOf(block, inResult ? RESULT_KINDS : BLOCK_KINDS);
  switch (kind) {
    case 'text': {
      if (typeof block.text !== 'string') return undefined;
      const part: Part = { type: 'text', text: block.text };
      keepProviderData(part, FORMAT, restOf(block, ['text']));
      return { part, loc: { pointer, fields: { text: ['text'] } } };
    }
    case 'json': {
      // A JSON result has no v1 part: its compact text, marked to become JSON again.
      const part: Part = { type: 'text', text: objectToArguments(block.json!) };
      const rest = restOf(block, ['json']) ?? {};
      setOwn(rest, '$json', true);
      keepProviderData(part, FORMAT, rest);
      return { part, loc: { pointer, fields: { text: ['json'] } } };
    }
    case 'image':
    case 'document':
      return readMedia(block, kind, pointer);
    case 'toolUse': {
      const use = block.toolUse;
      if (inResult || !isPlainObject(use)) return undefined;
      if (use.type !== undefined) {
        // A server tool (Nova code interpreter) runs and answers inside the assistant turn.
        if (typeof use.toolUseId === 'string') state.serverIds.add(use.toolUseId);
        return unknownPart(block, pointer, typeof use.type === 'string' ? use.type : undefined);
      }
      if (use.toolUseId !== undefined && typeof use.toolUseId !== 'string') return undefined;
      if (use.name !== undefined && typeof use.name !== 'string') return undefined;
      if (use.input === undefined) return undefined;
      const part: Part = { type: 'tool-call' };
      if (typeof use.toolUseId === 'string') part.id = use.toolUseId;
      if (typeof use.name === 'string') part.name = use.name;
      part.arguments = objectToArguments(use.input);
      const kept = outerKept(block, 'toolUse', restOf(use, ['toolUseId', 'name', 'input']));
      // Only objects come back from the arguments text by themselves.
      if (!isPlainObject(use.input)) setOwn(kept, '$inputRaw', true);
      keepProviderData(part, FORMAT, kept);
      return {
        part,
        loc: {
          pointer,
          fields: {
            id: ['toolUse', 'toolUseId'],
            name: ['toolUse', 'name'],
            arguments: ['toolUse', 'input'],
          },
        },
      };
    }
    case 'toolResult': {
      const result = block.toolResult;
      if (inResult || !isPlainObject(result) || !Array.isArray(result.content)) return undefined;
      if (result.toolUseId !== undefined && typeof result.toolUseId !== 'string') return undefined;
      if (typeof result.toolUseId === 'string' && state.serverIds.has(result.toolUseId)) {
        const name = typeof result.type === 'string' ? result.type : 'server_tool_result';
        return unknownPart(block, pointer, name);
      }
      const part: Part = { type: 'tool-result' };
      if (typeof result.toolUseId === 'string') part.callId = result.toolUseId;
      const known = ['toolUseId', 'content'];
      const loc: PartLocation = {
        pointer,
        fields: {
          callId: ['toolResult', 'toolUseId'],
          failed: ['toolResult', 'status'],
          content: ['toolResult', 'content'],
        },
        content: [],
      };
      const content: Part[] = [];
      result.content.forEach((b, c) => {
        const r = readBlock(state, b, joinPointer(pointer, 'toolResult', 'content', c), true);
        content.push(r.part);
        loc.content!.push(r.loc);
      });
      part.content = content;
      if (result.status === 'error' || result.status === 'success') {
        part.failed = result.status === 'error';
        known.push('status');
      }
      keepProviderData(part, FORMAT, outerKept(block, 'toolResult', restOf(result, known)));
      return { part, loc };
    }
    case 'reasoningContent': {
      const reasoning = block.reasoningContent;
      if (inResult || !isPlainObject(reasoning)) return undefined;
      const inner = kindOf(reasoning, REASONING_KINDS);
      const reasoningKept: JsonObject = {};
      const part: Part = { type: 'reasoning' };
      let fields: Record<string, readonly (string | number)[]>;
      if (inner === 'reasoningText') {
        const rt = reasoning.reasoningText;
        if (!isPlainObject(rt) || typeof rt.text !== 'string') return undefined;
        if (rt.signature !== undefined && typeof rt.signature !== 'string') return undefined;
        part.text = rt.text;
        if (typeof rt.signature === 'string') part.signature = rt.signature;
        setIfAny(reasoningKept, 'reasoningText', restOf(rt, ['text', 'signature']));
        fields = {
          text: ['reasoningContent', 'reasoningText', 'text'],
          signature: ['reasoningContent', 'reasoningText', 'signature'],
        };
      } else if (inner === 'redactedContent' && typeof reasoning.redactedContent === 'string') {
        part.text = '';
        // The wire carries the bytes as base64; for Claude they are the blob Anthropic calls `data`.
        const blob = asciiOfBase64(reasoning.redactedContent);
        part.redacted = blob ?? reasoning.redactedContent;
        if (blob === undefined) setOwn(reasoningKept, '$redactedRaw', true);
        fields = { redacted: ['reasoningContent', 'redactedContent'] };
      } else {
        return undefined;
      }
      const { $redactedRaw, ...nested } = reasoningKept;
      const kept = outerKept(block, 'reasoningContent', {
        ...restOf(reasoning, [inner]),
        ...nested,
      });
      if ($redactedRaw !== undefined) setOwn(kept, '$redactedRaw', $redactedRaw);
      keepProviderData(part, FORMAT, kept);
      return { part, loc: { pointer, fields } };
    }
    default:
      return undefined;
  }
}

/**
 * Reads a list of blocks (a message's content or the system list). A
 * `cachePoint` right after a block that became a part rides on that part.
 */
function readBlocks(
  state: ReadState,
  blocks: JsonValue[],
  pointer: string,
): { parts: Part[]; locs: PartLocation[] } {
  const parts: Part[] = [];
  const locs: PartLocation[] = [];
  blocks.forEach((b, k) => {
    const previous = parts[parts.length - 1];
    if (
      isPlainObject(b) &&
      Object.keys(b).length === 1 &&
      Object.hasOwn(b, 'cachePoint') &&
      previous !== undefined &&
      !previous.type.startsWith(UNKNOWN_PREFIX) &&
      providerDataOf(previous, FORMAT)?.cachePoint === undefined
    ) {
      const pd = providerDataOf(previous, FORMAT) ?? {};
      setOwn(pd, 'cachePoint', b.cachePoint!);
      keepProviderData(previous, FORMAT, pd);
      return;
    }
    const r = readBlock(state, b, joinPointer(pointer, k), false);
    parts.push(r.part);
    locs.push(r.loc);
  });
  return { parts, locs };
}

/** Reads one source message. */
function readMessage(state: ReadState, m: JsonValue, pointer: string, index: number): ReadMessage {
  assertMessage(m, index, FORMAT);
  if (!Array.isArray(m.content))
    return notFormat(FORMAT, `message ${index} has no "content" array`);
  const { parts, locs } = readBlocks(state, m.content, joinPointer(pointer, 'content'));
  const rest = restOf(m, ['role', 'content']) ?? {};
  return turnMessage(FORMAT, state.read, m.role, parts, rest, pointer, locs);
}

/** Reads a non-empty top-level `system` list into a v1 system message. */
function readSystem(state: ReadState, system: JsonValue | undefined): ReadMessage | undefined {
  if (!Array.isArray(system) || system.length === 0) return undefined;
  const { parts, locs } = readBlocks(state, system, '/system');
  const message: Message = { role: 'system', parts };
  keepProviderData(message, FORMAT, { $system: true });
  state.read.add(message);
  return { message, loc: { pointer: '/system', parts: locs } };
}

function readBedrock(value: JsonValue): ReadResult {
  const state: ReadState = { read: new WeakSet(), serverIds: new Set() };
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
  /** Documents written without a name so far, to name the next one. */
  unnamed: number;
  /** Names of the tools the written history uses, for a minimal `toolConfig`. */
  toolNames: Set<string>;
  /** Whether the written history has toolUse or toolResult blocks. */
  toolBlocks: boolean;
}

/** Bedrock document names: alphanumerics, single spaces, hyphens, parentheses, square brackets. */
function documentName(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9\s\-()[\]]/g, '-')
      .replace(/\s+/g, ' ')
      .trim() || 'Document'
  );
}

/** Wraps an inner object as a block of `kind`, with the fields kept from the source block. */
function wrap(kind: string, inner: JsonValue, pd: JsonObject | undefined): JsonObject {
  const block: JsonObject = {};
  setOwn(block, kind, inner);
  // A kept cachePoint is the block after this one, not a field of it.
  mergeKept(block, pd, WIRE);
  return block;
}

/** Writes an `image` or `document` part. */
function writeMedia(
  state: WriteState,
  part: Part,
  where: PartWhere,
  label: string | undefined,
): JsonObject | undefined {
  const pd = providerDataOf(part, FORMAT);
  const kind = part.type as 'image' | 'document';
  // A part from another format is adapted to what Bedrock takes; one read here is written as read.
  const foreign = !isPartFromSource(state.ctx, part, FORMAT);
  const { url, data, mediaType } = mediaSource(part);
  const source: JsonObject = {};
  if (data !== undefined) {
    const text = pd?.$sourceType === 'text' ? base64ToText(data) : undefined;
    if (text !== undefined) source.text = text;
    else source.bytes = data;
  } else if (url !== undefined && (isS3Uri(url) || pd?.$sourceType === 's3Location')) {
    source.s3Location = { uri: url };
  } else {
    state.losses.push({
      ...where,
      what: `${lossPrefix(label)}${kind} ${url === undefined ? 'without url or data' : 'by URL (Bedrock takes bytes or S3)'}`,
    });
    return undefined;
  }
  const inner: JsonObject = {};
  if (typeof pd?.$format === 'string') inner.format = pd.$format;
  else if (mediaType !== undefined) {
    const format = kind === 'image' ? imageFormat(mediaType) : documentFormat(mediaType);
    const allowed =
      kind === 'image'
        ? IMAGE_FORMATS.has(format ?? '')
        : Object.hasOwn(DOCUMENT_TYPES, format ?? '');
    if (foreign && !allowed) {
      state.losses.push({
        ...where,
        what: `${lossPrefix(label)}${kind} type ${mediaType} has no Bedrock format`,
      });
    }
    if (format !== undefined) inner.format = format;
  }
  if (kind === 'document') {
    if (typeof part.name === 'string') {
      const name = foreign ? documentName(part.name) : part.name;
      if (name !== part.name) {
        state.losses.push({
          ...where,
          what: `${lossPrefix(label)}document name "${part.name}" written as "${name}"`,
        });
      }
      inner.name = name;
    } else if (foreign) {
      // Bedrock requires a name.
      inner.name = `Document ${++state.unnamed}`;
    }
  }
  inner.source = source;
  return wrap(kind, inner, pd);
}

/** Writes one v1 part as content blocks (a part may carry a cachePoint after it), or records why not. */
function writePart(
  state: WriteState,
  part: Part,
  where: PartWhere,
  inResult: boolean,
  label?: string,
): JsonObject[] {
  const pd = providerDataOf(part, FORMAT);
  const block = writeBlock(state, part, pd, where, inResult, label);
  if (block === undefined) return [];
  // What a written part does not carry; a part not written at all is one loss already.
  state.losses.push(...partLosses(part, where, FORMAT));
  const cachePoint = part.type.startsWith(UNKNOWN_PREFIX) ? undefined : pd?.cachePoint;
  return cachePoint === undefined ? [block] : [block, { cachePoint }];
}

function writeBlock(
  state: WriteState,
  part: Part,
  pd: JsonObject | undefined,
  where: PartWhere,
  inResult: boolean,
  label: string | undefined,
): JsonObject | undefined {
  const fromSource = isPartFromSource(state.ctx, part, FORMAT);
  const skipped = skippedPartLoss(part, where, label, inResult, fromSource, FORMAT);
  if (skipped !== undefined) {
    state.losses.push(skipped);
    return undefined;
  }
  switch (part.type) {
    case 'text': {
      const text = typeof part.text === 'string' ? part.text : '';
      if (pd?.$json === true) {
        try {
          const block: JsonObject = { json: parseJson(text) };
          mergeKept(block, pd, WIRE);
          return block;
        } catch {
          // Edited into text that is no longer JSON: it stays text.
        }
      }
      const block: JsonObject = { text };
      mergeKept(block, pd, WIRE);
      return block;
    }
    case 'image':
    case 'document':
      return writeMedia(state, part, where, label);
    case 'tool-call': {
      const use: JsonObject = {};
      if (typeof part.id === 'string') use.toolUseId = part.id;
      // A block read without one is written back as it was: nothing is lost.
      else if (!fromSource)
        state.losses.push({ ...where, what: `${lossPrefix(label)}tool call without id` });
      if (typeof part.name === 'string') {
        use.name = part.name;
        state.toolNames.add(part.name);
      }
      const args = typeof part.arguments === 'string' ? part.arguments : '';
      // Only an input that was not an object is the arguments text parsed as is.
      use.input = pd?.$inputRaw === true ? argumentsToValue(args) : argumentsToObject(args);
      state.toolBlocks = true;
      return wrap('toolUse', use, pd);
    }
    case 'tool-result': {
      const result: JsonObject = {};
      if (typeof part.callId === 'string') result.toolUseId = part.callId;
      else if (!fromSource)
        state.losses.push({ ...where, what: `${lossPrefix(label)}tool result without callId` });
      if (typeof part.name === 'string') state.toolNames.add(part.name);
      const content: JsonValue[] = [];
      const parts = Array.isArray(part.content) ? (part.content as Part[]) : [];
      parts.forEach((c, k) => {
        content.push(...writePart(state, c, where, true, `tool result content ${k}`));
      });
      result.content = content;
      if (typeof part.failed === 'boolean') result.status = part.failed ? 'error' : 'success';
      state.toolBlocks = true;
      return wrap('toolResult', result, pd);
    }
    case 'reasoning': {
      const reasoning: JsonObject = {};
      if (typeof part.redacted === 'string') {
        if (typeof part.text === 'string' && part.text !== '') {
          state.losses.push({
            ...where,
            what: `${lossPrefix(label)}text of a redacted reasoning part`,
          });
        }
        reasoning.redactedContent =
          pd?.$redactedRaw === true
            ? part.redacted
            : (textToBase64(part.redacted) ?? part.redacted);
      } else {
        const rt: JsonObject = { text: typeof part.text === 'string' ? part.text : '' };
        if (typeof part.signature === 'string') rt.signature = part.signature;
        reasoning.reasoningText = rt;
      }
      return wrap('reasoningContent', reasoning, pd);
    }
    default:
      return keptBlock(part, FORMAT, state.losses, where, label);
  }
}

function writeBedrock(
  conversation: Conversation,
  context?: unknown,
): { value: JsonValue; losses: Loss[] } {
  const ctx = context as TurnContext | undefined;
  const state: WriteState = {
    ctx,
    losses: [],
    unnamed: 0,
    toolNames: new Set(),
    toolBlocks: false,
  };
  state.losses.push(...conversationLosses(conversation, FORMAT));
  const messages = conversation.messages;
  const bare = ctx?.bare ?? providerDataOf(conversation, FORMAT)?.$bare === true;

  // System messages go to the top-level `system`, except ones read inline (kept for the round trip).
  const top: number[] = [];
  const turns: number[] = [];
  let leading = true;
  messages.forEach((m, i) => {
    const source = isFromSource(ctx, m, FORMAT);
    const hinted = providerDataOf(m, FORMAT)?.$system !== undefined;
    const toTop = !bare && m.role === 'system' && (hinted || !source);
    if (toTop && !hinted && !leading) {
      state.losses.push({
        messageIndex: i,
        what: 'system message moved into the top-level system prompt',
      });
    }
    (toTop ? top : turns).push(i);
    if (m.role !== 'system') leading = false;
  });
  const writer: TurnWriter = {
    messages,
    ctx,
    format: FORMAT,
    provider: 'Bedrock',
    losses: state.losses,
    writePart: (p, where) => writePart(state, p, where, false),
    isResult: (b) => Object.hasOwn(b, 'toolResult'),
  };
  // The top-level `system` list from the v1 system messages that go there.
  const system = top.length > 0 ? systemBlocks(writer, top) : undefined;

  // Turns must alternate: what an operation or another format put next to a turn of the same role joins it.
  const entries = turns.map((i) => {
    const m = messages[i]!;
    return { key: writerTurnKey(FORMAT, m), source: isFromSource(ctx, m, FORMAT) };
  });
  const out: JsonObject[] = [];
  // Whether each written message holds a message read from the source.
  const outSource: boolean[] = [];
  for (const group of groupTurns(entries)) {
    // All results of a turn go in one user message, results first (providers.md §5).
    const members = group.map((g) => turns[g]!);
    const turn = writeTurn(writer, members);
    if (turn === undefined) continue;
    const { role, blocks } = turn;
    const source = members.some((i) => isFromSource(ctx, messages[i]!, FORMAT));
    const previous = out[out.length - 1];
    if (previous?.role === role && !(source && outSource[out.length - 1] === true)) {
      // A dropped message left two turns of one role side by side: they become one.
      const merged = [...(previous.content as JsonObject[]), ...blocks];
      previous.content = role === 'user' ? resultsFirst(merged, writer.isResult) : merged;
      outSource[out.length - 1] ||= source;
      continue;
    }
    const message: JsonObject = { role, content: blocks };
    mergeKept(message, providerDataOf(messages[turn.lead]!, FORMAT), WIRE);
    out.push(message);
    outSource.push(source);
  }

  sortLosses(state.losses);
  if (bare) return { value: out, losses: state.losses };
  // A system prompt only ever comes from a system message (see withoutSystemFields).
  const kept = withoutSystemFields(providerDataOf(conversation, FORMAT), ['system'], state.losses);
  const own: Record<string, JsonValue | undefined> = { messages: out, system };
  if (ctx === undefined && kept === undefined && state.toolBlocks) {
    // Bedrock refuses toolUse/toolResult blocks without a toolConfig: declare the tools the history uses.
    const names = state.toolNames.size > 0 ? [...state.toolNames] : ['tool'];
    own.toolConfig = {
      tools: names.map((name) => ({
        toolSpec: { name, inputSchema: { json: { type: 'object' } } },
      })),
    };
  }
  return { value: assembleBody(ctx?.keys, kept, own), losses: state.losses };
}

/** The AWS Bedrock Converse format. */
export const bedrockFormat: ConversationFormat = {
  name: 'bedrock',
  description:
    'AWS Bedrock Converse request: {"system": [...], "messages": [{"role", "content": [{"text"}, {"toolUse"}, ...]}], "toolConfig", ...} or a bare messages array',
  readOnly: false,
  target: 'bedrock',
  detect: isBedrock,
  read: readBedrock,
  write: writeBedrock,
};
