/**
 * Vercel AI SDK `ModelMessage[]` (SPEC §4), v5 and v6 shapes plus the v4
 * tool fields (`args`, `result`): read into v1 and written back exactly.
 * The shapes follow `@ai-sdk/provider-utils` `ModelMessage`;
 * docs/formats/ai-sdk.md lists the mapping.
 */
import { parseJson, setOwn, type JsonObject, type JsonValue } from '../model/json.js';
import { PART_TYPES, UNTYPED_BLOCK, type Message, type Part } from '../model/types.js';
import { urlScheme } from '../core/url.js';
import { liftSignatures, placeSignatures } from './ai-sdk-signatures.js';
import {
  providerDataOf,
  type Conversation,
  type ConversationFormat,
  type Loss,
  type WriteResult,
} from './format.js';
import {
  argumentsToInput,
  assertMessage,
  callNames,
  conversationLosses,
  fieldLosses,
  inputToArguments,
  isPlainObject,
  isPlainTextPart,
  isRawPart,
  joinPointer,
  keepProviderData,
  keptNode,
  keptUnreadable,
  makeConversation,
  makeSourceLocator,
  mergeFields,
  messageList,
  messageLosses,
  type MessageSourceLoc,
  notFormat,
  objectLosses,
  objectToArguments,
  PART_FIELDS,
  type PartWhere,
  providerDataLosses,
  rawPart,
  readEach,
  readTextItem,
  requestBody,
  restOf,
  restoreFields,
  type SourceLoc,
  withoutSystemFields,
} from './shared.js';
import { guessMediaType, splitDataUrl, toDataUrl } from './kit/media.js';

const FORMAT = 'ai-sdk';

/**
 * The wire fields only the v1 model sets (content, role, calls, results, media): kept data never
 * restores one, so what sanitize, lint and show checked is what the provider receives. Kept data
 * fills only fields v1 has no place for (`providerOptions`, ...).
 */
const WIRE = [
  'role',
  'content',
  'type',
  'text',
  'image',
  'data',
  'url',
  'mediaType',
  'mimeType',
  'filename',
  'toolCallId',
  'toolName',
  'input',
  'args',
  'output',
  'result',
  'value',
  'isError',
];

const AI_ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** Every content part type of a ModelMessage (v4 to v6). */
const AI_PART_TYPES = new Set([
  'text',
  'image',
  'file',
  'reasoning',
  'redacted-reasoning',
  'reasoning-file',
  'tool-call',
  'tool-result',
  'tool-approval-request',
  'tool-approval-response',
  'custom',
]);

interface AiContext {
  /** The value read was a bare ModelMessage array. */
  bare: boolean;
}

/**
 * True when a data string is a URL rather than base64. The AI SDK tries `new URL()`, which reads a
 * scheme as a browser does (edge spaces and controls trimmed, tabs and line breaks dropped), so
 * `" file:///x"` and `"java\tscript:x"` are URLs to it, and must be to sanitize too.
 */
function isUrlString(s: string): boolean {
  return urlScheme(s) !== '';
}

/** The image media type base64 data starts with (the AI SDK sniffs the same signatures), if known. */
function sniffImageType(base64: string): string | undefined {
  if (base64.startsWith('iVBORw0KGgo')) return 'image/png';
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('R0lGOD')) return 'image/gif';
  if (base64.startsWith('UklGR')) return 'image/webp';
  return undefined;
}

// ---------------------------------------------------------------- detect

/** True when `p` is a ModelMessage content part (with the fields that make each type unambiguous). */
function isAiPart(p: JsonValue): boolean {
  if (!isPlainObject(p) || typeof p.type !== 'string' || !AI_PART_TYPES.has(p.type)) return false;
  switch (p.type) {
    case 'image':
      return Object.hasOwn(p, 'image');
    case 'file':
      return Object.hasOwn(p, 'data');
    case 'tool-call':
    case 'tool-result':
      return typeof p.toolCallId === 'string';
    default:
      return true;
  }
}

/** True when a part or message uses something only the AI SDK has. */
function isAiOnlyPart(p: JsonValue): boolean {
  if (!isPlainObject(p)) return false;
  if (Object.hasOwn(p, 'providerOptions')) return true;
  switch (p.type) {
    case 'tool-call':
    case 'tool-result':
      return typeof p.toolCallId === 'string';
    case 'reasoning':
    case 'redacted-reasoning':
    case 'tool-approval-request':
    case 'tool-approval-response':
      return true;
    case 'image':
      return Object.hasOwn(p, 'image');
    case 'file':
      return (
        Object.hasOwn(p, 'data') && (Object.hasOwn(p, 'mediaType') || Object.hasOwn(p, 'mimeType'))
      );
    default:
      return false;
  }
}

