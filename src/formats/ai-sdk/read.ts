/**
 * Reads a Vercel AI SDK `ModelMessage[]` (v4 to v6), bare or in call options (`{system?,
 * messages, ...}`, what generateText and streamText take), into v1. The call options' `system`
 * becomes a leading system message; their other fields are kept on the conversation. Parts v1
 * has no type for (approvals, custom parts, anything newer) are kept whole.
 */
import { setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import { UNTYPED_BLOCK, type Message, type Part } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import type { Conversation, ReadOptions, ReadResult } from '../format.js';
import { envelopeData, readEnvelope } from '../kit/envelope.js';
import { isPlainObject, keepProviderData, keptPart, mergeFields, restOf } from '../kit/kept.js';
import { guessMediaType, mediaPartType, splitDataUrl } from '../kit/media.js';
import { readContext, type ReadContext } from '../kit/provenance.js';
import { joinPointer, sourceMap, type FieldSource, type PartSource } from '../kit/source-map.js';
import { assertMessage, inputToArguments, notFormat, objectToArguments } from '../shared.js';
import {
  defaultKind,
  defaultOutputType,
  FORMAT,
  HINTS,
  imageKind,
  isUrlString,
  outputItemType,
} from './hints.js';
import { takeSignatures } from './signatures.js';

/** What a write of the same format needs to rebuild the original shape. */
export interface AiContext extends ReadContext {
  /** The value read was a bare ModelMessage array (not call options). */
  bare: boolean;
  /** The call options' keys, in the order read (none for a bare array). */
  keys?: string[];
}

/** A v1 part and where it came from (field sources relative to its node). */
interface Read {
  part: Part;
  source: PartSource;
}

/** The v1 fields of a part → the source fields they came from. */
type Fields = Record<string, FieldSource>;

/** The image media type base64 data starts with (the AI SDK sniffs the same signatures), if known. */
function sniffImageType(base64: string): string | undefined {
  if (base64.startsWith('iVBORw0KGgo')) return 'image/png';
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('R0lGOD')) return 'image/gif';
  if (base64.startsWith('UklGR')) return 'image/webp';
  return undefined;
}

/** A source `{type: "text", text}` item, whose `text` is a string, as a v1 text part keeping its other fields. */
function readText(item: JsonObject, ptr: string): Read {
  const text = item.text as string;
  const part = keepProviderData({ type: 'text', text }, FORMAT, restOf(item, ['type', 'text']));
  return { part, source: { pointer: ptr, fields: { text: 'text' } } };
}

/** A node v1 cannot hold, kept whole. */
function readKept(node: JsonValue, ptr: string, label: string): Read {
  return { part: keptPart(FORMAT, node, label), source: { pointer: ptr } };
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
    setOwn(hints, HINTS.dataUrl, true);
    if (mediaType === undefined) setOwn(hints, HINTS.urlMediaType, true);
    return { data: split.data, mediaType: split.mediaType };
  }
  return { url: s };
}

/** Reads an `image` or `file` part into a v1 image or document. */
function readMedia(p: JsonObject, ptr: string, role: string): Read | undefined {
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
  if (mtKey === 'mimeType') setOwn(hints, HINTS.mediaTypeKey, 'mimeType');
  const read = readData(src, declared, hints);
  let mediaType = typeof declared === 'string' ? declared : read.mediaType;
  if (read.data !== undefined && mediaType === undefined) {
    // v1 needs a media type with data: sniff it (as the AI SDK does), and remember there was none.
    mediaType = sniffImageType(read.data) ?? (isImage ? 'image/*' : 'application/octet-stream');
    setOwn(hints, HINTS.noMediaType, true);
  }
  const v1Type = isImage ? 'image' : mediaPartType(mediaType ?? '');
  if (!isImage && v1Type === 'image' && imageKind(role) === 'image')
    setOwn(hints, HINTS.type, 'file');
  if (isImage && imageKind(role) === 'file') setOwn(hints, HINTS.type, 'image');
  const part: Part = { type: v1Type };
  if (read.url !== undefined) part.url = read.url;
  else part.data = read.data!;
  if (mediaType !== undefined) part.mediaType = mediaType;
  const mapped = ['type', dataKey];
  if (mtKey !== '') mapped.push(mtKey);
  const fields: Fields = { url: dataKey, data: dataKey };
  if (mtKey !== '') fields.mediaType = mtKey;
  if (v1Type === 'document' && typeof p.filename === 'string') {
    part.name = p.filename;
    mapped.push('filename');
    fields.name = 'filename';
  }
  return {
    part: keepProviderData(part, FORMAT, mergeFields(hints, restOf(p, mapped))),
    source: { pointer: ptr, fields },
  };
}

