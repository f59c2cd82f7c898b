/**
 * Writes a v1 conversation as an AI SDK `UIMessage[]`. A UIMessage keeps a
 * tool call and its result on one part, so each answered call (the shared
 * pairing index says which result answers it) takes its result with it, and a
 * v1 `tool` message leaves nothing of its own behind.
 */
import { analyzePairing } from '../../core/pairing.js';
import { parseJson, setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import { PART_TYPES, type Message, type Part } from '../../model/types.js';
import { placeSignatures } from '../ai-sdk/signatures.js';
import { type Conversation, type Loss, type WriteResult } from '../format.js';
import { providerDataOf } from '../../model/provider-data.js';
import { writeBody, writesBare } from '../kit/envelope.js';
import { isKeptPart, isPlainObject, keptNode, restoreFields } from '../kit/kept.js';
import { toDataUrl } from '../kit/media.js';
import { contextOf, readHere } from '../kit/provenance.js';
import {
  argumentsToInput,
  conversationLosses,
  fieldLosses,
  messageLosses,
  objectLosses,
  PART_FIELDS,
  type PartWhere,
  providerDataLosses,
} from '../shared.js';
import {
  DOCUMENT_WIRE,
  FORMAT,
  HINTS,
  MESSAGE_WIRE,
  OPEN_STATES,
  PART_WIRE,
  TOOL_WIRE,
} from './hints.js';
import type { UiContext } from './read.js';

/** Text parts of a result's content are joined with a blank line, as one output string. */
const TEXT_JOIN = '\n\n';

/** A call's result, written on the call's part. */
interface Answer {
  result: Part;
  where: PartWhere;
  /** The result is in the call's own message (provider-executed). */
  inPlace: boolean;
}

interface WriteState {
  /**
   * The read context the write was given (see readHere): what a UIMessage role cannot hold is
   * dropped, and said, from a message not read from this format.
   */
  context: unknown;
  losses: Loss[];
  /** Each answered call's result, by the call's `messageIndex:partIndex`. */
  answers: Map<string, Answer>;
  /** The results written on their call's part, by `messageIndex:partIndex`. */
  folded: Set<string>;
}

const at = (messageIndex: number, partIndex: number): string => `${messageIndex}:${partIndex}`;

/**
 * Which v1 part types a UIMessage of a role takes (convertToModelMessages reads no other); a role
 * a UIMessage does not have is written as it is, with all its parts.
 */
function allowedIn(role: string, type: string): boolean {
  switch (role) {
    case 'system':
      return type === 'text';
    case 'user':
      return type === 'text' || type === 'image' || type === 'document';
    default:
      return true;
  }
}

/** The results the calls of `messages` take with them: the answer the pairing index gives each call. */
function foldAnswers(messages: readonly Message[], state: WriteState): void {
  for (const call of analyzePairing(messages).calls) {
    const r = call.answer;
    if (r === undefined) continue;
    // A call a role cannot hold is dropped (a tool message's other parts go to a user message).
    const m = messages[call.position]!;
    const strict = !readHere(state.context, m, FORMAT);
    if (strict && (m.role === 'tool' || !allowedIn(m.role, 'tool-call'))) continue;
    state.answers.set(at(call.position, call.partIndex), {
      result: messages[r.position]!.parts[r.partIndex]!,
      where: { messageIndex: r.position, partIndex: r.partIndex },
      inPlace: r.position === call.position,
    });
    state.folded.add(at(r.position, r.partIndex));
  }
}

/** Writes a v1 image or document as a `file` part (inline data as a data: URL), or undefined without either. */
function writeFile(part: Part, data: JsonObject | undefined): JsonObject | undefined {
  const image = part.type === 'image';
  // UIMessage files always name a media type; the AI SDK providers take `image/*` for "some image".
  const mediaType =
    typeof part.mediaType === 'string'
      ? part.mediaType
      : image
        ? 'image/*'
        : 'application/octet-stream';
  let url: string;
  if (typeof part.url === 'string') url = part.url;
  else if (typeof part.data === 'string') url = toDataUrl(mediaType, part.data);
  else return undefined;
  const out: JsonObject = { type: 'file', mediaType };
  if (!image && typeof part.name === 'string') out.filename = part.name;
  out.url = url;
  restoreFields(out, data, image ? PART_WIRE : DOCUMENT_WIRE);
  return out;
}

/** The JSON value a result's text holds, or the text itself when it is none. */
function jsonOrText(text: string): JsonValue {
  try {
    return parseJson(text);
  } catch {
    return text;
  }
}

/** A result's text (its text parts joined), whether it was one text part, and the losses of the rest. */
function resultText(answer: Answer, state: WriteState): { text: string; oneText: boolean } {
  const { result, where } = answer;
  const content = Array.isArray(result.content) ? (result.content as Part[]) : [];
  state.losses.push(
    ...objectLosses(result, FORMAT, PART_FIELDS['tool-result'], where, 'tool-result part'),
  );
  const texts: string[] = [];
  for (const c of content) {
    state.losses.push(...providerDataLosses(c, FORMAT, where));
    if (c.type === 'text' && typeof c.text === 'string') texts.push(c.text);
    else
      state.losses.push({
        ...where,
        what: `${c.type} part in a tool result (a UI tool output is JSON)`,
      });
  }
  return { text: texts.join(TEXT_JOIN), oneText: content.length === 1 && texts.length === 1 };
}

/** Writes a tool call, with its result when it has one, as one `tool-<name>` (or `dynamic-tool`) part. */
function writeTool(
  call: Part,
  data: JsonObject | undefined,
  answer: Answer | undefined,
  state: WriteState,
): JsonObject {
  const name = typeof call.name === 'string' ? call.name : undefined;
  // A call without a name has no `tool-<name>` type.
  const dynamic = data?.[HINTS.dynamic] === true || name === undefined || name === '';
  const out: JsonObject = { type: dynamic ? 'dynamic-tool' : `tool-${name}` };
  if (dynamic && name !== undefined) out.toolName = name;
  if (typeof call.id === 'string') out.toolCallId = call.id;
  const kept = data?.[HINTS.state];
  let uiState = typeof kept === 'string' && OPEN_STATES.includes(kept) ? kept : 'input-available';
  const resultData = answer === undefined ? undefined : providerDataOf(answer.result, FORMAT);
  let text = '';
  let oneText = false;
  if (answer !== undefined) {
    ({ text, oneText } = resultText(answer, state));
    if (answer.result.failed === true)
      uiState = kept === 'output-denied' ? 'output-denied' : 'output-error';
    else uiState = 'output-available';
  }
  out.state = uiState;
  const key =
    data?.[HINTS.inputKey] === 'rawInput' && uiState === 'output-error' ? 'rawInput' : 'input';
  const input = argumentsToInput(
    typeof call.arguments === 'string' ? call.arguments : '',
    data?.[HINTS.input],
  );
  if (key === 'rawInput' && data?.[HINTS.nullInput] === true) out.input = null;
  if (input !== undefined) out[key] = input;
  // A kept rawInput only where the AI SDK does not send it (it does for an output-error without input).
  const rawKept = data?.[HINTS.rawInput];
  const sent = uiState === 'output-error' && (out.input === undefined || out.input === null);
  if (key === 'input' && rawKept !== undefined && !sent) out.rawInput = rawKept;
  if (uiState === 'output-available') {
    const hint = resultData?.[HINTS.output];
    if (hint === 'json' && oneText) out.output = jsonOrText(text);
    else if (!(hint === 'absent' && text === '')) out.output = text;
  } else if (uiState === 'output-error') out.errorText = text;
  if (answer?.inPlace === true) out.providerExecuted = true;
  else if (data !== undefined && Object.hasOwn(data, HINTS.providerExecuted))
    out.providerExecuted = data[HINTS.providerExecuted]!;
  restoreFields(out, data, TOOL_WIRE);
  restoreFields(out, resultData, TOOL_WIRE);
  if (uiState === 'output-denied' && text !== '') {
    // The refusal's reason is the result's text.
    const approval: JsonObject = {};
    if (isPlainObject(out.approval))
      for (const k of Object.keys(out.approval)) setOwn(approval, k, out.approval[k]!);
    approval.reason = text;
    out.approval = approval;
  }
  return out;
}

/**
 * Writes one part of a message, or undefined when it is dropped (a loss) or written on its call;
 * `strict`: the message was not read from this format.
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
  if (part.type === 'tool-result') {
    return lose(
      `tool result with no call to write it on (a UIMessage keeps it on the call's part)`,
    );
  }
  if (strict && !allowedIn(role, part.type)) return lose(`${part.type} part in a ${role} message`);
  state.losses.push(...providerDataLosses(part, FORMAT, where));
  switch (part.type) {
    case 'text': {
      state.losses.push(...fieldLosses(part, PART_FIELDS.text, where, 'text part'));
      const out: JsonObject = { type: 'text', text: part.text! };
      restoreFields(out, data, PART_WIRE);
      return out;
    }
    case 'reasoning': {
      state.losses.push(...fieldLosses(part, PART_FIELDS.reasoning, where, 'reasoning part'));
      const out: JsonObject = {
        type: 'reasoning',
        text: typeof part.text === 'string' ? part.text : '',
      };
      restoreFields(out, data, PART_WIRE);
      placeSignatures(out, 'providerMetadata', part, data, where, state.losses);
      return out;
    }
    case 'image':
    case 'document':
      state.losses.push(
        ...fieldLosses(
          part,
          part.type === 'document' ? PART_FIELDS.document : PART_FIELDS.image,
          where,
          `${part.type} part`,
        ),
      );
      return writeFile(part, data) ?? lose(`${part.type} part without url or data`);
    default:
      state.losses.push(...fieldLosses(part, PART_FIELDS['tool-call'], where, 'tool-call part'));
      return writeTool(
        part,
        data,
        state.answers.get(at(where.messageIndex, where.partIndex)),
        state,
      );
  }
}

/** A written UIMessage, and whether it still needs an `id`. */
interface Written {
  message: JsonObject;
  needsId: boolean;
}

/** Writes one v1 message: a UIMessage, parts added to the one before it, or (a tool message) nothing of its own. */
function writeMessage(m: Message, i: number, state: WriteState, out: Written[]): void {
  state.losses.push(...messageLosses(m, i, FORMAT));
  const data = providerDataOf(m, FORMAT);
  // A message read here is written as it was; another one as convertToModelMessages reads it.
  const strict = !readHere(state.context, m, FORMAT);
  const parts: JsonValue[] = [];
  m.parts.forEach((part, j) => {
    if (state.folded.has(at(i, j))) return;
    // A tool message's other parts (an Anthropic follow-up text) go to a user message.
    const role = m.role === 'tool' && part.type !== 'tool-result' ? 'user' : m.role;
    const w = writePart(part, role, { messageIndex: i, partIndex: j }, state, strict);
    if (w !== undefined) parts.push(w);
  });
  if (m.role === 'tool') {
    if (parts.length > 0) out.push({ message: { role: 'user', parts }, needsId: true });
    return;
  }
  const previous = out[out.length - 1]?.message;
  if (data?.[HINTS.continues] === true && previous !== undefined && previous.role === m.role) {
    (previous.parts as JsonValue[]).push(...parts);
    return;
  }
  const message: JsonObject = {};
  const hasId = data !== undefined && Object.hasOwn(data, 'id');
  // The id first, as UIMessages are written.
  if (hasId) message.id = data.id!;
  message.role = m.role;
  message.parts = parts;
  restoreFields(message, data, MESSAGE_WIRE);
  out.push({ message, needsId: !hasId && data?.[HINTS.noId] !== true });
}

/** Gives each message that needs one an id no other message has: `msg-<index>`. */
function assignIds(written: Written[]): void {
  const taken = new Set<JsonValue>();
  for (const w of written) if (!w.needsId) taken.add(w.message.id!);
  written.forEach((w, k) => {
    if (!w.needsId) return;
    let id = `msg-${k}`;
    for (let n = 2; taken.has(id); n++) id = `msg-${k}-${n}`;
    taken.add(id);
    const message: JsonObject = { id };
    for (const key of Object.keys(w.message)) setOwn(message, key, w.message[key]!);
    w.message = message;
  });
}

/** Writes a conversation as a UIMessage array (bare, or the body it was read from). */
export function writeAiSdkUi(conversation: Conversation, context: unknown): WriteResult {
  const ctx = contextOf(context, FORMAT) as UiContext | undefined;
  const state: WriteState = {
    context,
    losses: conversationLosses(conversation, FORMAT),
    answers: new Map(),
    folded: new Set(),
  };
  foldAnswers(conversation.messages, state);
  const written: Written[] = [];
  conversation.messages.forEach((m, i) => writeMessage(m, i, state, written));
  assignIds(written);
  const messages = written.map((w) => w.message);
  // A conversation with no kept data of this format (another format's) is written bare.
  if (writesBare(ctx, conversation, FORMAT, { fallback: true, losses: state.losses }))
    return { value: messages, losses: state.losses };
  return {
    value: writeBody(providerDataOf(conversation, FORMAT), { messages }),
    losses: state.losses,
  };
}
