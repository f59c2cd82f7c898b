/**
 * Google Gemini `generateContent` requests: `{contents, systemInstruction?,
 * tools, toolConfig, generationConfig, ...}` or a bare `contents` array.
 *
 * One Gemini content is one v1 message (`model` is `assistant`; a user
 * content holding `functionResponse` parts is a `tool` message). Gemini ids
 * are optional: a `functionCall` without `id` gets a synthetic id on read,
 * paired by position with the id-less `functionResponse` of the content
 * right after its turn, and marked with a `$syntheticId` hint so a write
 * omits it again (see docs/formats/gemini.md).
 */
import { isSystemPrompt } from '../core/sanitize.js';
import {
  parseJson,
  setOwn,
  stringifyJson,
  type JsonObject,
  type JsonValue,
} from '../model/json.js';
import { parsePointer, valueAt } from '../model/pointer.js';
import type { Message, Part } from '../model/types.js';
import { providerDataOf, type Conversation, type ConversationFormat, type Loss } from './format.js';
import {
  argumentsToObject,
  argumentsToValue,
  callNames,
  conversationLosses,
  isPlainObject,
  keepProviderData,
  keptNode,
  keptUnreadable,
  makeConversation,
  messageLosses,
  notFormat,
  objectLosses,
  objectToArguments,
  PART_FIELDS,
  type PartWhere,
  providerExecutedParts,
  rawPart,
  restOf,
  restoreFields,
  withoutSystemFields,
} from './shared.js';
import { splitDataUrl } from './kit/media.js';

const FORMAT = 'gemini';

/** The placeholder thought signature Gemini accepts on calls replayed from another provider (base64 of `skip_thought_signature_validator`). */
export const GEMINI_SKIP_SIGNATURE = 'c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I=';

/** Field names of a part: the REST API's camelCase, or the proto names it also accepts. */
interface Keys {
  inlineData: string;
  fileData: string;
  functionCall: string;
  functionResponse: string;
  thoughtSignature: string;
  mimeType: string;
  fileUri: string;
}

const CAMEL: Keys = {
  inlineData: 'inlineData',
  fileData: 'fileData',
  functionCall: 'functionCall',
  functionResponse: 'functionResponse',
  thoughtSignature: 'thoughtSignature',
  mimeType: 'mimeType',
  fileUri: 'fileUri',
};

const SNAKE: Keys = {
  inlineData: 'inline_data',
  fileData: 'file_data',
  functionCall: 'function_call',
  functionResponse: 'function_response',
  thoughtSignature: 'thought_signature',
  mimeType: 'mime_type',
  fileUri: 'file_uri',
};

/** The union field `data` of a Gemini part (exactly one is set), in both spellings. */
const DATA_FIELDS: readonly string[] = [
  'text',
  'inlineData',
  'inline_data',
  'fileData',
  'file_data',
  'functionCall',
  'function_call',
  'functionResponse',
  'function_response',
  'executableCode',
  'executable_code',
  'codeExecutionResult',
  'code_execution_result',
  'toolCall',
  'tool_call',
  'toolResponse',
  'tool_response',
];

/**
 * The wire fields only the v1 model sets (content, role, calls, results, media), in both
 * spellings: kept data never restores one, so what sanitize, lint and show checked is what the
 * provider receives. Kept data fills only fields v1 has no place for (`thoughtSignature`,
 * `videoMetadata`, request settings, ...).
 */
const WIRE: readonly string[] = [
  'role',
  'parts',
  ...DATA_FIELDS,
  'mimeType',
  'mime_type',
  'data',
  'fileUri',
  'file_uri',
  'name',
  'args',
  'response',
  'id',
];
/** Of a system instruction, whose `role` gives no turn a voice. */
const WIRE_BUT_ROLE = WIRE.filter((k) => k !== 'role');

const SNAKE_FIELDS = new Set([
  'inline_data',
  'file_data',
  'function_call',
  'function_response',
  'executable_code',
  'code_execution_result',
  'tool_call',
  'tool_response',
]);

/** The prefix of unknown part types: the Gemini data field follows. */
const UNKNOWN_PREFIX = 'gemini:';

/** The source of each v1 part field, for `locate` (relative to the part's pointer). */
type FieldMap = Record<string, string>;

interface PartRead {
  part: Part;
  fields: FieldMap;
  /** For a tool result: the index in `content` where the `parts` items start. */
  mediaStart?: number;
}

// ---------------------------------------------------------------- detection

function dataFieldsOf(part: JsonObject): string[] {
  return Object.keys(part).filter((k) => DATA_FIELDS.includes(k));
}

/** True for a content object whose `parts` are Gemini parts (objects without a string `type`). */
function isGeminiContent(c: JsonValue | undefined): c is JsonObject {
  if (!isPlainObject(c)) return false;
  // Serializers that write absent fields as null write `"role": null` too.
  if (c.role !== undefined && c.role !== null && typeof c.role !== 'string') return false;
  if ('content' in c || !Array.isArray(c.parts)) return false;
  return c.parts.every((p) => isPlainObject(p) && typeof p.type !== 'string');
}

function hasGeminiPart(contents: JsonValue[]): boolean {
  return contents.some(
    (c) =>
      isPlainObject(c) &&
      Array.isArray(c.parts) &&
      c.parts.some((p) => isPlainObject(p) && dataFieldsOf(p).length > 0),
  );
}

