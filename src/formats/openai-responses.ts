/**
 * OpenAI Responses API input: a request body `{model, instructions?, input:
 * [...items], tools, ...}` or a bare array of input items.
 *
 * Items map to v1 messages like this: a string `instructions` becomes a
 * leading system message; user, system and developer `message` items are one
 * v1 message each; a run of consecutive assistant-side items (reasoning,
 * function calls, assistant messages, hosted-tool calls) is one v1 assistant
 * message with one part per item (one per content part for messages); a run
 * of consecutive output items (`function_call_output`, other `*_output`) is
 * one v1 tool message. Items v1 has no type for (hosted tools, custom tools,
 * `item_reference`, ...) become parts of type `openai-responses:<item type>`
 * whose `providerData["openai-responses"]` is the whole item, so they are
 * written back exactly and operations pass them through.
 */
import { setOwn, type JsonObject, type JsonValue } from '../model/json.js';
import { UNTYPED_BLOCK, type Message, type Part } from '../model/types.js';
import {
  providerDataOf,
  type Conversation,
  type ConversationFormat,
  type Loss,
  type ReadResult,
  type WriteResult,
} from './format.js';
import {
  argumentsToValue,
  conversationLosses,
  fieldLosses,
  isPlainObject,
  joinPointer,
  keepProviderData,
  makeConversation,
  messageLosses,
  notFormat,
  objectLosses,
  objectToArguments,
  PART_FIELDS,
  type PartWhere,
  providerDataLosses,
  providerExecutedParts,
  refusesKeptUrl,
  restOf,
  restoreFields,
  withoutSystemFields,
} from './shared.js';
import { guessMediaType, parseDataUrl, toDataUrl } from './kit/media.js';

const FORMAT = 'openai-responses';

/**
 * The wire fields only the v1 model sets (content, role, calls, results, media): kept data never
 * restores one, so what sanitize, lint and show checked is what the provider receives. Kept data
 * fills only fields v1 has no place for (item ids, statuses, `detail`, annotations, ...).
 */
const WIRE = [
  'type',
  'role',
  'content',
  'call_id',
  'output',
  'arguments',
  'name',
  'text',
  'refusal',
  'image_url',
  'file_url',
  'file_data',
  'file_id',
  'filename',
  'url',
];
/**
 * Of a hosted tool's item (`tool_search_call` run by the client, ...), kept whole but for these,
 * which v1 sets: a kept block, written only when its URLs are safe (see {@link refusesKeptUrl}).
 */
const HOSTED_WIRE = ['type', 'call_id', 'arguments'];

/** Prefix of the v1 part type that carries an item (or content part) v1 cannot express. */
const OPAQUE = `${FORMAT}:`;

/** Item types of `ResponseInputItem` (openai 6.x) and of the output items a client replays. */
const ITEM_TYPES = new Set([
  'message',
  'function_call',
  'function_call_output',
  'reasoning',
  'custom_tool_call',
  'custom_tool_call_output',
  'item_reference',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'tool_search_call',
  'tool_search_output',
  'additional_tools',
  'compaction',
]);

/** Opaque item types produced by the model that do not end in `_call` (reasoning: one of unexpected shape). */
const ASSISTANT_SIDE = new Set([
  'mcp_list_tools',
  'mcp_approval_request',
  'compaction',
  'reasoning',
]);

/** Opaque item types the client sends back that do not end in `_output`. */
const TOOL_SIDE = new Set(['mcp_approval_response']);

/** Roles of a message item, and the v1 role each becomes. */
const MESSAGE_ROLES = new Map<string, 'user' | 'assistant' | 'system'>([
  ['user', 'user'],
  ['assistant', 'assistant'],
  ['system', 'system'],
  ['developer', 'system'],
]);

/** Where an opaque item goes: into the assistant run, into the tool run, or its own message. */
type Side = 'assistant' | 'tool' | 'own';

function sideOf(type: string): Side {
  if (type.endsWith('_output') || TOOL_SIDE.has(type)) return 'tool';
  if (type.endsWith('_call') || ASSISTANT_SIDE.has(type)) return 'assistant';
  return 'own';
}

/** A content part type of the Responses API (message content and function output arrays). */
function isContentType(type: string): boolean {
  return type.startsWith('input_') || type.startsWith('output_') || type === 'refusal';
}

