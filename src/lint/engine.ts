/**
 * The lint engine: text in, findings out. The hot path is a strict UTF-8
 * decode, `JSON.parse`, the precompiled validator and the pairing pass;
 * positions are recovered only for conversations that have findings.
 */
import { analyzePairing, pairsCleanly, type Pairing } from '../core/pairing.js';
import { detectFormat, eventLogFormat, notConversationDetail } from '../formats/detect.js';
import { targetFor, type ConversationFormat, type ReadResult } from '../formats/format.js';
import { decodeUtf8, inputKind } from '../formats/kit/document.js';
import { untrackedLocate } from '../formats/kit/source-map.js';
import {
  eachByteLine,
  eachTextLine,
  invalidUtf8,
  isBlankLine,
  lineText,
  jsonOrUndefined,
  startsWithUtf16Bom,
} from '../formats/kit/units.js';
import { SourceError } from '../model/errors.js';
import {
  isTooLong,
  longFileMessage,
  longLinesMessage,
  type LongLine,
} from '../model/text-limit.js';
import { JsonParseError, parseJson, type JsonValue } from '../model/json.js';
import { escapePointerToken, toPointer, valueAt } from '../model/pointer.js';
import { LineIndex, locatePointers } from '../model/positions.js';
import { ruleById, RULES } from '../rules/index.js';
import { PART_TYPES, type PartType } from '../model/types.js';
import {
  OTHER_PART_TYPES,
  renderMessage,
  type LintSubject,
  type Report,
  type Rule,
  type RuleContext,
} from '../rules/rule.js';

/** A finding's severity (rules that are off report nothing). */
export type FindingSeverity = 'error' | 'warn';

/** One lint finding (SPEC §5.3). */
export interface Finding {
  ruleId: string;
  severity: FindingSeverity;
  message: string;
  messageIndex?: number;
  partIndex?: number;
  pointer: string;
  /** 1-based line in the file (for JSONL: the JSONL line). */
  line: number;
  /** 1-based column in UTF-16 code units (for JSONL: within the line). */
  column: number;
}

/** The findings of one file. */
export interface FileResult {
  file: string;
  findings: Finding[];
  errorCount: number;
  warningCount: number;
  /**
   * Set when the file could not be read at all (it has no findings then), or when `--fix` could
   * not write it (its findings are those of the file as it still is).
   */
  error?: { message: string };
  /**
   * The provider targets its conversations were checked against (`null`: none), each once, in
   * the order first met; empty when no conversation could be read.
   */
  targets?: (string | null)[];
  /**
   * The read-only format (claude-code) some of its conversations were read in: `--fix` cannot
   * write the file, so none of its findings is fixable. Absent when every format is writable.
   */
  readOnly?: string;
}

/** The rules that run, with their severity. */
export type EnabledRules = ReadonlyMap<string, FindingSeverity>;

/** Options of one lint pass. */
export interface LintOptions {
  rules: EnabledRules;
  /** `--from`: a format name, or `auto`. */
  from?: string;
  /** Pointer tokens of the conversation inside each document (`--pointer`). */
  pointer?: readonly string[];
  /** JSON or JSONL; guessed from the name when absent. */
  kind?: 'json' | 'jsonl';
  leavePending?: boolean;
  /**
   * `--target`: `auto` (the default: the provider of the format each conversation was read as),
   * `none`, or a provider. Provider rules run only on conversations checked against their target.
   */
  target?: string;
}

/** Where a lint collects the targets it used (see {@link FileResult.targets}). */
export type TargetSink = (string | null)[];

/** The read-only format the file being linted was met in (lints are synchronous: one at a time). */
let readOnlyMet: string | undefined;

function noteTarget(sink: TargetSink | undefined, target: string | null): void {
  if (sink !== undefined && !sink.includes(target)) sink.push(target);
}

interface RawFinding {
  ruleId: string;
  severity: FindingSeverity;
  message: string;
  messageIndex?: number;
  partIndex?: number;
  pointer: string;
  /** Set when the engine knows the position already (parse errors, duplicate keys). */
  offset?: number;
}