function detectGemini(value: JsonValue): boolean {
  if (Array.isArray(value)) {
    // A bare array is Gemini only with Gemini roles on every content.
    return (
      value.length > 0 &&
      value.every((c) => isGeminiContent(c) && (c.role === 'user' || c.role === 'model')) &&
      hasGeminiPart(value)
    );
  }
  if (!isPlainObject(value) || 'messages' in value || 'input' in value) return false;
  const contents = value.contents;
  if (!Array.isArray(contents)) return false;
  // No other format has `contents`: an empty list (what an empty history is written as) is Gemini's.
  if (contents.length === 0) return true;
  return contents.every((c) => isGeminiContent(c)) && hasGeminiPart(contents);
}

// ------------------------------------------------------------------- reading

function unknownPart(p: JsonValue, field: string | undefined): PartRead {
  return { part: rawPart(FORMAT, p, field ?? 'part'), fields: {} };
}

/** The providerData of a part read from `p[field]`: the snake_case hint, then the part's other fields. */
function outerData(p: JsonObject, field: string, keys: Keys): JsonObject {
  return { ...(keys === SNAKE ? { $snake: true } : {}), ...(restOf(p, [field]) ?? {}) };
}

/** Keeps `pd` on `part`, after the fields of the inner object `v` other than `known` (as `$inner`). */
function keepWithInner(part: Part, pd: JsonObject, v: JsonObject, known: readonly string[]): void {
  const inner = restOf(v, known);
  if (inner !== undefined) pd.$inner = inner;
  keepProviderData(part, FORMAT, pd);
}

/** An inline or file blob as a v1 image or document; undefined when its shape is not one. */
function readMedia(p: JsonObject, field: string, keys: Keys): PartRead | undefined {
  const v = p[field];
  if (!isPlainObject(v)) return undefined;
  const mime = v[keys.mimeType];
  if (typeof mime !== 'string') return undefined;
  const inline = field === keys.inlineData;
  const payloadKey = inline ? 'data' : keys.fileUri;
  const payload = v[payloadKey];
  if (typeof payload !== 'string') return undefined;
  const part: Part = { type: mime.startsWith('image/') ? 'image' : 'document' };
  if (inline) part.data = payload;
  else part.url = payload;
  part.mediaType = mime;
  const pd = outerData(p, field, keys);
  const inner = restOf(v, [keys.mimeType, payloadKey]);
  if (inner !== undefined) pd.$inner = inner;
  // A data: URI in fileData would be written back as inlineData without this hint.
  if (!inline && payload.startsWith('data:')) pd.$fileData = true;
  keepProviderData(part, FORMAT, pd);
  const base = `/${field}`;
  return {
    part,
    fields: inline
      ? { data: `${base}/data`, mediaType: `${base}/${keys.mimeType}` }
      : { url: `${base}/${keys.fileUri}`, mediaType: `${base}/${keys.mimeType}` },
  };
}

/** What the v1 content of a function response holds, from its `response` object. */
function readResponse(response: JsonValue | undefined): {
  content: Part[];
  mode: string;
  failed: boolean;
} {
  if (response === undefined) return { content: [], mode: 'none', failed: false };
  if (isPlainObject(response)) {
    const keys = Object.keys(response);
    const only = keys.length === 1 ? keys[0]! : undefined;
    if (
      (only === 'output' || only === 'result' || only === 'error') &&
      typeof response[only] === 'string'
    ) {
      return {
        content: [{ type: 'text', text: response[only] }],
        mode: only,
        failed: only === 'error',
      };
    }
  }
  // Anything else is the whole output: its JSON text, parsed back on write.
  return {
    content: [{ type: 'text', text: stringifyJson(response, 0) }],
    mode: 'json',
    failed: isPlainObject(response) && 'error' in response,
  };
}

/**
 * The `$blank` hint of a blank text: it marks the part as read from Gemini,
 * so a write without the read's context keeps it (one from another format
 * is dropped).
 */
function blankHint(text: string): JsonObject {
  return text.trim() === '' ? { $blank: true } : {};
}

