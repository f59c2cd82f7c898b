/**
 * Writes a v1 conversation as a Gemini `generateContent` request (or a bare `contents` array, as
 * read). One message is one content; the tool messages answering one model turn go in the one
 * content right after it (unless read apart); system messages go to the system instruction they
 * were read from. A history read from Gemini comes back as it was; one from elsewhere is written
 * as Gemini accepts it (blank parts and empty contents dropped, a placeholder thought signature
 * on the first call of a step).
 */
import { isSystemPrompt } from '../../core/sanitize.js';
import { parseJson, setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import { type Message, type Part } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
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
import { splitDataUrl } from '../kit/media.js';
import { contextOf, conversationReadHere } from '../kit/provenance.js';
import {
  argumentsToObject,
  argumentsToValue,
  callNames,
  conversationLosses,
  messageLosses,
  objectLosses,
  PART_FIELDS,
  providerExecutedParts,
  type PartWhere,
} from '../shared.js';
import {
  CAMEL,
  FORMAT,
  HINTS,
  SNAKE,
  SYSTEM_KEYS,
  WIRE,
  WIRE_BUT_ROLE,
  type Keys,
  type SystemKey,
} from './hints.js';
import type { GeminiContext } from './read.js';

/** The placeholder thought signature Gemini accepts on calls replayed from another provider (base64 of `skip_thought_signature_validator`). */
export const GEMINI_SKIP_SIGNATURE = 'c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I=';

interface WriteState {
  losses: Loss[];
  /** Ids read as synthetic: written nowhere. */
  syntheticIds: Set<string>;
  /** Call names by id, for results that carry none. */
  callNames: Map<string, string>;
  /** The conversation did not come from a read of Gemini (see conversationReadHere). */
  foreign: boolean;
}

function keysOf(pd: JsonObject | undefined): Keys {
  return pd?.[HINTS.snake] === true ? SNAKE : CAMEL;
}

function withRest(target: JsonObject, pd: JsonObject | undefined): JsonObject {
  restoreFields(target, pd, WIRE);
  return target;
}

function innerOf(pd: JsonObject | undefined, target: JsonObject): JsonObject {
  const inner = pd?.[HINTS.inner];
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
    if (split !== undefined && pd?.[HINTS.fileData] !== true) {
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
  if (typeof part.id === 'string' && pd?.[HINTS.syntheticId] !== true) call.id = part.id;
  if (typeof part.name === 'string') call.name = part.name;
  const text = typeof part.arguments === 'string' ? part.arguments : '{}';
  if (!(pd?.[HINTS.noArgs] === true && text === '{}')) {
    // Raw (non-object) args go back as they parse; text edited into non-JSON takes the object form.
    call.args = pd?.[HINTS.rawArgs] === true ? argumentsToValue(text) : argumentsToObject(text);
  }
  return withRest({ [keys.functionCall]: innerOf(pd, call) }, pd);
}

function responseFrom(
  part: Part,
  pd: JsonObject | undefined,
): { response?: JsonValue; rest: Part[] } {
  const content = Array.isArray(part.content) ? (part.content as Part[]) : [];
  const mode = pd?.[HINTS.response];
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
  if (name !== undefined && pd?.[HINTS.noName] !== true) fr.name = name;
  else if (name === undefined && pd?.[HINTS.noName] !== true)
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
    if (isKeptPart(c, FORMAT)) {
      const node = keptNode(
        c,
        FORMAT,
        state.losses,
        where,
        `tool result content ${k} (${c.type} part)`,
      );
      if (node !== undefined) items.push(node);
      return;
    }
    state.losses.push({ ...where, what: `tool result content ${k} (${c.type} part)` });
  });
  if (items.length > 0 || pd?.[HINTS.parts] === true) fr.parts = items;
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
    const key = pd?.[HINTS.signatureKey];
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
      if (isKeptPart(part, FORMAT)) return keptNode(part, FORMAT, state.losses, where);
      state.losses.push({ ...where, what: `${part.type} part` });
      return undefined;
  }
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
    pd?.[HINTS.string] === true &&
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