/** Reads a reasoning part, lifting a replayable signature out of `providerOptions`. */
function readReasoning(p: JsonObject, ptr: string): Read {
  const part: Part = { type: 'reasoning', text: p.text as string };
  const hints: JsonObject = {};
  const fields: Fields = { text: 'text' };
  const mapped = ['type', 'text'];
  // v4 put the signature on the part itself.
  if (typeof p.signature === 'string') {
    part.signature = p.signature;
    mapped.push('signature');
    setOwn(hints, HINTS.signature, 'field');
    fields.signature = 'signature';
  }
  const rest = restOf(p, mapped);
  Object.assign(fields, takeSignatures(part, rest, 'providerOptions', hints));
  return {
    part: keepProviderData(part, FORMAT, mergeFields(hints, rest)),
    source: { pointer: ptr, fields },
  };
}

/** Reads a tool-call part. */
function readToolCall(p: JsonObject, ptr: string): Read {
  const part: Part = { type: 'tool-call' };
  const hints: JsonObject = {};
  const fields: Fields = {};
  const mapped = ['type', 'toolCallId'];
  part.id = p.toolCallId as string;
  fields.id = 'toolCallId';
  if (typeof p.toolName === 'string') {
    part.name = p.toolName;
    mapped.push('toolName');
    fields.name = 'toolName';
  }
  // v4 called it args.
  const key = !Object.hasOwn(p, 'input') && Object.hasOwn(p, 'args') ? 'args' : 'input';
  if (key === 'args') setOwn(hints, HINTS.inputKey, 'args');
  mapped.push(key);
  const input = p[key];
  // The AI SDK keeps unparsable model output as the raw string: it is the arguments text.
  const read = inputToArguments(input);
  part.arguments = read.text;
  if (read.mode !== undefined) setOwn(hints, HINTS.input, read.mode);
  if (input !== undefined) fields.arguments = key;
  return {
    part: keepProviderData(part, FORMAT, mergeFields(hints, restOf(p, mapped))),
    source: { pointer: ptr, fields },
  };
}

/** Reads one item of a `content` tool output. */
function readOutputItem(item: JsonValue, ptr: string): Read {
  if (!isPlainObject(item) || typeof item.type !== 'string') {
    return readKept(item, ptr, UNTYPED_BLOCK);
  }
  const t = item.type;
  if (t === 'text' && typeof item.text === 'string') return readText(item, ptr);
  const dataItem = t === 'media' || t === 'image-data' || t === 'file-data';
  if (dataItem && typeof item.data === 'string' && typeof item.mediaType === 'string') {
    const v1Type = mediaPartType(item.mediaType);
    const part: Part = { type: v1Type, data: item.data, mediaType: item.mediaType };
    const mapped = ['type', 'data', 'mediaType'];
    const fields: Fields = { data: 'data', mediaType: 'mediaType' };
    if (v1Type === 'document' && typeof item.filename === 'string') {
      part.name = item.filename;
      mapped.push('filename');
      fields.name = 'filename';
    }
    const hints: JsonObject = {};
    if (t !== outputItemType(part)) setOwn(hints, HINTS.type, t);
    return {
      part: keepProviderData(part, FORMAT, mergeFields(hints, restOf(item, mapped))),
      source: { pointer: ptr, fields },
    };
  }
  if ((t === 'image-url' || t === 'file-url') && typeof item.url === 'string') {
    const part: Part = { type: t === 'image-url' ? 'image' : 'document', url: item.url };
    const mapped = ['type', 'url'];
    const fields: Fields = { url: 'url' };
    const hints: JsonObject = {};
    if (typeof item.mediaType === 'string') {
      part.mediaType = item.mediaType;
      mapped.push('mediaType');
      fields.mediaType = 'mediaType';
    } else if (part.type === 'document') {
      // v1 documents need a media type; a file-url has none, so it is guessed from the URL.
      part.mediaType = guessMediaType(item.url);
      setOwn(hints, HINTS.noMediaType, true);
    }
    return {
      part: keepProviderData(part, FORMAT, mergeFields(hints, restOf(item, mapped))),
      source: { pointer: ptr, fields },
    };
  }
  // file-id, image-file-id, custom and anything newer are kept whole.
  return readKept(item, ptr, t);
}

