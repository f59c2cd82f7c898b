/**
 * Writes a v1 conversation as Vercel AI SDK ModelMessages: bare, or the call options it was read
 * from (`{system?, messages, ...}`, in the order read). A history read from this format comes
 * back exactly; one from another format (or what an operation added) is written strictly, as
 * the AI SDK takes it: a part a role's content cannot hold is dropped, a tool message's
 * neighbours of its results go to a user message, a system message is one string.
 */
import { parseJson, type JsonObject, type JsonValue } from '../../model/json.js';
import { PART_TYPES, type Message, type Part } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import { urlScheme } from '../../core/url.js';
import type { Conversation, Loss, WriteResult } from '../format.js';
import { writeBody, writesBare } from '../kit/envelope.js';
import {
  isKeptPart,
  isPlainObject,
  keptNode,
  keptUnreadable,
  restoreFields,
  withoutSystemFields,
} from '../kit/kept.js';
import { toDataUrl } from '../kit/media.js';
import { contextOf, readHere } from '../kit/provenance.js';
import {
  argumentsToInput,
  callNames,
  conversationLosses,
  fieldLosses,
  isPlainTextPart,
  messageLosses,
  objectLosses,
  PART_FIELDS,
  type PartWhere,
  providerDataLosses,
} from '../shared.js';
import {
  defaultKind,
  defaultOutputType,
  FORMAT,
  HINTS,
  imageKind,
  isUrlString,
  outputItemType,
  WIRE,
} from './hints.js';
import type { AiContext } from './read.js';
import { placeSignatures } from './signatures.js';