// ---------------------------------------------------------------- detection

/** True when an item is a message item: a known role and string or Responses-part content. */
function isMessageLike(item: JsonObject): boolean {
  if (typeof item.role !== 'string' || !MESSAGE_ROLES.has(item.role)) return false;
  const content = item.content;
  if (typeof content === 'string') return true;
  if (!Array.isArray(content)) return false;
  // A part without a type (rejected by the API, reported by lint) is read beside typed ones.
  const typed = (p: JsonValue): boolean =>
    isPlainObject(p) && typeof p.type === 'string' && isContentType(p.type);
  return (
    content.every((p) => typed(p) || (isPlainObject(p) && !Object.hasOwn(p, 'type'))) &&
    (content.length === 0 || content.some(typed))
  );
}

/** Block and event types of other formats that a bare array of items must not hold. */
const FOREIGN_TYPES = new Set([
  'text',
  'image',
  'document',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'user',
  'assistant',
  'system',
  'summary',
]);

/** True when `item` looks like a Responses input item: a snake_case `type`, or a message. */
function isItemLike(item: JsonValue, bare: boolean): boolean {
  if (!isPlainObject(item) || Object.hasOwn(item, 'parts')) return false;
  const type = item.type;
  if (type === undefined || type === 'message') return isMessageLike(item);
  if (typeof type !== 'string' || !/^[a-z][a-z0-9_]*$/.test(type)) return false;
  return !bare || !FOREIGN_TYPES.has(type);
}

/** True when an item can only be Responses: a known item type, or content parts of Responses types. */
function isDistinctive(item: JsonValue): boolean {
  if (!isPlainObject(item)) return false;
  if (typeof item.type === 'string') {
    return ITEM_TYPES.has(item.type) || /_(call|output)$/.test(item.type);
  }
  return Array.isArray(item.content) && item.content.length > 0;
}

function detect(value: JsonValue): boolean {
  if (Array.isArray(value)) {
    // A bare array of {role, content: string} is OpenAI chat's too: ask for one Responses-only item.
    return value.length > 0 && value.every((i) => isItemLike(i, true)) && value.some(isDistinctive);
  }
  if (!isPlainObject(value)) return false;
  if ('messages' in value || 'contents' in value) return false;
  const input = value.input;
  // `input` as a string is one user message (the API takes it so).
  if (typeof input === 'string') return true;
  if (!Array.isArray(input)) return false;
  // No other format has `input`: an empty list (what an empty history is written as) is Responses'.
  if (input.length === 0) return true;
  return input.every((i) => isItemLike(i, false));
}

// ------------------------------------------------------------------ reading

/** Where one v1 part came from, for `locate`. All pointers are absolute. */
interface PartLoc {
  ptr: string;
  /** v1 field name -> the source field's pointer. */
  fields?: Record<string, string>;
  /** A tool result's content: one location per content part, or the pointer of a string output. */
  content?: PartLoc[] | string;
  /** The part carries a whole source object in providerData. */
  opaque?: boolean;
}

interface MessageLoc {
  ptr: string;
  /** Pointer of the item's `role`, for messages read 1:1 from a message item. */
  role?: string;
}

interface ReadState {
  messages: Message[];
  msgLocs: MessageLoc[];
  partLocs: PartLoc[][];
}

interface ResponsesContext {
  /** The value read was a bare array of items. */
  bare: boolean;
}

/**
 * `{mediaType, data}` of a data URL the Responses writer gives back byte for byte, the media type
 * with its parameters; null for anything else (it stays a URL).
 */
function readDataUrl(url: string): { mediaType: string; data: string } | null {
  const parsed = parseDataUrl(url);
  if (parsed === undefined || !parsed.canonical) return null;
  return { mediaType: parsed.mediaType + parsed.parameters, data: parsed.data };
}

/** An opaque part: the v1 type names the source type, providerData holds the whole object. */
function opaquePart(raw: JsonObject, ptr: string): { part: Part; loc: PartLoc } {
  const type = typeof raw.type === 'string' ? raw.type : UNTYPED_BLOCK;
  const part: Part = { type: OPAQUE + type };
  // Escaped like any kept source fields: a `$` field is data, never a hint (see restOf). An
  // empty block is kept too (as a hint alone): it comes back as `{}`.
  keepProviderData(part, FORMAT, restOf(raw, []) ?? { $empty: true });
  return { part, loc: { ptr, opaque: true } };
}