/** True when `m` is a ModelMessage (and not a v1, UIMessage or OpenAI Chat one). */
function isAiMessage(m: JsonValue): boolean {
  if (!isPlainObject(m) || typeof m.role !== 'string' || !AI_ROLES.has(m.role)) return false;
  // UIMessages and v1 have `parts`; OpenAI Chat has `tool_calls` / `tool_call_id`.
  for (const k of ['parts', 'type', 'tool_calls', 'tool_call_id', 'function_call']) {
    if (Object.hasOwn(m, k)) return false;
  }
  if (typeof m.content === 'string') return m.role !== 'tool';
  return m.role !== 'system' && Array.isArray(m.content) && m.content.every(isAiPart);
}

/** True when `value` is a ModelMessage array (or call options holding one) with an AI SDK-only feature. */
function detectAiSdk(value: JsonValue): boolean {
  const messages = Array.isArray(value) ? value : isPlainObject(value) ? value.messages : undefined;
  if (!Array.isArray(messages) || messages.length === 0 || !messages.every(isAiMessage)) {
    return false;
  }
  // Plain role/content messages are read as OpenAI Chat; the AI SDK needs one of its own features.
  return messages.some(
    (m) =>
      isPlainObject(m) &&
      (Object.hasOwn(m, 'providerOptions') ||
        (Array.isArray(m.content) && m.content.some(isAiOnlyPart))),
  );
}

// ---------------------------------------------------------------- read

/** The `content` shape a write gives when no hint says otherwise. */
function defaultKind(items: JsonValue[], role: string): string {
  if (role === 'tool') return 'array';
  if (items.length === 1 && isPlainTextPart(items[0])) return 'string';
  if (role === 'system' && items.length === 0) return 'string';
  return 'array';
}

/** Reads an image or file `data` string: a URL, a data: URL (split), or base64. */
function readData(
  s: string,
  mediaType: JsonValue | undefined,
  hints: JsonObject,
): { url?: string; data?: string; mediaType?: string } {
  if (!isUrlString(s)) return { data: s };
  const split = splitDataUrl(s);
  if (split && (mediaType === undefined || mediaType === split.mediaType)) {
    setOwn(hints, '$dataUrl', true);
    if (mediaType === undefined) setOwn(hints, '$urlMediaType', true);
    return { data: split.data, mediaType: split.mediaType };
  }
  return { url: s };
}

/** Reads an `image` or `file` part into a v1 image or document. */
function readMedia(
  p: JsonObject,
  ptr: string,
  role: string,
): { part: Part; loc: SourceLoc } | undefined {
  const isImage = p.type === 'image';
  const dataKey = isImage ? 'image' : 'data';
  const src = p[dataKey];
  if (typeof src !== 'string') return undefined;
  // v4 called it mimeType.
  const mtKey = Object.hasOwn(p, 'mediaType')
    ? 'mediaType'
    : Object.hasOwn(p, 'mimeType')
      ? 'mimeType'
      : '';
  const declared = mtKey === '' ? undefined : p[mtKey];
  if (declared !== undefined && typeof declared !== 'string') return undefined;
  const hints: JsonObject = {};
  if (mtKey === 'mimeType') setOwn(hints, '$mediaTypeKey', 'mimeType');
  const read = readData(src, declared, hints);
  let mediaType = typeof declared === 'string' ? declared : read.mediaType;
  if (read.data !== undefined && mediaType === undefined) {
    // v1 needs a media type with data: sniff it (as the AI SDK does), and remember there was none.
    mediaType = sniffImageType(read.data) ?? (isImage ? 'image/*' : 'application/octet-stream');
    setOwn(hints, '$noMediaType', true);
  }
  const v1Type = isImage || (mediaType?.startsWith('image/') ?? false) ? 'image' : 'document';
  if (!isImage && v1Type === 'image' && imageKind(role) === 'image') setOwn(hints, '$type', 'file');
  if (isImage && imageKind(role) === 'file') setOwn(hints, '$type', 'image');
  const part: Part = { type: v1Type };
  if (read.url !== undefined) part.url = read.url;
  else part.data = read.data!;
  if (mediaType !== undefined) part.mediaType = mediaType;
  const mapped = ['type', dataKey];
  if (mtKey !== '') mapped.push(mtKey);
  const fields: Record<string, string> = {
    url: joinPointer(ptr, dataKey),
    data: joinPointer(ptr, dataKey),
  };
  if (mtKey !== '') fields.mediaType = joinPointer(ptr, mtKey);
  if (v1Type === 'document' && typeof p.filename === 'string') {
    part.name = p.filename;
    mapped.push('filename');
    fields.name = joinPointer(ptr, 'filename');
  }
  return {
    part: keepProviderData(part, FORMAT, mergeFields(hints, restOf(p, mapped))),
    loc: { ptr, fields },
  };
}

