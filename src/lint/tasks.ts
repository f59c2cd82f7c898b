/**
 * Lint work units that can run in a worker thread: a whole file, or a byte
 * range of a big JSONL file cut at line starts. JSONL is read in chunks, never
 * whole, so memory stays bounded whatever the file size.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { describeFsError, SourceError } from '../model/errors.js';
import { kindFromName } from '../model/document.js';
import {
  badBytesFinding,
  countFindings,
  lintBytes,
  lintText,
  sortFindings,
  type EnabledRules,
  type FileResult,
  type Finding,
  type FindingSeverity,
  type LintOptions,
  type TargetSink,
} from './engine.js';
import { formatByName } from '../formats/index.js';
import type { JsonValue } from '../model/json.js';

/** Lint options in a form that crosses a thread boundary. */
export interface TaskOptions {
  rules: [string, FindingSeverity][];
  from?: string;
  pointer: string[];
  leavePending: boolean;
  kind?: 'json' | 'jsonl';
  /** `--target` (default `auto`). */
  target?: string;
}

/** A unit of lint work. */
export interface LintTask {
  file: string;
  absolute: string;
  options: TaskOptions;
  /** For a slice of a JSONL file: bytes [start, end), where start is a line start. */
  range?: { start: number; end: number };
}

/** What a task returns. */
export interface TaskResult extends FileResult {
  /** For a range: how many line ends it holds (to number the next range's lines). */
  newlines?: number;
  /** Bytes read (for progress). */
  bytes: number;
}

const CHUNK = 1 << 20;
/**
 * One read buffer per thread, reused by every file and range it reads: lint is synchronous, the
 * bytes are decoded to text at once, and nothing keeps them (a fresh buffer per file cost more
 * than its read).
 */
let scratch: Buffer | undefined;
function scratchBuffer(size: number): Buffer {
  if (size > CHUNK) return Buffer.allocUnsafe(size);
  scratch ??= Buffer.allocUnsafe(CHUNK);
  return scratch;
}
const DECODER = new TextDecoder('utf-8', { fatal: true });

const RULE_SETS = new Map<string, EnabledRules>();
/** Task options are shared by every task of a run (or of a worker's batch) with the same rules. */
const CONVERTED = new WeakMap<TaskOptions, LintOptions>();

/** Lint options from task options. */
export function toLintOptions(o: TaskOptions): LintOptions {
  let out = CONVERTED.get(o);
  if (out !== undefined) return out;
  // One Map per distinct rule set, so the engine's per-rule-set caches hit across tasks.
  const key = o.rules.map(([id, sev]) => `${id}=${sev}`).join(',');
  let rules = RULE_SETS.get(key);
  if (rules === undefined) {
    rules = new Map(o.rules);
    RULE_SETS.set(key, rules);
  }
  out = { rules, pointer: o.pointer, leavePending: o.leavePending };
  if (o.from !== undefined) out.from = o.from;
  if (o.kind !== undefined) out.kind = o.kind;
  if (o.target !== undefined) out.target = o.target;
  CONVERTED.set(o, out);
  return out;
}