/** Puts `$` hints in front of a part's providerData. */
function addHints(part: Part, hints: JsonObject): void {
  const pd: JsonObject = { ...hints };
  const existing = providerDataOf(part, FORMAT);
  if (existing !== undefined) for (const k of Object.keys(existing)) setOwn(pd, k, existing[k]!);
  keepProviderData(part, FORMAT, pd);
}

/** One content part (message content or function output element) as a v1 part. */
function readContentPart(
  el: JsonValue,
  ptr: string,
  assistant: boolean,
): { part: Part; loc: PartLoc } {
  if (!isPlainObject(el)) notFormat(FORMAT, `${ptr} is not an object`);
  const type = el.type;
  // Assistant content is text or refusal; anything else there is carried whole.
  if (assistant && type !== 'output_text' && type !== 'input_text' && type !== 'refusal') {
    return opaquePart(el, ptr);
  }
  if ((type === 'input_text' || type === 'output_text') && typeof el.text === 'string') {
    const part: Part = { type: 'text', text: el.text };
    const pd: JsonObject = {};
    if (type !== (assistant ? 'output_text' : 'input_text')) pd.$type = type;
    keepProviderData(part, FORMAT, { ...pd, ...restOf(el, ['type', 'text']) });
    return { part, loc: { ptr, fields: { text: `${ptr}/text` } } };
  }
  if (type === 'refusal' && typeof el.refusal === 'string') {
    const part: Part = { type: 'text', text: el.refusal };
    keepProviderData(part, FORMAT, { $type: 'refusal', ...restOf(el, ['type', 'refusal']) });
    return { part, loc: { ptr, fields: { text: `${ptr}/refusal` } } };
  }
  if (type === 'input_image' && typeof el.image_url === 'string') {
    const data = readDataUrl(el.image_url);
    const part: Part =
      data === null
        ? { type: 'image', url: el.image_url }
        : { type: 'image', data: data.data, mediaType: data.mediaType };
    keepProviderData(part, FORMAT, restOf(el, ['type', 'image_url']));
    const src = `${ptr}/image_url`;
    return { part, loc: { ptr, fields: { url: src, data: src, mediaType: src } } };
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
      fields.data = fields.mediaType = `${ptr}/file_data`;
    } else if (el.file_data === undefined && typeof el.file_url === 'string') {
      part = { type: 'document', url: el.file_url, mediaType: guessMediaType(name, el.file_url) };
      used.push('file_url');
      fields.url = fields.mediaType = `${ptr}/file_url`;
    }
    if (part !== undefined) {
      if (name !== undefined) {
        part.name = name;
        used.push('filename');
        fields.name = `${ptr}/filename`;
      }
      keepProviderData(part, FORMAT, restOf(el, used));
      return { part, loc: { ptr, fields } };
    }
  }
  // A file_id-only image or file, audio, or a part type v1 has no field for.
  return opaquePart(el, ptr);
}

/** The parts of a message item's `content` (a string is one text part) and their locations. */
function readMessageContent(
  content: string | JsonValue[],
  ptr: string,
  assistant: boolean,
): { parts: Part[]; locs: PartLoc[] } {
  const parts: Part[] = [];
  const locs: PartLoc[] = [];
  if (typeof content === 'string') {
    parts.push({ type: 'text', text: content });
    locs.push({ ptr: `${ptr}/content`, fields: { text: `${ptr}/content` } });
  } else {
    content.forEach((el, c) => {
      const r = readContentPart(el, `${ptr}/content/${c}`, assistant);
      parts.push(r.part);
      locs.push(r.loc);
    });
  }
  return { parts, locs };
}

/** True when `v` is an array of objects with a string `text` each. */
function isTextList(v: JsonValue | undefined): v is JsonObject[] {
  return Array.isArray(v) && v.every((e) => isPlainObject(e) && typeof e.text === 'string');
}

function joinTexts(list: JsonValue | undefined): string {
  return isTextList(list) ? list.map((e) => e.text as string).join('\n\n') : '';
}