/** Reads a reasoning part, lifting a replayable signature out of `providerOptions`. */
function readReasoning(p: JsonObject, ptr: string): { part: Part; loc: SourceLoc } {
  const part: Part = { type: 'reasoning', text: p.text as string };
  const hints: JsonObject = {};
  const fields: Record<string, string> = { text: joinPointer(ptr, 'text') };
  const mapped = ['type', 'text'];
  // v4 put the signature on the part itself.
  if (typeof p.signature === 'string') {
    part.signature = p.signature;
    mapped.push('signature');
    setOwn(hints, '$signature', 'field');
    fields.signature = joinPointer(ptr, 'signature');
  }
  const rest = restOf(p, mapped);
  liftSignatures(part, rest, 'providerOptions', ptr, hints, fields);
  return { part: keepProviderData(part, FORMAT, mergeFields(hints, rest)), loc: { ptr, fields } };
}

/** Reads a tool-call part. */
function readToolCall(p: JsonObject, ptr: string): { part: Part; loc: SourceLoc } {
  const part: Part = { type: 'tool-call' };
  const hints: JsonObject = {};
  const fields: Record<string, string> = {};
  const mapped = ['type', 'toolCallId'];
  part.id = p.toolCallId as string;
  fields.id = joinPointer(ptr, 'toolCallId');
  if (typeof p.toolName === 'string') {
    part.name = p.toolName;
    mapped.push('toolName');
    fields.name = joinPointer(ptr, 'toolName');
  }
  // v4 called it args.
  const key = !Object.hasOwn(p, 'input') && Object.hasOwn(p, 'args') ? 'args' : 'input';
  if (key === 'args') setOwn(hints, '$inputKey', 'args');
  mapped.push(key);
  const input = p[key];
  // The AI SDK keeps unparsable model output as the raw string: it is the arguments text.
  const read = inputToArguments(input);
  part.arguments = read.text;
  if (read.mode !== undefined) setOwn(hints, '$input', read.mode);
  if (input !== undefined) fields.arguments = joinPointer(ptr, key);
  return {
    part: keepProviderData(part, FORMAT, mergeFields(hints, restOf(p, mapped))),
    loc: { ptr, fields },
  };
}

/** Reads one item of a `content` tool output. */
function readOutputItem(item: JsonValue, ptr: string): { part: Part; loc: SourceLoc } {
  if (!isPlainObject(item) || typeof item.type !== 'string') {
    return { part: rawPart(FORMAT, item, UNTYPED_BLOCK), loc: { ptr } };
  }
  const t = item.type;
  if (t === 'text' && typeof item.text === 'string') {
    return readTextItem(item, ptr, FORMAT);
  }
  const dataItem = t === 'media' || t === 'image-data' || t === 'file-data';
  if (dataItem && typeof item.data === 'string' && typeof item.mediaType === 'string') {
    const image = item.mediaType.startsWith('image/');
    const v1Type = image ? 'image' : 'document';
    const part: Part = { type: v1Type, data: item.data, mediaType: item.mediaType };
    const mapped = ['type', 'data', 'mediaType'];
    const fields: Record<string, string> = {
      data: joinPointer(ptr, 'data'),
      mediaType: joinPointer(ptr, 'mediaType'),
    };
    if (!image && typeof item.filename === 'string') {
      part.name = item.filename;
      mapped.push('filename');
      fields.name = joinPointer(ptr, 'filename');
    }
    const hints: JsonObject = {};
    if (t !== outputItemType(part)) setOwn(hints, '$type', t);
    return {
      part: keepProviderData(part, FORMAT, mergeFields(hints, restOf(item, mapped))),
      loc: { ptr, fields },
    };
  }
  if ((t === 'image-url' || t === 'file-url') && typeof item.url === 'string') {
    const part: Part = { type: t === 'image-url' ? 'image' : 'document', url: item.url };
    const mapped = ['type', 'url'];
    const fields: Record<string, string> = { url: joinPointer(ptr, 'url') };
    const hints: JsonObject = {};
    if (typeof item.mediaType === 'string') {
      part.mediaType = item.mediaType;
      mapped.push('mediaType');
      fields.mediaType = joinPointer(ptr, 'mediaType');
    } else if (part.type === 'document') {
      // v1 documents need a media type; a file-url has none, so it is guessed from the URL.
      part.mediaType = guessMediaType(item.url);
      setOwn(hints, '$noMediaType', true);
    }
    return {
      part: keepProviderData(part, FORMAT, mergeFields(hints, restOf(item, mapped))),
      loc: { ptr, fields },
    };
  }
  // file-id, image-file-id, custom and anything newer are kept whole.
  return { part: rawPart(FORMAT, item, t), loc: { ptr } };
}

/** The `content` output item type a v1 content part is written as by default. */
function outputItemType(part: Part): string {
  if (part.type === 'text') return 'text';
  if (typeof part.url === 'string') return part.type === 'image' ? 'image-url' : 'file-url';
  return 'media';
}

