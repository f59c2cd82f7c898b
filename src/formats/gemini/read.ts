/**
 * Reads a Gemini `generateContent` request (or a bare `contents` array) into v1. One content is
 * one v1 message (`model` is `assistant`; a user content holding `functionResponse` parts is a
 * `tool` message); every system instruction a request sets becomes a system message before them.
 * Gemini ids are optional: a `functionCall` without `id` gets a synthetic id, paired by position
 * with the id-less `functionResponse` of the content right after its turn (see
 * docs/formats/gemini.md). Parts v1 has no type for are kept whole.
 */
import { setOwn, stringifyJson, type JsonObject, type JsonValue } from '../../model/json.js';
import { type Message, type Part } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import type { Conversation, ReadOptions, ReadResult } from '../format.js';
import { envelopeData, readEnvelope, type Envelope } from '../kit/envelope.js';
import { isPlainObject, keepProviderData, keptPart, mergeFields, restOf } from '../kit/kept.js';
import { mediaPartType } from '../kit/media.js';
import { readContext, type ReadContext } from '../kit/provenance.js';
import { joinPointer, sourceMap, type SourceMap, type FieldSources } from '../kit/source-map.js';
import { makeConversation, notFormat, objectToArguments } from '../shared.js';
import {
  CAMEL,
  dataFieldsOf,
  FORMAT,
  HINTS,
  OWN_KEYS,
  SNAKE,
  SNAKE_FIELDS,
  SYSTEM_KEYS,
  type Keys,
} from './hints.js';

/** What a write of the same format needs to rebuild the original shape. */
export interface GeminiContext extends ReadContext {
  /** The value read was a bare `contents` array (not a request body). */
  bare: boolean;
}

/** A v1 part and where its fields came from, below the part's node. */
interface PartRead {
  part: Part;
  fields?: FieldSources;
  /** For a tool result: where each content part came from, below the part's node. */
  content?: (readonly (string | number)[])[];
}

function unknownPart(p: JsonValue, field: string | undefined): PartRead {
  return { part: keptPart(FORMAT, p, field ?? 'part') };
}

/** The providerData of a part read from `p[field]`: the snake_case hint, then the part's other fields. */
function outerData(p: JsonObject, field: string, keys: Keys): JsonObject {
  return mergeFields(keys === SNAKE ? { [HINTS.snake]: true } : undefined, restOf(p, [field]));
}