function readPart(p: JsonValue): PartRead {
  if (!isPlainObject(p)) return unknownPart(p, undefined);
  const fields = dataFieldsOf(p);
  if (fields.length !== 1) return unknownPart(p, fields[0]);
  const field = fields[0]!;
  const keys = SNAKE_FIELDS.has(field) || 'thought_signature' in p ? SNAKE : CAMEL;

  if (field === 'text') {
    if (typeof p.text !== 'string') return unknownPart(p, field);
    if (p.thought === true) {
      const part: Part = { type: 'reasoning', text: p.text };
      const sig = p[keys.thoughtSignature];
      const known = ['text', 'thought'];
      const pd: JsonObject = blankHint(p.text);
      if (typeof sig === 'string') {
        part.signature = sig;
        known.push(keys.thoughtSignature);
        // Marks the signature as Gemini's own, under the key it came in.
        pd.$signatureKey = keys.thoughtSignature;
      }
      // setOwn, not Object.assign: a "__proto__" field is kept as a field.
      const rest = restOf(p, known) ?? {};
      for (const k of Object.keys(rest)) setOwn(pd, k, rest[k]!);
      keepProviderData(part, FORMAT, pd);
      return { part, fields: { text: '/text', signature: `/${keys.thoughtSignature}` } };
    }
    const part: Part = { type: 'text', text: p.text };
    keepProviderData(part, FORMAT, { ...blankHint(p.text), ...restOf(p, ['text']) });
    return { part, fields: { text: '/text' } };
  }

  if (field === keys.inlineData || field === keys.fileData) {
    return readMedia(p, field, keys) ?? unknownPart(p, field);
  }

  if (field === keys.functionCall) {
    const v = p[field];
    if (!isPlainObject(v)) return unknownPart(p, field);
    const part: Part = { type: 'tool-call' };
    const known = ['args'];
    if (typeof v.id === 'string') {
      part.id = v.id;
      known.push('id');
    }
    if (typeof v.name === 'string') {
      part.name = v.name;
      known.push('name');
    }
    const pd = outerData(p, field, keys);
    if (v.args === undefined) {
      part.arguments = '{}';
      pd.$noArgs = true;
    } else {
      part.arguments = objectToArguments(v.args);
      // Non-object args go back as they were, not wrapped in truncated_args.
      if (!isPlainObject(v.args)) pd.$rawArgs = true;
    }
    keepWithInner(part, pd, v, known);
    const base = `/${field}`;
    return {
      part,
      fields: { id: `${base}/id`, name: `${base}/name`, arguments: `${base}/args` },
    };
  }

  if (field === keys.functionResponse) {
    const v = p[field];
    if (!isPlainObject(v)) return unknownPart(p, field);
    const part: Part = { type: 'tool-result' };
    const known = ['response', 'parts'];
    const pd = outerData(p, field, keys);
    if (typeof v.id === 'string') {
      part.callId = v.id;
      known.push('id');
    }
    if (typeof v.name === 'string') {
      part.name = v.name;
      known.push('name');
    } else {
      pd.$noName = true;
    }
    const { content, mode, failed } = readResponse(v.response);
    const mediaStart = content.length;
    if (Array.isArray(v.parts)) {
      // An empty list is written back only with this hint.
      if (v.parts.length === 0) pd.$parts = true;
      for (const item of v.parts) {
        const media = isPlainObject(item) ? readFunctionResponseMedia(item) : undefined;
        content.push(media ?? unknownPart(item, undefined).part);
      }
    } else if (v.parts !== undefined) {
      // Not a list: kept as it was, with the response's other fields.
      known.splice(known.indexOf('parts'), 1);
    }
    part.content = content;
    if (failed) part.failed = true;
    // "output" and "error" are what a write produces anyway; other shapes need the hint.
    if (mode !== 'output' && mode !== 'error') pd.$response = mode;
    keepWithInner(part, pd, v, known);
    const base = `/${field}`;
    return {
      part,
      fields: { callId: `${base}/id`, name: `${base}/name`, content: `${base}/response` },
      mediaStart,
    };
  }

  // Code execution, server-side tool calls and anything newer: kept whole.
  return unknownPart(p, field);
}

/** A `functionResponse.parts` item (a blob or file reference only). */
function readFunctionResponseMedia(item: JsonObject): Part | undefined {
  const fields = dataFieldsOf(item);
  if (fields.length !== 1) return undefined;
  const field = fields[0]!;
  const keys = SNAKE_FIELDS.has(field) ? SNAKE : CAMEL;
  if (field !== keys.inlineData && field !== keys.fileData) return undefined;
  return readMedia(item, field, keys)?.part;
}

interface Located {
  pointer: string;
  parts: { pointer: string; fields: FieldMap; mediaStart?: number }[];
}

/**
 * The hint that tells write how a content's role was spelled, when it is not the usual one:
 * the role as written, `null` for none, and `{"null": true}` for an explicit `"role": null`.
 */
function roleHint(role: JsonValue | undefined, v1Role: string): JsonValue | undefined {
  const usual = v1Role === 'assistant' ? 'model' : 'user';
  if (role === usual) return undefined;
  if (role === null) return { null: true };
  return role === undefined ? null : role;
}

function readContent(
  c: JsonObject,
  pointer: string,
  system = false,
): { message: Message; located: Located } {
  const rawParts = c.parts;
  const reads = Array.isArray(rawParts) ? rawParts.map(readPart) : [];
  const parts = reads.map((r) => r.part);
  const role = system
    ? 'system'
    : c.role === 'model'
      ? 'assistant'
      : parts.some((p) => p.type === 'tool-result')
        ? 'tool'
        : 'user';
  const message: Message = { role, parts };
  // A system instruction's role (often "user") means nothing: it is kept as a plain field.
  const pd: JsonObject = restOf(c, system ? ['parts'] : ['role', 'parts']) ?? {};
  const hint = system ? undefined : roleHint(c.role, role);
  if (hint !== undefined) pd.$role = hint;
  if (rawParts === undefined) pd.$noParts = true;
  // Marks the content as read from Gemini: a write from another format drops empty ones.
  else if (Array.isArray(rawParts) && rawParts.length === 0) pd.$emptyParts = true;
  keepProviderData(message, FORMAT, pd);
  return {
    message,
    located: {
      pointer,
      parts: reads.map((r, j) => {
        const entry: Located['parts'][number] = {
          pointer: `${pointer}/parts/${j}`,
          fields: r.fields,
        };
        if (r.mediaStart !== undefined) entry.mediaStart = r.mediaStart;
        return entry;
      }),
    },
  };
}

/** A copy of a part with `key` set right after `type` (where a reader looks for ids). */
function withIdField(part: Part, key: string, value: string): Part {
  const out: Part = { type: part.type };
  setOwn(out, key, value);
  for (const k of Object.keys(part)) if (k !== 'type' && k !== key) setOwn(out, k, part[k]!);
  return out;
}

/**
 * Gives every id-less call an id and pairs id-less responses with them by
 * position: a response answers an unmatched call of the same name in the
 * run of model contents right before its content (Gemini's own rule), or
 * before the run of response contents its content is in (parallel calls
 * answered one content each, in call order, which Gemini accepts).
 */