/** Reads a tool-result part (v5/v6 `output`, or v4 `result`/`isError`). */
function readToolResult(p: JsonObject, ptr: string): { part: Part; loc: SourceLoc } {
  const part: Part = { type: 'tool-result', callId: p.toolCallId as string };
  const hints: JsonObject = {};
  const fields: Record<string, string> = { callId: joinPointer(ptr, 'toolCallId') };
  const mapped = ['type', 'toolCallId'];
  if (typeof p.toolName === 'string') {
    part.name = p.toolName;
    mapped.push('toolName');
    fields.name = joinPointer(ptr, 'toolName');
  } else if (!Object.hasOwn(p, 'toolName')) {
    // A write fills a missing toolName from the call; this one had none.
    setOwn(hints, '$noName', true);
  }
  const content: Part[] = [];
  const children: SourceLoc[] = [];
  let failed = false;
  let outputRest: JsonObject | undefined;
  const output = p.output;
  if (!Object.hasOwn(p, 'output') && Object.hasOwn(p, 'result')) {
    // v4: a JSON result and an error flag.
    mapped.push('result');
    setOwn(hints, '$v4', true);
    const resPtr = joinPointer(ptr, 'result');
    fields.content = resPtr;
    if (typeof p.result === 'string') content.push({ type: 'text', text: p.result });
    else {
      content.push({ type: 'text', text: objectToArguments(p.result!) });
      setOwn(hints, '$output', 'json');
    }
    children.push({ ptr: resPtr, fields: { text: resPtr } });
    if (typeof p.isError === 'boolean') {
      mapped.push('isError');
      if (p.isError) failed = true;
      else setOwn(hints, '$isError', false);
    }
  } else if (!Object.hasOwn(p, 'output')) {
    setOwn(hints, '$output', 'absent');
  } else if (!isPlainObject(output) || typeof output.type !== 'string') {
    setOwn(hints, '$output', 'raw');
  } else {
    const outPtr = joinPointer(ptr, 'output');
    const valuePtr = joinPointer(outPtr, 'value');
    const t = output.type;
    const v = output.value;
    let known = true;
    if ((t === 'text' || t === 'error-text') && typeof v === 'string') {
      content.push({ type: 'text', text: v });
      children.push({ ptr: valuePtr, fields: { text: valuePtr } });
    } else if ((t === 'json' || t === 'error-json') && v !== undefined) {
      content.push({ type: 'text', text: objectToArguments(v) });
      children.push({ ptr: valuePtr, fields: { text: valuePtr } });
      setOwn(hints, '$output', 'json');
    } else if (t === 'content' && Array.isArray(v)) {
      v.forEach((item, k) => {
        const r = readOutputItem(item, joinPointer(valuePtr, k));
        content.push(r.part);
        children.push(r.loc);
      });
      if (v.length === 0) setOwn(hints, '$output', 'content');
    } else if (t === 'execution-denied') {
      setOwn(hints, '$output', 'execution-denied');
      if (typeof output.reason === 'string') {
        content.push({ type: 'text', text: output.reason });
        const reasonPtr = joinPointer(outPtr, 'reason');
        children.push({ ptr: reasonPtr, fields: { text: reasonPtr } });
      }
    } else known = false;
    if (!known) setOwn(hints, '$output', 'raw');
    else {
      mapped.push('output');
      if (t === 'error-text' || t === 'error-json') failed = true;
      // A reason that is not a string is no text part: it stays with the output's other fields.
      const outMapped = [
        'type',
        t === 'execution-denied' ? (typeof output.reason === 'string' ? 'reason' : '') : 'value',
      ];
      outputRest = restOf(output, outMapped);
      fields.content = Object.hasOwn(output, 'value') ? valuePtr : outPtr;
      // A multi-text or media-free content output would otherwise be written as text.
      if (t === 'content' && v !== undefined && defaultOutputType(content, false) !== 'content') {
        setOwn(hints, '$output', 'content');
      }
    }
  }
  part.content = content;
  if (failed) part.failed = true;
  const data = mergeFields(hints, restOf(p, mapped));
  if (outputRest !== undefined) setOwn(data, 'output', outputRest);
  return { part: keepProviderData(part, FORMAT, data), loc: { ptr, fields, children } };
}

/** Reads one content part. */
function readPart(p: JsonValue, ptr: string, role: string): { part: Part; loc: SourceLoc } {
  if (!isPlainObject(p) || typeof p.type !== 'string') {
    return { part: rawPart(FORMAT, p, UNTYPED_BLOCK), loc: { ptr } };
  }
  switch (p.type) {
    case 'text':
      if (typeof p.text === 'string') return readTextItem(p, ptr, FORMAT);
      break;
    case 'image':
    case 'file': {
      const r = readMedia(p, ptr, role);
      if (r !== undefined) return r;
      break;
    }
    case 'reasoning':
      if (typeof p.text === 'string') return readReasoning(p, ptr);
      break;
    case 'redacted-reasoning':
      if (typeof p.data === 'string') {
        const part = keepProviderData(
          { type: 'reasoning', text: '', redacted: p.data },
          FORMAT,
          mergeFields({ $type: 'redacted-reasoning' }, restOf(p, ['type', 'data'])),
        );
        return { part, loc: { ptr, fields: { redacted: joinPointer(ptr, 'data') } } };
      }
      break;
    case 'tool-call':
      if (typeof p.toolCallId === 'string') return readToolCall(p, ptr);
      break;
    case 'tool-result':
      if (typeof p.toolCallId === 'string') return readToolResult(p, ptr);
      break;
  }
  // Approval parts, reasoning files, custom parts, anything newer or malformed: kept whole.
  return { part: rawPart(FORMAT, p, p.type), loc: { ptr } };
}