/** Reads a tool-result part (v5/v6 `output`, or v4 `result`/`isError`). */
function readToolResult(p: JsonObject, ptr: string): Read {
  const part: Part = { type: 'tool-result', callId: p.toolCallId as string };
  const hints: JsonObject = {};
  const fields: Fields = { callId: 'toolCallId' };
  const mapped = ['type', 'toolCallId'];
  if (typeof p.toolName === 'string') {
    part.name = p.toolName;
    mapped.push('toolName');
    fields.name = 'toolName';
  } else if (!Object.hasOwn(p, 'toolName')) {
    // A write fills a missing toolName from the call; this one had none.
    setOwn(hints, HINTS.noName, true);
  }
  const content: Part[] = [];
  // A text read from a string is that string's node (its `text` too).
  const children: PartSource[] = [];
  let failed = false;
  let outputRest: JsonObject | undefined;
  const output = p.output;
  if (!Object.hasOwn(p, 'output') && Object.hasOwn(p, 'result')) {
    // v4: a JSON result and an error flag.
    mapped.push('result');
    setOwn(hints, HINTS.v4, true);
    fields.content = 'result';
    if (typeof p.result === 'string') content.push({ type: 'text', text: p.result });
    else {
      content.push({ type: 'text', text: objectToArguments(p.result!) });
      setOwn(hints, HINTS.output, 'json');
    }
    children.push({ pointer: joinPointer(ptr, 'result') });
    if (typeof p.isError === 'boolean') {
      mapped.push('isError');
      if (p.isError) failed = true;
      else setOwn(hints, HINTS.isError, false);
    }
  } else if (!Object.hasOwn(p, 'output')) {
    setOwn(hints, HINTS.output, 'absent');
  } else if (!isPlainObject(output) || typeof output.type !== 'string') {
    setOwn(hints, HINTS.output, 'raw');
  } else {
    const outPtr = joinPointer(ptr, 'output');
    const valuePtr = joinPointer(outPtr, 'value');
    const t = output.type;
    const v = output.value;
    let known = true;
    if ((t === 'text' || t === 'error-text') && typeof v === 'string') {
      content.push({ type: 'text', text: v });
      children.push({ pointer: valuePtr });
    } else if ((t === 'json' || t === 'error-json') && v !== undefined) {
      content.push({ type: 'text', text: objectToArguments(v) });
      children.push({ pointer: valuePtr });
      setOwn(hints, HINTS.output, 'json');
    } else if (t === 'content' && Array.isArray(v)) {
      v.forEach((item, k) => {
        const r = readOutputItem(item, joinPointer(valuePtr, k));
        content.push(r.part);
        children.push(r.source);
      });
      if (v.length === 0) setOwn(hints, HINTS.output, 'content');
    } else if (t === 'execution-denied') {
      setOwn(hints, HINTS.output, 'execution-denied');
      if (typeof output.reason === 'string') {
        content.push({ type: 'text', text: output.reason });
        children.push({ pointer: joinPointer(outPtr, 'reason') });
      }
    } else known = false;
    if (!known) setOwn(hints, HINTS.output, 'raw');
    else {
      mapped.push('output');
      if (t === 'error-text' || t === 'error-json') failed = true;
      // A reason that is not a string is no text part: it stays with the output's other fields.
      const outMapped = [
        'type',
        t === 'execution-denied' ? (typeof output.reason === 'string' ? 'reason' : '') : 'value',
      ];
      outputRest = restOf(output, outMapped);
      fields.content = Object.hasOwn(output, 'value') ? ['output', 'value'] : 'output';
      // A multi-text or media-free content output would otherwise be written as text.
      if (t === 'content' && v !== undefined && defaultOutputType(content, false) !== 'content') {
        setOwn(hints, HINTS.output, 'content');
      }
    }
  }
  part.content = content;
  if (failed) part.failed = true;
  const data = mergeFields(hints, restOf(p, mapped));
  if (outputRest !== undefined) setOwn(data, 'output', outputRest);
  return {
    part: keepProviderData(part, FORMAT, data),
    source: { pointer: ptr, fields, content: children },
  };
}

/** Reads one content part. */
function readPart(p: JsonValue, ptr: string, role: string): Read {
  if (!isPlainObject(p) || typeof p.type !== 'string') return readKept(p, ptr, UNTYPED_BLOCK);
  switch (p.type) {
    case 'text':
      if (typeof p.text === 'string') return readText(p, ptr);
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
          mergeFields({ [HINTS.type]: 'redacted-reasoning' }, restOf(p, ['type', 'data'])),
        );
        return { part, source: { pointer: ptr, fields: { redacted: 'data' } } };
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
  return readKept(p, ptr, p.type);
}

