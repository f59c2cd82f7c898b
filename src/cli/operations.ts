/**
 * The file operations (normalize, sanitize, trim) as the CLI runs them:
 * the core function, the key of its report, and its human summary.
 */
import type { ChalkInstance } from 'chalk';
import { normalizeHistory, type HistoryRepair, type NormalizeOptions } from '../core/normalize.js';
import {
  sanitizeConversation,
  type SanitizeOptions,
  type SanitizeReport,
} from '../core/sanitize.js';
import { budgetHistory, trimHistory, type TrimReport } from '../core/trim.js';
import type { TokenCounter } from '../core/tokens.js';
import { targetFor, type ConversationFormat, type Loss } from '../formats/format.js';
import type { Dropped } from '../formats/shared.js';
import type { JsonValue } from '../model/json.js';
import type { Message } from '../model/types.js';
import { terminalSafe } from '../reporters/terminal.js';

/** What an operation returns for one conversation. */
export interface OperationOutcome {
  messages: Message[];
  report: object;
  changed: boolean;
  /** For normalize: the provider target it repaired for (`null`: none), named in the report entry. */
  target?: string | null;
  /** For sanitize: the conversation's new kept request data, when it dropped fields of it. */
  providerData?: JsonValue;
}

/** What the command line settles for every conversation of a run (flags over the config). */
export interface OperationSettings {
  /** `--target` or the config's `target`: `auto`, `none` or a provider. */
  target: string;
}

/** An operation the transform pipeline runs on every conversation. */
export interface Operation {
  /** The command name. */
  name: string;
  /** The key of the operation's object in a JSON report entry. */
  reportKey: 'repair' | 'sanitize' | 'trim' | 'convert';
  /** Runs the operation on a conversation's messages and kept request data; throws `TrimError` to refuse it. */
  apply(
    messages: Message[],
    format: ConversationFormat,
    settings: OperationSettings,
    providerData?: JsonValue,
  ): OperationOutcome;
  /** For convert: the format every conversation is written in. */
  to?: ConversationFormat;
  /** For convert: write even what the target cannot express fully. */
  lossy?: boolean;
  /** Human lines for a report: a summary, then one line per change. */
  describe(report: object, chalk: ChalkInstance): { summary: string; details: string[] };
  /**
   * For sanitize: a document (or JSONL line) that repeats a key is rewritten with the value
   * histlint read, and its report lists the repeats (`duplicateKeys`), so a first-key parser
   * downstream cannot see what sanitize did not.
   */
  rewritesDuplicateKeys?: boolean;
  /**
   * For trim: a session file (SPEC §5.1) is not written (a trimmed session would no longer be
   * the session its CLI resumes); the repairs write sessions back in place.
   */
  refusesSessions?: boolean;
}