/** Reads one message. */
function readMessage(
  m: JsonValue,
  ptr: string,
  index: number,
): { message: Message; loc: MessageSourceLoc } {
  assertMessage(m, index, FORMAT);
  const role = m.role;
  const mapped = ['role'];
  const hints: JsonObject = {};
  const parts: Part[] = [];
  const locs: SourceLoc[] = [];
  const content = m.content;
  const contentPtr = joinPointer(ptr, 'content');
  if (typeof content === 'string') {
    mapped.push('content');
    parts.push({ type: 'text', text: content });
    locs.push({ ptr: contentPtr, fields: { text: contentPtr } });
    if (defaultKind([{ type: 'text', text: content }], role) !== 'string') {
      setOwn(hints, '$content', 'string');
    }
  } else if (Array.isArray(content)) {
    mapped.push('content');
    content.forEach((p, k) => {
      const r = readPart(p, joinPointer(contentPtr, k), role);
      parts.push(r.part);
      locs.push(r.loc);
    });
    if (defaultKind(content, role) !== 'array') setOwn(hints, '$content', 'array');
  } else if (content === undefined) {
    // A UIMessage (useChat) has parts and no content: read as a ModelMessage, its text would vanish.
    if (Array.isArray(m.parts))
      notFormat(FORMAT, `message ${index} has "parts" and no "content": a UIMessage (ai-sdk-ui)`);
    setOwn(hints, '$content', 'absent');
  }
  const message: Message = { role, parts };
  keepProviderData(message, FORMAT, mergeFields(hints, restOf(m, mapped)));
  return { message, loc: { ptr, parts: locs } };
}

// ---------------------------------------------------------------- write

interface WriteState {
  /** The conversation came from another format: drop what a ModelMessage cannot hold, and say so. */
  strict: boolean;
  losses: Loss[];
  /** Tool names by call id, for results that carry no name (toolName is required). */
  callNames: Map<string, string>;
}

/** Which v1 part types a role's content takes. */
function allowedIn(role: string, type: string): boolean {
  switch (role) {
    case 'system':
      return type === 'text';
    case 'user':
      return type === 'text' || type === 'image' || type === 'document';
    case 'tool':
      return type === 'tool-result';
    default:
      return true;
  }
}

/** The data string of a v1 image/document for an `image`/`data` field. */
function dataString(part: Part, data: JsonObject | undefined): string | undefined {
  if (typeof part.url === 'string') return part.url;
  if (typeof part.data !== 'string') return undefined;
  if (data?.$dataUrl === true) return toDataUrl(String(part.mediaType), part.data);
  // The AI SDK reads a string with a scheme as a URL and fetches it: inline data that reads so
  // (never base64, which has no ":") is written as a data: URL, so it stays inline.
  if (isUrlString(part.data) && urlScheme(part.data) !== 'data')
    return toDataUrl(
      typeof part.mediaType === 'string' ? part.mediaType : 'application/octet-stream',
      part.data,
    );
  return part.data;
}

/** The part type a v1 image is written as by default: user messages have image parts, assistants only files. */
function imageKind(role: string): string {
  return role === 'user' ? 'image' : 'file';
}

/** Writes a v1 image or document as an `image` or `file` part. */
function writeMedia(
  part: Part,
  role: string,
  data: JsonObject | undefined,
): JsonObject | undefined {
  const src = dataString(part, data);
  if (src === undefined) return undefined;
  const asImage =
    part.type === 'image' &&
    (data?.$type === 'image' || (data?.$type !== 'file' && imageKind(role) === 'image'));
  const out: JsonObject = asImage ? { type: 'image', image: src } : { type: 'file', data: src };
  const keepType =
    typeof part.mediaType === 'string' &&
    data?.$noMediaType !== true &&
    data?.$urlMediaType !== true;
  if (keepType) {
    const key = data?.$mediaTypeKey === 'mimeType' ? 'mimeType' : 'mediaType';
    out[key] = part.mediaType!;
  }
  if (part.type === 'document' && typeof part.name === 'string') out.filename = part.name;
  restoreFields(out, data, WIRE);
  return out;
}

