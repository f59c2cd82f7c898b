/**
 * Lint work units that can run in a worker thread: a whole file, or a byte
 * range of a big JSONL file cut at line starts. JSONL is read in chunks, never
 * whole, so memory stays bounded whatever the file size. A pipe or a device
 * is read once from start to end, never sized nor seeked.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { describeFsError, SourceError } from '../model/errors.js';
import { inputKind, kindFromName } from '../formats/kit/document.js';
import {
  applyMaxTextBytesEnv,
  isTooLong,
  longFileMessage,
  longLinesMessage,
  maxTextBytes,
  type LongLine,
} from '../model/text-limit.js';
import {
  countFindings,
  jsonlLineText,
  lintBytes,
  lintText,
  noteReadOnly,
  sortFindings,
  type EnabledRules,
  type FileResult,
  type Finding,
  type FindingSeverity,
  type LintOptions,
  type TargetSink,
} from './engine.js';
import { eventLogFormat } from '../formats/detect.js';
import { firstJsonValue, readLines } from '../formats/kit/units.js';

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
  /** For a range: its lines too long to read, numbered within the range (merged into `error`). */
  longLines?: LongLine[];
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
/** The start of a JSONL file that the session check reads. */
const HEAD = 1 << 16;

// Worker threads read the limit from the environment themselves (they share no module state).
applyMaxTextBytesEnv(process.env);

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

/** Reads up to `length` bytes into `buf` from `offset` on; 0 at the end. */
type Read = (buf: Buffer, offset: number, length: number) => number;

/** Reads bytes [start, end) of a regular file, by position. */
function rangeReader(fd: number, start: number, end: number): Read {
  let position = start;
  return (buf, offset, length) => {
    const n = Math.min(length, end - position);
    if (n <= 0) return 0;
    const got = readSync(fd, buf, offset, n, position);
    position += got;
    return got;
  };
}

/** Reads a pipe or device from where it stands, after replaying the `head` already read from it. */
function streamReader(fd: number, head: Uint8Array): Read {
  let replayed = 0;
  return (buf, offset, length) => {
    if (replayed < head.length) {
      const n = Math.min(length, head.length - replayed);
      buf.set(head.subarray(replayed, replayed + n), offset);
      replayed += n;
      return n;
    }
    return readSync(fd, buf, offset, length, null);
  };
}

/**
 * Reads until the end, or until `stop` bytes: the bytes, and how many there were. Past `keep`
 * bytes nothing more is kept, only counted (`bytes` is null then).
 */
function readToEnd(
  read: Read,
  stop = Infinity,
  keep = Infinity,
): { bytes: Buffer | null; total: number } {
  const buf = scratchBuffer(CHUNK);
  let pieces: Buffer[] | null = [];
  let total = 0;
  while (total < stop) {
    const n = read(buf, 0, Math.min(CHUNK, stop - total));
    if (n === 0) break;
    total += n;
    if (total > keep) pieces = null;
    pieces?.push(Buffer.from(buf.subarray(0, n)));
  }
  return { bytes: pieces === null ? null : Buffer.concat(pieces, total), total };
}

/**
 * Calls `onLine` for each line read, in chunks; a line longer than the text limit goes to
 * `onLong` with its length instead and is never joined, so memory stays bounded. Returns the
 * number of lines and of bytes.
 */
function forEachLine(
  read: Read,
  onLine: (bytes: Uint8Array, index: number) => void,
  onLong: (bytes: number, index: number) => void,
): { lines: number; bytes: number } {
  return readLines(read, scratchBuffer(CHUNK), maxTextBytes(), onLine, onLong);
}

/**
 * True when a JSONL file is one event log (one conversation over all its lines): decided by the
 * options, else by its first line; `head()` reads the file's first bytes, only when they decide.
 */
function isEventLog(options: LintOptions, head: () => Uint8Array): boolean {
  const log = eventLogFormat(options.from, options.pointer ?? [], () => firstJsonValue(head()));
  return log !== null;
}

/** One buffer for the first bytes of files: each is read, judged and let go at once. */
const HEAD_BUFFER = Buffer.allocUnsafe(HEAD);

/** The first bytes of an open regular file (in {@link HEAD_BUFFER}: used before the next read). */
function headOf(fd: number): Uint8Array {
  return HEAD_BUFFER.subarray(0, readSync(fd, HEAD_BUFFER, 0, HEAD, 0));
}

/** True when a JSONL file is one event log (a Claude Code session), judged by its first line. */
export function isEventLogFile(absolute: string, options: LintOptions): boolean {
  // A pipe is never opened here: its bytes would be gone before the task reads it.
  if (!statSync(absolute).isFile()) return false;
  return isEventLog(options, () => {
    const fd = openSync(absolute, 'r');
    try {
      return headOf(fd);
    } finally {
      closeSync(fd);
    }
  });
}

