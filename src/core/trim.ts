/**
 * trim and budget: keep the newest messages by count or by tokens, then move
 * the cut past anything that cannot open a request (SPEC §2.3).
 */
import type { Message } from '../model/types.js';
import { WindowAnswers } from './pairing.js';
import { messageTokens, type TokenCounter } from './tokens.js';

/** What a trim kept and removed (SPEC §5.3). */
export interface TrimReport {
  /** Messages written, leading system messages included. */
  kept: number;
  /** Messages left out. */
  removed: number;
  /** Input index of the first kept non-system message; 0 when nothing was cut. */
  firstKeptIndex: number;
}

/** The result of {@link trimHistory} and {@link budgetHistory}. */
export interface TrimResult {
  messages: Message[];
  report: TrimReport;
  changed: boolean;
}

/** Options shared by {@link trimHistory} and {@link budgetHistory}. */
export interface TrimOptions {
  /** Keep leading system messages in front of the window, not counted against the limit. */
  keepSystem?: boolean;
}

/** Options of {@link budgetHistory}. */
export interface BudgetOptions extends TrimOptions {
  /** Counts the tokens of a string (see `loadTokenCounter`). */
  countTokens: TokenCounter;
}

/** Thrown when a cut leaves no message that can open a request. */
export class TrimError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrimError';
  }
}

function leadingSystemCount(messages: readonly Message[], keepSystem: boolean | undefined): number {
  if (!keepSystem) return 0;
  let s = 0;
  while (s < messages.length && messages[s]!.role === 'system') s++;
  return s;
}

/**
 * Moves `start` past tool messages and past assistant messages whose calls
 * are not all answered inside the window `body[start..]` (pairing in order,
 * SPEC §2.1: a later call that reuses an id does not answer an earlier one).
 */
function applyHeadRule(body: readonly Message[], start: number): number {
  let answers: WindowAnswers | undefined;
  while (start < body.length) {
    const m = body[start]!;
    if (m.role === 'tool') {
      start++;
      continue;
    }
    if (m.role === 'assistant' && m.parts.some((p) => p.type === 'tool-call')) {
      answers ??= new WindowAnswers(body);
      if (!answers.callsAnswered(start)) {
        start++;
        continue;
      }
    }
    break;
  }
  return start;
}

function cutAt(
  messages: readonly Message[],
  system: number,
  start: number,
  what: string,
): TrimResult {
  const body = messages.slice(system);
  const from = applyHeadRule(body, start);
  if (from >= body.length) {
    throw new TrimError(`${what} leaves no message that can open a request`);
  }
  const kept = [...messages.slice(0, system), ...body.slice(from)];
  // SPEC 2.3: the first kept *non-system* message, even when a system message opens the window.
  let first = from;
  while (first < body.length && body[first]!.role === 'system') first++;
  if (first === body.length) first = from;
  return {
    messages: kept,
    report: {
      kept: kept.length,
      removed: messages.length - kept.length,
      firstKeptIndex: system + first,
    },
    changed: true,
  };
}

function unchanged(messages: readonly Message[]): TrimResult {
  return {
    messages: messages.slice(),
    report: { kept: messages.length, removed: 0, firstKeptIndex: 0 },
    changed: false,
  };
}

/** Keeps the newest `maxMessages` messages, then applies the head rule. Throws {@link TrimError}. */
export function trimHistory(
  messages: readonly Message[],
  maxMessages: number,
  options: TrimOptions = {},
): TrimResult {
  const system = leadingSystemCount(messages, options.keepSystem);
  const bodyLength = messages.length - system;
  if (bodyLength <= maxMessages) return unchanged(messages);
  return cutAt(
    messages,
    system,
    bodyLength - maxMessages,
    `keeping ${maxMessages} message${maxMessages === 1 ? '' : 's'}`,
  );
}

/** Keeps the newest messages whose token count fits `maxTokens`, then applies the head rule. Throws {@link TrimError}. */
export function budgetHistory(
  messages: readonly Message[],
  maxTokens: number,
  options: BudgetOptions,
): TrimResult {
  const system = leadingSystemCount(messages, options.keepSystem);
  let total = 0;
  let start = messages.length;
  // Walk back from the newest message while the sum still fits.
  for (let pos = messages.length - 1; pos >= system; pos--) {
    const cost = messageTokens(messages[pos]!, options.countTokens);
    if (total + cost > maxTokens) break;
    total += cost;
    start = pos;
  }
  if (start === system) return unchanged(messages);
  return cutAt(
    messages,
    system,
    start - system,
    `a budget of ${maxTokens} token${maxTokens === 1 ? '' : 's'}`,
  );
}