const ENGINE_RULES = new Set(['parse-error', 'not-a-conversation', 'duplicate-key']);
const CHECK_RULES: readonly Rule[] = RULES.filter((r) => !ENGINE_RULES.has(r.meta.id));

function messageFor(
  ruleId: string,
  messageId: string,
  data?: Record<string, string | number>,
): string {
  return renderMessage(ruleById(ruleId)!.meta, messageId, data);
}

/** The conversation rules check: a class, so each conversation costs one object, not a set of closures. */
class Subject implements LintSubject {
  readonly messages: LintSubject['messages'];
  readonly format: string;
  readonly shape: LintSubject['shape'];
  private cachedPairing: Pairing | undefined;
  private cachedClean: boolean | undefined;
  private cachedDetected: string | null | undefined;

  /** The locator of a tracked read: the first read's, or one made when a finding needs it. */
  private locator: ReadResult['locate'] | undefined;

  constructor(
    readonly root: JsonValue,
    private readonly formatRead: ConversationFormat,
    read: ReadResult,
    readonly rootPointer: string,
    readonly leavePending: boolean,
    readonly target: string | null,
    readonly requestedFormat: string | undefined,
  ) {
    this.messages = read.conversation.messages;
    if (read.locate !== untrackedLocate) this.locator = read.locate;
    this.format = formatRead.name;
    this.shape = this.format !== 'histlint' ? 'foreign' : Array.isArray(root) ? 'bare' : 'envelope';
  }

  pointerOf(
    messageIndex?: number,
    partIndex?: number,
    path?: readonly (string | number)[],
  ): string {
    // The rules ran on an untracked read that kept no source map (v1's needs none). A read is
    // deterministic, so reading again, tracked, gives the same conversation with its map: only
    // conversations with findings pay for one.
    this.locator ??= this.formatRead.read(this.root).locate;
    return this.rootPointer + this.locator(messageIndex, partIndex, path);
  }

  pairing(): Pairing {
    this.cachedPairing ??= analyzePairing(this.messages);
    return this.cachedPairing;
  }

  pairsCleanly(): boolean {
    this.cachedClean ??= pairsCleanly(this.messages);
    return this.cachedClean;
  }

  detectedFormat(): string | null {
    if (this.cachedDetected === undefined) {
      try {
        this.cachedDetected = detectFormat(this.root).name;
      } catch {
        this.cachedDetected = null;
      }
    }
    return this.cachedDetected;
  }
}

/** Builds the subject rules check, for a conversation read by `format`, checked against `provider`. */
function buildSubject(
  target: JsonValue,
  format: ConversationFormat,
  rootPointer: string,
  leavePending: boolean,
  provider: string | null,
  requested: string | undefined,
): LintSubject {
  const read = format.read(target, UNTRACKED);
  return new Subject(target, format, read, rootPointer, leavePending, provider, requested);
}

const UNTRACKED = { untracked: true } as const;

/** An enabled rule with its context; built once per set of enabled rules, not per conversation. */
interface RuleRunner {
  rule: Rule;
  ctx: RuleContext;
}

/** The conversation being checked and where its findings go (lint is synchronous, so one at a time). */
const active: { subject: LintSubject | undefined; out: RawFinding[] | undefined } = {
  subject: undefined,
  out: undefined,
};

/** The runners of a set of enabled rules, split by how they look at a conversation. */
interface Runners {
  checks: RuleRunner[];
  messageVisitors: RuleRunner[];
  /** Part visitors by v1 part type, and for every other type. */
  partVisitors: Map<string, RuleRunner[]>;
  otherPartVisitors: RuleRunner[];
  /** True when some part visitor runs at all. */
  anyPartVisitor: boolean;
}

/** Runners by set of enabled rules, then by target. */
const RUNNERS = new WeakMap<EnabledRules, Map<string | null, Runners>>();

