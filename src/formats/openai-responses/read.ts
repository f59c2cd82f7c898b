/**
 * Reads OpenAI Responses API input into v1: a request body `{model, instructions?, input:
 * [...items], tools, ...}` or a bare array of input items.
 *
 * Items map to v1 messages like this: a string `instructions` becomes a
 * leading system message; user, system and developer `message` items are one
 * v1 message each; a run of consecutive assistant-side items (reasoning,
 * function calls, assistant messages, hosted-tool calls) is one v1 assistant
 * message with one part per item (one per content part for messages); a run
 * of consecutive output items (`function_call_output`, other `*_output`) is
 * one v1 tool message. Items v1 has no type for (hosted tools, custom tools,
 * `item_reference`, ...) become kept parts of type `openai-responses:<item
 * type>` holding the whole item, so they are written back exactly and
 * operations pass them through.
 */
import { type JsonObject, type JsonValue } from '../../model/json.js';
import { UNTYPED_BLOCK, type Message, type Part } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import type { ReadOptions, ReadResult } from '../format.js';
import {
  customInputToArguments,
  makeConversation,
  notFormat,
  objectToArguments,
} from '../shared.js';
import { envelopeData, readEnvelope, type Envelope } from '../kit/envelope.js';
import { isPlainObject, keepProviderData, keptPart, mergeFields, restOf } from '../kit/kept.js';
import { guessMediaType, parseDataUrl } from '../kit/media.js';
import { readContext, type ReadContext } from '../kit/provenance.js';
import {
  readBase,
  sourceMap,
  type SourceMap,
  type FieldSources,
  type PartSource,
} from '../kit/source-map.js';
import { MESSAGE_ROLES } from './detect.js';
import { FORMAT, HINTS } from './hints.js';

/** What a write of the same format needs to rebuild the original shape. */
export interface ResponsesContext extends ReadContext {
  /** The value read was a bare array of items. */
  bare: boolean;
}

/** A v1 part and where it came from (an absolute pointer, fields below it). */
interface Located {
  part: Part;
  loc: PartSource;
}

/** Opaque item types produced by the model that do not end in `_call` (reasoning: one of unexpected shape). */
const ASSISTANT_SIDE = new Set([
  'mcp_list_tools',
  'mcp_approval_request',
  'compaction',
  'reasoning',
]);

/** Opaque item types the client sends back that do not end in `_output`. */
const TOOL_SIDE = new Set(['mcp_approval_response']);

/** Where an opaque item goes: into the assistant run, into the tool run, or its own message. */
type Side = 'assistant' | 'tool' | 'own';

function sideOf(type: string): Side {
  if (type.endsWith('_output') || TOOL_SIDE.has(type)) return 'tool';
  if (type.endsWith('_call') || ASSISTANT_SIDE.has(type)) return 'assistant';
  return 'own';
}

/**
 * `{mediaType, data}` of a data URL the Responses writer gives back byte for byte, the media type
 * with its parameters; null for anything else (it stays a URL).
 */
export function readDataUrl(url: string): { mediaType: string; data: string } | null {
  const parsed = parseDataUrl(url);
  if (parsed === undefined || !parsed.canonical) return null;
  return { mediaType: parsed.mediaType + parsed.parameters, data: parsed.data };
}

/** A source node v1 cannot express, as a kept part (the v1 type names the source type). */
function opaquePart(raw: JsonObject, ptr: string, hints?: JsonObject): Located {
  const type = typeof raw.type === 'string' ? raw.type : UNTYPED_BLOCK;
  return { part: keptPart(FORMAT, raw, type, hints), loc: { pointer: ptr } };
}

/** Sets a part's kept data: the hints first, then the source's own fields. */
function keep(part: Part, hints: JsonObject | undefined, rest: JsonObject | undefined): Part {
  return keepProviderData(part, FORMAT, mergeFields(hints, rest));
}

/**
 * One content part (message content or function output element) as a v1 part; `hints` go in
 * front of its kept data (an assistant message item's `$item` and `$message`).
 */
