/**
 * The pipeline behind normalize, sanitize and trim (SPEC §5.1): read every
 * input, run the operation on each conversation, write where the flags say,
 * report. A failing file never stops the others, and nothing is written for
 * a file unless all of it could be processed.
 */
import { existsSync, promises as fs, statSync } from 'node:fs';
import path from 'node:path';
import type { ChalkInstance } from 'chalk';
import { TrimError } from '../core/trim.js';
import {
  ConversationStream,
  LossError,
  mapConversations,
  serializeMapped,
  type MapOptions,
  type MappedDocument,
} from '../formats/conversations.js';
import {
  JsonlReader,
  kindFromName,
  readDocument,
  type SourceDocument,
  type StreamedLine,
} from '../formats/kit/document.js';
import { SessionWriteError, SourceError } from '../model/errors.js';
import { parseJson, stringifyJson } from '../model/json.js';
import { escapePointerToken } from '../model/pointer.js';
import { terminalSafe } from '../reporters/terminal.js';
import { chalkFor } from './color.js';
import { colorDiff, unifiedDiff } from './diff.js';
import { flagsForFile, readSettings } from './config.js';
import {
  EXIT_FINDINGS,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_USAGE,
  UsageError,
  worstExit,
} from './exit-codes.js';
import {
  describeFsError,
  expandInputs,
  InputPaths,
  openInputStream,
  print,
  printAll,
  readJsonlOrWhole,
  writeOutputParts,
  type ChunkSource,
  type InputRef,
  type Io,
} from './io.js';
import {
  clearStaleTemps,
  describeWriteError,
  openAtomic,
  openStreamForReplace,
  RefusedWrite,
  Spool,
  type AtomicWriter,
  type StreamedReplaceable,
} from './safe-write.js';
import type { DuplicateKey, Operation, OperationOutcome } from './operations.js';
import { oneLine, pointerTokens } from './options.js';

/** Flags every file operation shares. */
export interface TransformFlags {
  /** `--no-gitignore` makes it false: folder walks read what .gitignore ignores. */
  gitignore?: boolean;
  outputFile?: string;
  outDir?: string;
  write?: boolean;
  /** `--break-links`: `--write` replaces a file that has other hard links. */
  breakLinks?: boolean;
  check?: boolean;
  /** `--diff`: write nothing; print a unified diff of what `--write` would write. */
  diff?: boolean;
  reportFormat?: string;
  reportFile?: string;
  from?: string;
  pointer?: string;
  /** `--config`: where `from`, `pointer` and `target` default from. */
  config?: string;
  /** `--target` (normalize): `auto`, `none` or a provider. */
  target?: string;
  stdinFilename?: string;
  color?: boolean;
  ignore?: string[];
  errorOnUnmatchedPattern?: boolean;
}

/** An error in a report entry. */
export interface EntryError {
  message: string;
  line?: number;
  column?: number;
}

/** One entry of a JSON report: a file, or one JSONL line of it. */
export interface ReportEntry {
  file: string;
  line?: number;
  changed?: boolean;
  error?: EntryError;
  [key: string]: unknown;
}

type Mode = 'stdout' | 'output-file' | 'out-dir' | 'write' | 'check' | 'diff';

/** Modes that write nothing and report what would change. */
function dryRun(mode: Mode): boolean {
  return mode === 'check' || mode === 'diff';
}

/**
 * The mode the flags choose. `several`: more than one input, or a folder (a walk stands for
 * several inputs, however many it finds).
 */
function chooseMode(flags: TransformFlags, inputs: readonly InputRef[], several: boolean): Mode {
  if (flags.diff === true) {
    const writer = [
      flags.outputFile !== undefined && '-o',
      flags.outDir !== undefined && '--out-dir',
      flags.write === true && '--write',
    ].find((x): x is string => typeof x === 'string');
    // --check with --diff is what --diff does anyway (it exits 1 on a change).
    if (writer !== undefined) throw new UsageError(`--diff writes nothing: drop ${writer}`);
    return 'diff';
  }
  const chosen = [
    flags.outputFile !== undefined && '-o',
    flags.outDir !== undefined && '--out-dir',
    flags.write === true && '--write',
    flags.check === true && '--check',
  ].filter((x): x is string => typeof x === 'string');
  if (chosen.length > 1) throw new UsageError(`${chosen.join(' and ')} cannot be combined`);
  if (flags.outputFile !== undefined) {
    if (several) throw new UsageError('-o takes one input; use --out-dir or --write for several');
    return 'output-file';
  }
  if (flags.outDir !== undefined) return 'out-dir';
  if (flags.write === true) {
    if (inputs.some((i) => i.absolute === undefined))
      throw new UsageError('--write cannot replace standard input; use -o');
    return 'write';
  }
  if (flags.check === true) return 'check';
  if (several) throw new UsageError('several inputs need --write, --out-dir, --check or --diff');
  return 'stdout';
}