/** The runners of the enabled rules for a conversation checked against `target`. */
function runnersFor(rules: EnabledRules, target: string | null): Runners {
  let byTarget = RUNNERS.get(rules);
  if (byTarget === undefined) RUNNERS.set(rules, (byTarget = new Map()));
  let runners = byTarget.get(target);
  if (runners !== undefined) return runners;
  runners = {
    checks: [],
    messageVisitors: [],
    partVisitors: new Map(PART_TYPES.map((t) => [t, []])),
    otherPartVisitors: [],
    anyPartVisitor: false,
  };
  for (const rule of CHECK_RULES) {
    const severity = rules.get(rule.meta.id);
    if (severity === undefined) continue;
    // A provider's acceptance rules hold only for what is sent to that provider.
    if (rule.meta.target !== undefined && rule.meta.target !== target) continue;
    const ctx: RuleContext = {
      report(r: Report) {
        const subject = active.subject!;
        const f: RawFinding = {
          ruleId: rule.meta.id,
          severity,
          message: renderMessage(rule.meta, r.messageId, r.data),
          pointer: r.pointer ?? subject.pointerOf(r.messageIndex, r.partIndex, r.path),
        };
        if (r.messageIndex !== undefined) f.messageIndex = r.messageIndex;
        if (r.partIndex !== undefined) f.partIndex = r.partIndex;
        active.out!.push(f);
      },
    };
    const runner = { rule, ctx };
    if (rule.check !== undefined) runners.checks.push(runner);
    if (rule.message !== undefined) runners.messageVisitors.push(runner);
    if (rule.part !== undefined) {
      const wanted = rule.partTypes;
      for (const [type, list] of runners.partVisitors)
        if (wanted === undefined || wanted.includes(type as PartType)) list.push(runner);
      if (wanted === undefined || wanted.includes(OTHER_PART_TYPES))
        runners.otherPartVisitors.push(runner);
      runners.anyPartVisitor = true;
    }
  }
  byTarget.set(target, runners);
  return runners;
}

/** Runs the rules over one parsed document (a file or a JSONL line). */
function lintValue(
  text: string,
  value: JsonValue,
  options: LintOptions,
  targets: TargetSink | undefined,
): RawFinding[] {
  const out: RawFinding[] = [];
  const rules = options.rules;
  const dupSeverity = rules.get('duplicate-key');
  if (dupSeverity !== undefined) {
    // Only a text scan sees repeated keys; JSON.parse keeps the last silently.
    parseJson(text, {
      onDuplicateKey(key, offset, objectPointer) {
        out.push({
          ruleId: 'duplicate-key',
          severity: dupSeverity,
          message: messageFor('duplicate-key', 'repeated', { key }),
          pointer: `${objectPointer}/${escapePointerToken(key)}`,
          offset,
        });
      },
    });
  }
  const tokens = options.pointer;
  const found =
    tokens === undefined || tokens.length === 0
      ? lintAt(value, '', options, options.from, targets)
      : lintAt(valueAt(value, tokens), toPointer(tokens), options, options.from, targets);
  if (out.length === 0) return found;
  for (const f of found) out.push(f);
  return out;
}

/** Reports `not-a-conversation` (when enabled) for the value at `rootPointer`. */
function notConversation(
  out: RawFinding[],
  rules: EnabledRules,
  rootPointer: string,
  detail: string,
): RawFinding[] {
  const severity = rules.get('not-a-conversation');
  if (severity !== undefined) {
    out.push({
      ruleId: 'not-a-conversation',
      severity,
      message: messageFor('not-a-conversation', 'unknown', { detail }),
      // The value at --pointer (or its deepest existing ancestor) is what is not a conversation.
      pointer: rootPointer,
    });
  }
  return out;
}

