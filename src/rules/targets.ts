/**
 * What the provider-target rules (`--target`, SPEC §3) share: how a v1
 * history maps onto a provider's turns, small readers of parts, and the
 * checks that several providers' rules run with their own sets, patterns
 * and messages. The acceptance rules themselves come from the research
 * notes in `shared/reference/providers.md`.
 */
import type { JsonObject, JsonValue } from '../model/json.js';
import { isObject, type Message, type Part } from '../model/types.js';
import { turnOrderProblems, type TurnOrderProblem } from '../core/turn-order.js';
import { providerTurns, type ProviderView, type Turn } from '../core/turns.js';
import type { TargetName } from '../names.js';
import type { LintSubject, Report, Rule } from './rule.js';

export { turnParts, type TurnPart } from '../core/turn-order.js';

/** A rule's whole-conversation check, as the factories below build it. */
export type Check = NonNullable<Rule['check']>;

/** A string field of an object, or undefined. */
export function stringField(obj: JsonObject | undefined, key: string): string | undefined {
  const v: JsonValue | undefined = obj?.[key];
  return typeof v === 'string' ? v : undefined;
}

/**
 * The Bedrock turns of a subject, as the Bedrock writer groups them: each
 * message of a Bedrock file is a turn, a history of another format has its
 * consecutive turns of one role merged (see core/turns.ts).
 */
export function bedrockTurns(subject: LintSubject): Turn[] {
  return providerTurns(subject.messages, viewOf(subject, 'bedrock'));
}

/** How a provider sees a subject: natively when it was read from that provider's own format. */
export function viewOf(subject: LintSubject, target: TargetName): ProviderView {
  return { target, native: subject.format === target };
}

/**
 * The check of one turn-order rule: the problems core/turn-order.ts finds
 * for its target, those of this rule (normalize with the target repairs the
 * same problems).
 */
export function turnOrderCheck(ruleId: string, target: TargetName): Check {
  return (subject, ctx) => {
    for (const p of problemsOf(subject, target)) {
      if (p.ruleId !== ruleId) continue;
      const report: Report = { messageId: p.messageId, messageIndex: p.messageIndex };
      if (p.data !== undefined) report.data = p.data;
      if (p.partIndex !== undefined) report.partIndex = p.partIndex;
      if (p.path !== undefined) report.path = p.path;
      ctx.report(report);
    }
  };
}

/**
 * The turn-order problems of a subject for a target, found once however many of the target's
 * rules report them (they share one pass). Keyed by the subject: one lint of one conversation
 * (its messages may be a caller's array, changed between two lints).
 */
const PROBLEMS = new WeakMap<LintSubject, Map<TargetName, TurnOrderProblem[]>>();

function problemsOf(subject: LintSubject, target: TargetName): TurnOrderProblem[] {
  let byTarget = PROBLEMS.get(subject);
  if (byTarget === undefined) PROBLEMS.set(subject, (byTarget = new Map()));
  let problems = byTarget.get(target);
  if (problems === undefined) {
    problems = turnOrderProblems(subject.messages, viewOf(subject, target));
    byTarget.set(target, problems);
  }
  return problems;
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

/** The index of the last message that is not a system message, or -1. */
export function lastNonSystem(messages: readonly Message[]): number {
  let i = messages.length - 1;
  while (i >= 0 && messages[i]!.role === 'system') i--;
  return i;
}

/** What {@link emptyContentCheck} checks besides empty messages. */
export interface EmptyContentOptions {
  /** The last non-system message may be an empty assistant message. */
  finalAssistantMayBeEmpty: boolean;
  /**
   * The message id to report text part `j` of message `i` with, or undefined when the provider
   * takes it; only text parts that are empty or only whitespace are asked about.
   */
  blank(subject: LintSubject, i: number, j: number): string | undefined;
}

/**
 * The check of the rules against empty content (`anthropic/empty-text`,
 * `bedrock/blank-text`): a non-system message with no parts is reported as
 * `empty` with its `{role}`, a text part that is empty or only whitespace as
 * `blank` says. System messages are passed over: they go to the provider's
 * top-level system field.
 */
export function emptyContentCheck(options: EmptyContentOptions): Check {
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
        if (p.type !== 'text' || !isBlank(p.text)) return;
        const messageId = options.blank(subject, i, j);
        if (messageId !== undefined)
          ctx.report({ messageId, messageIndex: i, partIndex: j, path: ['text'] });
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
