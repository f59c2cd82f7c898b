/**
 * Writes a v1 conversation as OpenAI Responses API input: a request body `{model, instructions?,
 * input: [...items], ...}` in the key order read, or the bare array of items a bare array was
 * read from. A v1 message becomes one item or several (an assistant message's parts are items of
 * their own, its text the content of message items); kept parts are written back as they were.
 */
import { setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import { type Message, type Part } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import type { Conversation, Loss, WriteResult } from '../format.js';
import {
  argumentsToCustomInput,
  argumentsToValue,
  conversationLosses,
  fieldLosses,
  messageLosses,
  objectLosses,
  objectToArguments,
  PART_FIELDS,
  type PartWhere,
  providerDataLosses,
  providerExecutedParts,
} from '../shared.js';
import { writeBody, writesBare } from '../kit/envelope.js';
import {
  isKeptPart,
  isPlainObject,
  keptNode,
  refusesKeptUrl,
  restoreFields,
  withoutSystemFields,
} from '../kit/kept.js';
import { toDataUrl } from '../kit/media.js';
import { contextOf, conversationReadHere, readHere } from '../kit/provenance.js';
import { FORMAT, HINTS, HOSTED_WIRE, WIRE } from './hints.js';
import { joinTexts, readDataUrl, type ResponsesContext } from './read.js';

/** Collects losses and items while writing. */
class Writer {
  readonly items: JsonObject[] = [];
  readonly losses: Loss[] = [];

  /** The open message item content parts are added to, with its grouping key. */
  private open: {
    item: JsonObject;
    content: JsonObject[];
    key: string;
    header?: JsonObject;
    defaultType: string;
  } | null = null;

  /** The ids of the custom tools' calls (their results are `custom_tool_call_output` items). */
  readonly customCalls = new Set<string>();

  /** `context`: the read's, when there was one (see readHere). */
  constructor(readonly context: unknown) {}

  lose(where: Partial<PartWhere>, what: string): void {
    this.losses.push({ ...where, what });
  }

  /** Closes the open message item: decides between string and array content. */
  flush(): void {
    const o = this.open;
    if (o === null) return;
    this.open = null;
    // Another format's single text becomes a string; a read item keeps its own form.
    const wantString = o.header === undefined || o.header[HINTS.content] === 'string';
    const first = o.content[0];
    const plainKeys = o.header === undefined ? ['type', 'text', 'annotations'] : ['type', 'text'];
    const plain =
      o.content.length === 1 &&
      first !== undefined &&
      first.type === o.defaultType &&
      typeof first.text === 'string' &&
      Object.keys(first).every((k) => plainKeys.includes(k));
    // Several plain text parts from another format: one string (content parts without an item id
    // and status fit neither input message shape the API takes).
    const allPlain =
      o.header === undefined &&
      o.content.length > 1 &&
      o.content.every(
        (c) =>
          c.type === o.defaultType &&
          typeof c.text === 'string' &&
          Object.keys(c).every((k) => plainKeys.includes(k)),
      );
    if (wantString && plain) {
      setOwn(o.item, 'content', first.text!);
    } else if (allPlain) {
      setOwn(o.item, 'content', o.content.map((c) => c.text as string).join('\n\n'));
    } else {
      setOwn(o.item, 'content', o.content);
    }
    if (o.header !== undefined) restoreFields(o.item, o.header, WIRE);
  }

  /** Adds a content part to the message item `key` of `role`, opening a new one when the key changes. */
  addContent(role: string, key: string, header: JsonObject | undefined, content: JsonObject): void {
    if (this.open === null || this.open.key !== key) {
      this.flush();
      const item: JsonObject = {};
      if (header === undefined) item.type = 'message';
      else {
        if (header.type !== undefined) item.type = header.type;
        if (header.id !== undefined) item.id = header.id;
      }
      item.role = role;
      item.content = [];
      this.items.push(item);
      const defaultType = role === 'assistant' ? 'output_text' : 'input_text';
      this.open = { item, content: [], key, defaultType };
      if (header !== undefined) this.open.header = header;
    }
    this.open.content.push(content);
  }

  /** Adds a whole item (closing any open message item first). */
  addItem(item: JsonValue): void {
    this.flush();
    this.items.push(item as JsonObject);
  }
}

/**
 * The media type of a document the Responses API refuses as `input_file`
 * (audio or video, providers.md §2; lint rule openai-responses/file-media-type),
 * from its `mediaType` or its `data:` URL; undefined for any other.
 */
function refusedFileType(part: Part): string | undefined {
  let type = typeof part.mediaType === 'string' ? part.mediaType : undefined;
  if (type === undefined && typeof part.url === 'string') type = readDataUrl(part.url)?.mediaType;
  const bare = type?.split(';')[0]!.trim().toLowerCase();
  return bare !== undefined && (bare.startsWith('audio/') || bare.startsWith('video/'))
    ? bare
    : undefined;
}

/**
 * A v1 text/image/document (or kept content) part as a Responses content part, or null when it
 * has none. `foreign`: the part's message was not read from this format (fill in what the API
 * requires, leave out what it refuses).
 */
function writeContentPart(
  part: Part,
  assistant: boolean,
  foreign: boolean,
  where: Partial<PartWhere>,
  w: Writer,
  label: string,
): JsonObject | null {
  const pd = providerDataOf(part, FORMAT);
  w.losses.push(...providerDataLosses(part, FORMAT, where));
  if (part.type === 'text') {
    w.losses.push(...fieldLosses(part, PART_FIELDS.text, where, `${label}text part`));
    const text = (part.text as string | undefined) ?? '';
    const t = pd?.[HINTS.type];
    let out: JsonObject;
    if (t === 'refusal') out = { type: 'refusal', refusal: text };
    else {
      const type = typeof t === 'string' ? t : assistant ? 'output_text' : 'input_text';
      out = { type, text };
      // Output text from another format: annotations is a required field of output_text.
      if (pd === undefined && type === 'output_text') out.annotations = [];
    }
    restoreFields(out, pd, WIRE);
    return out;
  }
  if (part.type === 'image' || part.type === 'document') {
    if (assistant) {
      w.lose(where, `${part.type} in an assistant message`);
      return null;
    }
    const url = typeof part.url === 'string' ? part.url : undefined;
    const mediaType =
      typeof part.mediaType === 'string' ? part.mediaType : 'application/octet-stream';
    const data = typeof part.data === 'string' ? toDataUrl(mediaType, part.data) : undefined;
    if (url === undefined && data === undefined) {
      w.lose(where, `${part.type} part without url or data`);
      return null;
    }
    let out: JsonObject;
    if (part.type === 'image') {
      w.losses.push(...fieldLosses(part, PART_FIELDS.image, where, `${label}image part`));
      out = { type: 'input_image', image_url: (data ?? url)! };
      // From another format: the API's default, which the SDK's type requires spelled out.
      if (foreign && pd === undefined) out.detail = 'auto';
    } else {
      const refused = foreign && pd === undefined ? refusedFileType(part) : undefined;
      if (refused !== undefined) {
        // Reported as lost, so left out: the API rejects audio and video as input_file.
        w.lose(where, `${label}document type ${refused} (Responses files take no audio or video)`);
        return null;
      }
      w.losses.push(...fieldLosses(part, PART_FIELDS.document, where, `${label}document part`));
      out = { type: 'input_file' };
      if (data !== undefined) out.file_data = data;
      else out.file_url = url!;
      if (typeof part.name === 'string') out.filename = part.name;
    }
    restoreFields(out, pd, WIRE);
    return out;
  }
  if (isKeptPart(part, FORMAT)) {
    const node = keptNode(part, FORMAT, w.losses, where, 'kept block');
    return node === undefined ? null : (node as JsonObject);
  }
  w.lose(where, `${label}part type "${part.type}"`);
  return null;
}

/** A tool-call part as a `function_call` item (or the client-run hosted call it was read from). */
function writeToolCall(part: Part, where: PartWhere, w: Writer): void {
  const pd = providerDataOf(part, FORMAT);
  w.losses.push(...objectLosses(part, FORMAT, PART_FIELDS['tool-call'], where, 'tool-call'));
  const hosted = pd?.[HINTS.hosted];
  if (typeof hosted === 'string') {
    if (refusesKeptUrl(pd, FORMAT, w.losses, where, 'kept block')) return;
    // The tool is named by the item's type: the v1 name is not written.
    const item: JsonObject = { type: hosted };
    if (typeof part.id === 'string') item.call_id = part.id;
    const text = typeof part.arguments === 'string' ? part.arguments : '';
    if (pd![HINTS.argsObject] === true) item.arguments = argumentsToValue(text);
    else if (pd![HINTS.noArgs] !== true || text !== '{}') item.arguments = text;
    restoreFields(item, pd, HOSTED_WIRE);
    w.addItem(item);
    return;
  }
  if (pd?.[HINTS.custom] === true) {
    writeCustomCall(part, pd, w);
    return;
  }
  const item: JsonObject = { type: 'function_call' };
  if (pd?.id !== undefined) item.id = pd.id;
  if (typeof part.id === 'string') item.call_id = part.id;
  else w.lose(where, 'tool call without id (call_id is required)');
  // Read without a name, it is written back without one; any other call needs one.
  if (typeof part.name === 'string') item.name = part.name;
  else if (pd?.[HINTS.noName] !== true) item.name = '';
  item.arguments =
    typeof part.arguments === 'string' ? part.arguments : objectToArguments(part.arguments ?? {});
  restoreFields(item, pd, WIRE);
  w.addItem(item);
}

/**
 * A custom tool's call as the `custom_tool_call` item it was read from: its free-form `input` is
 * the one field of the arguments (`{"input": ...}`), or the arguments' text as it is when they
 * are anything else (edited, or another format's).
 */
function writeCustomCall(part: Part, pd: JsonObject, w: Writer): void {
  const item: JsonObject = { type: 'custom_tool_call' };
  if (pd.id !== undefined) item.id = pd.id;
  if (typeof part.id === 'string') {
    item.call_id = part.id;
    w.customCalls.add(part.id);
  }
  item.name = typeof part.name === 'string' ? part.name : '';
  item.input = argumentsToCustomInput(typeof part.arguments === 'string' ? part.arguments : '');
  restoreFields(item, pd, WIRE);
  w.addItem(item);
}

/** A tool-result part as a `function_call_output` item (`custom_tool_call_output` for a custom tool's call). */
function writeToolResult(part: Part, foreign: boolean, where: PartWhere, w: Writer): void {
  const pd = providerDataOf(part, FORMAT);
  w.losses.push(...objectLosses(part, FORMAT, PART_FIELDS['tool-result'], where, 'tool-result'));
  if (part.failed === true) w.lose(where, 'failed flag (Responses outputs have no error flag)');
  const hosted = pd?.[HINTS.hosted];
  if (typeof hosted === 'string') {
    if (refusesKeptUrl(pd, FORMAT, w.losses, where, 'kept block')) return;
    // A hosted tool's output keeps its own fields (`tools`, ...): it has no content to write.
    const item: JsonObject = { type: hosted };
    if (typeof part.callId === 'string') item.call_id = part.callId;
    if (Array.isArray(part.content) && part.content.length > 0)
      w.lose(where, `content of a ${hosted} item`);
    restoreFields(item, pd, HOSTED_WIRE);
    w.addItem(item);
    return;
  }
  const custom =
    pd?.[HINTS.custom] === true ||
    (typeof part.callId === 'string' && w.customCalls.has(part.callId));
  const item: JsonObject = { type: custom ? 'custom_tool_call_output' : 'function_call_output' };
  if (typeof part.callId === 'string') item.call_id = part.callId;
  else w.lose(where, 'tool result without callId (call_id is required)');
  const content = Array.isArray(part.content) ? part.content : [];
  const first = content[0];
  const asArray = pd?.[HINTS.output] === 'array';
  if (!asArray && content.length === 0) {
    item.output = '';
  } else if (
    !asArray &&
    content.length === 1 &&
    isPlainObject(first) &&
    first.type === 'text' &&
    typeof first.text === 'string' &&
    Object.keys(first).every((k) => k === 'type' || k === 'text')
  ) {
    item.output = first.text;
  } else {
    const out: JsonValue[] = [];
    content.forEach((el) => {
      if (!isPlainObject(el) || typeof el.type !== 'string') {
        w.lose(where, 'tool result content that is not a part');
        return;
      }
      const c = writeContentPart(el as Part, false, foreign, where, w, 'tool result content ');
      if (c !== null) out.push(c);
    });
    item.output = out;
  }
  restoreFields(item, pd, WIRE);
  w.addItem(item);
}

/** A reasoning part as a `reasoning` item; reasoning from other providers cannot be replayed. */
function writeReasoning(part: Part, where: PartWhere, w: Writer): void {
  const pd = providerDataOf(part, FORMAT);
  w.losses.push(...providerDataLosses(part, FORMAT, where));
  if (pd === undefined) {
    // No OpenAI item id or encrypted_content: the API rejects or ignores such an item.
    w.lose(where, 'reasoning part (no OpenAI reasoning item to replay)');
    return;
  }
  w.losses.push(...fieldLosses(part, PART_FIELDS.reasoning, where, 'reasoning'));
  if (part.redacted !== undefined) w.lose(where, 'redacted reasoning');
  const text = typeof part.text === 'string' ? part.text : '';
  const item: JsonObject = { type: 'reasoning' };
  restoreFields(item, pd);
  if (typeof part.signature === 'string') item.encrypted_content = part.signature;
  // An edited text replaces the list it came from; an unchanged one keeps the list exactly.
  if (pd[HINTS.text] === 'content') {
    if (joinTexts(pd.content) !== text) item.content = [{ type: 'reasoning_text', text }];
  } else if (joinTexts(pd.summary) !== text) {
    item.summary = text === '' ? [] : [{ type: 'summary_text', text }];
  }
  w.addItem(item);
}

/** True when a part is content of a message item (as opposed to an item of its own). */
function isContentPart(part: Part, role: string, messagePd: JsonObject | undefined): boolean {
  if (part.type === 'text' || part.type === 'image' || part.type === 'document') return true;
  if (!isKeptPart(part, FORMAT)) return false;
  if (role === 'assistant') return providerDataOf(part, FORMAT)?.[HINTS.item] !== undefined;
  if (role === 'tool') return false;
  return messagePd?.[HINTS.opaque] !== true && messagePd?.[HINTS.content] !== undefined;
}

/** Writes one v1 message as items. */
function writeMessage(m: Message, mi: number, w: Writer): void {
  const mpd = providerDataOf(m, FORMAT);
  w.losses.push(...messageLosses(m, mi, FORMAT));
  let itemRole: string;
  if (m.role === 'system') itemRole = mpd?.[HINTS.role] === 'developer' ? 'developer' : 'system';
  else if (m.role === 'tool') itemRole = 'user';
  else if (m.role === 'user' || m.role === 'assistant') itemRole = m.role;
  else {
    w.lose({ messageIndex: mi }, `role "${m.role}" (written as user)`);
    itemRole = 'user';
  }
  const assistant = itemRole === 'assistant';
  // A message from another format (or an operation): written as the API requires it.
  const foreign = !readHere(w.context, m, FORMAT);
  // A message read from a user/system item is that one item again.
  const header = !assistant && mpd?.[HINTS.content] !== undefined ? mpd : undefined;
  let headerUsed = false;
  const parts = Array.isArray(m.parts) ? m.parts : [];
  // A provider-executed call and its result, in one assistant message from another format: dropped.
  const dropped = foreign ? providerExecutedParts(m) : undefined;
  parts.forEach((part, pi) => {
    const where = { messageIndex: mi, partIndex: pi };
    if (!isPlainObject(part) || typeof part.type !== 'string') {
      w.lose(where, 'part that is not an object with a type');
      return;
    }
    const droppedWhat = dropped?.get(pi);
    if (droppedWhat !== undefined) {
      w.lose(where, droppedWhat);
      return;
    }
    if (isContentPart(part, m.role, mpd)) {
      const content = writeContentPart(part, assistant, foreign, where, w, '');
      if (content === null) return;
      let key: string;
      let h: JsonObject | undefined;
      if (assistant) {
        const ppd = providerDataOf(part, FORMAT);
        const item = ppd?.[HINTS.item];
        key = item !== undefined ? `item:${String(item)}` : `msg:${mi}`;
        const message = ppd?.[HINTS.message];
        h = isPlainObject(message) ? message : undefined;
      } else {
        key = `msg:${mi}`;
        if (!headerUsed) h = header;
      }
      if (h !== undefined) headerUsed = true;
      w.addContent(itemRole, key, h, content);
      return;
    }
    if (part.type === 'tool-call') writeToolCall(part, where, w);
    else if (part.type === 'tool-result') writeToolResult(part, foreign, where, w);
    else if (part.type === 'reasoning') writeReasoning(part, where, w);
    else if (isKeptPart(part, FORMAT)) {
      const node = keptNode(part, FORMAT, w.losses, where, 'kept block');
      if (node !== undefined) w.addItem(node);
    } else w.lose(where, `part type "${part.type}"`);
  });
  w.flush();
  // A user/system item whose content was empty (or emptied) is still an item.
  if (header !== undefined && !headerUsed) {
    const item: JsonObject = {};
    if (header.type !== undefined) item.type = header.type;
    if (header.id !== undefined) item.id = header.id;
    item.role = itemRole;
    item.content = header[HINTS.content] === 'string' ? '' : [];
    restoreFields(item, header, WIRE);
    w.addItem(item);
  }
}

/**
 * The system message written as `instructions`, if any: the one read from there, or (in a
 * conversation not read from this format) a leading text-only one.
 */
function instructionsIndex(conversation: Conversation, readHereToo: boolean): number {
  const messages = conversation.messages;
  const allText = (m: Message): boolean =>
    Array.isArray(m.parts) && m.parts.every((p) => isPlainObject(p) && p.type === 'text');
  const hinted = messages.findIndex(
    (m) => m.role === 'system' && providerDataOf(m, FORMAT)?.[HINTS.instructions] === true,
  );
  if (hinted !== -1) return allText(messages[hinted]!) ? hinted : -1;
  const first = messages[0];
  if (
    !readHereToo &&
    first !== undefined &&
    first.role === 'system' &&
    providerDataOf(first, FORMAT) === undefined &&
    first.parts.length > 0 &&
    allText(first)
  ) {
    return 0;
  }
  return -1;
}

/**
 * The string `input` a read from a string wrote the history from, when the history is still
 * that one user message of one text (besides the instructions); undefined otherwise.
 */
function stringInput(conversation: Conversation, instrAt: number): string | undefined {
  const rest = conversation.messages.filter((_, i) => i !== instrAt);
  const only = rest[0];
  if (rest.length !== 1 || only!.role !== 'user') return undefined;
  const pd = providerDataOf(only!, FORMAT);
  if (pd?.[HINTS.input] !== 'string' || only!.parts.length !== 1) return undefined;
  const part = only!.parts[0]!;
  const plain =
    part.type === 'text' &&
    typeof part.text === 'string' &&
    Object.keys(part).every((k) => k === 'type' || k === 'text');
  const fields = Object.keys(pd).every((k) => k === HINTS.input || k === HINTS.content);
  return plain && fields ? (part.text as string) : undefined;
}

/** Writes a v1 conversation as a Responses request body, or as the bare array of items it was read from. */
export function writeResponses(conversation: Conversation, context?: unknown): WriteResult {
  const ctx = contextOf(context, FORMAT) as ResponsesContext | undefined;
  const w = new Writer(context);
  w.losses.push(...conversationLosses(conversation, FORMAT));
  const bare = writesBare(ctx, conversation, FORMAT, { losses: w.losses });
  const ours = conversationReadHere(context, conversation, FORMAT);
  const instrAt = bare ? -1 : instructionsIndex(conversation, ours);
  let instructions: string | undefined;
  conversation.messages.forEach((m, mi) => {
    if (mi === instrAt) {
      w.losses.push(...messageLosses(m, mi, FORMAT));
      m.parts.forEach((p, pi) => {
        w.losses.push(...providerDataLosses(p, FORMAT, { messageIndex: mi, partIndex: pi }));
      });
      instructions = m.parts.map((p) => (p.text as string | undefined) ?? '').join('\n\n');
      return;
    }
    writeMessage(m, mi, w);
  });
  if (bare) return { value: w.items, losses: w.losses };

  // A system prompt only ever comes from a system message (see withoutSystemFields).
  const kept = withoutSystemFields(
    providerDataOf(conversation, FORMAT),
    ['instructions'],
    w.losses,
  );
  // Request fields: put back in the order read, never over what the messages gave.
  const body = writeBody(kept, {
    instructions,
    input: stringInput(conversation, instrAt) ?? w.items,
  });
  return { value: body, losses: w.losses };
}