/** Where `--out-dir` puts each input; two inputs outside the working folder with one name are a usage error. */
function outDirTargets(
  inputs: readonly InputRef[],
  outDir: string,
  io: Io,
  stdinName?: string,
): Map<InputRef, string> {
  const targets = new Map<InputRef, string>();
  const byName = new Map<string, string>();
  const root = path.resolve(io.cwd, outDir);
  if (existsSync(root) && !statSync(root).isDirectory())
    throw new UsageError(`--out-dir ${outDir}: not a folder`);
  for (const input of inputs) {
    let rel: string;
    if (input.absolute === undefined) {
      if (stdinName === undefined)
        throw new UsageError('--out-dir needs --stdin-filename to name standard input');
      rel = path.basename(stdinName);
    } else {
      const fromCwd = path.relative(io.cwd, input.absolute);
      if (fromCwd !== '' && !fromCwd.startsWith('..') && !path.isAbsolute(fromCwd)) rel = fromCwd;
      else {
        rel = path.basename(input.absolute);
        const other = byName.get(rel);
        if (other !== undefined) {
          throw new UsageError(
            `--out-dir: ${other} and ${input.display} would both be written as ${rel}`,
          );
        }
        byName.set(rel, input.display);
      }
    }
    targets.set(input, path.join(root, rel));
  }
  // Two inputs must never be written to one place, whatever their origin.
  const owner = new Map<string, string>();
  for (const [input, target] of targets) {
    const other = owner.get(target);
    if (other !== undefined)
      throw new UsageError(
        `--out-dir: ${other} and ${input.display} would both be written as ${path.relative(io.cwd, target)}`,
      );
    owner.set(target, input.display);
  }
  return targets;
}

/** What one input came to. */
interface FileOutcome {
  entries: EntryList;
  exit: number;
  changed: boolean;
  /** It would change, but only in conversations of a read-only format, which `--write` refuses. */
  readOnly?: boolean;
  /** `--diff`: the unified diff of what `--write` would write ('' when nothing). */
  patch?: string;
}

function errorEntry(file: string, error: unknown, line?: number): ReportEntry {
  const entry: ReportEntry = { file };
  if (line !== undefined) entry.line = line;
  const e: EntryError = { message: oneLine(error) };
  if (error instanceof SourceError) {
    if (error.line !== undefined) e.line = error.line;
    if (error.column !== undefined) e.column = error.column;
  }
  entry.error = e;
  return entry;
}

/** An outcome of one entry: the file could not be read, processed or written. */
function failedOutcome(file: string, error: unknown): FileOutcome {
  const entries = new EntryList();
  entries.push(errorEntry(file, error));
  return { entries, exit: EXIT_USAGE, changed: false };
}

/**
 * The report entries of one file, in order. Its human lines are printed once the file is done
 * (whether its changes were written is known only then): a file of a million lines would hold a
 * million objects, so past {@link HELD_ENTRIES} they are kept as JSON text in a {@link Spool}.
 */
class EntryList {
  private list: ReportEntry[] = [];
  private spool: Spool | undefined;
  /** Some entry is an error: the file is not written. */
  hasError = false;

  push(entry: ReportEntry): void {
    if (entry.error !== undefined) this.hasError = true;
    if (this.spool !== undefined) {
      this.spool.write(JSON.stringify(entry) + '\n');
      return;
    }
    this.list.push(entry);
    if (this.list.length > HELD_ENTRIES) {
      this.spool = new Spool();
      for (const e of this.list) this.spool.write(JSON.stringify(e) + '\n');
      this.list = [];
    }
  }

  /** The entries, in order. */
  *all(): Generator<ReportEntry> {
    if (this.spool === undefined) return yield* this.list;
    let rest = '';
    for (const text of this.spool.texts()) {
      const lines = (rest + text).split('\n');
      rest = lines.pop()!;
      for (const line of lines) yield JSON.parse(line) as ReportEntry;
    }
  }

  discard(): void {
    this.list = [];
    this.spool?.discard();
  }
}

const HELD_ENTRIES = 4096;

/**
 * The JSON report (`--report-format json`, `--report-file`), exactly as
 * `JSON.stringify({ files }, null, 2)` lays it out, built entry by entry in a {@link Spool}: a
 * long run's report is never one string nor a list of objects.
 */
class JsonReport {
  private readonly spool = new Spool();
  private count = 0;

  add(entry: ReportEntry): void {
    // An entry nested two levels deep: its lines indented by four more spaces.
    const text = JSON.stringify(entry, null, 2).replace(/\n/g, '\n    ');
    this.spool.write(`${this.count++ === 0 ? '' : ',\n'}    ${text}`);
  }