function readContentPart(
  el: JsonValue,
  ptr: string,
  assistant: boolean,
  hints?: JsonObject,
): Located {
  if (!isPlainObject(el)) notFormat(FORMAT, `${ptr} is not an object`);
  const type = el.type;
  // Assistant content is text or refusal; anything else there is carried whole.
  if (assistant && type !== 'output_text' && type !== 'input_text' && type !== 'refusal') {
    return opaquePart(el, ptr, hints);
  }
  if ((type === 'input_text' || type === 'output_text') && typeof el.text === 'string') {
    const own: JsonObject = {};
    if (type !== (assistant ? 'output_text' : 'input_text')) own[HINTS.type] = type;
    const part = keep(
      { type: 'text', text: el.text },
      hints,
      mergeFields(own, restOf(el, ['type', 'text'])),
    );
    return { part, loc: { pointer: ptr, fields: { text: 'text' } } };
  }
  if (type === 'refusal' && typeof el.refusal === 'string') {
    const own: JsonObject = { [HINTS.type]: 'refusal' };
    const part = keep(
      { type: 'text', text: el.refusal },
      hints,
      mergeFields(own, restOf(el, ['type', 'refusal'])),
    );
    return { part, loc: { pointer: ptr, fields: { text: 'refusal' } } };
  }
  if (type === 'input_image' && typeof el.image_url === 'string') {
    const data = readDataUrl(el.image_url);
    const part: Part =
      data === null
        ? { type: 'image', url: el.image_url }
        : { type: 'image', data: data.data, mediaType: data.mediaType };
    keep(part, hints, restOf(el, ['type', 'image_url']));
    const fields = { url: 'image_url', data: 'image_url', mediaType: 'image_url' };
    return { part, loc: { pointer: ptr, fields } };
  }
  if (type === 'input_file') {
    const name = typeof el.filename === 'string' ? el.filename : undefined;
    const fileData = typeof el.file_data === 'string' ? readDataUrl(el.file_data) : null;
    let part: Part | undefined;
    const used = ['type'];
    const fields: Record<string, string> = {};
    if (fileData !== null) {
      part = { type: 'document', data: fileData.data, mediaType: fileData.mediaType };
      used.push('file_data');
      fields.data = fields.mediaType = 'file_data';
    } else if (el.file_data === undefined && typeof el.file_url === 'string') {
      part = { type: 'document', url: el.file_url, mediaType: guessMediaType(name, el.file_url) };
      used.push('file_url');
      fields.url = fields.mediaType = 'file_url';
    }
    if (part !== undefined) {
      if (name !== undefined) {
        part.name = name;
        used.push('filename');
        fields.name = 'filename';
      }
      keep(part, hints, restOf(el, used));
      return { part, loc: { pointer: ptr, fields } };
    }
  }
  // A file_id-only image or file, audio, or a part type v1 has no field for.
  return opaquePart(el, ptr, hints);
}

/**
 * The parts of a message item's `content` (a string is one text part, at the string itself);
 * `hintsAt(k)` gives the hints of content part `k`.
 */
function readMessageContent(
  content: string | JsonValue[],
  ptr: string,
  assistant: boolean,
  hintsAt: (k: number) => JsonObject | undefined = () => undefined,
): Located[] {
  if (typeof content === 'string') {
    const part = keep({ type: 'text', text: content }, hintsAt(0), undefined);
    return [{ part, loc: { pointer: `${ptr}/content` } }];
  }
  return content.map((el, c) => readContentPart(el, `${ptr}/content/${c}`, assistant, hintsAt(c)));
}

/** True when `v` is an array of objects with a string `text` each. */
export function isTextList(v: JsonValue | undefined): v is JsonObject[] {
  return Array.isArray(v) && v.every((e) => isPlainObject(e) && typeof e.text === 'string');
}

/** The texts of a list of `{text}` objects, joined by a blank line ('' for anything else). */
export function joinTexts(list: JsonValue | undefined): string {
  return isTextList(list) ? list.map((e) => e.text as string).join('\n\n') : '';
}

/** A reasoning item as a v1 reasoning part, or null when its shape is not the documented one. */
function readReasoning(item: JsonObject, ptr: string): Located | null {
  const summary = item.summary;
  const enc = item.encrypted_content;
  if (summary !== undefined && !isTextList(summary)) return null;
  if (enc !== undefined && enc !== null && typeof enc !== 'string') return null;
  let text = joinTexts(summary);
  let from = 'summary';
  // Open-weight servers (DeepSeek) send the raw reasoning in `content` and no summary.
  if (text === '' && isTextList(item.content) && item.content.length > 0) {
    text = joinTexts(item.content);
    from = 'content';
  }
  const part: Part = { type: 'reasoning', text };
  if (typeof enc === 'string') part.signature = enc;
  const rest = restOf(item, typeof enc === 'string' ? ['type', 'encrypted_content'] : ['type']);
  // The text hint is always there: it also marks the part as this format's own (see writeReasoning).
  keep(part, { [HINTS.text]: from }, rest);
  return { part, loc: { pointer: ptr, fields: { text: from, signature: 'encrypted_content' } } };
}

