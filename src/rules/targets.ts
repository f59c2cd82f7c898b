/**
 * What the provider-target rules (`--target`, SPEC §3) share: how a v1
 * history maps onto a provider's turns, small readers of parts, and the
 * checks that several providers' rules run with their own sets, patterns
 * and messages. The acceptance rules themselves come from the research
 * notes in `shared/reference/providers.md`.
 */
import type { JsonObject, JsonValue } from '../model/json.js';
import { isObject, type Message, type Part } from '../model/types.js';
import type { LintSubject, Rule } from './rule.js';

/** A rule's whole-conversation check, as the factories below build it. */
export type Check = NonNullable<Rule['check']>;

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

/** The path of the field a media type was read from: `mediaType`, or else the `url`. */
export function mediaTypePath(ref: MediaRef): (string | number)[] {
  return [...ref.path, typeof ref.part.mediaType === 'string' ? 'mediaType' : 'url'];
}

/**
 * A check that the media type of every image is in `accepted`, reported as
 * `type` with `{mediaType}`; `inResults` also checks the images inside tool
 * results. An image given only by a plain URL has no type to check.
 */
export function imageMediaTypeCheck(
  accepted: ReadonlySet<string>,
  options: { inResults: boolean },
): Check {
  return (subject, ctx) => {
    for (const ref of mediaParts(subject.messages, options.inResults)) {
      const mediaType = ref.kind === 'image' ? mediaTypeOf(ref.part) : undefined;
      if (mediaType === undefined || accepted.has(mediaType)) continue;
      ctx.report({
        messageId: 'type',
        data: { mediaType },
        messageIndex: ref.messageIndex,
        partIndex: ref.partIndex,
        path: mediaTypePath(ref),
      });
    }
  };
}

/** A tool call of a history with a string id. */
export interface CallAt {
  id: string;
  messageIndex: number;
  partIndex: number;
}

/** The parts of the given messages of one type whose `key` is a string, in order. */
function idsIn(
  messages: readonly Message[],
  indices: readonly number[],
  type: 'tool-call' | 'tool-result',
  key: 'id' | 'callId',
): CallAt[] {
  const out: CallAt[] = [];
  for (const i of indices) {
    messages[i]!.parts.forEach((p, j) => {
      const id = p.type === type ? p[key] : undefined;
      if (typeof id === 'string') out.push({ id, messageIndex: i, partIndex: j });
    });
  }
  return out;
}

/** The tool calls of the given messages that carry a string id, in order. */
export function callsIn(messages: readonly Message[], indices: readonly number[]): CallAt[] {
  return idsIn(messages, indices, 'tool-call', 'id');
}

/** The tool results of the given messages that carry a string `callId`, in order. */
export function resultsIn(messages: readonly Message[], indices: readonly number[]): CallAt[] {
  return idsIn(messages, indices, 'tool-result', 'callId');
}

/** The calls whose id is not in `answered`, each id once (its first call). */
export function unansweredCalls(calls: readonly CallAt[], answered: ReadonlySet<string>): CallAt[] {
  const seen = new Set<string>();
  return calls.filter((call) => {
    if (answered.has(call.id) || seen.has(call.id)) return false;
    seen.add(call.id);
    return true;
  });
}

/**
 * The check of the rules that pair calls and results turn by turn
 * (`anthropic/tool-result-next-turn`, `bedrock/tool-result-next-turn`):
 * every call of an assistant turn has a result in the user turn right
 * after it (reported once per id, as `missing` with its `{id}`), and every
 * result of a user turn answers a call of the assistant turn right before
 * it (reported as `unexpected` with its `{id}`). A turn of the other role
 * in between (two assistant turns in a row, as Bedrock keeps them) answers
 * nothing; where turns of one role merge (Anthropic) there is none. A history
 * that ends with an assistant turn leaves its calls pending:
 * dangling-tool-call reports them.
 */