function assignSyntheticIds(messages: Message[], contentIndex: number[]): void {
  const taken = new Set<string>();
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type === 'tool-call' && typeof p.id === 'string') taken.add(p.id);
      if (p.type === 'tool-result' && typeof p.callId === 'string') taken.add(p.callId);
    }
  }
  let open: { id: string; name: unknown; matched: boolean }[] = [];
  let previousWasModel = false;
  messages.forEach((m, i) => {
    if (m.role === 'system') return;
    if (m.role === 'assistant') {
      if (!previousWasModel) open = [];
      previousWasModel = true;
      m.parts.forEach((p, j) => {
        if (p.type !== 'tool-call' || p.id !== undefined) return;
        let id = `gemini-c${contentIndex[i]}-p${j}`;
        while (taken.has(id)) id += '-x';
        taken.add(id);
        const part = withIdField(p, 'id', id);
        const pd = providerDataOf(part, FORMAT) ?? {};
        pd.$syntheticId = true;
        keepProviderData(part, FORMAT, pd);
        m.parts[j] = part;
        open.push({ id, name: p.name, matched: false });
      });
      return;
    }
    previousWasModel = false;
    m.parts.forEach((p, j) => {
      if (p.type !== 'tool-result' || p.callId !== undefined) return;
      const call = open.find((c) => !c.matched && (p.name === undefined || c.name === p.name));
      if (call === undefined) return;
      call.matched = true;
      m.parts[j] = withIdField(p, 'callId', call.id);
    });
    // A run of response contents answers the call turn before it; anything else ends the turn.
    if (m.role !== 'tool') open = [];
  });
}

function readGemini(value: JsonValue): {
  conversation: Conversation;
  located: Located[];
} {
  let contents: JsonValue[];
  let base: string;
  let request: JsonObject | undefined;
  if (Array.isArray(value)) {
    contents = value;
    base = '';
  } else if (isPlainObject(value) && Array.isArray(value.contents)) {
    contents = value.contents;
    base = '/contents';
    request = value;
  } else {
    notFormat(FORMAT, 'no "contents" array');
  }
  contents.forEach((c, i) => {
    if (!isPlainObject(c)) notFormat(FORMAT, `content ${i} is not an object`);
    if (c.parts !== undefined && !Array.isArray(c.parts))
      notFormat(FORMAT, `content ${i} has no "parts" array`);
    if (
      Array.isArray(c.parts) &&
      c.parts.some((p) => isPlainObject(p) && typeof p.type === 'string')
    )
      notFormat(FORMAT, `content ${i} has typed parts (not Gemini parts)`);
  });

  const messages: Message[] = [];
  const located: Located[] = [];
  const contentIndex: number[] = [];
  let requestRest: JsonObject | undefined;

  if (request !== undefined) {
    // Every place a request sets a system prompt is read (a null one is unset), so none is left
    // behind: `systemInstruction` and the REST API's snake_case `system_instruction`, and the
    // @google/genai SDK's `config.systemInstruction` (the Python SDK spells it
    // `config.system_instruction`). Each takes a string, a Content, a Part, or a list of Parts or
    // strings (the SDKs wrap them in a Content; the API reads a Part too).
    const read = (si: JsonValue | undefined, pointer: string, hints: JsonObject): boolean => {
      if (!isConfigInstruction(si)) return false;
      const { message, located: loc } = readInstruction(si!, pointer);
      const pd = providerDataOf(message, FORMAT) ?? {};
      for (const k of Object.keys(hints)) setOwn(pd, k, hints[k]!);
      keepProviderData(message, FORMAT, pd);
      messages.push(message);
      located.push(loc);
      contentIndex.push(-1);
      return true;
    };
    const known = ['contents'];
    for (const key of SYSTEM_KEYS) {
      const hints: JsonObject = key === 'system_instruction' ? { $snakeKey: true } : {};
      if (read(request[key], `/${key}`, hints)) known.push(key);
    }
    requestRest = restOf(request, known);
    const config = request.config;
    if (isPlainObject(config)) {
      const read_: string[] = [];
      for (const key of SYSTEM_KEYS) {
        const hints: JsonObject = { $configKey: true };
        if (key === 'system_instruction') hints.$snakeKey = true;
        if (read(config[key], `/config/${key}`, hints)) read_.push(key);
      }
      if (read_.length > 0) setOwn(requestRest!, 'config', restOf(config, read_) ?? {});
    }
  } else {
    requestRest = { $bare: true };
  }

  let previousTool = false;
  contents.forEach((c, i) => {
    const { message, located: loc } = readContent(c as JsonObject, `${base}/${i}`);
    // Consecutive tool contents stay apart on write; a synthesized one merges.
    if (message.role === 'tool' && previousTool) {
      const pd = providerDataOf(message, FORMAT) ?? {};
      pd.$separate = true;
      keepProviderData(message, FORMAT, pd);
    }
    previousTool = message.role === 'tool';
    messages.push(message);
    located.push(loc);
    contentIndex.push(i);
  });
  assignSyntheticIds(messages, contentIndex);
  return { conversation: makeConversation(messages, FORMAT, requestRest), located };
}

function makeLocator(value: JsonValue, located: Located[]) {
  const exists = (pointer: string): boolean => valueAt(value, parsePointer(pointer)) !== undefined;
  return (messageIndex?: number, partIndex?: number, path: readonly (string | number)[] = []) => {
    if (messageIndex === undefined) return Array.isArray(value) ? '' : '/contents';
    const m = located[messageIndex];
    if (m === undefined) return Array.isArray(value) ? '' : '/contents';
    if (partIndex === undefined) return m.pointer;
    const p = m.parts[partIndex];
    if (p === undefined) return m.pointer;
    const head = path[0];
    if (head === undefined) return p.pointer;
    let candidate: string | undefined;
    if (head === 'content' && p.mediaStart !== undefined && typeof path[1] === 'number') {
      const k = path[1];
      candidate =
        k >= p.mediaStart
          ? p.fields.content!.replace(/\/response$/, `/parts/${k - p.mediaStart}`)
          : p.fields.content;
    } else {
      candidate = p.fields[String(head)];
    }
    if (candidate !== undefined && exists(p.pointer + candidate)) return p.pointer + candidate;
    return p.pointer;
  };
}

