/**
 * Reading AWS Bedrock Converse requests into v1. One source message becomes one v1 message; a
 * user message that carries `toolResult` blocks becomes a v1 `tool` message. Blocks v1 has no
 * type for (video, guard content, server tool use and its result, ...) become kept parts of type
 * `bedrock:<kind>`. A `cachePoint` travels with the part before it (`cachePoint` in its
 * providerData).
 */
import { setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import { type Message, type Part } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import type { ReadOptions, ReadResult } from '../format.js';
import {
  envelopeContext,
  envelopeData,
  readEnvelope,
  type EnvelopeContext,
} from '../kit/envelope.js';
import { isKeptPart, isPlainObject, keepProviderData, keptPart, restOf } from '../kit/kept.js';
import { textToBase64 } from '../kit/media.js';
import { joinPointer, sourceMap, type FieldSources, type PartSource } from '../kit/source-map.js';
import { assertMessage, makeConversation, notFormat, objectToArguments } from '../shared.js';
import { addMessage, setIfAny, turnMessage, type ReadMessage } from '../turns.js';
import {
  BLOCK_KINDS,
  documentFormat,
  documentMediaType,
  imageFormat,
  isS3Uri,
  kindOf,
  REASONING_KINDS,
  RESULT_KINDS,
} from './blocks.js';
import { FORMAT, HINTS } from './hints.js';

/** What a write of the same format needs: the bare array or the body, and the body's key order. */
export type BedrockContext = EnvelopeContext;

interface ReadState {
  ctx: BedrockContext;
  /** Ids of server-side tool uses (Nova code interpreter), whose results stay kept parts too. */
  serverIds: Set<string>;
}

/** One part read, and where it came from. */
interface ReadPart {
  part: Part;
  loc: PartSource;
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

/** A part for a block v1 cannot express: the whole block, kept (see the kit's keptPart). */
function unknownPart(block: JsonObject, pointer: string, name?: string): ReadPart {
  const kind = name ?? (Object.keys(block).length === 1 ? Object.keys(block)[0]! : 'block');
  return { part: keptPart(FORMAT, block, kind), loc: { pointer } };
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
    setOwn(hints, HINTS.sourceType, 'text');
  } else if (isPlainObject(source.s3Location) && typeof source.s3Location.uri === 'string') {
    part.url = source.s3Location.uri;
    // A uri that does not say s3:// is written back as an s3Location only with this hint.
    if (!isS3Uri(part.url)) setOwn(hints, HINTS.sourceType, 's3Location');
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
    if (back !== format) setOwn(hints, HINTS.format, format);
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
  state.ctx.read.add(out.part);
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
      setOwn(rest, HINTS.json, true);
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
      if (!isPlainObject(use.input)) setOwn(kept, HINTS.inputRaw, true);
      keepProviderData(part, FORMAT, kept);
      const fields: FieldSources = {
        id: ['toolUse', 'toolUseId'],
        name: ['toolUse', 'name'],
        arguments: ['toolUse', 'input'],
      };
      return { part, loc: { pointer, fields } };
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
      const loc: PartSource = {
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
      let redactedRaw = false;
      const part: Part = { type: 'reasoning' };
      let fields: FieldSources;
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
        redactedRaw = blob === undefined;
        fields = { redacted: ['reasoningContent', 'redactedContent'] };
      } else {
        return undefined;
      }
      const kept = outerKept(block, 'reasoningContent', {
        ...restOf(reasoning, [inner]),
        ...reasoningKept,
      });
      // The hint is the part's, not a field of the reasoning block: it goes beside the block's fields.
      if (redactedRaw) setOwn(kept, HINTS.redactedRaw, true);
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
): { parts: Part[]; locs: PartSource[] } {
  const parts: Part[] = [];
  const locs: PartSource[] = [];
  blocks.forEach((b, k) => {
    const previous = parts[parts.length - 1];
    if (
      isPlainObject(b) &&
      Object.keys(b).length === 1 &&
      Object.hasOwn(b, 'cachePoint') &&
      previous !== undefined &&
      !isKeptPart(previous, FORMAT) &&
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
  return turnMessage(FORMAT, HINTS, state.ctx, m.role, parts, rest, pointer, locs);
}

/** Reads a non-empty top-level `system` list into a v1 system message. */
function readSystem(state: ReadState, system: JsonValue | undefined): ReadMessage | undefined {
  if (!Array.isArray(system) || system.length === 0) return undefined;
  const { parts, locs } = readBlocks(state, system, '/system');
  const message: Message = { role: 'system', parts };
  keepProviderData(message, FORMAT, { [HINTS.system]: true });
  state.ctx.read.add(message);
  return { message, pointer: '/system', parts: locs };
}

/**
 * Reads a Bedrock Converse request body `{..., system?, messages}` or a bare messages array. A
 * top-level system list becomes the first v1 message; the body's other fields are kept on the
 * conversation (see the kit's envelopeData).
 */
export function readBedrock(value: JsonValue, options?: ReadOptions): ReadResult {
  if (!Array.isArray(value) && !isPlainObject(value))
    return notFormat(FORMAT, 'not a request body or a messages array');
  const envelope = readEnvelope(value, FORMAT, 'messages', {}, options);
  const ctx: BedrockContext = envelopeContext(FORMAT, envelope, options);
  const state: ReadState = { ctx, serverIds: new Set() };
  const map = sourceMap(envelope.base, value, options);
  const messages: Message[] = [];
  const system = envelope.body === undefined ? undefined : readSystem(state, envelope.body.system);
  if (system !== undefined) addMessage(map, messages, system);
  envelope.list.forEach((m, k) => {
    addMessage(map, messages, readMessage(state, m, joinPointer(envelope.base, k), k));
  });
  // In the order the writer sets them.
  const taken = system === undefined ? ['messages'] : ['messages', 'system'];
  const conversation = makeConversation(messages, FORMAT, envelopeData(envelope, taken));
  return { conversation, context: ctx, locate: map.locate };
}
