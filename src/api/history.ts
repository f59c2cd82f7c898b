/**
 * The history operations as the library exports them: each takes a v1 message array or a v1
 * envelope, and refuses anything else with a {@link HistlintInputError} that says what to call
 * instead. The pure operations in src/core take arrays only (the CLI and the agent read and
 * check their input first); this module is the library's one check of a caller's value, outside
 * src/core because naming a provider's format takes the format registry.
 */
import {
  normalizeHistory as normalizeMessages,
  type NormalizeOptions,
  type NormalizeResult,
} from '../core/normalize.js';
import {
  sanitizeConversation,
  sanitizeHistory as sanitizeMessages,
  type SanitizeOptions,
  type SanitizeResult,
} from '../core/sanitize.js';
import {
  budgetHistory as budgetMessages,
  trimHistory as trimMessages,
  type BudgetOptions,
  type TrimOptions,
  type TrimResult,
} from '../core/trim.js';
import { detectFormat } from '../formats/detect.js';
import type { Conversation } from '../formats/format.js';
import { nativeFormat, withMessages } from '../formats/histlint/index.js';
import { HistlintInputError, SourceError } from '../model/errors.js';
import { JsonNumber, stringifyJson, type JsonValue } from '../model/json.js';
import { isObject, shapeProblem, type Message } from '../model/types.js';

/** An operation's result for an envelope: also the whole envelope, other fields kept, with the new messages. */
export type WithEnvelope<R> = R & { envelope: Conversation };

/** The messages an operation works on, and the envelope they came in (absent for an array). */
interface HistoryInput {
  messages: readonly Message[];
  envelope?: Conversation;
}

const EXPECTED = 'expected a v1 message array or an envelope {"version": 1, "messages": [...]}';
const READ_FIRST =
  'read it first with detectFormat(value).read(value) and pass the conversation it returns';

/** True for an envelope's `version` that is 1 or absent (README, "The conversation format (v1)"). */
function isVersionOne(envelope: Record<string, unknown>): boolean {
  const v = envelope.version;
  return v === undefined || v === 1 || (v instanceof JsonNumber && Number(v) === 1);
}

/** `value` as an operation's input, or the refusal. The v1 format's own detection decides the shape. */
function historyInput(value: unknown, operation: string): HistoryInput {
  const v = value as JsonValue;
  // A UIMessage array looks like v1 messages: detection, which tries ai-sdk-ui first, decides.
  if (nativeFormat.detect(v) && providerFormat(v) === undefined) {
    if (Array.isArray(v)) return { messages: v as Message[] };
    if (isObject(v) && isVersionOne(v)) {
      const envelope = v as Conversation;
      return { messages: envelope.messages, envelope };
    }
  }
  const format = providerFormat(v);
  if (format !== undefined) {
    const got = `got a history in the ${format} format`;
    throw new HistlintInputError(
      `${operation}: ${EXPECTED}, ${got}; ${READ_FIRST}`,
      operation,
      format,
    );
  }
  const got = `got ${described(v)}`;
  throw new HistlintInputError(
    `${operation}: ${EXPECTED}, ${got}; for a provider's history, ${READ_FIRST}`,
    operation,
  );
}

/** The name of the provider format `value` is in, if detection finds one. */
function providerFormat(value: JsonValue): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    const format = detectFormat(value);
    // v1-shaped but refused (another version): no provider's history.
    return format === nativeFormat ? undefined : format.name;
  } catch (e) {
    if (e instanceof SourceError) return undefined;
    throw e;
  }
}

/** What a refused value is, in a few words that follow "got". */
function described(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return String(value);
  if (value instanceof JsonNumber) return 'a number';
  if (typeof value !== 'object') return `a ${typeof value}`;
  if (Array.isArray(value))
    return `an array in which ${shapeProblem(value) ?? 'a message is not v1'}`;
  if (!Object.hasOwn(value, 'messages')) return 'an object without a "messages" array';
  if (!isVersionOne(value))
    return `version ${stringifyJson(value.version!, 0)} (this histlint reads version 1)`;
  const problem = shapeProblem(value.messages!);
  if (problem === 'messages is not an array') return 'an object whose "messages" is not an array';
  return `an envelope in which ${problem ?? 'a message is not v1'}`;
}

/** The core result, plus the envelope with the new messages when the input was one. */
function withEnvelope<R extends { messages: Message[] }>(
  result: R,
  input: HistoryInput,
): R | WithEnvelope<R> {
  if (input.envelope === undefined) return result;
  return { ...result, envelope: withMessages(input.envelope, result.messages) };
}

/**
 * Drops system messages, non-http(s) media URLs and server-side references (for an envelope, also
 * the request fields of its `providerData` that load stored content), then normalizes pairing
 * (SPEC §2.2). Throws
 * {@link HistlintInputError} for a value that is neither a v1 message array nor a v1 envelope.
 */