  /** The report's text, in pieces. */
  *texts(): Generator<string> {
    if (this.count === 0) return yield '{\n  "files": []\n}\n';
    yield '{\n  "files": [\n';
    yield* this.spool.texts();
    yield '\n  ]\n}\n';
  }

  discard(): void {
    this.spool.discard();
  }
}

/** Everything {@link processUnits} needs besides the units. */
interface UnitContext {
  input: InputRef;
  op: Operation;
  flags: TransformFlags;
  pointer: string[];
  writing: boolean;
}

/** The options of {@link mapConversations} for a run. */
function mapOptions(ctx: UnitContext, perLine: boolean): MapOptions {
  const { op, flags } = ctx;
  return {
    pointer: ctx.pointer,
    writing: ctx.writing && op.to === undefined,
    ...(op.refusesSessions === true ? { refuseSessions: op.name } : {}),
    ...(flags.from === undefined ? {} : { from: flags.from }),
    ...(op.to === undefined ? {} : { to: op.to, lossy: op.lossy === true }),
    ...(perLine ? { perLine } : {}),
  };
}

/**
 * Runs the operation over a document's units (a whole file, or one JSONL line read as a
 * document of its own) and adds their entries to `entries`. Returns the new value of each unit
 * that changed, and whether any unit failed, with the worst exit.
 */
function processUnits(
  doc: SourceDocument,
  ctx: UnitContext,
  perLine: boolean,
  entries: EntryList,
): { mapped: MappedDocument<OperationOutcome>; failed: boolean; exit: number } {
  const { input, op, flags } = ctx;
  const mapped = mapConversations(
    doc,
    mapOptions(ctx, perLine),
    (messages, format, providerData) =>
      op.apply(messages, format, { target: flags.target ?? 'auto' }, providerData),
    (e) => e instanceof TrimError,
  );
  const { units, values, eventLog } = mapped;
  const duplicates = op.rewritesDuplicateKeys === true && !eventLog ? repeatedKeys(doc) : new Map();
  let exit = EXIT_OK;
  let failed = false;
  for (const [u, unit] of units.entries()) {
    if (unit.error !== undefined) {
      entries.push(errorEntry(input.display, unit.error, unit.line));
      // A refused conversation (trim left nothing, a lossy conversion, a change a session has no
      // place for) is exit 1; unreadable input is exit 2.
      const refused =
        unit.error instanceof TrimError ||
        unit.error instanceof LossError ||
        unit.error instanceof SessionWriteError;
      exit = worstExit(exit, refused ? EXIT_FINDINGS : EXIT_USAGE);
      failed = true;
      continue;
    }
    const entry: ReportEntry = { file: input.display };
    if (unit.line !== undefined) entry.line = unit.line;
    entry.changed = unit.result!.changed;
    if (unit.result!.target !== undefined) entry.target = unit.result!.target;
    entry[op.reportKey] = {
      ...(unit.result!.report as object),
      ...(unit.losses === undefined ? {} : { losses: unit.losses }),
      ...(unit.dropped === undefined ? {} : { dropped: unit.dropped }),
    };
    const repeated = duplicates.get(u);
    if (repeated !== undefined) {
      // Written again from the value read, the text holds each key once: a change.
      entry.changed = true;
      entry[op.reportKey] = { ...(entry[op.reportKey] as object), duplicateKeys: repeated };
      if (!values.has(u)) values.set(u, doc.units[u]!.value!);
    }
    entries.push(entry);
  }
  return { mapped, failed, exit };
}

/** The keys each unit of a document repeats, by unit (units without any left out). */
function repeatedKeys(doc: SourceDocument): Map<number, DuplicateKey[]> {
  const out = new Map<number, DuplicateKey[]>();
  doc.units.forEach((unit, u) => {
    if (unit.error !== undefined || unit.value === undefined) return;
    // Only a text scan sees repeated keys (the parse kept the last silently): a second parse,
    // which sanitize, run on untrusted input, pays.
    const found: DuplicateKey[] = [];
    parseJson(unit.text, {
      onDuplicateKey(key, _offset, objectPointer) {
        found.push({ pointer: `${objectPointer}/${escapePointerToken(key)}`, key });
      },
    });
    if (found.length > 0) out.set(u, found);
  });
  return out;
}

/** The error of a result too long for one string. */
function tooLargeError(): SourceError {
  return new SourceError(
    'cannot write the result: it is larger than a JavaScript string can hold (nesting too deep or content too large)',
  );
}

/** `readOnly: true` when every unit that would change is of a read-only format. */
function readOnlyChange(mapped: MappedDocument<OperationOutcome>): { readOnly?: true } {
  const changed = [...mapped.values.keys()].map((u) => mapped.units[u]!);
  return changed.length > 0 && changed.every((u) => u.readOnly === true) ? { readOnly: true } : {};
}