/** Writes a reasoning part, putting its signature back where the AI SDK replays it from. */
function writeReasoning(
  part: Part,
  data: JsonObject | undefined,
  where: PartWhere,
  state: WriteState,
): JsonObject {
  if (data?.$type === 'redacted-reasoning') {
    const out: JsonObject = { type: 'redacted-reasoning', data: String(part.redacted ?? '') };
    restoreFields(out, data, WIRE);
    return out;
  }
  const out: JsonObject = {
    type: 'reasoning',
    text: typeof part.text === 'string' ? part.text : '',
  };
  restoreFields(out, data, WIRE);
  placeSignatures(out, 'providerOptions', part, data, where, state.losses);
  return out;
}

/** Writes a tool-call part. */
function writeToolCall(part: Part, data: JsonObject | undefined): JsonObject {
  const out: JsonObject = { type: 'tool-call' };
  if (typeof part.id === 'string') out.toolCallId = part.id;
  if (typeof part.name === 'string') out.toolName = part.name;
  const text = typeof part.arguments === 'string' ? part.arguments : '';
  const key = data?.$inputKey === 'args' ? 'args' : 'input';
  const input = argumentsToInput(text, data?.$input);
  if (input !== undefined) out[key] = input;
  restoreFields(out, data, WIRE);
  return out;
}

/** The output type a result is written as without a hint. */
function defaultOutputType(content: readonly Part[], failed: boolean): string {
  if (content.length === 0) return failed ? 'error-text' : 'text';
  if (content.length === 1 && isPlainTextPart(content[0] as JsonValue)) {
    return failed ? 'error-text' : 'text';
  }
  return 'content';
}

/** Writes one item of a `content` tool output. */
function writeOutputItem(item: Part, where: PartWhere, state: WriteState): JsonValue | undefined {
  const data = providerDataOf(item, FORMAT);
  if (isRawPart(item, FORMAT)) return keptNode(item, FORMAT, state.losses, where);
  state.losses.push(...providerDataLosses(item, FORMAT, where));
  if (item.type === 'text') {
    const out: JsonObject = { type: 'text', text: item.text! };
    restoreFields(out, data, WIRE);
    return out;
  }
  if (item.type === 'image' || item.type === 'document') {
    const type = typeof data?.$type === 'string' ? data.$type : outputItemType(item);
    const out: JsonObject = { type };
    if (typeof item.url === 'string') out.url = item.url;
    else if (typeof item.data === 'string') out.data = item.data;
    else {
      state.losses.push({ ...where, what: `${item.type} without url or data in a tool result` });
      return undefined;
    }
    if (typeof item.mediaType === 'string' && data?.$noMediaType !== true) {
      out.mediaType = item.mediaType;
    }
    if (item.type === 'document' && typeof item.name === 'string') out.filename = item.name;
    restoreFields(out, data, WIRE);
    return out;
  }
  state.losses.push({ ...where, what: `unknown part type "${item.type}" in a tool result` });
  return undefined;
}

/** Writes a tool-result part. */
function writeToolResult(
  part: Part,
  data: JsonObject | undefined,
  where: PartWhere,
  state: WriteState,
): JsonObject {
  const out: JsonObject = { type: 'tool-result' };
  if (typeof part.callId === 'string') out.toolCallId = part.callId;
  const name =
    typeof part.name === 'string'
      ? part.name
      : typeof part.callId === 'string' && data?.$noName !== true
        ? state.callNames.get(part.callId)
        : undefined;
  // A toolName the reader could not map (not a string) was kept as it was: it comes back.
  const oddName = keptUnreadable(data, 'toolName');
  if (oddName !== undefined && (oddName === null || typeof oddName !== 'object'))
    out.toolName = oddName;
  else if (name !== undefined) out.toolName = name;
  const content = Array.isArray(part.content) ? (part.content as Part[]) : [];
  const failed = part.failed === true;
  const texts = content.map((c) =>
    c.type === 'text' && typeof c.text === 'string' ? c.text : undefined,
  );
  const hint = data?.$output;
  if (data?.$v4 === true) {
    const text = texts.join('');
    let result: JsonValue = text;
    if (hint === 'json') {
      try {
        result = parseJson(text);
      } catch {
        result = text;
      }
    }
    out.result = result;
    if (failed) out.isError = true;
    else if (data.$isError === false) out.isError = false;
    restoreFields(out, data, WIRE);
    return out;
  }
  if (hint === 'absent' || hint === 'raw') {
    if (hint === 'raw') out.output = data!.output!;
    restoreFields(out, data, WIRE);
    return out;
  }
  let output: JsonObject;
  const single = content.length === 1 && texts[0] !== undefined ? texts[0] : undefined;
  if (hint === 'execution-denied') {
    output = { type: 'execution-denied' };
    if (single !== undefined) output.reason = single;
  } else if (hint === 'json' && single !== undefined && parsesAsJson(single)) {
    output = { type: failed ? 'error-json' : 'json', value: parseJson(single) };
  } else {
    const type = hint === 'content' ? 'content' : defaultOutputType(content, failed);
    if (type === 'content') {
      if (failed) state.losses.push({ ...where, what: 'failed flag of a tool result with media' });
      const items: JsonValue[] = [];
      content.forEach((c) => {
        const w = writeOutputItem(c, where, state);
        if (w !== undefined) items.push(w);
      });
      output = { type: 'content', value: items };
    } else output = { type, value: single ?? '' };
  }
  restoreFields(output, isPlainObject(data?.output) ? data.output : undefined, WIRE);
  out.output = output;
  restoreFields(out, data, WIRE);
  return out;
}