interface WriteState {
  /** The read context the write was given (see readHere): what was not read here is written strictly. */
  context: unknown;
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
  if (data?.[HINTS.dataUrl] === true) return toDataUrl(String(part.mediaType), part.data);
  // The AI SDK reads a string with a scheme as a URL and fetches it: inline data that reads so
  // (never base64, which has no ":") is written as a data: URL, so it stays inline.
  if (isUrlString(part.data) && urlScheme(part.data) !== 'data')
    return toDataUrl(
      typeof part.mediaType === 'string' ? part.mediaType : 'application/octet-stream',
      part.data,
    );
  return part.data;
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
    (data?.[HINTS.type] === 'image' ||
      (data?.[HINTS.type] !== 'file' && imageKind(role) === 'image'));
  const out: JsonObject = asImage ? { type: 'image', image: src } : { type: 'file', data: src };
  const keepType =
    typeof part.mediaType === 'string' &&
    data?.[HINTS.noMediaType] !== true &&
    data?.[HINTS.urlMediaType] !== true;
  if (keepType) {
    const key = data?.[HINTS.mediaTypeKey] === 'mimeType' ? 'mimeType' : 'mediaType';
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
  if (data?.[HINTS.type] === 'redacted-reasoning') {
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
  const key = data?.[HINTS.inputKey] === 'args' ? 'args' : 'input';
  const input = argumentsToInput(text, data?.[HINTS.input]);
  if (input !== undefined) out[key] = input;
  restoreFields(out, data, WIRE);
  return out;
}

/** Writes one item of a `content` tool output. */
function writeOutputItem(item: Part, where: PartWhere, state: WriteState): JsonValue | undefined {
  const data = providerDataOf(item, FORMAT);
  if (isKeptPart(item, FORMAT)) return keptNode(item, FORMAT, state.losses, where);
  state.losses.push(...providerDataLosses(item, FORMAT, where));
  if (item.type === 'text') {
    const out: JsonObject = { type: 'text', text: item.text! };
    restoreFields(out, data, WIRE);
    return out;
  }
  if (item.type === 'image' || item.type === 'document') {
    const kept = data?.[HINTS.type];
    const type = typeof kept === 'string' ? kept : outputItemType(item);
    const out: JsonObject = { type };
    if (typeof item.url === 'string') out.url = item.url;
    else if (typeof item.data === 'string') out.data = item.data;
    else {
      state.losses.push({ ...where, what: `${item.type} without url or data in a tool result` });
      return undefined;
    }
    if (typeof item.mediaType === 'string' && data?.[HINTS.noMediaType] !== true) {
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
      : typeof part.callId === 'string' && data?.[HINTS.noName] !== true
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
  const hint = data?.[HINTS.output];
  if (data?.[HINTS.v4] === true) {
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
    else if (data[HINTS.isError] === false) out.isError = false;
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

/**
 * Writes one part of a message, or undefined when it is dropped. `strict`: the message was not
 * read here, so a part goes only where the AI SDK takes it.
 */
function writePart(
  part: Part,
  role: string,
  where: PartWhere,
  state: WriteState,
  strict: boolean,
): JsonValue | undefined {
  const data = providerDataOf(part, FORMAT);
  if (isKeptPart(part, FORMAT)) return keptNode(part, FORMAT, state.losses, where);
  const lose = (what: string): undefined => {
    state.losses.push({ ...where, what });
    return undefined;
  };
  if (!(PART_TYPES as readonly string[]).includes(part.type)) {
    return lose(`unknown part type "${part.type}"`);
  }
  if (strict && !allowedIn(role, part.type)) return lose(`${part.type} part in a ${role} message`);
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
  // A message read here is written as it was; another one as the AI SDK takes it.
  const strict = !readHere(state.context, m, FORMAT);
  const items: JsonValue[] = [];
  const moved: { part: Part; index: number }[] = [];
  m.parts.forEach((part, j) => {
    // A result's neighbours in a foreign tool message (Anthropic follow-up text) go to a user message.
    const own = part.type === 'tool-result' || part.type.startsWith(`${FORMAT}:`);
    if (strict && m.role === 'tool' && !own) {
      moved.push({ part, index: j });
      return;
    }
    const w = writePart(part, m.role, { messageIndex: i, partIndex: j }, state, strict);
    if (w !== undefined) items.push(w);
  });
  if (strict && m.role === 'system' && items.length > 1) {
    // A system message's content is one string: one message per text part.
    for (const item of items) out.push({ role: 'system', content: (item as JsonObject).text! });
    return;
  }
  const msg: JsonObject = { role: m.role };
  const content = contentValue(items, data?.[HINTS.content], m.role);
  // A content the reader could not map (an object, a number) was kept as it was: it comes back.
  const unreadable = items.length === 0 ? keptUnreadable(data, 'content') : undefined;
  if (unreadable !== undefined) msg.content = unreadable;
  else if (content !== undefined) msg.content = content;
  restoreFields(msg, data, WIRE);
  if (!(m.role === 'tool' && items.length === 0 && moved.length > 0)) out.push(msg);
  if (moved.length > 0) {
    const userItems: JsonValue[] = [];
    for (const { part, index } of moved) {
      const w = writePart(part, 'user', { messageIndex: i, partIndex: index }, state, true);
      if (w !== undefined) userItems.push(w);
    }
    if (userItems.length > 0)
      out.push({ role: 'user', content: contentValue(userItems, undefined, 'user')! });
  }
}

/** Writes a conversation as ModelMessages (bare, or the call-options object it was read from). */
export function writeAiSdk(conversation: Conversation, context?: unknown): WriteResult {
  const ctx = contextOf(context, FORMAT) as AiContext | undefined;
  const state: WriteState = {
    context,
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
      mdata?.[HINTS.system] === true &&
      m.role === 'system' &&
      i === 0 &&
      m.parts.length === 1 &&
      m.parts[0]!.type === 'text'
    ) {
      system = String(m.parts[0]!.text);
      return;
    }
    // Read from a `system` SystemModelMessage (or array of them): written back there.
    const shape = mdata?.[HINTS.system];
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
  // No kept data of this format (a history of another one, or call options holding nothing but
  // `messages`): a bare array, as before; a system prompt needs the call options.
  const bare =
    system === undefined &&
    writesBare(ctx, conversation, FORMAT, { fallback: true, losses: state.losses });
  if (bare) return { value: messages, losses: state.losses };
  // A system prompt only ever comes from a system message (see withoutSystemFields).
  const kept = withoutSystemFields(data, ['system'], state.losses);
  // Only a field the writer sets is its own: a kept one (a `system` this format does not read)
  // stays where the read found it.
  const own = system === undefined ? { messages } : { system, messages };
  return { value: writeBody(kept, own, ctx?.keys), losses: state.losses };
}