// ------------------------------------------------------------------- writing

interface WriteState {
  losses: Loss[];
  /** Ids read as synthetic: written nowhere. */
  syntheticIds: Set<string>;
  /** Call names by id, for results that carry none. */
  callNames: Map<string, string>;
  /** The conversation did not come from Gemini. */
  foreign: boolean;
}

function keysOf(pd: JsonObject | undefined): Keys {
  return pd?.$snake === true ? SNAKE : CAMEL;
}

function withRest(target: JsonObject, pd: JsonObject | undefined): JsonObject {
  restoreFields(target, pd, WIRE);
  return target;
}

function innerOf(pd: JsonObject | undefined, target: JsonObject): JsonObject {
  const inner = pd?.$inner;
  // The inner object's kept fields fill in; they never replace what was written from v1.
  if (isPlainObject(inner)) restoreFields(target, inner, WIRE);
  // A function response's `parts` the reader could not map (not a list) comes back as it was.
  const odd = keptUnreadable(isPlainObject(inner) ? inner : undefined, 'parts');
  if (odd !== undefined && !Object.hasOwn(target, 'parts')) target.parts = odd;
  return target;
}

/** A v1 image or document as a Gemini blob or file reference; undefined when it has neither data nor url. */
function writeMedia(part: Part, where: PartWhere, state: WriteState): JsonObject | undefined {
  const pd = providerDataOf(part, FORMAT);
  const keys = keysOf(pd);
  // A blob or file reference has no name: a document's is a loss too.
  state.losses.push(...objectLosses(part, FORMAT, PART_FIELDS.image, where, `${part.type} part`));
  const mime = part.mediaType;
  if (typeof part.data === 'string') {
    const inner: JsonObject = {};
    if (typeof mime === 'string') inner[keys.mimeType] = mime;
    inner.data = part.data;
    return withRest({ [keys.inlineData]: innerOf(pd, inner) }, pd);
  }
  if (typeof part.url === 'string') {
    const split = splitDataUrl(part.url);
    if (split !== undefined && pd?.$fileData !== true) {
      // Gemini fetches no data: URLs; their bytes go inline.
      return withRest(
        { [keys.inlineData]: innerOf(pd, { [keys.mimeType]: split.mediaType, data: split.data }) },
        pd,
      );
    }
    const inner: JsonObject = {};
    if (typeof mime === 'string') inner[keys.mimeType] = mime;
    inner[keys.fileUri] = part.url;
    return withRest({ [keys.fileData]: innerOf(pd, inner) }, pd);
  }
  return undefined;
}

function writeCall(part: Part, where: PartWhere, state: WriteState): JsonObject {
  const pd = providerDataOf(part, FORMAT);
  const keys = keysOf(pd);
  state.losses.push(
    ...objectLosses(part, FORMAT, PART_FIELDS['tool-call'], where, 'tool-call part'),
  );
  const call: JsonObject = {};
  if (typeof part.id === 'string' && pd?.$syntheticId !== true) call.id = part.id;
  if (typeof part.name === 'string') call.name = part.name;
  const text = typeof part.arguments === 'string' ? part.arguments : '{}';
  if (!(pd?.$noArgs === true && text === '{}')) {
    // Raw (non-object) args go back as they parse; text edited into non-JSON takes the object form.
    call.args = pd?.$rawArgs === true ? argumentsToValue(text) : argumentsToObject(text);
  }
  return withRest({ [keys.functionCall]: innerOf(pd, call) }, pd);
}

function responseFrom(
  part: Part,
  pd: JsonObject | undefined,
): { response?: JsonValue; rest: Part[] } {
  const content = Array.isArray(part.content) ? (part.content as Part[]) : [];
  const mode = pd?.$response;
  const first = content[0];
  const firstText =
    first?.type === 'text' && typeof first.text === 'string' ? first.text : undefined;
  if (mode === 'none') return { rest: content };
  if ((mode === 'output' || mode === 'result' || mode === 'error') && firstText !== undefined) {
    return { response: { [mode]: firstText }, rest: content.slice(1) };
  }
  if (mode === 'json' && firstText !== undefined) {
    try {
      return { response: parseJson(firstText), rest: content.slice(1) };
    } catch {
      // Edited into plain text: written as the output below.
    }
  }
  // Gemini's convention: "output" for a result, "error" for a failure; media go to `parts`.
  const texts = content.filter((c) => c.type === 'text' && typeof c.text === 'string');
  const rest = content.filter((c) => !texts.includes(c));
  const key = part.failed === true ? 'error' : 'output';
  const response: JsonObject =
    texts.length > 0 || part.failed === true
      ? { [key]: texts.map((t) => t.text as string).join('\n') }
      : {};
  return { response, rest };
}

