/**
 * What the provider-target rules (`--target`, SPEC §3) share: how a v1
 * history maps onto a provider's turns, and small readers of parts.
 * The acceptance rules themselves come from the research notes in
 * `shared/reference/providers.md`.
 */
import type { JsonObject, JsonValue } from '../model/json.js';
import { isObject, type Message, type Part } from '../model/types.js';
import type { LintSubject } from './rule.js';

/** The `providerData` entry a format left on a message or part, if any. */
export function providerEntry(obj: JsonObject, format: string): JsonObject | undefined {
  const pd = obj.providerData;
  if (!isObject(pd)) return undefined;
  const entry = pd[format];
  return isObject(entry) ? entry : undefined;
}

/** A string field of an object, or undefined. */
export function stringField(obj: JsonObject | undefined, key: string): string | undefined {
  const v: JsonValue | undefined = obj?.[key];
  return typeof v === 'string' ? v : undefined;
}

/** One provider turn: consecutive v1 messages the provider sees as one message. */
export interface Turn {
  /** `user` for user and tool messages (and any other role), `assistant` for assistant ones. */
  role: 'user' | 'assistant';
  /** Indices of the v1 messages in the turn, in order. */
  messages: number[];
}

/** The provider role of a v1 message: results travel in user turns. */
export function turnRole(message: Message): 'user' | 'assistant' {
  return message.role === 'assistant' ? 'assistant' : 'user';
}

/**
 * Groups the non-system messages into turns (system messages go to the
 * provider's top-level system field). `joins(prev, next)` says whether
 * message `next` joins the turn of message `prev`, which has the same role.
 */
export function providerTurns(
  messages: readonly Message[],
  joins: (prev: number, next: number) => boolean,
): Turn[] {
  const turns: Turn[] = [];
  let last: Turn | undefined;
  messages.forEach((m, i) => {
    if (m.role === 'system') return;
    const role = turnRole(m);
    if (last !== undefined && last.role === role && joins(last.messages.at(-1)!, i)) {
      last.messages.push(i);
      return;
    }
    last = { role, messages: [i] };
    turns.push(last);
  });
  return turns;
}

/** Anthropic's turns: the API merges consecutive turns of one role (SDK `MessageCreateParamsBase.messages`). */
export function anthropicTurns(messages: readonly Message[]): Turn[] {
  return providerTurns(messages, () => true);
}

/**
 * Bedrock's turns: Converse merges nothing, so each v1 message is a turn,
 * except that the one-message-per-result `tool` messages of other formats
 * (OpenAI's) share one user turn, as every conversion writes them.
 */
export function bedrockTurns(subject: LintSubject): Turn[] {
  const messages = subject.messages;
  const native = subject.format === 'bedrock';
  return providerTurns(
    messages,
    (prev, next) => !native && messages[prev]!.role === 'tool' && messages[next]!.role === 'tool',
  );
}

/**
 * Gemini's contents: one per v1 message, except that `tool` messages in a
 * row share one content (the responses to one call turn go in the content
 * right after it), unless they were read from separate Gemini contents.
 */
export function geminiContents(messages: readonly Message[]): Turn[] {
  return providerTurns(
    messages,
    (prev, next) =>
      messages[prev]!.role === 'tool' &&
      messages[next]!.role === 'tool' &&
      providerEntry(messages[next]!, 'gemini')?.$separate !== true,
  );
}

/** A part of a turn, with its place in the history. */
export interface TurnPart {
  part: Part;
  messageIndex: number;
  partIndex: number;
}

/** The parts of a turn, in order. */
export function turnParts(messages: readonly Message[], turn: Turn): TurnPart[] {
  const out: TurnPart[] = [];
  for (const i of turn.messages) {
    messages[i]!.parts.forEach((part, j) => out.push({ part, messageIndex: i, partIndex: j }));
  }
  return out;
}

/** True for a text that is empty or only whitespace. */
export function isBlank(text: JsonValue | undefined): boolean {
  return typeof text === 'string' && text.trim() === '';
}

/**
 * The media type of an image or document part, lower-cased without
 * parameters: its `mediaType`, or the type of a `data:` URL. Undefined when
 * only a plain URL says where the bytes are.
 */
export function mediaTypeOf(part: JsonObject): string | undefined {
  let type: string | undefined;
  if (typeof part.mediaType === 'string') type = part.mediaType;
  else if (typeof part.url === 'string') {
    const m = /^\s*data:([^;,]*)[;,]/i.exec(part.url);
    if (m !== null) type = m[1];
  }
  return type?.split(';')[0]!.trim().toLowerCase();
}

/** One image or document: a part of a message, or a content part of a tool result. */
export interface MediaRef {
  part: JsonObject;
  kind: 'image' | 'document';
  messageIndex: number;
  partIndex: number;
  /** The path below the part (`['content', k]` inside a tool result, else empty). */
  path: (string | number)[];
}

/** Every image and document of a history, in order; `inResults` also looks inside tool results. */
export function mediaParts(messages: readonly Message[], inResults: boolean): MediaRef[] {
  const out: MediaRef[] = [];
  messages.forEach((m, i) => {
    m.parts.forEach((part, j) => {
      if (part.type === 'image' || part.type === 'document') {
        out.push({ part, kind: part.type, messageIndex: i, partIndex: j, path: [] });
      }
      if (!inResults || part.type !== 'tool-result' || !Array.isArray(part.content)) return;
      part.content.forEach((item, k) => {
        if (isObject(item) && (item.type === 'image' || item.type === 'document')) {
          out.push({
            part: item,
            kind: item.type,
            messageIndex: i,
            partIndex: j,
            path: ['content', k],
          });
        }
      });
    });
  });
  return out;
}

/** A tool call of a history with a string id. */
export interface CallAt {
  id: string;
  messageIndex: number;
  partIndex: number;
}

/** The tool calls of the given messages that carry a string id, in order. */
export function callsIn(messages: readonly Message[], indices: readonly number[]): CallAt[] {
  const out: CallAt[] = [];
  for (const i of indices) {
    messages[i]!.parts.forEach((p, j) => {
      if (p.type === 'tool-call' && typeof p.id === 'string') {
        out.push({ id: p.id, messageIndex: i, partIndex: j });
      }
    });
  }
  return out;
}

/** The tool results of the given messages that carry a string `callId`, in order. */
export function resultsIn(messages: readonly Message[], indices: readonly number[]): CallAt[] {
  const out: CallAt[] = [];
  for (const i of indices) {
    messages[i]!.parts.forEach((p, j) => {
      if (p.type === 'tool-result' && typeof p.callId === 'string') {
        out.push({ id: p.callId, messageIndex: i, partIndex: j });
      }
    });
  }
  return out;
}