export function nextTurnResultsCheck(
  turnsOf: (subject: LintSubject) => Turn[],
  messageIds: { missing: string; unexpected: string },
): Check {
  return (subject, ctx) => {
    const messages = subject.messages;
    const turns = turnsOf(subject);
    turns.forEach((turn, t) => {
      if (turn.role === 'assistant') {
        const next = turns[t + 1];
        if (next === undefined) return;
        const answered = new Set(
          next.role === 'user' ? resultsIn(messages, next.messages).map((r) => r.id) : [],
        );
        for (const call of unansweredCalls(callsIn(messages, turn.messages), answered)) {
          ctx.report({
            messageId: messageIds.missing,
            data: { id: call.id },
            messageIndex: call.messageIndex,
            partIndex: call.partIndex,
          });
        }
        return;
      }
      const previous = turns[t - 1];
      const calls = new Set(
        previous?.role === 'assistant' ? callsIn(messages, previous.messages).map((c) => c.id) : [],
      );
      for (const result of resultsIn(messages, turn.messages)) {
        if (calls.has(result.id)) continue;
        ctx.report({
          messageId: messageIds.unexpected,
          data: { id: result.id },
          messageIndex: result.messageIndex,
          partIndex: result.partIndex,
          path: ['callId'],
        });
      }
    });
  };
}

/** The index of the last message that is not a system message, or -1. */
export function lastNonSystem(messages: readonly Message[]): number {
  let i = messages.length - 1;
  while (i >= 0 && messages[i]!.role === 'system') i--;
  return i;
}

/**
 * The check of the rules against empty content (`anthropic/empty-text`,
 * `bedrock/blank-text`): a non-system message with no parts is reported as
 * `empty` with its `{role}`, a text part that is empty or only whitespace as
 * `blank`. With `finalAssistantMayBeEmpty`, the last non-system message may
 * be an empty assistant message. System messages are passed over: they go
 * to the provider's top-level system field.
 */
export function emptyContentCheck(options: { finalAssistantMayBeEmpty: boolean }): Check {
  return (subject, ctx) => {
    const messages = subject.messages;
    const last = options.finalAssistantMayBeEmpty ? lastNonSystem(messages) : -1;
    messages.forEach((m, i) => {
      if (m.role === 'system') return;
      if (m.parts.length === 0) {
        if (i === last && m.role === 'assistant') return;
        ctx.report({
          messageId: 'empty',
          data: { role: m.role },
          messageIndex: i,
          path: ['parts'],
        });
        return;
      }
      m.parts.forEach((p, j) => {
        if (p.type === 'text' && isBlank(p.text)) {
          ctx.report({ messageId: 'blank', messageIndex: i, partIndex: j, path: ['text'] });
        }
      });
    });
  };
}

/** What {@link partFieldCheck} checks, and how it reports. */
export interface PartFieldCheck {
  messageId: string;
  /** The field of a top-level part to check, or undefined to pass the part over. */
  field: (part: Part) => string | undefined;
  /** Whether a string value is accepted; a field that is absent or not a string is. */
  valid: (value: string) => boolean;
  /** The report's data for a rejected value. */
  data: (part: Part, value: string) => Record<string, string | number>;
}

/**
 * A check that a string field of the top-level parts is valid; a rejected
 * value is reported at the field.
 */
export function partFieldCheck(spec: PartFieldCheck): Check {
  return (subject, ctx) => {
    subject.messages.forEach((m, i) => {
      m.parts.forEach((p, j) => {
        const field = spec.field(p);
        if (field === undefined) return;
        const value = p[field];
        if (typeof value !== 'string' || spec.valid(value)) return;
        ctx.report({
          messageId: spec.messageId,
          data: spec.data(p, value),
          messageIndex: i,
          partIndex: j,
          path: [field],
        });
      });
    });
  };
}

/**
 * A check that every tool call `id` and tool result `callId` matches
 * `pattern`, reported as `pattern` with `{kind}` (tool call, tool result)
 * and `{id}`.
 */
export function toolIdPatternCheck(pattern: RegExp): Check {
  return partFieldCheck({
    messageId: 'pattern',
    field: (p) => (p.type === 'tool-call' ? 'id' : p.type === 'tool-result' ? 'callId' : undefined),
    valid: (id) => pattern.test(id),
    data: (p, id) => ({ kind: p.type === 'tool-call' ? 'tool call' : 'tool result', id }),
  });
}

/** A check that every tool call `name` matches `pattern`, reported as `pattern` with `{name}`. */
export function functionNamePatternCheck(pattern: RegExp): Check {
  return partFieldCheck({
    messageId: 'pattern',
    field: (p) => (p.type === 'tool-call' ? 'name' : undefined),
    valid: (name) => pattern.test(name),
    data: (_p, name) => ({ name }),
  });
}