function writeResult(part: Part, where: PartWhere, state: WriteState): JsonObject {
  const pd = providerDataOf(part, FORMAT);
  const keys = keysOf(pd);
  state.losses.push(
    ...objectLosses(part, FORMAT, PART_FIELDS['tool-result'], where, 'tool-result part'),
  );
  const fr: JsonObject = {};
  const callId = typeof part.callId === 'string' ? part.callId : undefined;
  if (callId !== undefined && !state.syntheticIds.has(callId)) fr.id = callId;
  const name =
    typeof part.name === 'string'
      ? part.name
      : callId !== undefined
        ? state.callNames.get(callId)
        : undefined;
  if (name !== undefined && pd?.$noName !== true) fr.name = name;
  else if (name === undefined && pd?.$noName !== true)
    state.losses.push({ ...where, what: 'tool result name (Gemini requires one)' });
  const { response, rest } = responseFrom(part, pd);
  if (response !== undefined) fr.response = response;
  const items: JsonValue[] = [];
  rest.forEach((c, k) => {
    if (c.type === 'image' || c.type === 'document') {
      const sub: Loss[] = [];
      const out = writeMedia(c, where, { ...state, losses: sub });
      for (const l of sub) state.losses.push({ ...l, what: `tool result content ${k}: ${l.what}` });
      if (out !== undefined) {
        items.push(out);
        return;
      }
    }
    const kept = providerDataOf(c, FORMAT)?.part;
    if (c.type.startsWith(UNKNOWN_PREFIX) && kept !== undefined) {
      items.push(kept);
      return;
    }
    state.losses.push({ ...where, what: `tool result content ${k} (${c.type} part)` });
  });
  if (items.length > 0 || pd?.$parts === true) fr.parts = items;
  if (part.failed === true && !(isPlainObject(fr.response) && 'error' in fr.response)) {
    state.losses.push({ ...where, what: 'failed flag' });
  }
  return withRest({ [keys.functionResponse]: innerOf(pd, fr) }, pd);
}

function writeReasoning(part: Part, where: PartWhere, state: WriteState): JsonObject | undefined {
  const pd = providerDataOf(part, FORMAT);
  const text = typeof part.text === 'string' ? part.text : '';
  const redacted = typeof part.redacted === 'string';
  // Another provider's reasoning with no text (its signature is not Gemini's): nothing to write.
  if (state.foreign && !redacted && text.trim() === '') {
    state.losses.push({ ...where, what: 'blank reasoning part' });
    return undefined;
  }
  state.losses.push(...objectLosses(part, FORMAT, PART_FIELDS.reasoning, where, 'reasoning part'));
  if (redacted) {
    state.losses.push({ ...where, what: 'redacted reasoning' });
    if (text === '' || (state.foreign && text.trim() === '')) return undefined;
  }
  const out: JsonObject = { text, thought: true };
  if (typeof part.signature === 'string') {
    const key = pd?.$signatureKey;
    // Only a signature read from Gemini is a Gemini thought signature.
    if (typeof key === 'string') out[key] = part.signature;
    else
      state.losses.push({ ...where, what: 'reasoning signature (not a Gemini thought signature)' });
  }
  return withRest(out, pd);
}

function writePart(part: Part, where: PartWhere, state: WriteState): JsonValue | undefined {
  const pd = providerDataOf(part, FORMAT);
  switch (part.type) {
    case 'text': {
      const text = typeof part.text === 'string' ? part.text : '';
      // Gemini rejects empty text in a mixed history (providers.md §4); a blank read from Gemini stays.
      if (state.foreign && text.trim() === '') {
        state.losses.push({ ...where, what: 'blank text part' });
        return undefined;
      }
      state.losses.push(...objectLosses(part, FORMAT, PART_FIELDS.text, where, 'text part'));
      return withRest({ text }, pd);
    }
    case 'reasoning':
      return writeReasoning(part, where, state);
    case 'image':
    case 'document': {
      const out = writeMedia(part, where, state);
      if (out === undefined)
        state.losses.push({ ...where, what: `${part.type} without data or url` });
      return out;
    }
    case 'tool-call':
      return writeCall(part, where, state);
    case 'tool-result':
      return writeResult(part, where, state);
    default:
      if (part.type.startsWith(UNKNOWN_PREFIX) && pd?.part !== undefined)
        return keptNode(part, FORMAT, state.losses, where);
      state.losses.push({ ...where, what: `${part.type} part` });
      return undefined;
  }
}

/** True when anything in a conversation was read from Gemini (carries `providerData.gemini`). */
function hasGeminiTrace(conversation: Conversation): boolean {
  const traced = (o: JsonObject): boolean => providerDataOf(o, FORMAT) !== undefined;
  return (
    traced(conversation) ||
    conversation.messages.some(
      (m) =>
        traced(m) ||
        m.parts.some(
          (p) =>
            traced(p) ||
            (Array.isArray(p.content) && p.content.some((c) => isPlainObject(c) && traced(c))),
        ),
    )
  );
}

function isResponsePart(p: JsonValue): boolean {
  return isPlainObject(p) && ('functionResponse' in p || 'function_response' in p);
}

/** A user content written from tool messages, which later tool messages of the same turn join. */
interface ResponseTurn {
  content: JsonObject;
  /** The callId of each written part (undefined for other parts). */
  callIds: (string | undefined)[];
  /** The call ids of the model turn before it, in call order. */
  order: string[];
  merged: boolean;
}

/** The id of a `functionCall` part, if it has one. */
function callIdOfPart(p: JsonValue): string | undefined {
  if (!isPlainObject(p)) return undefined;
  const call = p.functionCall ?? p.function_call;
  return isPlainObject(call) && typeof call.id === 'string' ? call.id : undefined;
}

/**
 * Merged function responses come first, in the order of the calls they
 * answer; a response to a call in this same content stays after that call
 * (moved first, it would precede its call, and every normalize would drop
 * and write it again).
 */