/** True when `text` is JSON text. */
function parsesAsJson(text: string): boolean {
  try {
    parseJson(text);
    return true;
  } catch {
    return false;
  }
}

/** Writes one part of a message, or undefined when it is dropped. */
function writePart(
  part: Part,
  role: string,
  where: PartWhere,
  state: WriteState,
): JsonValue | undefined {
  const data = providerDataOf(part, FORMAT);
  if (isRawPart(part, FORMAT)) return keptNode(part, FORMAT, state.losses, where);
  const lose = (what: string): undefined => {
    state.losses.push({ ...where, what });
    return undefined;
  };
  if (!(PART_TYPES as readonly string[]).includes(part.type)) {
    return lose(`unknown part type "${part.type}"`);
  }
  if (state.strict && !allowedIn(role, part.type))
    return lose(`${part.type} part in a ${role} message`);
  if (part.type !== 'tool-result') state.losses.push(...providerDataLosses(part, FORMAT, where));
  switch (part.type) {
    case 'text': {
      state.losses.push(...fieldLosses(part, PART_FIELDS.text, where, 'text part'));
      const out: JsonObject = { type: 'text', text: part.text! };
      restoreFields(out, data, WIRE);
      return out;
    }
    case 'image':
    case 'document': {
      state.losses.push(
        ...fieldLosses(
          part,
          // Only a document's name has a place (its filename); an image's is lost.
          part.type === 'document'
            ? ['type', 'url', 'data', 'mediaType', 'name']
            : ['type', 'url', 'data', 'mediaType'],
          where,
          `${part.type} part`,
        ),
      );
      return writeMedia(part, role, data) ?? lose(`${part.type} part without url or data`);
    }
    case 'reasoning':
      state.losses.push(...fieldLosses(part, PART_FIELDS.reasoning, where, 'reasoning part'));
      return writeReasoning(part, data, where, state);
    case 'tool-call':
      state.losses.push(...fieldLosses(part, PART_FIELDS['tool-call'], where, 'tool-call part'));
      return writeToolCall(part, data);
    case 'tool-result':
      state.losses.push(
        ...objectLosses(part, FORMAT, PART_FIELDS['tool-result'], where, 'tool-result part'),
      );
      return writeToolResult(part, data, where, state);
    default:
      return lose(`${part.type} part in a ${role} message`);
  }
}

/** A `content` value from written items: the default shape, or the one a `$content` hint names. */
function contentValue(
  items: JsonValue[],
  hint: JsonValue | undefined,
  role: string,
): JsonValue | undefined {
  if (hint === 'absent' && items.length === 0) return undefined;
  if (hint === 'array') return items;
  if (hint === 'string' && items.length === 1 && isPlainTextPart(items[0])) {
    return (items[0] as JsonObject).text!;
  }
  if (defaultKind(items, role) === 'string') {
    return items.length === 0 ? '' : (items[0] as JsonObject).text!;
  }
  return items;
}

/** Writes one v1 message (a foreign tool message with text beside its results gives two). */
function writeMessage(m: Message, i: number, state: WriteState, out: JsonValue[]): void {
  state.losses.push(...messageLosses(m, i, FORMAT));
  const data = providerDataOf(m, FORMAT);
  const items: JsonValue[] = [];
  const moved: { part: Part; index: number }[] = [];
  m.parts.forEach((part, j) => {
    // A result's neighbours in a foreign tool message (Anthropic follow-up text) go to a user message.
    const own = part.type === 'tool-result' || part.type.startsWith(`${FORMAT}:`);
    if (state.strict && m.role === 'tool' && !own) {
      moved.push({ part, index: j });
      return;
    }
    const w = writePart(part, m.role, { messageIndex: i, partIndex: j }, state);
    if (w !== undefined) items.push(w);
  });
  if (state.strict && m.role === 'system' && items.length > 1) {
    // A system message's content is one string: one message per text part.
    for (const item of items) out.push({ role: 'system', content: (item as JsonObject).text! });
    return;
  }
  const msg: JsonObject = { role: m.role };
  const content = contentValue(items, data?.$content, m.role);
  // A content the reader could not map (an object, a number) was kept as it was: it comes back.
  const unreadable = items.length === 0 ? keptUnreadable(data, 'content') : undefined;
  if (unreadable !== undefined) msg.content = unreadable;
  else if (content !== undefined) msg.content = content;
  restoreFields(msg, data, WIRE);
  if (!(m.role === 'tool' && items.length === 0 && moved.length > 0)) out.push(msg);
  if (moved.length > 0) {
    const userItems: JsonValue[] = [];
    for (const { part, index } of moved) {
      const w = writePart(part, 'user', { messageIndex: i, partIndex: index }, state);
      if (w !== undefined) userItems.push(w);
    }
    if (userItems.length > 0)
      out.push({ role: 'user', content: contentValue(userItems, undefined, 'user')! });
  }
}