/** Keeps `pd` on `part`, after the fields of the inner object `v` other than `known` (as the inner hint). */
function keepWithInner(part: Part, pd: JsonObject, v: JsonObject, known: readonly string[]): void {
  const inner = restOf(v, known);
  if (inner !== undefined) setOwn(pd, HINTS.inner, inner);
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
  const part: Part = { type: mediaPartType(mime) };
  if (inline) part.data = payload;
  else part.url = payload;
  part.mediaType = mime;
  const pd = outerData(p, field, keys);
  const inner = restOf(v, [keys.mimeType, payloadKey]);
  if (inner !== undefined) setOwn(pd, HINTS.inner, inner);
  // A data: URI in fileData would be written back as inlineData without this hint.
  if (!inline && payload.startsWith('data:')) setOwn(pd, HINTS.fileData, true);
  keepProviderData(part, FORMAT, pd);
  return {
    part,
    fields: inline
      ? { data: [field, 'data'], mediaType: [field, keys.mimeType] }
      : { url: [field, keys.fileUri], mediaType: [field, keys.mimeType] },
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
 * The blank hint of a blank text: it marks the part as read from Gemini, so a write without the
 * read's context keeps it (one from another format is dropped).
 */
function blankHint(text: string): JsonObject | undefined {
  return text.trim() === '' ? { [HINTS.blank]: true } : undefined;
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
      const pd: JsonObject = blankHint(p.text) ?? {};
      if (typeof sig === 'string') {
        part.signature = sig;
        known.push(keys.thoughtSignature);
        // Marks the signature as Gemini's own, under the key it came in.
        setOwn(pd, HINTS.signatureKey, keys.thoughtSignature);
      }
      // setOwn, not Object.assign: a "__proto__" field is kept as a field.
      const rest = restOf(p, known) ?? {};
      for (const k of Object.keys(rest)) setOwn(pd, k, rest[k]!);
      keepProviderData(part, FORMAT, pd);
      return { part, fields: { text: 'text', signature: keys.thoughtSignature } };
    }
    const part: Part = { type: 'text', text: p.text };
    keepProviderData(part, FORMAT, mergeFields(blankHint(p.text), restOf(p, ['text'])));
    return { part, fields: { text: 'text' } };
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
      setOwn(pd, HINTS.noArgs, true);
    } else {
      part.arguments = objectToArguments(v.args);
      // Non-object args go back as they were, not wrapped in truncated_args.
      if (!isPlainObject(v.args)) setOwn(pd, HINTS.rawArgs, true);
    }
    keepWithInner(part, pd, v, known);
    return {
      part,
      fields: { id: [field, 'id'], name: [field, 'name'], arguments: [field, 'args'] },
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
      setOwn(pd, HINTS.noName, true);
    }
    const { content, mode, failed } = readResponse(v.response);
    // The text read from `response` is located there; the media of `parts` each at its item.
    const located: (readonly (string | number)[])[] = content.map(() => [field, 'response']);
    if (Array.isArray(v.parts)) {
      // An empty list is written back only with this hint.
      if (v.parts.length === 0) setOwn(pd, HINTS.parts, true);
      v.parts.forEach((item, k) => {
        const media = isPlainObject(item) ? readFunctionResponseMedia(item) : undefined;
        content.push(media ?? unknownPart(item, undefined).part);
        located.push([field, 'parts', k]);
      });
    } else if (v.parts !== undefined) {
      // Not a list: kept as it was, with the response's other fields.
      known.splice(known.indexOf('parts'), 1);
    }
    part.content = content;
    if (failed) part.failed = true;
    // "output" and "error" are what a write produces anyway; other shapes need the hint.
    if (mode !== 'output' && mode !== 'error') setOwn(pd, HINTS.response, mode);
    keepWithInner(part, pd, v, known);
    return {
      part,
      fields: { callId: [field, 'id'], name: [field, 'name'], content: [field, 'response'] },
      content: located,
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

/**
 * The parts list of a Gemini content as the parts of v1 message `i`, the one mapping of Gemini
 * parts: a text a text part (a `thought` one reasoning, with its signature), an inline or file blob
 * an image or document, a function call a tool call, a function response a tool result (media in
 * its `parts` its content), anything else kept whole, typed `gemini:<field>`. Records in `map`
 * where each came from (part `j` at `partPointer(j)`, its fields and a result's content below),
 * so message `i` must be recorded there first. Kept data is under `gemini`: a format whose
 * records hold Gemini parts rekeys it to its own (see ../kit/rekey.ts).
 */
export function readGeminiParts(
  raw: readonly JsonValue[],
  map: SourceMap,
  i: number,
  partPointer: (j: number) => string,
): Part[] {
  return raw.map((p, j) => {
    const r = readPart(p);
    const at = partPointer(j);
    const entry = map.part(i, j, at, r.fields);
    r.content?.forEach((tokens, k) => map.child(entry, k, joinPointer(at, ...tokens)));
    return r.part;
  });
}

/**
 * The v1 role of a content that is not a system instruction: the model's is the assistant's; a
 * user content holding function responses (its parts as {@link readGeminiParts} reads them) is a
 * tool turn.
 */
export function contentRole(model: boolean, parts: readonly Part[]): 'assistant' | 'tool' | 'user' {
  if (model) return 'assistant';
  return parts.some((p) => p.type === 'tool-result') ? 'tool' : 'user';
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

/** What one read is building: its messages, in order, and where each came from. */
interface ReadState {
  messages: Message[];
  map: SourceMap;
  /** The index in `contents` of each message (-1 for a system instruction). */
  contentIndex: number[];
}

/**
 * Reads content `c` (at `pointer`; its part `j` at `partPointer(j)`) as the next v1 message. A
 * system instruction's content (`system`) is read as a system message.
 */
function readContent(
  c: JsonObject,
  state: ReadState,
  pointer: string,
  partPointer: (j: number) => string,
  contentIndex: number,
  system = false,
): Message {
  const rawParts = c.parts;
  const i = state.messages.length;
  state.map.message(i, pointer);
  const parts = readGeminiParts(Array.isArray(rawParts) ? rawParts : [], state.map, i, partPointer);
  const role = system ? 'system' : contentRole(c.role === 'model', parts);
  const message: Message = { role, parts };
  // A system instruction's role (often "user") means nothing: it is kept as a plain field.
  const pd: JsonObject = restOf(c, system ? ['parts'] : ['role', 'parts']) ?? {};
  const hint = system ? undefined : roleHint(c.role, role);
  if (hint !== undefined) setOwn(pd, HINTS.role, hint);
  if (rawParts === undefined) setOwn(pd, HINTS.noParts, true);
  // Marks the content as read from Gemini: a write from another format drops empty ones.
  else if (Array.isArray(rawParts) && rawParts.length === 0) setOwn(pd, HINTS.emptyParts, true);
  keepProviderData(message, FORMAT, pd);
  state.messages.push(message);
  state.contentIndex.push(contentIndex);
  return message;
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
        setOwn(pd, HINTS.syntheticId, true);
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

/** A value a request reads as a system instruction: a string, a Content, a Part, or a list. */
function isConfigInstruction(v: JsonValue | undefined): boolean {
  return typeof v === 'string' || isPlainObject(v) || (Array.isArray(v) && v.length > 0);
}

/** Which of the SDK's shapes a `config.systemInstruction` object or list has. */
function configShape(v: JsonValue): 'content' | 'part' | 'strings' | 'parts' {
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string') ? 'strings' : 'parts';
  return isPlainObject(v) && Array.isArray(v.parts) ? 'content' : 'part';
}

/**
 * A system instruction (at `pointer`) as the next v1 system message, from any shape a request
 * gives it in (see {@link isConfigInstruction}); a shape other than a Content is remembered (the
 * string and config-shape hints) so it is written back as it was. `hints` say where it was read.
 */
function readInstruction(
  si: JsonValue,
  pointer: string,
  state: ReadState,
  hints: JsonObject,
): void {
  let message: Message;
  if (typeof si === 'string') {
    message = { role: 'system', parts: [{ type: 'text', text: si }] };
    keepProviderData(message, FORMAT, { [HINTS.string]: true });
    const i = state.messages.length;
    state.messages.push(message);
    state.contentIndex.push(-1);
    state.map.message(i, pointer);
    state.map.part(i, 0, pointer);
  } else {
    const shape = configShape(si);
    const asContent: JsonObject =
      shape === 'content'
        ? (si as JsonObject)
        : shape === 'part'
          ? { parts: [si] }
          : { parts: (si as JsonValue[]).map((x) => (typeof x === 'string' ? { text: x } : x)) };
    // A Part is its own node; the items of a list are at their index in it.
    const partPointer =
      shape === 'content'
        ? (j: number) => joinPointer(pointer, 'parts', j)
        : shape === 'part'
          ? () => pointer
          : (j: number) => joinPointer(pointer, j);
    message = readContent(asContent, state, pointer, partPointer, -1, true);
    if (shape !== 'content') {
      const pd = providerDataOf(message, FORMAT) ?? {};
      setOwn(pd, HINTS.configShape, shape);
      keepProviderData(message, FORMAT, pd);
    }
  }
  const pd = providerDataOf(message, FORMAT) ?? {};
  for (const k of Object.keys(hints)) setOwn(pd, k, hints[k]!);
  keepProviderData(message, FORMAT, pd);
}

/**
 * The conversation's kept data: the request's other fields in read order (a `config` without the
 * system instruction read from it), `$bare` for a bare array; `taken` in the writer's order
 * (OWN_KEYS), so the kit records the key order when the writer's default would not give it back.
 */
function keptData(
  envelope: Envelope,
  taken: readonly string[],
  config: JsonObject | undefined,
): JsonObject | undefined {
  const data = envelopeData(
    envelope,
    OWN_KEYS.filter((k) => taken.includes(k)),
  );
  // The config stays where it was, without the system instruction read from it.
  if (config !== undefined) setOwn(data!, 'config', config);
  return data;
}

/** Reads a Gemini request or bare `contents` array into v1 (see the module comment). */
export function readGemini(value: JsonValue, options?: ReadOptions): ReadResult {
  const why = { why: 'no "contents" array' };
  const envelope = readEnvelope(value, FORMAT, 'contents', why, options);
  const contents = envelope.list;
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

  const state: ReadState = {
    messages: [],
    map: sourceMap(envelope.base, value, options),
    contentIndex: [],
  };
  const taken = ['contents'];
  let keptConfig: JsonObject | undefined;
  const request = envelope.body;
  if (request !== undefined) {
    // Every place a request sets a system prompt is read (a null one is unset), so none is left
    // behind: `systemInstruction` and the REST API's snake_case `system_instruction`, and the
    // @google/genai SDK's `config.systemInstruction` (the Python SDK spells it
    // `config.system_instruction`). Each takes a string, a Content, a Part, or a list of Parts or
    // strings (the SDKs wrap them in a Content; the API reads a Part too).
    const read = (si: JsonValue | undefined, pointer: string, hints: JsonObject): boolean => {
      if (!isConfigInstruction(si)) return false;
      readInstruction(si!, pointer, state, hints);
      return true;
    };
    for (const key of SYSTEM_KEYS) {
      const hints: JsonObject = key === 'system_instruction' ? { [HINTS.snakeKey]: true } : {};
      if (read(request[key], joinPointer('', key), hints)) taken.push(key);
    }
    const config = request.config;
    if (isPlainObject(config)) {
      const fromConfig: string[] = [];
      for (const key of SYSTEM_KEYS) {
        const hints: JsonObject = { [HINTS.configKey]: true };
        if (key === 'system_instruction') setOwn(hints, HINTS.snakeKey, true);
        if (read(config[key], joinPointer('', 'config', key), hints)) fromConfig.push(key);
      }
      if (fromConfig.length > 0) keptConfig = restOf(config, fromConfig) ?? {};
    }
  }

  let previousTool = false;
  contents.forEach((c, i) => {
    const pointer = joinPointer(envelope.base, i);
    const message = readContent(
      c as JsonObject,
      state,
      pointer,
      (j) => joinPointer(pointer, 'parts', j),
      i,
    );
    // Consecutive tool contents stay apart on write; a synthesized one merges.
    if (message.role === 'tool' && previousTool) {
      const pd = providerDataOf(message, FORMAT) ?? {};
      setOwn(pd, HINTS.separate, true);
      keepProviderData(message, FORMAT, pd);
    }
    previousTool = message.role === 'tool';
  });
  assignSyntheticIds(state.messages, state.contentIndex);

  const conversation: Conversation = makeConversation(
    state.messages,
    FORMAT,
    keptData(envelope, taken, keptConfig),
  );
  const context: GeminiContext = { ...readContext(FORMAT, options), bare: envelope.bare };
  // After the synthetic ids: the parts that got one are copies.
  for (const m of conversation.messages) {
    context.read.add(m);
    for (const p of m.parts) {
      context.read.add(p);
      if (Array.isArray(p.content))
        for (const c of p.content) if (isPlainObject(c)) context.read.add(c);
    }
  }
  return { conversation, context, locate: state.map.locate };
}