/** A reasoning item as a v1 reasoning part, or null when its shape is not the documented one. */
function readReasoning(item: JsonObject, ptr: string): { part: Part; loc: PartLoc } | null {
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
  // `$text` is always there: it also marks the part as this format's own (see writeReasoning).
  keepProviderData(part, FORMAT, { $text: from, ...rest });
  return {
    part,
    loc: {
      ptr,
      fields: { text: `${ptr}/${from}`, signature: `${ptr}/encrypted_content` },
    },
  };
}

/** Reads the items into v1 messages. */
function readItems(items: JsonValue[], base: string, serverSide: boolean, state: ReadState): void {
  const callIds = new Set<string>();
  // The open assistant or tool run, if the last message read is one.
  let run: { side: 'assistant' | 'tool'; index: number } | null = null;

  const push = (message: Message, loc: MessageLoc, locs: PartLoc[]): void => {
    state.messages.push(message);
    state.msgLocs.push(loc);
    state.partLocs.push(locs);
  };
  const addToRun = (side: 'assistant' | 'tool', ptr: string, parts: Part[], locs: PartLoc[]) => {
    if (run === null || run.side !== side) {
      push({ role: side, parts: [] }, { ptr }, []);
      run = { side, index: state.messages.length - 1 };
    }
    state.messages[run.index]!.parts.push(...parts);
    state.partLocs[run.index]!.push(...locs);
  };
  const addOwn = (message: Message, loc: MessageLoc, locs: PartLoc[]) => {
    run = null;
    push(message, loc, locs);
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
        const { parts, locs } = readAssistantMessage(item, i, ptr);
        addToRun('assistant', ptr, parts, locs);
        return;
      }
      const { parts, locs } = readMessageContent(content, ptr, false);
      const message: Message = { role: MESSAGE_ROLES.get(role)!, parts };
      const hints: JsonObject = { $content: typeof content === 'string' ? 'string' : 'array' };
      if (role === 'developer') hints.$role = 'developer';
      keepProviderData(message, FORMAT, { ...hints, ...restOf(item, ['role', 'content']) });
      addOwn(message, { ptr, role: `${ptr}/role` }, locs);
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
      keepProviderData(
        part,
        FORMAT,
        item.name === undefined ? { $noName: true, ...(rest ?? {}) } : rest,
      );
      const fields = {
        id: `${ptr}/call_id`,
        name: `${ptr}/name`,
        arguments: `${ptr}/arguments`,
      };
      addToRun('assistant', ptr, [part], [{ ptr, fields }]);
      return;
    }

    // A hosted tool run by the client (`tool_search_call` with `execution: "client"`) is a call
    // the client answers like a function call: its output item, or a function_call_output.
    if (isClientHosted(item, '_call')) {
      callIds.add(item.call_id as string);
      const { part, fields } = readHostedCall(item, ptr);
      addToRun('assistant', ptr, [part], [{ ptr, fields }]);
      return;
    }
    if (isClientHosted(item, '_output')) {
      const part: Part = { type: 'tool-result', callId: item.call_id as string, content: [] };
      keepProviderData(part, FORMAT, {
        $hosted: type as string,
        ...restOf(item, ['type', 'call_id']),
      });
      addToRun('tool', ptr, [part], [{ ptr, fields: { callId: `${ptr}/call_id` } }]);
      return;
    }

    if (
      type === 'function_call_output' &&
      typeof item.call_id === 'string' &&
      (typeof item.output === 'string' || Array.isArray(item.output)) &&
      // With previous_response_id or conversation the call may live on the server:
      // such an output is valid, and stays opaque so normalize does not drop it.
      !(serverSide && !callIds.has(item.call_id))
    ) {
      const output = item.output;
      const content: Part[] = [];
      let contentLocs: PartLoc[] | string;
      if (typeof output === 'string') {
        content.push({ type: 'text', text: output });
        contentLocs = `${ptr}/output`;
      } else {
        contentLocs = output.map((el, c) => {
          const r = readContentPart(el, `${ptr}/output/${c}`, false);
          content.push(r.part);
          return r.loc;
        });
      }
      const part: Part = { type: 'tool-result', callId: item.call_id, content };
      const pd: JsonObject = typeof output === 'string' ? {} : { $output: 'array' };
      keepProviderData(part, FORMAT, { ...pd, ...restOf(item, ['type', 'call_id', 'output']) });
      const fields = { callId: `${ptr}/call_id`, content: `${ptr}/output` };
      addToRun('tool', ptr, [part], [{ ptr, fields, content: contentLocs }]);
      return;
    }

    if (type === 'reasoning') {
      const r = readReasoning(item, ptr);
      if (r !== null) {
        addToRun('assistant', ptr, [r.part], [r.loc]);
        return;
      }
    }

    // Everything else is carried whole.
    const { part, loc } = opaquePart(item, ptr);
    const side = sideOf(type);
    if (side !== 'own') {
      addToRun(side, ptr, [part], [loc]);
      return;
    }
    // A role in another case or with spaces around ("DEVELOPER") still speaks as the system.
    const role =
      (typeof item.role === 'string' && MESSAGE_ROLES.get(item.role.trim().toLowerCase())) ||
      'user';
    const message: Message = { role, parts: [part] };
    keepProviderData(message, FORMAT, { $opaque: true });
    addOwn(message, { ptr }, [loc]);
  });
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
function readHostedCall(
  item: JsonObject,
  ptr: string,
): { part: Part; fields: Record<string, string> } {
  const type = item.type as string;
  const args = item.arguments;
  const part: Part = {
    type: 'tool-call',
    id: item.call_id as string,
    name: type.slice(0, -'_call'.length),
    arguments: typeof args === 'string' ? args : objectToArguments(args ?? {}),
  };
  const hints: JsonObject = { $hosted: type };
  if (args === undefined) hints.$noArgs = true;
  else if (typeof args !== 'string') hints.$argsObject = true;
  keepProviderData(part, FORMAT, { ...hints, ...restOf(item, ['type', 'call_id', 'arguments']) });
  return { part, fields: { id: `${ptr}/call_id`, arguments: `${ptr}/arguments` } };
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
 * An assistant message item as parts of the assistant run: one text part per
 * content part, each with `$item` (the item's index, to re-split on write),
 * the first also with `$message` (the item's own fields).
 */
function readAssistantMessage(
  item: JsonObject,
  i: number,
  ptr: string,
): { parts: Part[]; locs: PartLoc[] } {
  const content = item.content as string | JsonValue[];
  if (Array.isArray(content) && content.length === 0) {
    // No part to hang the item's fields on: carry it whole.
    const r = opaquePart(item, ptr);
    return { parts: [r.part], locs: [r.loc] };
  }
  const message: JsonObject = {
    $content: typeof content === 'string' ? 'string' : 'array',
    ...restOf(item, ['role', 'content']),
  };
  const { parts, locs } = readMessageContent(content, ptr, true);
  parts.forEach((part, k) =>
    addHints(part, k === 0 ? { $item: i, $message: message } : { $item: i }),
  );
  return { parts, locs };
}

function read(value: JsonValue): ReadResult {
  const state: ReadState = { messages: [], msgLocs: [], partLocs: [] };
  let items: JsonValue[];
  let base: string;
  let rest: JsonObject | undefined;
  const bare = Array.isArray(value);
  if (Array.isArray(value)) {
    items = value;
    base = '';
  } else if (
    isPlainObject(value) &&
    (Array.isArray(value.input) || typeof value.input === 'string')
  ) {
    if ('messages' in value || 'contents' in value) {
      notFormat(FORMAT, 'the body has "messages" or "contents", not only "input"');
    }
    // A string `input` is read as the one user message it stands for, and written back as one.
    items =
      typeof value.input === 'string' ? [{ role: 'user', content: value.input }] : value.input;
    base = '/input';
    const instructions = value.instructions;
    if (typeof instructions === 'string') {
      const message: Message = { role: 'system', parts: [{ type: 'text', text: instructions }] };
      keepProviderData(message, FORMAT, { $instructions: true });
      state.messages.push(message);
      state.msgLocs.push({ ptr: '/instructions' });
      state.partLocs.push([{ ptr: '/instructions', fields: { text: '/instructions' } }]);
    }
    rest = restOf(value, typeof instructions === 'string' ? ['input', 'instructions'] : ['input']);
  } else {
    notFormat(FORMAT, 'expected a request body with an "input" array, or an array of items');
  }
  // A continuation: earlier items (calls among them) are stored on the server.
  const serverSide =
    !bare &&
    (((value as JsonObject).previous_response_id ?? null) !== null ||
      ((value as JsonObject).conversation ?? null) !== null);
  readItems(items, base, serverSide, state);
  if (!bare && typeof (value as JsonObject).input === 'string') {
    // The message and its text point at the string itself.
    const at = state.msgLocs.length - 1;
    state.msgLocs[at] = { ptr: '/input' };
    state.partLocs[at] = [{ ptr: '/input', fields: { text: '/input' } }];
    const m = state.messages[at]!;
    keepProviderData(m, FORMAT, { ...providerDataOf(m, FORMAT), $input: 'string' });
  }

  const conversation = makeConversation(state.messages, FORMAT, rest);
  const locate = (
    messageIndex?: number,
    partIndex?: number,
    path: readonly (string | number)[] = [],
  ): string => {
    if (messageIndex === undefined) return base;
    const m = state.msgLocs[messageIndex];
    if (m === undefined) return base;
    if (partIndex === undefined) return path[0] === 'role' && m.role !== undefined ? m.role : m.ptr;
    const loc = state.partLocs[messageIndex]?.[partIndex];
    return loc === undefined ? m.ptr : locateIn(loc, path);
  };
  return { conversation, context: { bare }, locate };
}

/** The pointer of a path below a part. */
function locateIn(loc: PartLoc, path: readonly (string | number)[]): string {
  if (path.length === 0) return loc.ptr;
  const [head, ...tail] = path;
  if (head === 'content' && loc.content !== undefined && tail.length > 0) {
    if (typeof loc.content === 'string') return loc.content;
    const inner = loc.content[Number(tail[0])];
    return inner === undefined ? loc.ptr : locateIn(inner, tail.slice(1));
  }
  if (head === 'providerData' && tail[0] === FORMAT && loc.opaque === true) {
    // The part's providerData is the source object itself.
    return joinPointer(loc.ptr, ...tail.slice(1));
  }
  return loc.fields?.[String(head)] ?? loc.ptr;
}

// ------------------------------------------------------------------ writing

/** Collects losses and items while writing. */
class Writer {
  readonly items: JsonObject[] = [];
  /** Writing a conversation read from another format (no read context): fill in what the API requires. */
  foreign = false;
  readonly losses: Loss[] = [];

  /** The open message item content parts are added to, with its grouping key. */
  private open: {
    item: JsonObject;
    content: JsonObject[];
    key: string;
    header?: JsonObject;
    defaultType: string;
  } | null = null;

  lose(where: Partial<PartWhere>, what: string): void {
    this.losses.push({ ...where, what });
  }

  /** Closes the open message item: decides between string and array content. */
  flush(): void {
    const o = this.open;
    if (o === null) return;
    this.open = null;
    // Another format's single text becomes a string; a read item keeps its own form.
    const wantString = o.header === undefined || o.header.$content === 'string';
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
  addItem(item: JsonObject): void {
    this.flush();
    this.items.push(item);
  }
}

/** A copy of an object without this adapter's hints. */
function withoutHints(obj: JsonObject): JsonObject {
  const out: JsonObject = {};
  restoreFields(out, obj);
  return out;
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

/** A v1 text/image/document (or opaque content) part as a Responses content part, or null when it has none. */
function writeContentPart(
  part: Part,
  assistant: boolean,
  where: Partial<PartWhere>,
  w: Writer,
  label: string,
): JsonObject | null {
  const pd = providerDataOf(part, FORMAT);
  w.losses.push(...providerDataLosses(part, FORMAT, where));
  if (part.type === 'text') {
    w.losses.push(...fieldLosses(part, PART_FIELDS.text, where, `${label}text part`));
    const text = (part.text as string | undefined) ?? '';
    const t = pd?.$type;
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
      if (w.foreign && pd === undefined) out.detail = 'auto';
    } else {
      const refused = w.foreign && pd === undefined ? refusedFileType(part) : undefined;
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
  if (part.type.startsWith(OPAQUE) && pd !== undefined)
    return refusesKeptUrl(pd, FORMAT, w.losses, where, 'kept block') ? null : withoutHints(pd);
  w.lose(where, `${label}part type "${part.type}"`);
  return null;
}

/** A tool-call part as a `function_call` item (or the client-run hosted call it was read from). */
function writeToolCall(part: Part, where: PartWhere, w: Writer): void {
  const pd = providerDataOf(part, FORMAT);
  w.losses.push(...objectLosses(part, FORMAT, PART_FIELDS['tool-call'], where, 'tool-call'));
  if (typeof pd?.$hosted === 'string') {
    if (refusesKeptUrl(pd, FORMAT, w.losses, where, 'kept block')) return;
    // The tool is named by the item's type: the v1 name is not written.
    const item: JsonObject = { type: pd.$hosted };
    if (typeof part.id === 'string') item.call_id = part.id;
    const text = typeof part.arguments === 'string' ? part.arguments : '';
    if (pd.$argsObject === true) item.arguments = argumentsToValue(text);
    else if (pd.$noArgs !== true || text !== '{}') item.arguments = text;
    restoreFields(item, pd, HOSTED_WIRE);
    w.addItem(item);
    return;
  }
  const item: JsonObject = { type: 'function_call' };
  if (pd?.id !== undefined) item.id = pd.id;
  if (typeof part.id === 'string') item.call_id = part.id;
  else w.lose(where, 'tool call without id (call_id is required)');
  // Read without a name, it is written back without one; any other call needs one.
  if (typeof part.name === 'string') item.name = part.name;
  else if (pd?.$noName !== true) item.name = '';
  item.arguments =
    typeof part.arguments === 'string' ? part.arguments : objectToArguments(part.arguments ?? {});
  restoreFields(item, pd, WIRE);
  w.addItem(item);
}

/** A tool-result part as a `function_call_output` item. */
function writeToolResult(part: Part, where: PartWhere, w: Writer): void {
  const pd = providerDataOf(part, FORMAT);
  w.losses.push(...objectLosses(part, FORMAT, PART_FIELDS['tool-result'], where, 'tool-result'));
  if (part.failed === true) w.lose(where, 'failed flag (Responses outputs have no error flag)');
  if (typeof pd?.$hosted === 'string') {
    if (refusesKeptUrl(pd, FORMAT, w.losses, where, 'kept block')) return;
    // A hosted tool's output keeps its own fields (`tools`, ...): it has no content to write.
    const item: JsonObject = { type: pd.$hosted };
    if (typeof part.callId === 'string') item.call_id = part.callId;
    if (Array.isArray(part.content) && part.content.length > 0)
      w.lose(where, `content of a ${pd.$hosted} item`);
    restoreFields(item, pd, HOSTED_WIRE);
    w.addItem(item);
    return;
  }
  const item: JsonObject = { type: 'function_call_output' };
  if (typeof part.callId === 'string') item.call_id = part.callId;
  else w.lose(where, 'tool result without callId (call_id is required)');
  const content = Array.isArray(part.content) ? part.content : [];
  const first = content[0];
  if (pd?.$output !== 'array' && content.length === 0) {
    item.output = '';
  } else if (
    pd?.$output !== 'array' &&
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
      const c = writeContentPart(el as Part, false, where, w, 'tool result content ');
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
  if (pd.$text === 'content') {
    if (joinTexts(pd.content) !== text) item.content = [{ type: 'reasoning_text', text }];
  } else if (joinTexts(pd.summary) !== text) {
    item.summary = text === '' ? [] : [{ type: 'summary_text', text }];
  }
  w.addItem(item);
}

/** True when a part is content of a message item (as opposed to an item of its own). */
function isContentPart(part: Part, role: string, messagePd: JsonObject | undefined): boolean {
  if (part.type === 'text' || part.type === 'image' || part.type === 'document') return true;
  if (!part.type.startsWith(OPAQUE)) return false;
  if (role === 'assistant') return providerDataOf(part, FORMAT)?.$item !== undefined;
  if (role === 'tool') return false;
  return messagePd?.$opaque !== true && messagePd?.$content !== undefined;
}

/** Writes one v1 message as items. */
function writeMessage(m: Message, mi: number, w: Writer): void {
  const mpd = providerDataOf(m, FORMAT);
  w.losses.push(...messageLosses(m, mi, FORMAT));
  let itemRole: string;
  if (m.role === 'system') itemRole = mpd?.$role === 'developer' ? 'developer' : 'system';
  else if (m.role === 'tool') itemRole = 'user';
  else if (m.role === 'user' || m.role === 'assistant') itemRole = m.role;
  else {
    w.lose({ messageIndex: mi }, `role "${m.role}" (written as user)`);
    itemRole = 'user';
  }
  const assistant = itemRole === 'assistant';
  // A message read from a user/system item is that one item again.
  const header = !assistant && mpd?.$content !== undefined ? mpd : undefined;
  let headerUsed = false;
  const parts = Array.isArray(m.parts) ? m.parts : [];
  // A provider-executed call and its result, in one assistant message from another format: dropped.
  const dropped = w.foreign ? providerExecutedParts(m) : undefined;
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
      const content = writeContentPart(part, assistant, where, w, '');
      if (content === null) return;
      let key: string;
      let h: JsonObject | undefined;
      if (assistant) {
        const ppd = providerDataOf(part, FORMAT);
        key = ppd?.$item !== undefined ? `item:${String(ppd.$item)}` : `msg:${mi}`;
        const message = ppd?.$message;
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
    else if (part.type === 'tool-result') writeToolResult(part, where, w);
    else if (part.type === 'reasoning') writeReasoning(part, where, w);
    else {
      const pd = providerDataOf(part, FORMAT);
      if (part.type.startsWith(OPAQUE) && pd !== undefined) {
        if (!refusesKeptUrl(pd, FORMAT, w.losses, where, 'kept block')) w.addItem(withoutHints(pd));
      } else w.lose(where, `part type "${part.type}"`);
    }
  });
  w.flush();
  // A user/system item whose content was empty (or emptied) is still an item.
  if (header !== undefined && !headerUsed) {
    const item: JsonObject = {};
    if (header.type !== undefined) item.type = header.type;
    if (header.id !== undefined) item.id = header.id;
    item.role = itemRole;
    item.content = header.$content === 'string' ? '' : [];
    restoreFields(item, header, WIRE);
    w.addItem(item);
  }
}

/** The system message written as `instructions`, if any: the one read from there, or (from another format) a leading text-only one. */
function instructionsIndex(conversation: Conversation, ctx: ResponsesContext | undefined): number {
  const messages = conversation.messages;
  const allText = (m: Message): boolean =>
    Array.isArray(m.parts) && m.parts.every((p) => isPlainObject(p) && p.type === 'text');
  const hinted = messages.findIndex(
    (m) => m.role === 'system' && providerDataOf(m, FORMAT)?.$instructions === true,
  );
  if (hinted !== -1) return allText(messages[hinted]!) ? hinted : -1;
  const first = messages[0];
  if (
    ctx === undefined &&
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
  if (pd?.$input !== 'string' || only!.parts.length !== 1) return undefined;
  const part = only!.parts[0]!;
  const plain =
    part.type === 'text' &&
    typeof part.text === 'string' &&
    Object.keys(part).every((k) => k === 'type' || k === 'text');
  const fields = Object.keys(pd).every((k) => k === '$input' || k === '$content');
  return plain && fields ? (part.text as string) : undefined;
}

function write(conversation: Conversation, context?: unknown): WriteResult {
  const ctx = context as ResponsesContext | undefined;
  const bare = ctx?.bare === true;
  const w = new Writer();
  w.foreign = ctx === undefined;
  w.losses.push(...conversationLosses(conversation, FORMAT));
  const instrAt = bare ? -1 : instructionsIndex(conversation, ctx);
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
  const rest = withoutSystemFields(
    providerDataOf(conversation, FORMAT),
    ['instructions'],
    w.losses,
  );
  const body: JsonObject = {};
  if (rest?.model !== undefined) body.model = rest.model;
  if (instructions !== undefined) body.instructions = instructions;
  body.input = stringInput(conversation, instrAt) ?? w.items;
  // Request fields: copied as they are, never over what the messages gave.
  restoreFields(body, rest);
  return { value: body, losses: w.losses };
}

/** The OpenAI Responses API format (`instructions` + `input` items). */
export const openaiResponsesFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'OpenAI Responses API: a request body {model, instructions?, input: [...items]} or a bare array of input items',
  readOnly: false,
  target: 'openai-responses',
  detect,
  read,
  write,
};