/** Calls `onLine` for each line of bytes [start, end) of an open file, read in chunks. Returns the number of lines. */
function forEachLine(
  fd: number,
  start: number,
  end: number,
  onLine: (bytes: Uint8Array, index: number) => void,
): number {
  const buf = scratchBuffer(CHUNK);
  let carry: Buffer | null = null;
  let position = start;
  let index = 0;
  while (position < end) {
    const bytesRead = readSync(fd, buf, 0, Math.min(CHUNK, end - position), position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let from = 0;
    for (;;) {
      const nl = buf.indexOf(10, from);
      if (nl === -1 || nl >= bytesRead) break;
      const piece = buf.subarray(from, nl);
      onLine(carry === null ? piece : Buffer.concat([carry, piece]), index++);
      carry = null;
      from = nl + 1;
    }
    if (from < bytesRead) {
      const rest = Buffer.from(buf.subarray(from, bytesRead));
      carry = carry === null ? rest : Buffer.concat([carry, rest]);
    }
  }
  if (carry !== null && carry.length > 0) onLine(carry, index++);
  return index;
}

/** True when a line's text is only whitespace. */
function isBlank(text: string): boolean {
  return /^[ \t\r]*$/.test(text);
}

/** True when the first line of an open JSONL file is an event of an event-log format (one conversation per file). */
function startsWithEvent(fd: number, options: LintOptions): boolean {
  if ((options.pointer ?? []).length > 0) return false;
  if (options.from !== undefined && options.from !== 'auto') return options.from === 'claude-code';
  const format = formatByName('claude-code');
  if (format === undefined) return false;
  const buf = Buffer.allocUnsafe(1 << 16);
  const bytesRead = readSync(fd, buf, 0, buf.length, 0);
  const first = buf
    .subarray(0, bytesRead)
    .toString('utf8')
    .split('\n')
    .find((l) => !isBlank(l));
  if (first === undefined) return false;
  try {
    return format.detect([JSON.parse(first) as JsonValue]);
  } catch {
    return false;
  }
}

/** True when a JSONL file is one event log (a Claude Code session), judged by its first line. */
export function isEventLogFile(absolute: string, options: LintOptions): boolean {
  const fd = openSync(absolute, 'r');
  try {
    return startsWithEvent(fd, options);
  } finally {
    closeSync(fd);
  }
}

/** Lints JSONL lines of bytes [start, end) one by one; line numbers start at 1 within the range. */
function lintJsonlRange(
  task: LintTask,
  fd: number,
  options: LintOptions,
  start: number,
  end: number,
): TaskResult {
  const findings: Finding[] = [];
  const targets: TargetSink = [];
  const parseSeverity = options.rules.get('parse-error');
  const newlines = forEachLine(fd, start, end, (bytes, index) => {
    const line = index + 1;
    let text: string;
    try {
      text = DECODER.decode(bytes);
    } catch {
      if (parseSeverity !== undefined) findings.push(badBytesFinding(bytes, line, parseSeverity));
      return;
    }
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (isBlank(text)) return;
    for (const f of lintText(text, options, line, targets)) findings.push(f);
  });
  return {
    file: task.file,
    findings: sortFindings(findings),
    ...countFindings(findings),
    targets,
    newlines,
    bytes: end - start,
  };
}

/**
 * Runs one task: the unit of work a worker thread does. Reads are
 * synchronous on purpose: a task is one thread's whole job, and awaiting
 * each small read only leaves the thread idle.
 */
export function runLintTask(task: LintTask): Promise<TaskResult> {
  return Promise.resolve(runLintTaskSync(task));
}

/** {@link runLintTask}, synchronously. */
export function runLintTaskSync(task: LintTask): TaskResult {
  const options = toLintOptions(task.options);
  let fd: number | undefined;
  try {
    fd = openSync(task.absolute, 'r');
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new SourceError('is a directory, not a file');
    const kind = options.kind ?? kindFromName(task.absolute) ?? 'json';
    if (task.range !== undefined)
      return lintJsonlRange(task, fd, options, task.range.start, task.range.end);
    if (kind === 'jsonl' && !startsWithEvent(fd, options)) {
      const result = lintJsonlRange(task, fd, options, 0, stat.size);
      delete result.newlines;
      return result;
    }
    const bytes = scratchBuffer(stat.size);
    let got = 0;
    while (got < stat.size) {
      const n = readSync(fd, bytes, got, stat.size - got, got);
      if (n === 0) break;
      got += n;
    }
    const lintOptions = options.kind === kind ? options : { ...options, kind };
    const result = lintBytes(task.file, bytes.subarray(0, got), lintOptions) as TaskResult;
    result.bytes = got;
    return result;
  } catch (e) {
    const message = e instanceof SourceError ? e.message : describeFsError(e);
    return {
      file: task.file,
      findings: [],
      errorCount: 0,
      warningCount: 0,
      targets: [],
      error: { message: `cannot read: ${message}` },
      bytes: 0,
    };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A split file is cut into about this many ranges per job: the threads take ranges as they go,
 * so several per job make them finish close together (8, 16 and 32 measured the same on the
 * bench's 256 MB JSONL).
 */
const RANGES_PER_JOB = 8;
const RANGE_MIN_BYTES = 4 * 1024 * 1024;
/**
 * The threads finish at most one range apart, so ranges stay small on a huge file: on 1 GB, eight
 * 67 MB ranges per job left one thread up to 0.3 s alone at the end (2.13-2.27 s with default
 * jobs, 2.11-2.19 s with this cap; 8 MB measured no better).
 */
const RANGE_MAX_BYTES = 16 * 1024 * 1024;

/** The size of the byte ranges a JSONL file of `total` bytes is cut into for `jobs` threads. */
export function rangeBytes(total: number, jobs: number): number {
  const even = Math.ceil(total / (jobs * RANGES_PER_JOB));
  return Math.min(RANGE_MAX_BYTES, Math.max(RANGE_MIN_BYTES, even));
}

/**
 * Splits a big JSONL file into byte ranges of about `size` bytes, each
 * starting at a line start, by reading a little around each cut.
 */
export async function splitAtLines(
  absolute: string,
  total: number,
  size: number,
): Promise<{ start: number; end: number }[]> {
  const cuts = [0];
  const fd = openSync(absolute, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 16);
    let guess = size;
    while (guess < total) {
      let at = guess;
      let found = -1;
      while (at < total && found === -1) {
        const bytesRead = readSync(fd, buf, 0, buf.length, at);
        if (bytesRead === 0) break;
        const nl = buf.subarray(0, bytesRead).indexOf(10);
        if (nl !== -1) found = at + nl + 1;
        else at += bytesRead;
      }
      if (found === -1 || found >= total) break;
      cuts.push(found);
      guess = found + size;
    }
  } finally {
    closeSync(fd);
  }
  return cuts.map((start, k) => ({ start, end: cuts[k + 1] ?? total }));
}

/** Joins the results of one file's ranges: line numbers continue from range to range. */
export function mergeRanges(parts: TaskResult[]): FileResult {
  if (parts.length === 1) {
    const { file, findings, errorCount, warningCount, error, targets = [] } = parts[0]!;
    return error === undefined
      ? { file, findings, errorCount, warningCount, targets }
      : { file, findings, errorCount, warningCount, targets, error };
  }
  const findings: Finding[] = [];
  const targets: TargetSink = [];
  let offset = 0;
  let error: { message: string } | undefined;
  for (const p of parts) {
    for (const f of p.findings) findings.push({ ...f, line: f.line + offset });
    for (const t of p.targets ?? []) if (!targets.includes(t)) targets.push(t);
    offset += p.newlines ?? 0;
    error ??= p.error;
  }
  const merged: FileResult = {
    file: parts[0]!.file,
    findings,
    ...countFindings(findings),
    targets,
  };
  if (error !== undefined) merged.error = error;
  return merged;
}