/** Runs the rules over the conversation value at `rootPointer` (undefined when nothing is there). */
function lintAt(
  target: JsonValue | undefined,
  rootPointer: string,
  options: LintOptions,
  from: string | undefined,
  targets: TargetSink | undefined,
): RawFinding[] {
  const out: RawFinding[] = [];
  const rules = options.rules;
  if (target === undefined)
    return notConversation(
      out,
      rules,
      rootPointer,
      `nothing at pointer ${JSON.stringify(rootPointer)}`,
    );
  let subject: LintSubject;
  let provider: string | null;
  try {
    const format = detectFormat(target, from);
    if (format.readOnly) readOnlyMet ??= format.name;
    provider = targetFor(options.target, format);
    // The user's --from (an event log is read as its format under auto too).
    const requested = options.from === undefined || options.from === 'auto' ? undefined : from;
    subject = buildSubject(
      target,
      format,
      rootPointer,
      options.leavePending === true,
      provider,
      requested,
    );
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    return notConversation(
      out,
      rules,
      rootPointer,
      notConversationDetail(target, rootPointer, from, e.message),
    );
  }
  noteTarget(targets, provider);
  const runners = runnersFor(rules, provider);
  active.subject = subject;
  active.out = out;
  try {
    for (const r of runners.checks) r.rule.check!(subject, r.ctx);
    // One pass over messages and parts for every visitor rule; a part meets only the visitors
    // that asked for its type.
    const { messageVisitors, partVisitors, otherPartVisitors, anyPartVisitor } = runners;
    if (messageVisitors.length > 0 || anyPartVisitor) {
      const messages = subject.messages;
      for (let i = 0; i < messages.length; i++) {
        const m = messages[i]!;
        for (const v of messageVisitors) v.rule.message!(m, i, subject, v.ctx);
        if (!anyPartVisitor) continue;
        const parts = m.parts;
        for (let j = 0; j < parts.length; j++) {
          const p = parts[j]!;
          const visitors = partVisitors.get(p.type) ?? otherPartVisitors;
          for (let k = 0; k < visitors.length; k++) {
            const v = visitors[k]!;
            v.rule.part!(p, i, j, subject, v.ctx);
          }
        }
      }
    }
  } finally {
    active.subject = undefined;
    active.out = undefined;
  }
  return out;
}

/**
 * Lints one JSON text (a whole file, or one JSONL line numbered `lineNumber`); the targets used
 * go to `targets` when given.
 */
export function lintText(
  text: string,
  options: LintOptions,
  lineNumber?: number,
  targets?: TargetSink,
): Finding[] {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (e) {
    const f = parseErrorFinding(text, e as SyntaxError, options);
    return place(text, f === null ? [] : [f], lineNumber);
  }
  return place(text, lintValue(text, value, options, targets), lineNumber);
}

/** A `parse-error` with the exact position, found by the lossless parser (only on this slow path). */
function parseErrorFinding(
  text: string,
  error: SyntaxError,
  options: LintOptions,
): RawFinding | null {
  const severity = options.rules.get('parse-error');
  if (severity === undefined) return null;
  let detail = error.message;
  let offset = 0;
  try {
    parseJson(text);
  } catch (e) {
    if (e instanceof JsonParseError) {
      detail = e.message;
      offset = e.offset;
    }
  }
  return {
    ruleId: 'parse-error',
    severity,
    message: messageFor('parse-error', 'invalid', { detail }),
    pointer: '',
    offset,
  };
}

/** Turns raw findings into positioned, sorted findings. */
function place(text: string, raw: RawFinding[], lineNumber?: number): Finding[] {
  if (raw.length === 0) return [];
  const needed = raw.filter((f) => f.offset === undefined).map((f) => f.pointer);
  const offsets = needed.length > 0 ? locatePointers(text, needed) : new Map<string, number>();
  const lines = new LineIndex(text);
  const findings = raw.map((f) => {
    const pos = lines.position(f.offset ?? offsets.get(f.pointer) ?? 0);
    const out: Finding = { ruleId: f.ruleId, severity: f.severity, message: f.message } as Finding;
    if (f.messageIndex !== undefined) out.messageIndex = f.messageIndex;
    if (f.partIndex !== undefined) out.partIndex = f.partIndex;
    out.pointer = f.pointer;
    out.line = lineNumber ?? pos.line;
    out.column = pos.column;
    return out;
  });
  return sortFindings(findings);
}