/** Writes a conversation as ModelMessages (bare, or the call-options object it was read from). */
function writeAiSdk(conversation: Conversation, context: unknown): WriteResult {
  const ctx = context as AiContext | undefined;
  const state: WriteState = {
    strict: ctx === undefined,
    losses: [],
    callNames: callNames(conversation.messages),
  };
  state.losses.push(...conversationLosses(conversation, FORMAT));
  const data = providerDataOf(conversation, FORMAT);
  const messages: JsonValue[] = [];
  let system: JsonValue | undefined;
  const systemList: JsonValue[] = [];
  let systemShape: 'object' | 'array' | undefined;
  conversation.messages.forEach((m, i) => {
    const mdata = providerDataOf(m, FORMAT);
    // The top-level `system` of a call-options object is a leading system message in v1.
    // Only a system message: the hint never makes another one the system prompt.
    if (
      mdata?.$system === true &&
      m.role === 'system' &&
      i === 0 &&
      m.parts.length === 1 &&
      m.parts[0]!.type === 'text'
    ) {
      system = String(m.parts[0]!.text);
      return;
    }
    // Read from a `system` SystemModelMessage (or array of them): written back there.
    const shape = mdata?.$system;
    if (
      (shape === 'object' || shape === 'array') &&
      m.role === 'system' &&
      messages.length === 0 &&
      system === undefined
    ) {
      systemShape = shape;
      writeMessage(m, i, state, systemList);
      return;
    }
    writeMessage(m, i, state, messages);
  });
  if (systemShape !== undefined)
    system = systemShape === 'object' && systemList.length === 1 ? systemList[0] : systemList;
  const bare = ctx !== undefined ? ctx.bare : data === undefined;
  if (bare && system === undefined) return { value: messages, losses: state.losses };
  // A system prompt only ever comes from a system message (see withoutSystemFields).
  const kept = withoutSystemFields(data, ['system'], state.losses);
  return { value: requestBody(kept, { system, messages }), losses: state.losses };
}

/** The SystemModelMessages of a call options' `system` (one, or a non-empty array), if it holds only such. */
function systemMessagesOf(value: JsonValue | undefined): JsonObject[] | undefined {
  const isSystem = (v: JsonValue): v is JsonObject => isPlainObject(v) && v.role === 'system';
  if (value !== undefined && isSystem(value)) return [value];
  if (Array.isArray(value) && value.length > 0 && value.every(isSystem)) return value;
  return undefined;
}

/** Vercel AI SDK ModelMessage arrays (v5/v6; v4 tool fields read too). */
export const aiSdkFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'Vercel AI SDK ModelMessage[] (v5/v6): text, image, file, reasoning, tool-call and tool-result parts',
  readOnly: false,
  detect: detectAiSdk,
  read(value) {
    const { list, base, rest } = messageList(value, FORMAT, 'no ModelMessage array');
    const messages: Message[] = [];
    const locs: MessageSourceLoc[] = [];
    if (rest !== undefined && typeof rest.system === 'string') {
      // generateText-style options: `system` is the system prompt.
      const system: Message = { role: 'system', parts: [{ type: 'text', text: rest.system }] };
      keepProviderData(system, FORMAT, { $system: true });
      messages.push(system);
      locs.push({ ptr: '/system', parts: [{ ptr: '/system', fields: { text: '/system' } }] });
      delete rest.system;
    } else if (rest !== undefined && systemMessagesOf(rest.system) !== undefined) {
      // AI SDK 6 also takes a SystemModelMessage, or an array of them, as `system`.
      const shape = Array.isArray(rest.system) ? 'array' : 'object';
      systemMessagesOf(rest.system)!.forEach((m, k) => {
        const ptr = shape === 'array' ? `/system/${k}` : '/system';
        const r = readMessage(m, ptr, k);
        keepProviderData(r.message, FORMAT, {
          $system: shape,
          ...(providerDataOf(r.message, FORMAT) ?? {}),
        });
        messages.push(r.message);
        locs.push(r.loc);
      });
      delete rest.system;
    }
    readEach(list, base, readMessage, messages, locs);
    return {
      conversation: makeConversation(messages, FORMAT, rest),
      context: { bare: Array.isArray(value) } satisfies AiContext,
      locate: makeSourceLocator(base, locs),
    };
  },
  write: writeAiSdk,
};
