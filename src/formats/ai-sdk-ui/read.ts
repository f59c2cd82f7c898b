/**
 * Reads an AI SDK `UIMessage[]` (AI SDK 5/6, what `useChat` keeps and posts)
 * into v1. A tool part is a call and, once its state has one, its result: the
 * call stays in the message, the result goes to a v1 `tool` message after it
 * (or, provider-executed, right after the call), the way convertToModelMessages
 * builds the model's view. Parts v1 has no type for are kept whole.
 */
import { setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import { UNTYPED_BLOCK, type Message, type Part } from '../../model/types.js';
import { takeSignatures } from '../ai-sdk/signatures.js';
import type { ReadOptions, ReadResult } from '../format.js';
import { envelopeData, readEnvelope } from '../kit/envelope.js';
import { isPlainObject, keepProviderData, keptPart, mergeFields, restOf } from '../kit/kept.js';
import { mediaPartType, splitDataUrl } from '../kit/media.js';
import { readContext, type ReadContext } from '../kit/provenance.js';
import {
  joinPointer,
  sourceMap,
  type SourceMap,
  type FieldSources,
  type PartSource,
} from '../kit/source-map.js';
import {
  assertMessage,
  inputToArguments,
  makeConversation,
  notFormat,
  objectToArguments,
} from '../shared.js';
import { isToolPartType } from './detect.js';
import {
  DOCUMENT_WIRE,
  FORMAT,
  HINTS,
  OPEN_STATES,
  PART_WIRE,
  RESULT_STATES,
  TOOL_WIRE,
} from './hints.js';

/** What a write of the same format needs to rebuild the original shape. */
export interface UiContext extends ReadContext {
  /** The value read was a bare UIMessage array (not a body holding `messages`). */
  bare: boolean;
}

/** A v1 part and where it came from. */
interface Located {
  part: Part;
  source: PartSource;
}

/** What one source part reads into: a part, and for an answered tool part its result. */
interface ReadPart extends Located {
  result?: Located;
  /** The result stays in the message, after the call (provider-executed). */
  resultInPlace?: boolean;
}

/** The states a write gives back from the result alone (or its absence): no `$state` hint needed. */
const IMPLIED_STATES = ['input-available', 'output-available', 'output-error'];

/** Fields of a tool part that belong to its result, kept on the v1 result (written only with one). */
const RESULT_FIELDS = ['resultProviderMetadata', 'preliminary'];

/** Reads a `file` part into a v1 image (an `image/*` media type) or document, or undefined when malformed. */
function readFile(p: JsonObject, ptr: string): Located | undefined {
  const { url, mediaType } = p;
  if (typeof url !== 'string' || typeof mediaType !== 'string') return undefined;
  const part: Part = { type: mediaPartType(mediaType) };
  const mapped = ['type', 'url', 'mediaType'];
  const fields: Record<string, string> = { url: 'url', data: 'url', mediaType: 'mediaType' };
  // A data: URL is inline content (useChat attaches files so): its data, checked as such.
  const split = splitDataUrl(url);
  if (split !== undefined && split.mediaType === mediaType) part.data = split.data;
  else part.url = url;
  part.mediaType = mediaType;
  if (part.type === 'document' && typeof p.filename === 'string') {
    part.name = p.filename;
    mapped.push('filename');
    fields.name = 'filename';
  }
  return {
    part: keepProviderData(part, FORMAT, restOf(p, mapped)),
    source: { pointer: ptr, fields },
  };
}

/** Reads a `text` part (its `text` a string), keeping its other fields (`state`, `providerMetadata`). */
function readText(p: JsonObject, ptr: string): Located {
  const part = keepProviderData(
    { type: 'text', text: p.text as string },
    FORMAT,
    restOf(p, ['type', 'text']),
  );
  return { part, source: { pointer: ptr, fields: { text: 'text' } } };
}

/** Reads a `reasoning` part, lifting a replayable signature out of `providerMetadata`. */
function readReasoning(p: JsonObject, ptr: string): Located {
  const part: Part = { type: 'reasoning', text: p.text as string };
  const hints: JsonObject = {};
  const rest = restOf(p, ['type', 'text']);
  const fields: FieldSources = {
    text: 'text',
    ...takeSignatures(part, rest, 'providerMetadata', hints),
  };
  return {
    part: keepProviderData(part, FORMAT, mergeFields(hints, rest)),
    source: { pointer: ptr, fields },
  };
}

/**
 * The text content of a tool part's result, where its source is below the part (no tokens: the
 * part itself), and the output hint.
 */
function resultContent(
  p: JsonObject,
  state: string,
): { content: Part[]; at: readonly string[]; hint?: string; mapped: string[] } {
  if (state === 'output-error') {
    const at = ['errorText'];
    return { content: [{ type: 'text', text: p.errorText as string }], at, mapped: ['errorText'] };
  }
  if (state === 'output-denied') {
    // What the model is told: the reason of the refusal (kept in the approval), if there is one.
    const reason = isPlainObject(p.approval) ? p.approval.reason : undefined;
    if (typeof reason !== 'string') return { content: [], at: [], mapped: [] };
    return {
      content: [{ type: 'text', text: reason }],
      at: ['approval', 'reason'],
      mapped: [],
    };
  }
  if (!Object.hasOwn(p, 'output')) return { content: [], at: [], hint: 'absent', mapped: [] };
  const at = ['output'];
  const output = p.output!;
  // A tool's output is any JSON value; with no tool to turn it into model output, the AI SDK
  // sends a string as text, anything else as JSON.
  if (typeof output === 'string')
    return { content: [{ type: 'text', text: output }], at, mapped: ['output'] };
  const text = objectToArguments(output);
  return { content: [{ type: 'text', text }], at, hint: 'json', mapped: ['output'] };
}

/** True when a tool part's fields fit its state (a result only in a result state), so nothing of it is lost. */
function toolPartFits(p: JsonObject, state: string): boolean {
  if (!OPEN_STATES.includes(state) && !RESULT_STATES.includes(state)) return false;
  if (state === 'output-error')
    return typeof p.errorText === 'string' && !Object.hasOwn(p, 'output');
  if (Object.hasOwn(p, 'errorText')) return false;
  return state === 'output-available' || !Object.hasOwn(p, 'output');
}

/** Reads a `tool-<name>` or `dynamic-tool` part into a call, plus its result when its state has one. */
function readTool(p: JsonObject, ptr: string): ReadPart | undefined {
  const type = p.type as string;
  const dynamic = type === 'dynamic-tool';
  const { toolCallId, state } = p;
  if (typeof toolCallId !== 'string' || typeof state !== 'string') return undefined;
  if (dynamic && typeof p.toolName !== 'string') return undefined;
  if (!toolPartFits(p, state)) return undefined;
  const name = dynamic ? (p.toolName as string) : type.slice('tool-'.length);
  const call: Part = { type: 'tool-call', id: toolCallId, name };
  const fields: Record<string, string> = { id: 'toolCallId', name: dynamic ? 'toolName' : 'type' };
  const hints: JsonObject = {};
  // The result (or none) says input-available, output-available and output-error; not the others.
  if (!IMPLIED_STATES.includes(state)) setOwn(hints, HINTS.state, state);
  if (dynamic) setOwn(hints, HINTS.dynamic, true);
  const mapped = ['type', 'toolCallId', 'state'];
  if (dynamic) mapped.push('toolName');
  // The model gets `input`, or for an output-error without one (it did not parse) `rawInput`.
  const raw =
    state === 'output-error' &&
    (p.input === undefined || p.input === null) &&
    Object.hasOwn(p, 'rawInput');
  const key = raw ? 'rawInput' : 'input';
  mapped.push('input', 'rawInput');
  if (raw) {
    setOwn(hints, HINTS.inputKey, 'rawInput');
    if (p.input === null) setOwn(hints, HINTS.nullInput, true);
  } else if (Object.hasOwn(p, 'rawInput')) setOwn(hints, HINTS.rawInput, p.rawInput!);
  const input = inputToArguments(p[key]);
  call.arguments = input.text;
  if (input.mode !== undefined) setOwn(hints, HINTS.input, input.mode);
  if (p[key] !== undefined) fields.arguments = key;
  const answered = RESULT_STATES.includes(state);
  // A provider-executed result stays in the assistant message; that place says it on write.
  const inPlace = answered && p.providerExecuted === true;
  if (Object.hasOwn(p, 'providerExecuted')) {
    mapped.push('providerExecuted');
    if (!inPlace) setOwn(hints, HINTS.providerExecuted, p.providerExecuted!);
  }
  if (!answered) {
    return {
      part: keepProviderData(call, FORMAT, mergeFields(hints, restOf(p, mapped))),
      source: { pointer: ptr, fields },
    };
  }
  const got = resultContent(p, state);
  let callRest = restOf(p, [...mapped, ...got.mapped, ...RESULT_FIELDS]);
  if (state === 'output-denied' && got.content.length > 0) {
    // The reason is the result's text now; the approval keeps the rest.
    const approval: JsonObject = {};
    const source = p.approval as JsonObject;
    for (const k of Object.keys(source)) if (k !== 'reason') setOwn(approval, k, source[k]!);
    callRest = mergeFields(callRest, { approval });
  }
  const result: Part = { type: 'tool-result', callId: toolCallId, content: got.content };
  if (state !== 'output-available') result.failed = true;
  const resultHints: JsonObject = {};
  if (got.hint !== undefined) setOwn(resultHints, HINTS.output, got.hint);
  const resultRest: JsonObject = {};
  for (const k of RESULT_FIELDS) if (Object.hasOwn(p, k)) setOwn(resultRest, k, p[k]!);
  // The result's one text part is the node of its text (no fields below it).
  const resultSource: PartSource = {
    pointer: ptr,
    fields: { callId: 'toolCallId', content: got.at },
  };
  if (got.content.length > 0) resultSource.content = [{ pointer: joinPointer(ptr, ...got.at) }];
  return {
    part: keepProviderData(call, FORMAT, mergeFields(hints, callRest)),
    source: { pointer: ptr, fields },
    result: {
      part: keepProviderData(result, FORMAT, mergeFields(resultHints, resultRest)),
      source: resultSource,
    },
    resultInPlace: inPlace,
  };
}

/** The fields of each part kind that v1 holds (a part with another of its wire fields is kept whole). */
const READ_FIELDS: Record<string, readonly string[]> = {
  text: ['type', 'text'],
  reasoning: ['type', 'text'],
  image: ['type', 'url', 'mediaType'],
  document: ['type', 'url', 'mediaType', 'filename'],
  tool: [
    'type',
    'toolCallId',
    'state',
    'input',
    'rawInput',
    'output',
    'errorText',
    'providerExecuted',
  ],
  'dynamic-tool': [
    'type',
    'toolName',
    'state',
    'toolCallId',
    'input',
    'rawInput',
    'output',
    'errorText',
    'providerExecuted',
  ],
};

/** True when `p` has a wire field v1 does not read for its kind: kept, it would never be written back. */
function hasStrayWireField(p: JsonObject, kind: string): boolean {
  const wire = kind === 'document' ? DOCUMENT_WIRE : kind.endsWith('tool') ? TOOL_WIRE : PART_WIRE;
  const read = READ_FIELDS[kind]!;
  return Object.keys(p).some((k) => wire.includes(k) && !read.includes(k));
}

/** The kind of part `p` is read as, or undefined for one v1 has no type for. */
function kindOf(p: JsonObject, type: string): string | undefined {
  if (type === 'text' || type === 'reasoning') return typeof p.text === 'string' ? type : undefined;
  if (type === 'file') {
    if (typeof p.mediaType !== 'string') return undefined;
    return mediaPartType(p.mediaType);
  }
  if (type === 'dynamic-tool') return type;
  return isToolPartType(type) ? 'tool' : undefined;
}

/** Reads one part; what v1 has no type for (sources, step boundaries, data parts, anything malformed) is kept whole. */
function readPart(p: JsonValue, ptr: string): ReadPart {
  if (!isPlainObject(p) || typeof p.type !== 'string') {
    return { part: keptPart(FORMAT, p, UNTYPED_BLOCK), source: { pointer: ptr } };
  }
  const type = p.type;
  const kind = kindOf(p, type);
  let read: ReadPart | undefined;
  if (kind === undefined || hasStrayWireField(p, kind)) read = undefined;
  else if (kind === 'text') read = readText(p, ptr);
  else if (kind === 'reasoning') read = readReasoning(p, ptr);
  else if (kind === 'image' || kind === 'document') read = readFile(p, ptr);
  else read = readTool(p, ptr);
  return read ?? { part: keptPart(FORMAT, p, type), source: { pointer: ptr } };
}

/** The v1 messages one UIMessage is read into, in the making. */
interface Step {
  parts: Located[];
  results: Located[];
}

/** A read in progress: the v1 messages so far, where they came from, and what was read. */
interface Reader {
  messages: Message[];
  map: SourceMap;
  ctx: UiContext;
}

/** Adds a v1 message read from the UIMessage at `pointer`, with its parts and their sources. */
function addMessage(r: Reader, role: string, parts: readonly Located[], pointer: string): Message {
  const i = r.messages.length;
  const message: Message = { role, parts: parts.map((p) => p.part) };
  r.messages.push(message);
  r.ctx.read.add(message);
  r.map.message(i, pointer);
  parts.forEach((p, j) => {
    r.map.place(i, j, p.source);
    r.ctx.read.add(p.part);
    if (Array.isArray(p.part.content))
      for (const c of p.part.content) if (isPlainObject(c)) r.ctx.read.add(c);
  });
  return message;
}

/**
 * Reads one UIMessage into v1 messages: one, or (when a `step-start` follows answered tool calls)
 * one per such step, each followed by a `tool` message with the results of its calls.
 */
function readMessage(r: Reader, m: JsonValue, ptr: string, index: number): void {
  assertMessage(m, index, FORMAT);
  if (!Array.isArray(m.parts)) notFormat(FORMAT, `message ${index} has no "parts" array`);
  // v1's tool messages are where the reader puts results; a UIMessage has none of its own.
  if (m.role === 'tool')
    notFormat(
      FORMAT,
      `message ${index} has role "tool" (a UIMessage keeps a result on its call's part)`,
    );
  const hints: JsonObject = {};
  if (!Object.hasOwn(m, 'id')) setOwn(hints, HINTS.noId, true);
  const kept = mergeFields(hints, restOf(m, ['role', 'parts']));
  const partsPtr = joinPointer(ptr, 'parts');
  let step: Step = { parts: [], results: [] };
  let first = true;
  const flush = (): void => {
    const message = addMessage(r, m.role, step.parts, ptr);
    keepProviderData(message, FORMAT, first ? kept : { [HINTS.continues]: true });
    if (step.results.length > 0) addMessage(r, 'tool', step.results, ptr);
    first = false;
  };
  m.parts.forEach((p, k) => {
    // What follows a step whose calls were answered comes after their results.
    if (isPlainObject(p) && p.type === 'step-start' && step.results.length > 0) {
      flush();
      step = { parts: [], results: [] };
    }
    const read = readPart(p, joinPointer(partsPtr, k));
    step.parts.push(read);
    if (read.result === undefined) return;
    if (read.resultInPlace === true) step.parts.push(read.result);
    else step.results.push(read.result);
  });
  flush();
}

/** Reads a UIMessage array, or a body holding one as `messages` (its other fields kept on the conversation). */
export function readAiSdkUi(value: JsonValue, options?: ReadOptions): ReadResult {
  const why = { why: 'no UIMessage array' };
  const envelope = readEnvelope(value, FORMAT, 'messages', why, options);
  const ctx: UiContext = { ...readContext(FORMAT, options), bare: envelope.bare };
  const r: Reader = { messages: [], map: sourceMap(envelope.base, value, options), ctx };
  envelope.list.forEach((m, i) => readMessage(r, m, joinPointer(envelope.base, i), i));
  return {
    conversation: makeConversation(
      r.messages,
      FORMAT,
      envelopeData(envelope, ['messages'], undefined, true),
    ),
    context: ctx,
    locate: r.map.locate,
  };
}