/**
 * True for a hosted tool item (`<tool>_call` or `<tool>_output`, not a function's) that the client
 * runs: `execution: "client"` and a string `call_id`.
 */
function isClientHosted(item: JsonObject, suffix: '_call' | '_output'): boolean {
  const type = item.type;
  return (
    typeof type === 'string' &&
    type.endsWith(suffix) &&
    !type.startsWith('function_call') &&
    item.execution === 'client' &&
    typeof item.call_id === 'string'
  );
}

/**
 * A client-run hosted call as a v1 tool call named after its tool (`tool_search`), its
 * `arguments` (an object in the API) as JSON text; the item's type and fields are kept.
 */
function readHostedCall(item: JsonObject, ptr: string): Located {
  const type = item.type as string;
  const args = item.arguments;
  const part: Part = {
    type: 'tool-call',
    id: item.call_id as string,
    name: type.slice(0, -'_call'.length),
    arguments: typeof args === 'string' ? args : objectToArguments(args ?? {}),
  };
  const hints: JsonObject = { [HINTS.hosted]: type };
  if (args === undefined) hints[HINTS.noArgs] = true;
  else if (typeof args !== 'string') hints[HINTS.argsObject] = true;
  keep(part, hints, restOf(item, ['type', 'call_id', 'arguments']));
  return { part, loc: { pointer: ptr, fields: { id: 'call_id', arguments: 'arguments' } } };
}

/** A message item whose role and content v1 can hold. */
function isMessageShape(item: JsonObject): boolean {
  return (
    typeof item.role === 'string' &&
    MESSAGE_ROLES.has(item.role) &&
    (typeof item.content === 'string' ||
      (Array.isArray(item.content) && item.content.every(isPlainObject)))
  );
}

/**
 * An assistant message item as parts of the assistant run: one text part per content part, each
 * with the item hint (the item's index, to re-split on write), the first also with the message
 * hint (the item's own fields).
 */
function readAssistantMessage(item: JsonObject, i: number, ptr: string): Located[] {
  const content = item.content as string | JsonValue[];
  if (Array.isArray(content) && content.length === 0) {
    // No part to hang the item's fields on: carry it whole.
    return [opaquePart(item, ptr)];
  }
  const message = mergeFields(
    { [HINTS.content]: typeof content === 'string' ? 'string' : 'array' },
    restOf(item, ['role', 'content']),
  );
  return readMessageContent(content, ptr, true, (k): JsonObject =>
    k === 0 ? { [HINTS.item]: i, [HINTS.message]: message } : { [HINTS.item]: i },
  );
}