/** Reads one message (`index` is its place in the source list, for errors). */
function readMessage(
  m: JsonValue,
  ptr: string,
  index: number,
): { message: Message; sources: PartSource[] } {
  assertMessage(m, index, FORMAT);
  const role = m.role;
  const mapped = ['role'];
  const hints: JsonObject = {};
  const parts: Part[] = [];
  const sources: PartSource[] = [];
  const content = m.content;
  const contentPtr = joinPointer(ptr, 'content');
  if (typeof content === 'string') {
    mapped.push('content');
    parts.push({ type: 'text', text: content });
    // The text is the content string itself.
    sources.push({ pointer: contentPtr });
    if (defaultKind([{ type: 'text', text: content }], role) !== 'string') {
      setOwn(hints, HINTS.content, 'string');
    }
  } else if (Array.isArray(content)) {
    mapped.push('content');
    content.forEach((p, k) => {
      const r = readPart(p, joinPointer(contentPtr, k), role);
      parts.push(r.part);
      sources.push(r.source);
    });
    if (defaultKind(content, role) !== 'array') setOwn(hints, HINTS.content, 'array');
  } else if (content === undefined) {
    // A UIMessage (useChat) has parts and no content: read as a ModelMessage, its text would vanish.
    if (Array.isArray(m.parts))
      notFormat(FORMAT, `message ${index} has "parts" and no "content": a UIMessage (ai-sdk-ui)`);
    setOwn(hints, HINTS.content, 'absent');
  }
  const message: Message = { role, parts };
  keepProviderData(message, FORMAT, mergeFields(hints, restOf(m, mapped)));
  return { message, sources };
}

/** The SystemModelMessages of a call options' `system` (one, or a non-empty array), if it holds only such. */
function systemMessagesOf(value: JsonValue | undefined): JsonObject[] | undefined {
  const isSystem = (v: JsonValue): v is JsonObject => isPlainObject(v) && v.role === 'system';
  if (value !== undefined && isSystem(value)) return [value];
  if (Array.isArray(value) && value.length > 0 && value.every(isSystem)) return value;
  return undefined;
}

/** Reads a ModelMessage array, or call options holding one as `messages` (their other fields kept on the conversation). */
export function readAiSdk(value: JsonValue, options?: ReadOptions): ReadResult {
  const why = { why: 'no ModelMessage array' };
  const envelope = readEnvelope(value, FORMAT, 'messages', why, options);
  const map = sourceMap(envelope.base, value, options);
  const ctx: AiContext = { ...readContext(FORMAT, options), bare: envelope.bare };
  const messages: Message[] = [];
  /** Adds a v1 message read from `pointer`, its parts read from `sources`. */
  const add = (message: Message, pointer: string, sources: readonly PartSource[]): void => {
    const i = messages.length;
    messages.push(message);
    ctx.read.add(message);
    map.message(i, pointer);
    message.parts.forEach((part, j) => {
      map.place(i, j, sources[j]!);
      ctx.read.add(part);
      if (part.type === 'tool-result' && Array.isArray(part.content))
        for (const c of part.content) if (isPlainObject(c)) ctx.read.add(c);
    });
  };
  // The fields turned into messages, in the order a write gives them (`system`, `messages`).
  const taken: string[] = [];
  const body = envelope.body;
  if (body !== undefined) {
    ctx.keys = Object.keys(body);
    if (typeof body.system === 'string') {
      // generateText-style options: `system` is the system prompt (its text is the string itself).
      const system: Message = { role: 'system', parts: [{ type: 'text', text: body.system }] };
      keepProviderData(system, FORMAT, { [HINTS.system]: true });
      add(system, '/system', [{ pointer: '/system' }]);
      taken.push('system');
    } else if (systemMessagesOf(body.system) !== undefined) {
      // AI SDK 6 also takes a SystemModelMessage, or an array of them, as `system`.
      const shape = Array.isArray(body.system) ? 'array' : 'object';
      systemMessagesOf(body.system)!.forEach((m, k) => {
        const ptr = shape === 'array' ? `/system/${k}` : '/system';
        const r = readMessage(m, ptr, k);
        keepProviderData(r.message, FORMAT, {
          [HINTS.system]: shape,
          ...(providerDataOf(r.message, FORMAT) ?? {}),
        });
        add(r.message, ptr, r.sources);
      });
      taken.push('system');
    }
  }
  envelope.list.forEach((m, k) => {
    const ptr = joinPointer(envelope.base, k);
    const r = readMessage(m, ptr, k);
    add(r.message, ptr, r.sources);
  });
  taken.push('messages');
  const conversation: Conversation = { version: 1, messages };
  keepProviderData(conversation, FORMAT, envelopeData(envelope, taken, undefined, true));
  return { conversation, context: ctx, locate: map.locate };
}
