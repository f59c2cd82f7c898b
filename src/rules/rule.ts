/**
 * What a lint rule is: metadata plus pure checks over one conversation.
 * Rules report structured problems (a message id, data, where); text is
 * rendered from the rule's messages, and positions are found later, only
 * for files that have findings.
 */
import type { Pairing } from '../core/pairing.js';
import type { JsonValue } from '../model/json.js';
import type { Message, Part, PartType } from '../model/types.js';

/** A rule's severity as configured. */
export type Severity = 'off' | 'warn' | 'error';

/** Which fix repairs a rule's findings (`lint --fix`), or false. */
export type Fixable = 'normalize' | 'unsafe-url' | 'system-message' | false;

/** A rule's metadata. */
export interface RuleMeta {
  /** kebab-case id; provider rules are `<target>/<id>`. */
  id: string;
  /** One sentence for `histlint rules` and the docs. */
  description: string;
  defaultSeverity: Severity;
  /** The fix `lint --fix` applies, or false. */
  fixable: Fixable;
  /** Message templates by id; `{name}` is replaced from the report's data. */
  messages: Record<string, string>;
  /** For provider rules: the `--target` that switches the rule on. */
  target?: string;
}

/** The conversation a rule checks, with its place in the file. */
export interface LintSubject {
  /** The messages, as read (a foreign format is converted to v1 first). */
  messages: readonly Message[];
  /** The conversation value as stored (the envelope, the bare array, or a foreign document). */
  root: JsonValue;
  /** The format it was read from (`histlint` for v1). */
  format: string;
  /** The provider target it is checked against (`--target`, resolved for its format), or null. */
  target: string | null;
  /** For v1: envelope or bare array. */
  shape: 'envelope' | 'bare' | 'foreign';
  /** The pointer of `root` in the whole document (`--pointer`, or the empty pointer). */
  rootPointer: string;
  /** The pointer, in the whole document, of a message, a part, or a path below them. */
  pointerOf(messageIndex?: number, partIndex?: number, path?: readonly (string | number)[]): string;
  /** The pairing index of `messages` (computed once, shared by the pairing rules). */
  pairing(): Pairing;
  /**
   * True when the pairing is known to hold nothing to report (every call has a unique id and
   * exactly one result after it; every result answers a call): a quick check the pairing rules
   * make before asking for {@link pairing}.
   */
  pairsCleanly(): boolean;
  /** `--leave-pending`: the unanswered calls of a trailing assistant message are not findings. */
  leavePending: boolean;
  /** The format `--from` named, or undefined when it was found by detection (`--from auto`). */
  requestedFormat: string | undefined;
  /** The format `--from auto` would have read `root` as, or null (computed when first asked). */
  detectedFormat(): string | null;
}

/** One problem a rule reports. */
export interface Report {
  messageId: string;
  data?: Record<string, string | number>;
  messageIndex?: number;
  partIndex?: number;
  /** A path below the part (or the message when no part is named), e.g. `['content', 0]`. */
  path?: readonly (string | number)[];
  /** An absolute pointer in the document, overriding the three fields above. */
  pointer?: string;
}

/** What a rule's check receives besides the subject. */
export interface RuleContext {
  report(problem: Report): void;
}

/**
 * A lint rule. `check` sees the whole conversation; `message` and `part`
 * are visitors the engine calls in one shared pass over the messages and
 * their top-level parts (as ESLint calls node visitors), so rules that look
 * at one message or part at a time do not each walk the history.
 */
export interface Rule {
  meta: RuleMeta;
  /**
   * The part types `part` is called for (every part when absent):
   * {@link OTHER_PART_TYPES} stands for every type outside the v1 table. The
   * engine reads each part's type once and calls only the visitors that
   * asked for it, so the declaration must cover every part the visitor can
   * report on (a test checks that it reports nothing on any other part).
   */
  partTypes?: readonly (PartType | typeof OTHER_PART_TYPES)[];
  check?(subject: LintSubject, ctx: RuleContext): void;
  message?(message: Message, messageIndex: number, subject: LintSubject, ctx: RuleContext): void;
  part?(
    part: Part,
    messageIndex: number,
    partIndex: number,
    subject: LintSubject,
    ctx: RuleContext,
  ): void;
}

/** In {@link Rule.partTypes}: the part types outside the v1 table. */
export const OTHER_PART_TYPES = '<other>';

/** Declares a rule (an identity function that fixes the type). */
export function defineRule(rule: Rule): Rule {
  return rule;
}

/** Renders a rule's message template with its data. */
export function renderMessage(
  meta: RuleMeta,
  messageId: string,
  data: Record<string, string | number> = {},
): string {
  const template = meta.messages[messageId] ?? messageId;
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in data ? String(data[key]) : whole,
  );
}