/** Writes a v1 conversation as a Gemini request (see the module comment). */
export function writeGemini(conversation: Conversation, context?: unknown): WriteResult {
  const convPd = providerDataOf(conversation, FORMAT);
  const state: WriteState = {
    losses: [],
    syntheticIds: new Set(),
    callNames: callNames(conversation.messages),
    foreign: !conversationReadHere(context, conversation, FORMAT),
  };
  state.losses.push(...conversationLosses(conversation, FORMAT));
  const messages = conversation.messages;
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type !== 'tool-call' || typeof p.id !== 'string') continue;
      if (providerDataOf(p, FORMAT)?.[HINTS.syntheticId] === true) state.syntheticIds.add(p.id);
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
    const turn = m.role === 'tool' && pd?.[HINTS.separate] !== true ? openTurn : undefined;
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
        mpd?.[HINTS.configKey] === true
          ? 'config'
          : mpd?.[HINTS.snakeKey] === true
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
    const keptRole = pd?.[HINTS.role];
    const roleHintValue =
      typeof keptRole === 'string' && isSystemPrompt({ role: keptRole }) ? undefined : keptRole;
    if (roleHintValue === undefined) content.role = m.role === 'assistant' ? 'model' : 'user';
    else if (isPlainObject(roleHintValue) && roleHintValue.null === true) content.role = null;
    else if (roleHintValue !== null) content.role = roleHintValue;
    if (!(pd?.[HINTS.noParts] === true && written.length === 0)) content.parts = written;
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

  const ctx = contextOf(context, FORMAT) as GeminiContext | undefined;
  if (writesBare(ctx, conversation, FORMAT, { losses: state.losses })) {
    if (systemMessages.length > 0) {
      state.losses.push({ what: 'system instruction (a bare contents array has none)' });
    }
    return { value: contents, losses: state.losses };
  }
  // The writer's own fields, in its order (OWN_KEYS): the contents, then the system instructions.
  const own: Record<string, JsonValue | undefined> = { contents };
  for (const key of SYSTEM_KEYS) {
    const { messages, parts } = system[key];
    if (messages.length > 0) own[key] = instructionValue(parts, messages);
  }
  // A system prompt only ever comes from a system message (see withoutSystemFields).
  let kept = withoutSystemFields(convPd, SYSTEM_KEYS, state.losses);
  if (kept !== undefined && isPlainObject(kept.config)) {
    const config = withoutSystemFields(kept.config, SYSTEM_KEYS, state.losses);
    if (config !== kept.config) kept = withField(kept, 'config', config!);
  }
  if (system.config.messages.length > 0) {
    // The SDK's config gets its instruction back, after its other kept settings.
    const config: JsonObject = {};
    const keptConfig = kept?.config;
    if (isPlainObject(keptConfig))
      for (const k of Object.keys(keptConfig)) setOwn(config, k, keptConfig[k]!);
    const first = providerDataOf(system.config.messages[0]!, FORMAT);
    const key = first?.[HINTS.snakeKey] === true ? 'system_instruction' : 'systemInstruction';
    setOwn(config, key, instructionValue(system.config.parts, system.config.messages));
    kept = withField(kept ?? {}, 'config', config);
  }
  // Kept system fields that set a prompt are gone already (withoutSystemFields).
  return { value: writeBody(kept, own), losses: state.losses };
}

/** A copy of `obj` with `key` set to `value` (in its place, when `obj` has it). */
function withField(obj: JsonObject, key: string, value: JsonValue): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(obj)) setOwn(out, k, obj[k]!);
  setOwn(out, key, value);
  return out;
}

/** A system instruction written from its messages, in the shape the first was read in. */
function instructionValue(parts: JsonValue[], messages: readonly Message[]): JsonValue {
  const written = writeSystemInstruction(parts, messages);
  return configInstruction(written, providerDataOf(messages[0]!, FORMAT)?.[HINTS.configShape]);
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