/**
 * Runs the operation over one document read whole (a JSON file, an event log, or an input
 * whose kind its first lines do not tell) and writes the result to `output`.
 */
function processDocument(
  doc: SourceDocument,
  ctx: UnitContext,
  output: Output | undefined,
  inPlace: boolean,
): FileOutcome {
  const entries = new EntryList();
  const { mapped, failed, exit } = processUnits(doc, ctx, false, entries);
  const { values } = mapped;
  if (failed) return { entries, exit, changed: false };
  // --check writes nothing, and --write leaves an unchanged file alone: neither needs the text
  // (nor a text too big to build).
  if (output === undefined || (inPlace && values.size === 0))
    return { entries, exit, changed: values.size > 0, ...readOnlyChange(mapped) };
  let text: string;
  try {
    text = serializeMapped(doc, mapped);
  } catch (e) {
    // V8 strings hold about 512 MB: a result past that (deep nesting grows with indentation) cannot be written.
    if (!(e instanceof RangeError)) throw e;
    entries.discard();
    return failedOutcome(ctx.input.display, tooLargeError());
  }
  output.whole(text);
  return { entries, exit, changed: values.size > 0 };
}

/**
 * A JSONL file read and written line by line (SPEC §6: memory bounded by the longest line, not
 * the file): each line's conversation is processed as it is read, and the line is written at once
 * (unchanged, its bytes as read). An event log is one conversation: its values are held to the
 * end, then processed as {@link processDocument} does.
 */
class JsonlRun {
  readonly entries = new EntryList();
  exit = EXIT_OK;
  changed = false;
  /** A line would change that a write could change (not of a read-only format). */
  private writableChange = false;
  private failed = false;
  /** Why the output could not be made (a line too long for a string): reported if nothing else failed. */
  private tooLarge = false;
  private logOutcome: FileOutcome | undefined;
  private started = false;
  private readonly stream: ConversationStream;
  readonly reader: JsonlReader;

  constructor(
    private readonly ctx: UnitContext,
    private readonly output: Output | undefined,
    private readonly inPlace: boolean,
  ) {
    const flags = ctx.flags;
    this.stream = new ConversationStream(
      {
        pointer: ctx.pointer,
        ...(flags.from === undefined ? {} : { from: flags.from }),
        // Written, an event log's lines are written back as they were (SPEC §5.1).
        keepLines: output !== undefined,
      },
      {
        line: (line) => this.line(line),
        log: (doc) => {
          this.logOutcome = processDocument(doc, ctx, output, inPlace);
        },
      },
    );
    this.reader = new JsonlReader((line) => this.stream.push(line));
  }

  /** True while what is read is still written. */
  private get writing(): boolean {
    return this.output !== undefined && !this.failed && !this.tooLarge;
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    if (this.reader.bom) this.output!.bom();
  }

  private line(line: StreamedLine): void {
    const unit = line.unit;
    if (unit === undefined) {
      if (this.writing) {
        this.start();
        this.output!.keep(line);
      }
      return;
    }
    const doc: SourceDocument = { kind: 'jsonl', bom: false, eol: '\n', units: [unit], lines: [] };
    const result = processUnits(doc, this.ctx, true, this.entries);
    this.exit = worstExit(this.exit, result.exit);
    if (result.failed) this.failed = true;
    const value = result.mapped.values.get(0);
    if (value !== undefined) this.changed = true;
    if (value !== undefined && readOnlyChange(result.mapped).readOnly !== true)
      this.writableChange = true;
    if (!this.writing) return;
    this.start();
    if (value === undefined) return this.output!.keep(line);
    let text: string;
    try {
      text = stringifyJson(value, 0);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      this.tooLarge = true;
      return;
    }
    this.output!.put(line, text + line.eol);
  }

  /** After the last chunk: the file's outcome. */
  end(): FileOutcome {
    this.reader.end();
    this.stream.end(this.reader.bom);
    if (this.logOutcome !== undefined) return this.logOutcome;
    if (this.failed) return { entries: this.entries, exit: this.exit, changed: false };
    if (this.tooLarge) {
      this.entries.discard();
      return failedOutcome(this.ctx.input.display, tooLargeError());
    }
    // A file without lines (or only a byte order mark) is written as it was.
    if (this.writing) this.start();
    const readOnly = this.changed && !this.writableChange ? { readOnly: true } : {};
    return { entries: this.entries, exit: this.exit, changed: this.changed, ...readOnly };
  }
}

/**
 * Where a file's result goes, written as it is made. `keep` and `put` take one JSONL line (kept
 * as read, or its new text with its line end); `whole` a result made at once. Nothing reaches the
 * target unless {@link commit} is called: a file that fails part-way leaves it as it was.
 */