function orderMergedTurn(turn: ResponseTurn): void {
  const parts = turn.content.parts as JsonValue[];
  const callsHere = new Set(parts.map(callIdOfPart).filter((id) => id !== undefined));
  const rank = (k: number): number => {
    if (!isResponsePart(parts[k]!)) return Number.MAX_SAFE_INTEGER;
    const id = turn.callIds[k];
    if (id !== undefined && callsHere.has(id)) return Number.MAX_SAFE_INTEGER;
    const at = id === undefined ? -1 : turn.order.indexOf(id);
    return at === -1 ? turn.order.length : at;
  };
  const order = parts.map((_, k) => k).sort((a, b) => rank(a) - rank(b) || a - b);
  turn.content.parts = order.map((k) => parts[k]!);
}

function writeSystemInstruction(parts: JsonValue[], messages: readonly Message[]): JsonValue {
  const first = messages[0]!;
  const pd = providerDataOf(first, FORMAT);
  const only = parts[0];
  if (
    pd?.$string === true &&
    messages.length === 1 &&
    parts.length === 1 &&
    isPlainObject(only) &&
    Object.keys(only).length === 1 &&
    typeof only.text === 'string'
  ) {
    return only.text;
  }
  const si: JsonObject = { parts };
  // Its `role` (some clients send "user") speaks for no turn: it comes back.
  restoreFields(si, pd, WIRE_BUT_ROLE);
  return si;
}

function writeGemini(
  conversation: Conversation,
  context: unknown,
): { value: JsonValue; losses: Loss[] } {
  const convPd = providerDataOf(conversation, FORMAT);
  const state: WriteState = {
    losses: [],
    syntheticIds: new Set(),
    callNames: callNames(conversation.messages),
    foreign: context === undefined && !hasGeminiTrace(conversation),
  };
  state.losses.push(...conversationLosses(conversation, FORMAT));
  const messages = conversation.messages;
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type !== 'tool-call' || typeof p.id !== 'string') continue;
      if (providerDataOf(p, FORMAT)?.$syntheticId === true) state.syntheticIds.add(p.id);
    }
  }

  // System messages by the request field they go to (read from `system_instruction`, or not).
  const system: Record<SystemKey, { messages: Message[]; parts: JsonValue[] }> = {
    systemInstruction: { messages: [], parts: [] },
    system_instruction: { messages: [], parts: [] },
    config: { messages: [], parts: [] },
  };
  const systemMessages: Message[] = [];
  const contents: JsonObject[] = [];
  const turns: ResponseTurn[] = [];
  let openTurn: ResponseTurn | undefined;
  let callOrder: string[] = [];
  let previousRole: string | undefined;

  messages.forEach((m, i) => {
    const pd = providerDataOf(m, FORMAT);
    state.losses.push(...messageLosses(m, i, FORMAT));
    if (!['system', 'user', 'assistant', 'tool'].includes(m.role)) {
      state.losses.push({ messageIndex: i, what: `role "${m.role}" (written as user)` });
    }
    const written: JsonValue[] = [];
    const callIds: (string | undefined)[] = [];
    let signed = false;
    // A provider-executed call and its result, in one assistant message from another format: dropped.
    const dropped = state.foreign ? providerExecutedParts(m) : new Map<number, string>();
    m.parts.forEach((p, j) => {
      const what = dropped.get(j);
      if (what !== undefined) {
        state.losses.push({ messageIndex: i, partIndex: j, what });
        return;
      }
      const out = writePart(p, { messageIndex: i, partIndex: j }, state);
      if (out === undefined) return;
      // Gemini 3 wants a signature on the first call of a step; calls made elsewhere get the documented placeholder.
      if (
        state.foreign &&
        m.role === 'assistant' &&
        p.type === 'tool-call' &&
        isPlainObject(out) &&
        !signed
      ) {
        out.thoughtSignature = GEMINI_SKIP_SIGNATURE;
        signed = true;
      }
      written.push(out);
      callIds.push(p.type === 'tool-result' && typeof p.callId === 'string' ? p.callId : undefined);
    });

    // A tool message joins the response turn open before it.
    const turn = m.role === 'tool' && pd?.$separate !== true ? openTurn : undefined;
    if (state.foreign && written.length === 0 && turn === undefined) {
      // Nothing but such pairs: their losses say it already.
      if (dropped.size > 0 && dropped.size === m.parts.length) return;
      // Gemini rejects a content with empty parts (and an empty systemInstruction): left out.
      const what =
        m.parts.length > 0 ? 'message with nothing Gemini can express' : 'message without parts';
      state.losses.push({ messageIndex: i, what });
      return;
    }
    if (m.role === 'system') {
      if (contents.length > 0) {
        state.losses.push({
          messageIndex: i,
          what: 'system message position (moved to systemInstruction)',
        });
      }
      systemMessages.push(m);
      const mpd = providerDataOf(m, FORMAT);
      const key: SystemKey =
        mpd?.$configKey === true
          ? 'config'
          : mpd?.$snakeKey === true
            ? 'system_instruction'
            : 'systemInstruction';
      system[key].messages.push(m);
      system[key].parts.push(...written);
      return;
    }
    if (turn !== undefined) {
      // All responses to one call turn go in the one content right after it.
      (turn.content.parts as JsonValue[]).push(...written);
      turn.callIds.push(...callIds);
      turn.merged = true;
      restoreFields(turn.content, pd, WIRE);
      return;
    }
    const content: JsonObject = {};
    // A kept role never speaks as the system (a hint can be planted in a v1 file).
    const roleHintValue =
      typeof pd?.$role === 'string' && isSystemPrompt({ role: pd.$role }) ? undefined : pd?.$role;
    if (roleHintValue === undefined) content.role = m.role === 'assistant' ? 'model' : 'user';
    else if (isPlainObject(roleHintValue) && roleHintValue.null === true) content.role = null;
    else if (roleHintValue !== null) content.role = roleHintValue;
    if (!(pd?.$noParts === true && written.length === 0)) content.parts = written;
    restoreFields(content, pd, WIRE);
    contents.push(content);
    if (m.role === 'assistant') {
      if (previousRole !== 'assistant') callOrder = [];
      m.parts.forEach((p, j) => {
        if (p.type === 'tool-call' && typeof p.id === 'string' && !dropped.has(j)) {
          callOrder.push(p.id);
        }
      });
    }
    openTurn = undefined;
    if (m.role === 'tool') {
      openTurn = { content, callIds, order: callOrder, merged: false };
      turns.push(openTurn);
    }
    previousRole = m.role;
  });
  for (const turn of turns) if (turn.merged) orderMergedTurn(turn);

  if (convPd?.$bare === true) {
    if (systemMessages.length > 0) {
      state.losses.push({ what: 'system instruction (a bare contents array has none)' });
    }
    return { value: contents, losses: state.losses };
  }
  const out: JsonObject = { contents };
  for (const key of SYSTEM_KEYS) {
    const { messages, parts } = system[key];
    if (messages.length > 0) out[key] = instructionValue(parts, messages);
  }
  // A system prompt only ever comes from a system message (see withoutSystemFields).
  let kept = withoutSystemFields(convPd, SYSTEM_KEYS, state.losses);
  if (kept !== undefined && isPlainObject(kept.config)) {
    const config = withoutSystemFields(
      kept.config,
      ['systemInstruction', 'system_instruction'],
      state.losses,
    );
    if (config !== kept.config) kept = { ...kept, config: config! };
  }
  // Kept system fields that set a prompt are gone already (withoutSystemFields).
  restoreFields(out, kept, ['contents']);
  if (system.config.messages.length > 0) {
    const config: JsonObject = {};
    if (isPlainObject(out.config))
      for (const k of Object.keys(out.config)) setOwn(config, k, out.config[k]!);
    const first = providerDataOf(system.config.messages[0]!, FORMAT);
    const key = first?.$snakeKey === true ? 'system_instruction' : 'systemInstruction';
    setOwn(config, key, instructionValue(system.config.parts, system.config.messages));
    out.config = config;
  }
  return { value: out, losses: state.losses };
}