/** Sorts findings by line, column, then rule id (SPEC §5.3). */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) =>
      a.line - b.line ||
      a.column - b.column ||
      (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0),
  );
}

/** Counts errors and warnings. */
export function countFindings(findings: readonly Finding[]): {
  errorCount: number;
  warningCount: number;
} {
  let errorCount = 0;
  let warningCount = 0;
  for (const f of findings) {
    if (f.severity === 'error') errorCount++;
    else warningCount++;
  }
  return { errorCount, warningCount };
}

/** A parse-error finding for a JSONL line whose bytes are not UTF-8. */
export function badBytesFinding(
  bytes: Uint8Array,
  line: number,
  severity: FindingSeverity,
): Finding {
  const error = invalidUtf8(bytes, line);
  return {
    ruleId: 'parse-error',
    severity,
    message: error.message,
    pointer: '',
    line,
    column: error.column ?? 1,
  };
}

/**
 * The text of one JSONL line's bytes (a final CR dropped), or undefined for a blank line and for
 * bytes that are not UTF-8, which get their parse-error in `bad` (when the rule is on).
 */
export function jsonlLineText(
  bytes: Uint8Array,
  line: number,
  severity: FindingSeverity | undefined,
  bad: Finding[],
): string | undefined {
  const text = lineText(bytes);
  if (text === null && severity !== undefined) bad.push(badBytesFinding(bytes, line, severity));
  return text ?? undefined;
}

/**
 * Lints JSONL bytes line by line, as a file read in ranges is: for bytes that are not all UTF-8
 * (a line that is not gets a parse-error of its own and stands blank for the rest), and for bytes
 * too long for one string (a line over that limit is skipped and named in the file's error).
 * Every other line is linted under its own number.
 */
function lintJsonlBytes(
  file: string,
  bytes: Uint8Array,
  options: LintOptions,
  targets: TargetSink,
): FileResult {
  const severity = options.rules.get('parse-error');
  const lines: { text: string; line: number }[] = [];
  const bad: Finding[] = [];
  const long: LongLine[] = [];
  eachByteLine(bytes, (start, end, _eol, line) => {
    if (isTooLong(end - start)) {
      long.push({ line, bytes: end - start });
      return;
    }
    const text = jsonlLineText(bytes.subarray(start, end), line, severity, bad);
    if (text !== undefined) lines.push({ text, line });
  });
  // A session is one conversation over all its lines: without one of them, its findings could be
  // false (a result on the unread line), so only the line is reported.
  const findings =
    long.length > 0 && eventLogOfLines(lines, options) !== null
      ? []
      : lintJsonlLines(lines, options, targets);
  for (const f of bad) findings.push(f);
  sortFindings(findings);
  const result: FileResult = { file, findings, ...countFindings(findings), targets };
  if (long.length > 0) result.error = { message: longLinesMessage(long) };
  return result;
}

/** Lints a file's bytes: strict UTF-8, then JSON or JSONL (each line its own conversation). */
export function lintBytes(file: string, bytes: Uint8Array, options: LintOptions): FileResult {
  const { value: result, readOnly } = noteReadOnly(() => lintFileBytes(file, bytes, options));
  if (readOnly !== undefined) result.readOnly = readOnly;
  return result;
}

/**
 * Runs a lint of one file (whole, or a range of its JSONL lines) and says which read-only format
 * it met, if any: its findings are then not fixable (the reporters count them so).
 */
export function noteReadOnly<T>(lint: () => T): { value: T; readOnly?: string } {
  readOnlyMet = undefined;
  try {
    const value = lint();
    return readOnlyMet === undefined ? { value } : { value, readOnly: readOnlyMet };
  } finally {
    readOnlyMet = undefined;
  }
}