interface Output {
  bom(): void;
  keep(line: StreamedLine): void;
  put(line: StreamedLine, text: string): void;
  whole(text: string): void;
  /** Called after each chunk read: writes what waits (the first time, opens the target). */
  drain(): Promise<void>;
  /** Puts the output in place; throws what went wrong on the way, if anything did. */
  commit(): Promise<void>;
  discard(): Promise<void>;
}

const NEWLINE = Buffer.from('\n');
const BOM = '\uFEFF';

/**
 * `--write`: the replacement starts at the first line that changes, with a copy of the file's
 * bytes before it, so a file that does not change is only read.
 */
function inPlaceOutput(file: StreamedReplaceable): Output {
  let failure: unknown;
  const guard = (write: () => void): void => {
    if (failure !== undefined) return;
    try {
      write();
    } catch (e) {
      failure = e;
    }
  };
  return {
    bom() {
      // Copied with the bytes before the first change.
    },
    keep(line) {
      if (!file.begun) return;
      guard(() => {
        file.write(line.bytes);
        if (line.eol !== '') file.write(NEWLINE);
      });
    },
    put(line, text) {
      guard(() => {
        if (!file.begun) file.copyStart(line.offset);
        file.write(text);
      });
    },
    whole(text) {
      guard(() => file.write(text));
    },
    async drain() {},
    async commit() {
      if (failure !== undefined) throw failure;
      if (file.begun) await file.replace();
    },
    async discard() {
      await file.release();
    },
  };
}

/**
 * Output to a target opened on the first write (`open`, asynchronous: folders made, the lock
 * taken), with what comes before that held until {@link Output.drain}.
 */
function openedOutput(open: () => Promise<AtomicWriter>): Output {
  let writer: AtomicWriter | undefined;
  let waiting: (string | Uint8Array)[] = [];
  let failure: unknown;
  let opened = false;
  const write = (data: string | Uint8Array, copy: boolean): void => {
    if (failure !== undefined) return;
    if (writer === undefined) {
      waiting.push(copy ? Buffer.from(data as Uint8Array) : data);
      return;
    }
    try {
      writer.write(data);
    } catch (e) {
      failure = e;
    }
  };
  const drain = async (): Promise<void> => {
    if (failure !== undefined) return;
    if (!opened) {
      opened = true;
      try {
        writer = await open();
      } catch (e) {
        failure = e;
        waiting = [];
        return;
      }
    }
    const pieces = waiting;
    waiting = [];
    for (const piece of pieces) write(piece, false);
  };
  return {
    bom: () => write(BOM, false),
    keep(line) {
      write(line.bytes, true);
      if (line.eol !== '') write(NEWLINE, false);
    },
    put: (_line, text) => write(text, false),
    whole: (text) => write(text, false),
    drain,
    async commit() {
      await drain();
      if (failure !== undefined) {
        writer?.discard();
        throw failure;
      }
      await writer!.commit();
    },
    async discard() {
      waiting = [];
      writer?.discard();
    },
  };
}

function humanLines(
  entry: ReportEntry,
  notWritten: boolean,
  op: Operation,
  mode: Mode,
  chalk: ChalkInstance,
): string[] {
  const lines: string[] = [];
  // File names and messages may hold anything a file name or a history can.
  const file = terminalSafe(entry.file);
  const where = entry.line === undefined ? file : `${file}:${entry.line}`;
  if (entry.error !== undefined) {
    const pos =
      entry.error.line !== undefined && entry.line === undefined
        ? `:${entry.error.line}:${entry.error.column ?? 1}`
        : entry.error.column !== undefined && entry.line !== undefined
          ? `:${entry.error.column}`
          : '';
    lines.push(
      `${chalk.bold(where + pos)}: ${chalk.red('error')}: ${terminalSafe(entry.error.message)}`,
    );
    return lines;
  }
  const { summary, details } = op.describe(entry[op.reportKey] as object, chalk);
  const state = entry.changed
    ? dryRun(mode) || notWritten
      ? chalk.yellow(
          notWritten && !dryRun(mode)
            ? 'would change (not written: the file has errors)'
            : 'would change',
        )
      : chalk.yellow('changed')
    : 'unchanged';
  lines.push(`${chalk.bold(where)}: ${state}${summary === '' ? '' : ` (${summary})`}`);
  for (const d of details) lines.push(`  ${d}`);
  return lines;
}

/**
 * A file's lines in the report of `--check` and `--diff`: its errors, or one line when it would
 * change (with what changes, or for JSONL how many lines do), nothing when it would not.
 */