export function sanitizeHistory(
  messages: readonly Message[],
  options?: SanitizeOptions,
): SanitizeResult;
/** Sanitizes an envelope's messages; `envelope` is the envelope with them, its other fields kept. */
export function sanitizeHistory(
  envelope: Conversation,
  options?: SanitizeOptions,
): WithEnvelope<SanitizeResult>;
/** Sanitizes a message array or an envelope; `envelope` is there for an envelope. */
export function sanitizeHistory(
  history: readonly Message[] | Conversation,
  options?: SanitizeOptions,
): SanitizeResult & { envelope?: Conversation };
/** The implementation: checks the value, runs the core operation on its messages. */
export function sanitizeHistory(
  history: unknown,
  options: SanitizeOptions = {},
): SanitizeResult | WithEnvelope<SanitizeResult> {
  const input = historyInput(history, 'sanitizeHistory');
  if (input.envelope === undefined) return sanitizeMessages(input.messages, options);
  const { providerData, ...result } = sanitizeConversation(
    input.messages,
    input.envelope.providerData,
    options,
  );
  const kept =
    providerData === input.envelope.providerData ? undefined : (providerData as JsonValue);
  return { ...result, envelope: withMessages(input.envelope, result.messages, kept) };
}

/**
 * Repairs pairing: drops results that cannot stay, then synthesizes results for unanswered calls
 * (SPEC §2.1). Throws {@link HistlintInputError} for a value that is not a v1 history.
 */
export function normalizeHistory(
  messages: readonly Message[],
  options?: NormalizeOptions,
): NormalizeResult;
/** Normalizes an envelope's messages; `envelope` is the envelope with them, its other fields kept. */
export function normalizeHistory(
  envelope: Conversation,
  options?: NormalizeOptions,
): WithEnvelope<NormalizeResult>;
/** Normalizes a message array or an envelope; `envelope` is there for an envelope. */
export function normalizeHistory(
  history: readonly Message[] | Conversation,
  options?: NormalizeOptions,
): NormalizeResult & { envelope?: Conversation };
/** The implementation: checks the value, runs the core operation on its messages. */
export function normalizeHistory(
  history: unknown,
  options: NormalizeOptions = {},
): NormalizeResult | WithEnvelope<NormalizeResult> {
  const input = historyInput(history, 'normalizeHistory');
  return withEnvelope(normalizeMessages(input.messages, options), input);
}

/**
 * Keeps the newest `maxMessages` messages, then applies the head rule (SPEC §2.3). Throws
 * `TrimError` when nothing is left, {@link HistlintInputError} for a value that is not a v1 history.
 */
export function trimHistory(
  messages: readonly Message[],
  maxMessages: number,
  options?: TrimOptions,
): TrimResult;
/** Trims an envelope's messages; `envelope` is the envelope with them, its other fields kept. */
export function trimHistory(
  envelope: Conversation,
  maxMessages: number,
  options?: TrimOptions,
): WithEnvelope<TrimResult>;
/** Trims a message array or an envelope; `envelope` is there for an envelope. */
export function trimHistory(
  history: readonly Message[] | Conversation,
  maxMessages: number,
  options?: TrimOptions,
): TrimResult & { envelope?: Conversation };
/** The implementation: checks the value, runs the core operation on its messages. */
export function trimHistory(
  history: unknown,
  maxMessages: number,
  options: TrimOptions = {},
): TrimResult | WithEnvelope<TrimResult> {
  const input = historyInput(history, 'trimHistory');
  return withEnvelope(trimMessages(input.messages, maxMessages, options), input);
}

/**
 * Keeps the newest messages whose tokens fit `maxTokens`, then applies the head rule (SPEC §2.3).
 * Throws `TrimError` when nothing is left, {@link HistlintInputError} for a value that is not a v1 history.
 */
export function budgetHistory(
  messages: readonly Message[],
  maxTokens: number,
  options: BudgetOptions,
): TrimResult;
/** Budgets an envelope's messages; `envelope` is the envelope with them, its other fields kept. */
export function budgetHistory(
  envelope: Conversation,
  maxTokens: number,
  options: BudgetOptions,
): WithEnvelope<TrimResult>;
/** Budgets a message array or an envelope; `envelope` is there for an envelope. */
export function budgetHistory(
  history: readonly Message[] | Conversation,
  maxTokens: number,
  options: BudgetOptions,
): TrimResult & { envelope?: Conversation };
/** The implementation: checks the value, runs the core operation on its messages. */
export function budgetHistory(
  history: unknown,
  maxTokens: number,
  options: BudgetOptions,
): TrimResult | WithEnvelope<TrimResult> {
  const input = historyInput(history, 'budgetHistory');
  return withEnvelope(budgetMessages(input.messages, maxTokens, options), input);
}