/** Reads the items (below pointer `base`) into v1 messages, recording where each came from. */
function readItems(
  items: JsonValue[],
  base: string,
  serverSide: boolean,
  messages: Message[],
  map: SourceMap,
): void {
  const callIds = new Set<string>();
  // The calls of a local shell, kept whole: Codex answers one with a function_call_output, which
  // is then no orphan (read as a result, normalize would drop it), so it is kept whole too.
  const localShellCalls = new Set<string>();
  for (const it of items)
    if (isPlainObject(it) && it.type === 'local_shell_call' && typeof it.call_id === 'string')
      localShellCalls.add(it.call_id);
  // The open assistant or tool run, if the last message read is one.
  let run: { side: 'assistant' | 'tool'; index: number } | null = null;

  const open = (message: Message, ptr: string): number => {
    messages.push(message);
    map.message(messages.length - 1, ptr);
    return messages.length - 1;
  };
  const place = (index: number, located: Located[]): void => {
    const parts = messages[index]!.parts;
    for (const { part, loc } of located) {
      map.place(index, parts.length, loc);
      parts.push(part);
    }
  };
  const addToRun = (side: 'assistant' | 'tool', ptr: string, located: Located[]): void => {
    if (run === null || run.side !== side) {
      run = { side, index: open({ role: side, parts: [] }, ptr) };
    }
    place(run.index, located);
  };
  const addOwn = (message: Message, ptr: string, located: Located[]): void => {
    run = null;
    place(open(message, ptr), located);
  };

  items.forEach((item, i) => {
    const ptr = `${base}/${i}`;
    if (!isPlainObject(item)) notFormat(FORMAT, `input item ${i} is not an object`);
    const type = item.type;
    if (type !== undefined && typeof type !== 'string') {
      notFormat(FORMAT, `input item ${i} has a "type" that is not a string`);
    }

    if ((type === undefined || type === 'message') && isMessageShape(item)) {
      const role = item.role as string;
      const content = item.content as string | JsonValue[];
      if (role === 'assistant') {
        addToRun('assistant', ptr, readAssistantMessage(item, i, ptr));
        return;
      }
      const located = readMessageContent(content, ptr, false);
      const message: Message = { role: MESSAGE_ROLES.get(role)!, parts: [] };
      const hints: JsonObject = {
        [HINTS.content]: typeof content === 'string' ? 'string' : 'array',
      };
      if (role === 'developer') hints[HINTS.role] = 'developer';
      keepProviderData(message, FORMAT, mergeFields(hints, restOf(item, ['role', 'content'])));
      addOwn(message, ptr, located);
      return;
    }
    if (type === undefined) {
      notFormat(FORMAT, `input item ${i} has no "type" and is not a message`);
    }

    if (
      type === 'function_call' &&
      typeof item.call_id === 'string' &&
      (typeof item.name === 'string' || item.name === undefined) &&
      typeof item.arguments === 'string'
    ) {
      callIds.add(item.call_id);
      const part: Part = { type: 'tool-call', id: item.call_id };
      // A call without a name is still a call (SPEC §1: the operations tolerate it).
      if (typeof item.name === 'string') part.name = item.name;
      part.arguments = item.arguments;
      const rest = restOf(item, ['type', 'call_id', 'name', 'arguments']);
      keep(part, item.name === undefined ? { [HINTS.noName]: true } : undefined, rest);
      const fields: FieldSources = { id: 'call_id', name: 'name', arguments: 'arguments' };
      addToRun('assistant', ptr, [{ part, loc: { pointer: ptr, fields } }]);
      return;
    }

    // A custom tool's call: its free-form text is the one field of the arguments, `{"input": ...}`.
    if (
      type === 'custom_tool_call' &&
      typeof item.call_id === 'string' &&
      typeof item.name === 'string' &&
      typeof item.input === 'string'
    ) {
      callIds.add(item.call_id);
      const part: Part = {
        type: 'tool-call',
        id: item.call_id,
        name: item.name,
        arguments: customInputToArguments(item.input),
      };
      keep(part, { [HINTS.custom]: true }, restOf(item, ['type', 'call_id', 'name', 'input']));
      // The arguments are the item's `input` wrapped: they point at the item, which holds it.
      const fields: FieldSources = { id: 'call_id', name: 'name', arguments: [] };
      addToRun('assistant', ptr, [{ part, loc: { pointer: ptr, fields } }]);
      return;
    }

    // A hosted tool run by the client (`tool_search_call` with `execution: "client"`) is a call
    // the client answers like a function call: its output item, or a function_call_output.
    if (isClientHosted(item, '_call')) {
      callIds.add(item.call_id as string);
      addToRun('assistant', ptr, [readHostedCall(item, ptr)]);
      return;
    }
    if (isClientHosted(item, '_output')) {
      const part: Part = { type: 'tool-result', callId: item.call_id as string, content: [] };
      keep(part, { [HINTS.hosted]: type as string }, restOf(item, ['type', 'call_id']));
      addToRun('tool', ptr, [{ part, loc: { pointer: ptr, fields: { callId: 'call_id' } } }]);
      return;
    }

    if (
      (type === 'function_call_output' || type === 'custom_tool_call_output') &&
      typeof item.call_id === 'string' &&
      (typeof item.output === 'string' || Array.isArray(item.output)) &&
      // With previous_response_id or conversation the call may live on the server:
      // such an output is valid, and stays opaque so normalize does not drop it.
      !(serverSide && !callIds.has(item.call_id)) &&
      !localShellCalls.has(item.call_id)
    ) {
      const output = item.output;
      const loc: PartSource = { pointer: ptr, fields: { callId: 'call_id', content: 'output' } };
      const content: Part[] = [];
      if (typeof output === 'string') {
        content.push({ type: 'text', text: output });
        loc.contentPointer = `${ptr}/output`;
      } else {
        loc.content = output.map((el, c) => {
          const r = readContentPart(el, `${ptr}/output/${c}`, false);
          content.push(r.part);
          return r.loc;
        });
      }
      const part: Part = { type: 'tool-result', callId: item.call_id, content };
      const hints: JsonObject = {};
      if (type === 'custom_tool_call_output') hints[HINTS.custom] = true;
      if (typeof output !== 'string') hints[HINTS.output] = 'array';
      keep(
        part,
        Object.keys(hints).length === 0 ? undefined : hints,
        restOf(item, ['type', 'call_id', 'output']),
      );
      addToRun('tool', ptr, [{ part, loc }]);
      return;
    }

    if (type === 'reasoning') {
      const r = readReasoning(item, ptr);
      if (r !== null) {
        addToRun('assistant', ptr, [r]);
        return;
      }
    }

    // Everything else is carried whole.
    const kept = opaquePart(item, ptr);
    const side = sideOf(type);
    if (side !== 'own') {
      addToRun(side, ptr, [kept]);
      return;
    }
    // A role in another case or with spaces around ("DEVELOPER") still speaks as the system.
    const role =
      (typeof item.role === 'string' && MESSAGE_ROLES.get(item.role.trim().toLowerCase())) ||
      'user';
    const message: Message = { role, parts: [] };
    keepProviderData(message, FORMAT, { [HINTS.opaque]: true });
    addOwn(message, ptr, [kept]);
  });
}