function* dryRunReport(
  outcome: FileOutcome,
  op: Operation,
  mode: Mode,
  chalk: ChalkInstance,
): Generator<string> {
  if (outcome.entries.hasError) {
    let batch: string[] = [];
    for (const entry of outcome.entries.all()) {
      if (entry.error === undefined) continue;
      batch.push(...humanLines(entry, true, op, mode, chalk));
      if (batch.length < 4096) continue;
      yield batch.join('\n') + '\n';
      batch = [];
    }
    if (batch.length > 0) yield batch.join('\n') + '\n';
    return;
  }
  if (!outcome.changed) return;
  let first: ReportEntry | undefined;
  let entries = 0;
  let changed = 0;
  for (const entry of outcome.entries.all()) {
    first ??= entry;
    entries++;
    if (entry.changed === true) changed++;
  }
  if (first === undefined) return;
  if (entries === 1 && first.line === undefined)
    return yield humanLines(first, false, op, mode, chalk)[0]! + '\n';
  const file = chalk.bold(terminalSafe(first.file));
  yield `${file}: ${chalk.yellow('would change')} (${changed} of ${plural(entries, 'line')})\n`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The last line of `--check` and `--diff`: how many of the files would change, e.g.
 * `3 of 22 files would change; run with --write`.
 */
export function dryRunSummary(
  changed: number,
  files: number,
  failed: number,
  /** No file --write can replace would change (standard input, read-only formats): no hint. */
  noneWritable = false,
  /** Files that would change only in a read-only format: --write refuses them. */
  readOnly = 0,
): string {
  const counts = `${changed} of ${plural(files, 'file')} would change`;
  const failures = failed === 0 ? '' : `, ${failed} failed`;
  const write = changed === 0 || noneWritable ? '' : '; run with --write';
  const convert =
    readOnly === 0
      ? ''
      : `; ${readOnly === 1 ? '1 is' : `${readOnly} are`} read only: histlint convert --to histlint, then repair the copy`;
  return `${counts}${failures}${write}${convert}`;
}

/** A file's human report, a batch of lines at a time (a long file's report is long too). */
function* humanReport(
  outcome: FileOutcome,
  op: Operation,
  mode: Mode,
  chalk: ChalkInstance,
): Generator<string> {
  if (dryRun(mode)) return yield* dryRunReport(outcome, op, mode, chalk);
  // A file with a failing line is not written at all, so its other changes are only "would change".
  const notWritten = outcome.entries.hasError;
  let batch: string[] = [];
  for (const entry of outcome.entries.all()) {
    for (const line of humanLines(entry, notWritten, op, mode, chalk)) batch.push(line);
    if (batch.length < 4096) continue;
    yield batch.join('\n') + '\n';
    batch = [];
  }
  if (batch.length > 0) yield batch.join('\n') + '\n';
}

/** Runs a file operation over the command's inputs; returns the exit code. */
export async function runTransform(
  op: Operation,
  files: readonly string[],
  flags: TransformFlags,
  io: Io,
): Promise<number> {
  const stderrChalk = chalkFor(flags.color, io.env, io.stderr);
  if (
    flags.reportFormat !== undefined &&
    flags.reportFormat !== 'human' &&
    flags.reportFormat !== 'json'
  ) {
    throw new UsageError(
      `--report-format: expected one of human|json, got "${flags.reportFormat}"`,
    );
  }
  const given = flags; // as parsed: each file's own config fills in what they leave out
  const { ignore: configIgnore, ...settings } = await readSettings(io.cwd, flags);
  flags = { ...flags, ...settings };
  pointerTokens(flags.pointer); // a malformed pointer is a usage error before any file
  let args = files;
  if (args.length === 0) {
    if (io.stdin.isTTY === true)
      throw new UsageError(`${op.name} needs a file (or "-" for standard input)`);
    args = ['-'];
  }
  const inputs = await expandInputs(args, io, {
    ...(flags.stdinFilename === undefined ? {} : { stdinName: flags.stdinFilename }),
    // Like lint: the config's ignore (from its folder), then --ignore (from the working folder).
    ignore: [configIgnore, { patterns: flags.ignore ?? [], base: io.cwd }],
    errorOnUnmatched: flags.errorOnUnmatchedPattern !== false,
    expandDirectories: true,
    gitignore: flags.gitignore !== false,
  });
  if (inputs.length === 0) throw new UsageError(`${op.name}: no input files`);
  const mode = chooseMode(flags, inputs, inputs.length > 1 || (await namesAFolder(args, io)));
  const outTargets =
    mode === 'out-dir' ? outDirTargets(inputs, flags.outDir!, io, flags.stdinFilename) : undefined;
  // Without --write no input changes: not through -o, --out-dir or --report-file either.
  const inputPaths = new InputPaths(inputs);
  if (mode === 'output-file') inputPaths.refuseOutput(io, '-o', flags.outputFile!);
  if (flags.reportFile !== undefined)
    inputPaths.refuseOutput(io, '--report-file', flags.reportFile);
  for (const [input, target] of outTargets ?? []) {
    if (inputPaths.has(target))
      throw new UsageError(
        `--out-dir ${flags.outDir} would overwrite the input ${input.display}; inputs change only with --write`,
      );
  }
  const cleared = new Set<string>();
  const clearOnce = async (dir: string): Promise<void> => {
    if (cleared.has(dir)) return;
    cleared.add(dir);
    await clearStaleTemps(dir);
  };

  const report =
    flags.reportFormat === 'json' || flags.reportFile !== undefined ? new JsonReport() : undefined;
  let exit = EXIT_OK;
  let interrupted = false;
  const stdoutChalk = mode === 'diff' ? chalkFor(flags.color, io.env, io.stdout) : undefined;
  const counts = { files: 0, changed: 0, failed: 0, changedFiles: 0, readOnly: 0 };
  try {
    for (const input of inputs) {
      if (io.signal?.aborted) {
        interrupted = true;
        break;
      }
      const own = await flagsForFile(io.cwd, given, input); // its config's from/pointer/target
      const outcome = await runFile(input, { op, ...own, mode, io, outTargets, clearOnce });
      if (dryRun(mode) && outcome.changed) outcome.exit = worstExit(outcome.exit, EXIT_FINDINGS);
      exit = worstExit(exit, outcome.exit);
      counts.files++;
      if (outcome.entries.hasError) counts.failed++;
      else if (outcome.changed) {
        counts.changed++;
        if (outcome.readOnly === true) counts.readOnly++;
        else if (input.absolute !== undefined) counts.changedFiles++;
      }
      if (outcome.patch !== undefined && outcome.patch !== '')
        await printAll(io.stdout, [colorDiff(outcome.patch, stdoutChalk!)]);
      if (report !== undefined) for (const e of outcome.entries.all()) report.add(e);
      if (flags.reportFormat !== 'json')
        await printAll(io.stderr, humanReport(outcome, op, mode, stderrChalk));
      outcome.entries.discard();
    }
    if (dryRun(mode) && flags.reportFormat !== 'json') {
      const line = dryRunSummary(
        counts.changed,
        counts.files,
        counts.failed,
        counts.changedFiles === 0,
        counts.readOnly,
      );
      print(io.stderr, `${line}\n`);
    }
    if (flags.reportFormat === 'json') await printAll(io.stderr, report!.texts());
    if (flags.reportFile !== undefined)
      await writeOutputParts(io, flags.reportFile, (write) => {
        for (const text of report!.texts()) write(text);
      });
  } finally {
    report?.discard();
  }
  return interrupted ? EXIT_INTERRUPTED : exit;
}

/** True when an argument is a folder: it stands for several inputs, however many it holds. */
async function namesAFolder(args: readonly string[], io: Io): Promise<boolean> {
  for (const arg of args) {
    if (arg === '-') continue;
    const stat = await fs.stat(path.resolve(io.cwd, arg)).catch(() => undefined);
    if (stat?.isDirectory() === true) return true;
  }
  return false;
}

/** What {@link runFile} needs of the run. */
interface RunContext {
  op: Operation;
  flags: TransformFlags;
  pointer: string[];
  mode: Mode;
  io: Io;
  outTargets: Map<InputRef, string> | undefined;
  clearOnce: (dir: string) => Promise<void>;
}

/** A file that cannot be read, or replaced, costs only this file, in one line; anything else is a bug. */
function readFailure(e: unknown): SourceError {
  return e instanceof SourceError
    ? e
    : e instanceof RefusedWrite
      ? new SourceError(`not written: ${e.message}`)
      : typeof (e as { code?: unknown }).code === 'string'
        ? new SourceError(describeFsError(e))
        : new SourceError(`internal error: ${oneLine(e)}`);
}

/** Where the result of `input` goes in this mode; undefined for --check. */
function outputFor(
  input: InputRef,
  run: RunContext,
  replaceable?: StreamedReplaceable,
): Output | undefined {
  const { mode, io, flags } = run;
  switch (mode) {
    case 'check':
      return undefined;
    case 'diff':
    case 'write':
      // Through a symlink to the file it names (openStreamForReplace found it), never over the link.
      return inPlaceOutput(replaceable!);
    case 'stdout': {
      // Held until the file is done, so a file that fails part-way prints nothing: in memory
      // while small, in a temp file past a few megabytes (a gigabyte of JSONL costs no memory).
      const spool = new Spool();
      return openedOutput(async () => ({
        write: (data) => spool.write(data),
        async commit() {
          try {
            await printAll(io.stdout, spool.texts());
          } finally {
            spool.discard();
          }
        },
        discard: () => spool.discard(),
      }));
    }
    case 'output-file':
    case 'out-dir': {
      const target =
        mode === 'output-file'
          ? path.resolve(io.cwd, flags.outputFile!)
          : run.outTargets!.get(input)!;
      return openedOutput(async () => {
        await fs.mkdir(path.dirname(target), { recursive: true });
        await run.clearOnce(path.dirname(target));
        return openAtomic(target);
      });
    }
  }
}

/** Reads, processes and writes one input. */
async function runFile(input: InputRef, run: RunContext): Promise<FileOutcome> {
  const { op, flags, pointer, mode, io } = run;
  const ctx: UnitContext = { input, op, flags, pointer, writing: mode !== 'check' };
  // --diff writes what --write would, through the same output, into memory.
  const memory = mode === 'diff' ? new MemoryReplacement() : undefined;
  // --write reads each file under its lock, which is held until the file is replaced or let go.
  let replaceable: StreamedReplaceable | undefined;
  let source: ChunkSource | undefined;
  let output: Output | undefined;
  let outcome: FileOutcome;
  try {
    try {
      if (mode === 'write') {
        replaceable = await openStreamForReplace(input.absolute!, { breakLinks: flags.breakLinks });
        // A run over a folder clears a killed run's leftovers there, even when it writes nothing.
        await run.clearOnce(path.dirname(replaceable.target));
        const file = replaceable;
        const buffer = Buffer.allocUnsafe(1 << 20);
        source = {
          async next() {
            const n = await file.read(buffer);
            return n === 0 ? null : buffer.subarray(0, n);
          },
          close: async () => undefined,
        };
      } else if (memory !== undefined) {
        source = memory.capture(await openInputStream(input, io));
        replaceable = memory;
      } else source = await openInputStream(input, io);
      output = outputFor(input, run, replaceable);
      outcome = await readAndProcess(source, ctx, output, mode === 'write' || mode === 'diff');
    } catch (e) {
      await output?.discard();
      output = undefined;
      outcome = failedOutcome(input.display, readFailure(e));
    } finally {
      await source?.close();
    }
    if (output !== undefined) {
      try {
        if (outcome.entries.hasError) await output.discard();
        else await output.commit();
      } catch (e) {
        await output.discard();
        outcome.entries.discard();
        outcome = failedOutcome(
          input.display,
          new SourceError(
            e instanceof RefusedWrite
              ? `not written: ${e.message}`
              : `cannot write: ${describeWriteError(e)}`,
          ),
        );
      }
    }
  } finally {
    await replaceable?.release();
  }
  if (memory !== undefined && !outcome.entries.hasError) {
    const before = memory.before();
    const after = memory.after();
    outcome.patch =
      after === undefined ? '' : unifiedDiff(input.display, before.toString(), after.toString());
  }
  return outcome;
}

/**
 * `--diff`'s stand-in for the file `--write` replaces: the input's bytes as they are read, and
 * the replacement built in memory (only `--diff` holds a whole file).
 */
class MemoryReplacement implements StreamedReplaceable {
  readonly target = '';
  private readonly chunks: Buffer[] = [];
  private readonly written: Buffer[] = [];
  private started = false;
  private replaced = false;

  /** `source`, with every chunk it gives kept. */
  capture(source: ChunkSource): ChunkSource {
    return {
      next: async () => {
        const chunk = await source.next();
        if (chunk !== null) this.chunks.push(Buffer.from(chunk));
        return chunk;
      },
      close: () => source.close(),
    };
  }

  get begun(): boolean {
    return this.started;
  }

  /** Never called: the input is read through {@link capture}. */
  read(): Promise<number> {
    return Promise.reject(new TypeError('the input is read through capture()'));
  }

  write(data: string | Uint8Array): void {
    this.started = true;
    // A line's bytes are valid only during the call: copied.
    this.written.push(Buffer.from(data));
  }

  copyStart(length: number): void {
    this.started = true;
    this.written.push(this.before().subarray(0, length));
  }

  async replace(): Promise<void> {
    this.replaced = true;
  }

  async release(): Promise<void> {}

  /** The input's bytes. */
  before(): Buffer {
    return Buffer.concat(this.chunks);
  }

  /** What --write would write, or undefined when it would leave the file alone. */
  after(): Buffer | undefined {
    return this.replaced ? Buffer.concat(this.written) : undefined;
  }
}

/**
 * Reads an input and runs the operation: JSONL line by line as it is read (a JSONL name, or
 * first lines that show it), anything else whole.
 */
async function readAndProcess(
  source: ChunkSource,
  ctx: UnitContext,
  output: Output | undefined,
  inPlace: boolean,
): Promise<FileOutcome> {
  const kind = kindFromName(ctx.input.absolute ?? ctx.flags.stdinFilename ?? '');
  let run: JsonlRun | undefined;
  const bytes = await readJsonlOrWhole(
    source,
    kind,
    () => (run = new JsonlRun(ctx, output, inPlace)).reader,
    async () => output?.drain(),
  );
  if (bytes !== null) return processDocument(readDocument(bytes, kind), ctx, output, inPlace);
  const outcome = run!.end();
  await output?.drain();
  return outcome;
}