/** A key an object of a document repeats: where its kept (last) value is, and the key. */
export interface DuplicateKey {
  pointer: string;
  key: string;
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

// Ids, names and types below come from the history, which may be hostile: they are shown with
// control, bidi and line-breaking characters escaped, so a history cannot forge a report line
// or move the cursor.

function callLabel(callId: string | undefined, name: string | undefined): string {
  const id = callId === undefined ? 'without id' : terminalSafe(callId);
  return name === undefined ? `call ${id}` : `call ${id} (${terminalSafe(name)})`;
}

/** Human lines for a repair report. */
export function describeRepair(
  repair: HistoryRepair,
  chalk: ChalkInstance,
): { summary: string; details: string[] } {
  const { summary, details } = repairLines(repair, chalk);
  return { summary, details: details.map((d) => d[1]) };
}

/** A repair report's summary, and its lines each with the message index it is about, in input order. */
function repairLines(
  repair: HistoryRepair,
  chalk: ChalkInstance,
): { summary: string; details: [number, string][] } {
  const counts: string[] = [];
  if (repair.synthesized.length > 0) counts.push(`${repair.synthesized.length} synthesized`);
  if (repair.dropped.length > 0) counts.push(`${repair.dropped.length} dropped`);
  if (repair.moved.length > 0) counts.push(`${repair.moved.length} moved`);
  if ((repair.merged ?? []).length > 0) counts.push(`${repair.merged!.length} merged`);
  if (repair.truncated.length > 0) counts.push(plural(repair.truncated.length, 'truncated call'));
  // One timeline: every change in input order, whatever its kind.
  const details: [number, string][] = [];
  for (const s of repair.synthesized) {
    details.push([
      s.assistantIndex,
      `message ${s.assistantIndex}: ${chalk.green('synthesized')} a result for ${callLabel(s.callId, s.name)}`,
    ]);
  }
  const reasons = {
    orphan: 'its call is absent',
    'before-call': 'it comes before its call',
    duplicate: 'a second result for its call',
  };
  for (const d of repair.dropped) {
    details.push([
      d.messageIndex,
      `message ${d.messageIndex}: ${chalk.red('dropped')} the result for call ${terminalSafe(d.callId)} (${reasons[d.reason]})`,
    ]);
  }
  for (const m of repair.moved) {
    details.push([
      m.fromIndex,
      `message ${m.fromIndex}: ${chalk.green('moved')} the result for call ${terminalSafe(m.callId)} next to its call (after message ${m.afterIndex})`,
    ]);
  }
  for (const m of repair.merged ?? []) {
    details.push([
      m.messageIndex,
      `message ${m.messageIndex}: ${chalk.green('merged')} into message ${m.intoIndex} (turns must alternate)`,
    ]);
  }
  for (const t of repair.truncated) {
    const shown = terminalSafe(
      t.arguments.length > 40
        ? JSON.stringify(t.arguments.slice(0, 40)) + '…'
        : JSON.stringify(t.arguments),
    );
    details.push([
      t.messageIndex,
      `message ${t.messageIndex}: ${chalk.yellow('truncated')} arguments of ${callLabel(t.callId, t.name)}: ${shown} (left as is)`,
    ]);
  }
  details.sort((a, b) => a[0] - b[0]);
  return { summary: counts.join(', '), details };
}

/** The normalize operation, for the provider target the settings name for each conversation. */
export function normalizeOperation(options: NormalizeOptions): Operation {
  return {
    name: 'normalize',
    reportKey: 'repair',
    apply(messages, format, settings) {
      const provider = targetFor(settings.target, format);
      const r = normalizeHistory(
        messages,
        provider === null
          ? options
          : { ...options, target: { target: provider, native: format.name === provider } },
      );
      return { messages: r.messages, report: r.repair, changed: r.changed, target: provider };
    },
    describe(report, chalk) {
      return describeRepair(report as HistoryRepair, chalk);
    },
  };
}

/** The sanitize operation. */
export function sanitizeOperation(options: SanitizeOptions): Operation {
  return {
    name: 'sanitize',
    reportKey: 'sanitize',
    rewritesDuplicateKeys: true,
    apply(messages, _format, _settings, providerData) {
      const r = sanitizeConversation(messages, providerData, options);
      const outcome: OperationOutcome = {
        messages: r.messages,
        report: r.report,
        changed: r.changed,
      };
      if (r.providerData !== providerData) outcome.providerData = r.providerData as JsonValue;
      return outcome;
    },
    describe(report, chalk) {
      return describeSanitize(report as SanitizeReport, chalk);
    },
  };
}

/** Human lines for a sanitize report: every drop, one line each, in input order (as the JSON lists them). */
function describeSanitize(
  s: SanitizeReport & { duplicateKeys?: DuplicateKey[] },
  chalk: ChalkInstance,
): { summary: string; details: string[] } {
  const repair = repairLines(s.repair, chalk);
  const providerData = s.providerDataDropped ?? [];
  const droppedCalls = s.droppedCalls;
  const counts: string[] = [];
  if (s.systemPrompts > 0) counts.push(`${plural(s.systemPrompts, 'system message')} dropped`);
  if (s.unsafeParts.length > 0)
    counts.push(`${plural(s.unsafeParts.length, 'unsafe URL part')} dropped`);
  const references = s.serverReferences;
  if (references.length > 0)
    counts.push(`${plural(references.length, 'server reference')} dropped`);
  if (providerData.length > 0)
    counts.push(`kept providerData of ${plural(providerData.length, 'message')} dropped`);
  // An assistant message emptied by --drop-unresolved-calls is removed too; only this command
  // removes user messages, and only those left empty by the URL drops.
  const callMessages = new Set(droppedCalls.map((d) => d.messageIndex));
  const removedUser = s.removedMessages.filter((i) => !callMessages.has(i)).length;
  if (removedUser > 0) counts.push(`${plural(removedUser, 'empty user message')} removed`);
  if (droppedCalls.length > 0)
    counts.push(`${plural(droppedCalls.length, 'unanswered call')} dropped`);
  const duplicateKeys = s.duplicateKeys ?? [];
  if (duplicateKeys.length > 0)
    counts.push(`${plural(duplicateKeys.length, 'repeated key')} rewritten`);
  if (repair.summary !== '') counts.push(repair.summary);

  // Sorted by message, then part (a line about a whole message after those about its parts);
  // sanitize's own lines come before the normalize step's for one message.
  const own: { message: number; part: number; text: string }[] = [];
  const whole = Number.MAX_SAFE_INTEGER;
  for (const m of s.systemMessages) {
    own.push({
      message: m.messageIndex,
      part: whole,
      text: `message ${m.messageIndex}: ${chalk.red('dropped')} the ${m.role} message`,
    });
  }
  for (const u of s.unsafeParts) {
    const where =
      u.contentIndex === undefined
        ? `part ${u.partIndex}`
        : `part ${u.partIndex} content ${u.contentIndex}`;
    const scheme =
      u.scheme === '' ? 'a URL without a scheme' : `scheme "${terminalSafe(u.scheme)}"`;
    own.push({
      message: u.messageIndex,
      part: u.partIndex,
      text: `message ${u.messageIndex} ${where}: ${chalk.red('dropped')} ${terminalSafe(u.kind)} with ${scheme}`,
    });
  }
  for (const ref of references) {
    if (!('messageIndex' in ref)) continue;
    const where =
      ref.contentIndex === undefined
        ? `part ${ref.partIndex}`
        : `part ${ref.partIndex} content ${ref.contentIndex}`;
    own.push({
      message: ref.messageIndex,
      part: ref.partIndex,
      text: `message ${ref.messageIndex} ${where}: ${chalk.red('dropped')} ${ref.kind} (a server-side reference)`,
    });
  }
  for (const d of droppedCalls) {
    own.push({
      message: d.messageIndex,
      part: d.partIndex,
      text: `message ${d.messageIndex}: ${chalk.red('dropped')} unanswered ${callLabel(d.callId, d.name)} (--drop-unresolved-calls)`,
    });
  }
  for (const i of providerData) {
    own.push({
      message: i,
      part: whole,
      text: `message ${i}: ${chalk.red('dropped')} its kept providerData (it holds a URL whose scheme is not http or https, or names an uploaded file)`,
    });
  }
  for (const i of s.removedMessages) {
    const role = callMessages.has(i) ? 'assistant' : 'user';
    own.push({
      message: i,
      part: whole,
      text: `message ${i}: ${chalk.red('removed')} the ${role} message left empty`,
    });
  }
  // A stable sort: for one part, the order above (a part's drop, then its message's removal).
  own.sort((a, b) => a.message - b.message || a.part - b.part);
  let r = 0;
  // About the request, not a message: before the rest.
  const details: string[] = [];
  for (const ref of references) {
    if ('field' in ref)
      details.push(
        `${chalk.red('dropped')} server reference ${terminalSafe(ref.field)} (a client must not load stored items)`,
      );
  }
  for (const o of own) {
    while (r < repair.details.length && repair.details[r]![0] < o.message)
      details.push(repair.details[r++]![1]);
    details.push(o.text);
  }
  while (r < repair.details.length) details.push(repair.details[r++]![1]);
  // About the document's text, not a message: after the rest.
  for (const d of duplicateKeys) {
    details.push(
      `repeated key "${terminalSafe(d.key)}" at ${terminalSafe(d.pointer)}: ${chalk.red('rewritten')} with the value histlint read (the last)`,
    );
  }
  return { summary: counts.join(', '), details };
}

/** The trim operation, by message count or by token budget. */
export function trimOperation(
  limit: { maxMessages: number } | { maxTokens: number; countTokens: TokenCounter },
  keepSystem: boolean,
): Operation {
  return {
    name: 'trim',
    reportKey: 'trim',
    refusesSessions: true,
    apply(messages) {
      const r =
        'maxMessages' in limit
          ? trimHistory(messages, limit.maxMessages, { keepSystem })
          : budgetHistory(messages, limit.maxTokens, {
              keepSystem,
              countTokens: limit.countTokens,
            });
      return { messages: r.messages, report: r.report, changed: r.changed };
    },
    describe(report) {
      const t = report as TrimReport;
      if (t.removed === 0) return { summary: '', details: [] };
      return {
        summary: `kept ${plural(t.kept, 'message')}, removed ${t.removed}; the kept history starts at message ${t.firstKeptIndex}`,
        details: [],
      };
    },
  };
}

/** What convert reports for one conversation. */
export interface ConvertReport {
  from: string;
  to: string;
  /** With `--lossy`: what the target format could not express. */
  losses?: Loss[];
  /** Request settings and histlint ids the target has no place for (dropped without `--lossy`). */
  dropped?: Dropped[];
}

/** The convert operation: the conversation unchanged, written in another format. */
export function convertOperation(to: ConversationFormat, lossy: boolean): Operation {
  return {
    name: 'convert',
    reportKey: 'convert',
    to,
    lossy,
    apply(messages, format) {
      const report: ConvertReport = { from: format.name, to: to.name };
      return { messages, report, changed: format !== to };
    },
    describe(report) {
      const r = report as ConvertReport;
      const details = (r.losses ?? []).map((l) => {
        const where =
          l.messageIndex === undefined
            ? ''
            : `message ${l.messageIndex}${l.partIndex === undefined ? '' : ` part ${l.partIndex}`}: `;
        const keys =
          l.keys === undefined || l.keys.length === 0 || l.what.includes('"')
            ? ''
            : ` (${l.keys.join(', ')})`;
        return `${where}lost ${terminalSafe(l.what + keys)}`;
      });
      for (const d of r.dropped ?? [])
        details.push(
          `dropped ${d.what === 'ids' ? 'histlint ids' : 'request settings'}: ${terminalSafe(d.keys.join(', '))}`,
        );
      const lost =
        r.losses === undefined || r.losses.length === 0
          ? ''
          : `, ${plural(r.losses.length, 'loss', 'losses')}`;
      return { summary: `${r.from} → ${r.to}${lost}`, details };
    },
  };
}