/** The envelope of a value: the kit's, and a body's string `input` as the one user item it stands for. */
function envelopeOf(value: JsonValue, options?: ReadOptions): Envelope {
  if (isPlainObject(value) && typeof value.input === 'string') {
    const list: JsonValue[] = [{ role: 'user', content: value.input }];
    return { bare: false, list, base: readBase('/input', options), body: value };
  }
  const why = 'expected a request body with an "input" array, or an array of items';
  return readEnvelope(value, FORMAT, 'input', { why }, options);
}

/** Every message and part object of a read (tool results' content too), for provenance. */
function markRead(messages: readonly Message[], ctx: ReadContext): void {
  for (const m of messages) {
    ctx.read.add(m);
    for (const p of m.parts) {
      ctx.read.add(p);
      if (Array.isArray(p.content))
        for (const c of p.content) if (isPlainObject(c)) ctx.read.add(c);
    }
  }
}

/** Reads a Responses request body or bare array of input items (throws when it is neither). */
export function readResponses(value: JsonValue, options?: ReadOptions): ReadResult {
  const envelope = envelopeOf(value, options);
  const body = envelope.body;
  if (body !== undefined && ('messages' in body || 'contents' in body)) {
    notFormat(FORMAT, 'the body has "messages" or "contents", not only "input"');
  }
  const map = sourceMap(envelope.base, value, options);
  const messages: Message[] = [];
  const taken = ['input'];
  if (body !== undefined && typeof body.instructions === 'string') {
    const message: Message = { role: 'system', parts: [{ type: 'text', text: body.instructions }] };
    keepProviderData(message, FORMAT, { [HINTS.instructions]: true });
    messages.push(message);
    map.message(0, '/instructions');
    map.place(0, 0, { pointer: '/instructions' });
    // In the order the writer puts them.
    taken.unshift('instructions');
  }
  // A continuation: earlier items (calls among them) are stored on the server.
  const serverSide =
    body !== undefined &&
    ((body.previous_response_id ?? null) !== null || (body.conversation ?? null) !== null);
  readItems(envelope.list, envelope.base, serverSide, messages, map);
  if (body !== undefined && typeof body.input === 'string') {
    // A string `input` is read as the one user message it stands for, and written back as one:
    // the message and its text point at the string itself.
    const at = messages.length - 1;
    map.message(at, '/input');
    map.place(at, 0, { pointer: '/input' });
    const m = messages[at]!;
    keepProviderData(
      m,
      FORMAT,
      mergeFields(providerDataOf(m, FORMAT), { [HINTS.input]: 'string' }),
    );
  }

  const conversation = makeConversation(messages, FORMAT, envelopeData(envelope, taken));
  const context: ResponsesContext = { ...readContext(FORMAT, options), bare: envelope.bare };
  markRead(messages, context);
  return { conversation, context, locate: map.locate };
}