/**
 * A system instruction as a v1 system message, from any shape a request gives it in (see
 * {@link isConfigInstruction}); a shape other than a Content is remembered (`$string`,
 * `$configShape`) so it is written back as it was.
 */
function readInstruction(si: JsonValue, pointer: string): { message: Message; located: Located } {
  if (typeof si === 'string') {
    const message: Message = { role: 'system', parts: [{ type: 'text', text: si }] };
    keepProviderData(message, FORMAT, { $string: true });
    return { message, located: { pointer, parts: [{ pointer, fields: {} }] } };
  }
  const shape = configShape(si);
  const asContent: JsonObject =
    shape === 'content'
      ? (si as JsonObject)
      : shape === 'part'
        ? { parts: [si] }
        : { parts: (si as JsonValue[]).map((x) => (typeof x === 'string' ? { text: x } : x)) };
  const read = readContent(asContent, pointer, true);
  if (shape !== 'content') {
    const pd = providerDataOf(read.message, FORMAT) ?? {};
    pd.$configShape = shape;
    keepProviderData(read.message, FORMAT, pd);
  }
  return read;
}

/** A value a request reads as a system instruction: a string, a Content, a Part, or a list. */
function isConfigInstruction(v: JsonValue | undefined): boolean {
  return typeof v === 'string' || isPlainObject(v) || (Array.isArray(v) && v.length > 0);
}

/** Which of the SDK's shapes a `config.systemInstruction` object or list has. */
function configShape(v: JsonValue): 'content' | 'part' | 'strings' | 'parts' {
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string') ? 'strings' : 'parts';
  return isPlainObject(v) && Array.isArray(v.parts) ? 'content' : 'part';
}

/** A system instruction written from its messages, in the shape the first was read in. */
function instructionValue(parts: JsonValue[], messages: readonly Message[]): JsonValue {
  const written = writeSystemInstruction(parts, messages);
  return configInstruction(written, providerDataOf(messages[0]!, FORMAT)?.$configShape);
}

/** A written system instruction back in the SDK shape it was read in (when it still fits). */
function configInstruction(written: JsonValue, shape: JsonValue | undefined): JsonValue {
  if (!isPlainObject(written) || !Array.isArray(written.parts) || Object.keys(written).length !== 1)
    return written;
  const parts = written.parts;
  if (shape === 'part' && parts.length === 1) return parts[0]!;
  if (shape === 'parts') return parts;
  const text = (p: JsonValue): p is JsonObject =>
    isPlainObject(p) && Object.keys(p).length === 1 && typeof p.text === 'string';
  if (shape === 'strings' && parts.every(text)) return parts.map((p) => (p as JsonObject).text!);
  return written;
}

/** The request fields that hold a system prompt, in the order they are written. */
const SYSTEM_KEYS = ['systemInstruction', 'system_instruction'] as const;
/** Where a system message goes: a request field, or the SDK's `config.systemInstruction`. */
type SystemKey = (typeof SYSTEM_KEYS)[number] | 'config';

/** The Gemini `generateContent` request format. */
export const geminiFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'Google Gemini generateContent requests: {"contents": [...], "systemInstruction": ...} or a bare contents array',
  readOnly: false,
  target: 'gemini',
  detect: detectGemini,
  read(value) {
    const { conversation, located } = readGemini(value);
    return { conversation, context: { format: FORMAT }, locate: makeLocator(value, located) };
  },
  write(conversation, context) {
    return writeGemini(conversation, context);
  },
};