/** Lints JSONL lines one by one; line numbers start at 1 with the first line read. */
function lintJsonlRange(task: LintTask, read: Read, options: LintOptions): TaskResult {
  const findings: Finding[] = [];
  const targets: TargetSink = [];
  const longLines: LongLine[] = [];
  const parseSeverity = options.rules.get('parse-error');
  const { value: counted, readOnly } = noteReadOnly(() =>
    forEachLine(
      read,
      (bytes, index) => {
        const line = index + 1;
        const text = jsonlLineText(bytes, line, parseSeverity, findings);
        if (text !== undefined)
          for (const f of lintText(text, options, line, targets)) findings.push(f);
      },
      (bytes, index) => longLines.push({ line: index + 1, bytes }),
    ),
  );
  const { lines, bytes } = counted;
  const result: TaskResult = {
    file: task.file,
    findings: sortFindings(findings),
    ...countFindings(findings),
    targets,
    newlines: lines,
    bytes,
  };
  if (longLines.length > 0) result.longLines = longLines;
  if (readOnly !== undefined) result.readOnly = readOnly;
  return result;
}

/** A whole file's JSONL result: its lines numbered from 1, so long lines become its error at once. */
function wholeFile(result: TaskResult): TaskResult {
  delete result.newlines;
  if (result.longLines !== undefined) {
    result.error = { message: longLinesMessage(result.longLines) };
    delete result.longLines;
  }
  return result;
}

/** A file that cannot be read, as a task result. */
function unreadable(task: LintTask, message: string, bytes: number): TaskResult {
  return {
    file: task.file,
    findings: [],
    errorCount: 0,
    warningCount: 0,
    targets: [],
    error: { message },
    bytes,
  };
}

/** Lints bytes read whole. */
function lintWhole(
  task: LintTask,
  bytes: Uint8Array,
  options: LintOptions,
  kind: 'json' | 'jsonl',
): TaskResult {
  const lintOptions = options.kind === kind ? options : { ...options, kind };
  const result = lintBytes(task.file, bytes, lintOptions) as TaskResult;
  result.bytes = bytes.length;
  return result;
}

/**
 * A pipe, a device or a socket: no size to trust and no seeking, so it is read once, in order,
 * until it ends; the session check looks at the bytes it already read.
 */
function lintStream(
  task: LintTask,
  fd: number,
  options: LintOptions,
  kind: 'json' | 'jsonl',
): TaskResult {
  const read = (buf: Buffer, offset: number, length: number): number =>
    readSync(fd, buf, offset, length, null);
  if (kind === 'json') {
    // Past the limit it cannot be parsed: only counted, to say how big it was.
    const { bytes, total } = readToEnd(read, Infinity, maxTextBytes());
    if (bytes === null) return unreadable(task, longFileMessage(total), total);
    return lintWhole(task, bytes, options, kind);
  }
  // What the check reads of a pipe is gone from it: the lines start with it.
  let head: Uint8Array = new Uint8Array(0);
  if (!isEventLog(options, () => (head = readToEnd(read, HEAD).bytes!)))
    return wholeFile(lintJsonlRange(task, streamReader(fd, head), options));
  const rest = readToEnd(read).bytes!;
  return lintWhole(task, Buffer.concat([head, rest]), options, kind);
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
    // A name that does not tell (`session.log`) is decided by the bytes, as every command does.
    const kind = options.kind ?? kindFromName(task.absolute);
    if (!stat.isFile()) return lintStream(task, fd, options, kind ?? 'json');
    if (task.range !== undefined)
      return lintJsonlRange(task, rangeReader(fd, task.range.start, task.range.end), options);
    const file = fd;
    if (kind === 'jsonl' && !isEventLog(options, () => headOf(file)))
      return wholeFile(lintJsonlRange(task, rangeReader(fd, 0, stat.size), options));
    // Too long for one string: not read at all.
    if (kind !== 'jsonl' && isTooLong(stat.size))
      return unreadable(task, longFileMessage(stat.size), 0);
    const bytes = scratchBuffer(stat.size);
    let got = 0;
    while (got < stat.size) {
      const n = readSync(fd, bytes, got, stat.size - got, got);
      if (n === 0) break;
      got += n;
    }
    const whole = bytes.subarray(0, got);
    return lintWhole(task, whole, options, kind ?? inputKind(whole));
  } catch (e) {
    const message = e instanceof SourceError ? e.message : describeFsError(e);
    return unreadable(task, `cannot read: ${message}`, 0);
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
  if (parts.length === 1 && parts[0]!.longLines === undefined) {
    const { file, findings, errorCount, warningCount, error, targets = [], readOnly } = parts[0]!;
    const one: FileResult =
      error === undefined
        ? { file, findings, errorCount, warningCount, targets }
        : { file, findings, errorCount, warningCount, targets, error };
    if (readOnly !== undefined) one.readOnly = readOnly;
    return one;
  }
  const findings: Finding[] = [];
  const targets: TargetSink = [];
  const longLines: LongLine[] = [];
  let offset = 0;
  let error: { message: string } | undefined;
  for (const p of parts) {
    for (const f of p.findings) findings.push({ ...f, line: f.line + offset });
    for (const t of p.targets ?? []) if (!targets.includes(t)) targets.push(t);
    for (const l of p.longLines ?? []) longLines.push({ line: l.line + offset, bytes: l.bytes });
    offset += p.newlines ?? 0;
    error ??= p.error;
  }
  if (longLines.length > 0) error ??= { message: longLinesMessage(longLines) };
  const merged: FileResult = {
    file: parts[0]!.file,
    findings,
    ...countFindings(findings),
    targets,
  };
  if (error !== undefined) merged.error = error;
  const readOnly = parts.find((p) => p.readOnly !== undefined)?.readOnly;
  if (readOnly !== undefined) merged.readOnly = readOnly;
  return merged;
}