function lintFileBytes(file: string, bytes: Uint8Array, options: LintOptions): FileResult {
  let findings: Finding[];
  const kind = options.kind ?? inputKind(bytes, file);
  const targets: TargetSink = [];
  // Too long to become one string: JSONL is read line by line; a JSON text cannot be read at all.
  if (isTooLong(bytes.length) && !startsWithUtf16Bom(bytes)) {
    if (kind === 'jsonl') return lintJsonlBytes(file, bytes, options, targets);
    const error = { message: longFileMessage(bytes.length) };
    return { file, findings: [], errorCount: 0, warningCount: 0, targets, error };
  }
  try {
    const { text } = decodeUtf8(bytes);
    findings =
      kind === 'jsonl'
        ? lintJsonl(text, options, targets)
        : lintText(text, options, undefined, targets);
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    if (kind === 'jsonl' && !startsWithUtf16Bom(bytes))
      return lintJsonlBytes(file, bytes, options, targets);
    const severity = options.rules.get('parse-error');
    findings =
      severity === undefined
        ? []
        : [
            {
              ruleId: 'parse-error',
              severity,
              message: messageFor('parse-error', 'invalid', { detail: e.message }),
              pointer: '',
              line: e.line ?? 1,
              column: e.column ?? 1,
            },
          ];
  }
  return { file, findings, ...countFindings(findings), targets };
}

/** The non-blank lines of a JSONL text, with their 1-based numbers. */
function jsonlLines(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  eachTextLine(text, (raw, _eol, line) => {
    if (!isBlankLine(raw)) out.push({ text: raw, line });
  });
  return out;
}

function lintJsonl(text: string, options: LintOptions, targets: TargetSink): Finding[] {
  return lintJsonlLines(jsonlLines(text), options, targets);
}

/** Lints the non-blank lines of a JSONL file: one event log, or one conversation per line. */
function lintJsonlLines(
  lines: readonly { text: string; line: number }[],
  options: LintOptions,
  targets: TargetSink,
): Finding[] {
  const log = eventLogOfLines(lines, options);
  if (log !== null) return lintEventLog(lines, log, options, targets);
  const out: Finding[] = [];
  for (const l of lines) for (const f of lintText(l.text, options, l.line, targets)) out.push(f);
  return out;
}

/** True when a JSONL file is one event log (a Claude Code session), judged by its first line. */
function eventLogOfLines(
  lines: readonly { text: string }[],
  options: LintOptions,
): ConversationFormat | null {
  if (lines.length === 0) return null;
  // The first line that is JSON tells, as for the file commands (a broken first line does not).
  return eventLogFormat(options.from, options.pointer ?? [], () => {
    for (const l of lines) {
      const v = jsonOrUndefined(l.text);
      if (v !== undefined) return v;
    }
    return undefined;
  });
}

/** Lints an event log: all its lines form one conversation; findings point at the event's line. */
function lintEventLog(
  lines: readonly { text: string; line: number }[],
  format: ConversationFormat,
  options: LintOptions,
  targets: TargetSink,
): Finding[] {
  const out: Finding[] = [];
  const events: JsonValue[] = [];
  const eventLines: { text: string; line: number }[] = [];
  for (const l of lines) {
    try {
      events.push(JSON.parse(l.text) as JsonValue);
      eventLines.push(l);
    } catch (e) {
      const f = parseErrorFinding(l.text, e as SyntaxError, options);
      if (f !== null) out.push(...place(l.text, [f], l.line));
    }
  }
  if (events.length === 0) return sortFindings(out);
  // Each finding's pointer starts with the event's index: place it within that event's line.
  const byEvent = new Map<number, RawFinding[]>();
  for (const f of lintAt(events, '', options, format.name, targets)) {
    const m = /^\/(\d+)(\/.*)?$/.exec(f.pointer);
    const index = m === null ? 0 : Number(m[1]);
    const list = byEvent.get(index) ?? [];
    list.push({ ...f, pointer: m === null ? '' : (m[2] ?? '') });
    byEvent.set(index, list);
  }
  for (const [index, raw] of byEvent) {
    const l = eventLines[index] ?? eventLines[0]!;
    for (const f of place(l.text, raw, l.line)) {
      f.pointer = `/${index}${f.pointer}`;
      out.push(f);
    }
  }
  return sortFindings(out);
}
