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
import { LossError, mapConversations } from '../formats/conversations.js';
import {
  kindFromName,
  readDocument,
  serializeDocument,
  type SourceDocument,
} from '../formats/kit/document.js';
import { SourceError } from '../model/errors.js';
import { parseJson } from '../model/json.js';
import { escapePointerToken } from '../model/pointer.js';
import { terminalSafe } from '../reporters/terminal.js';
import { chalkFor } from './color.js';
import { readSettings } from './config.js';
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
  print,
  readInput,
  writeOutputFile,
  type InputRef,
  type Io,
} from './io.js';
import {
  clearStaleTemps,
  describeWriteError,
  openForReplace,
  RefusedWrite,
  writeAtomic,
  type Replaceable,
} from './safe-write.js';
import type { DuplicateKey, Operation } from './operations.js';
import { oneLine, pointerTokens } from './options.js';

/** Flags every file operation shares. */
export interface TransformFlags {
  outputFile?: string;
  outDir?: string;
  write?: boolean;
  /** `--break-links`: `--write` replaces a file that has other hard links. */
  breakLinks?: boolean;
  check?: boolean;
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

type Mode = 'stdout' | 'output-file' | 'out-dir' | 'write' | 'check';

function chooseMode(flags: TransformFlags, inputs: readonly InputRef[]): Mode {
  const chosen = [
    flags.outputFile !== undefined && '-o',
    flags.outDir !== undefined && '--out-dir',
    flags.write === true && '--write',
    flags.check === true && '--check',
  ].filter((x): x is string => typeof x === 'string');
  if (chosen.length > 1) throw new UsageError(`${chosen.join(' and ')} cannot be combined`);
  if (flags.outputFile !== undefined) {
    if (inputs.length > 1)
      throw new UsageError('-o takes one input; use --out-dir or --write for several');
    return 'output-file';
  }
  if (flags.outDir !== undefined) return 'out-dir';
  if (flags.write === true) {
    if (inputs.some((i) => i.absolute === undefined))
      throw new UsageError('--write cannot replace standard input; use -o');
    return 'write';
  }
  if (flags.check === true) return 'check';
  if (inputs.length > 1) throw new UsageError('several inputs need --write, --out-dir or --check');
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

interface FileOutcome {
  entries: ReportEntry[];
  exit: number;
  changed: boolean;
  text?: string;
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

/** Runs the operation over one input's document. */
function processDocument(
  input: InputRef,
  doc: SourceDocument,
  op: Operation,
  flags: TransformFlags,
  pointerTokens: string[],
  writing: boolean,
  inPlace: boolean,
): FileOutcome {
  const { units, values, eventLog } = mapConversations(
    doc,
    {
      pointer: pointerTokens,
      writing: writing && op.to === undefined,
      ...(flags.from === undefined ? {} : { from: flags.from }),
      ...(op.to === undefined ? {} : { to: op.to, lossy: op.lossy === true }),
    },
    (messages, format, providerData) =>
      op.apply(messages, format, { target: flags.target ?? 'auto' }, providerData),
    (e) => e instanceof TrimError,
  );
  const duplicates = op.rewritesDuplicateKeys === true && !eventLog ? repeatedKeys(doc) : new Map();
  const entries: ReportEntry[] = [];
  let exit = EXIT_OK;
  let failed = false;
  for (const [u, unit] of units.entries()) {
    if (unit.error !== undefined) {
      entries.push(errorEntry(input.display, unit.error, unit.line));
      // A refused conversation (trim left nothing, a lossy conversion) is exit 1; unreadable input is exit 2.
      const refused = unit.error instanceof TrimError || unit.error instanceof LossError;
      exit = worstExit(exit, refused ? EXIT_FINDINGS : EXIT_USAGE);
      failed = true;
      continue;
    }
    const entry: ReportEntry = { file: input.display };
    if (unit.line !== undefined) entry.line = unit.line;
    entry.changed = unit.result!.changed;
    if (unit.result!.target !== undefined) entry.target = unit.result!.target;
    entry[op.reportKey] =
      unit.losses === undefined
        ? unit.result!.report
        : { ...unit.result!.report, losses: unit.losses };
    const repeated = duplicates.get(u);
    if (repeated !== undefined) {
      // Written again from the value read, the text holds each key once: a change.
      entry.changed = true;
      entry[op.reportKey] = { ...(entry[op.reportKey] as object), duplicateKeys: repeated };
      if (!values.has(u)) values.set(u, doc.units[u]!.value!);
    }
    entries.push(entry);
  }
  if (failed) return { entries, exit, changed: false };
  // --check writes nothing, and --write leaves an unchanged file alone: neither needs the text
  // (nor a text too big to build).
  if (!writing || (inPlace && values.size === 0))
    return { entries, exit, changed: values.size > 0 };
  // An event log (one conversation over many lines) converts to one JSON document.
  const out: SourceDocument = eventLog
    ? { kind: 'json', bom: false, eol: '\n', units: [{ text: '' }], lines: [] }
    : doc;
  let text: string;
  try {
    text = serializeDocument(out, values);
  } catch (e) {
    // V8 strings hold about 512 MB: a result past that (deep nesting grows with indentation) cannot be written.
    if (!(e instanceof RangeError)) throw e;
    const error = new SourceError(
      'cannot write the result: it is larger than a JavaScript string can hold (nesting too deep or content too large)',
    );
    return { entries: [errorEntry(input.display, error)], exit: EXIT_USAGE, changed: false };
  }
  return { entries, exit, changed: values.size > 0, text };
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

function humanLines(
  outcome: FileOutcome,
  op: Operation,
  mode: Mode,
  chalk: ChalkInstance,
): string[] {
  const lines: string[] = [];
  // A file with a failing line is not written at all, so its other changes are only "would change".
  const notWritten =
    outcome.text === undefined && outcome.entries.some((e) => e.error !== undefined);
  for (const entry of outcome.entries) {
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
      continue;
    }
    const { summary, details } = op.describe(entry[op.reportKey] as object, chalk);
    const state = entry.changed
      ? mode === 'check' || notWritten
        ? chalk.yellow(
            notWritten && mode !== 'check'
              ? 'would change (not written: the file has errors)'
              : 'would change',
          )
        : chalk.yellow('changed')
      : 'unchanged';
    lines.push(`${chalk.bold(where)}: ${state}${summary === '' ? '' : ` (${summary})`}`);
    for (const d of details) lines.push(`  ${d}`);
  }
  return lines;
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
  // Named files only: the config's ignore (for folder walks) does not apply.
  const { ignore: _configIgnore, ...settings } = await readSettings(io.cwd, flags);
  flags = { ...flags, ...settings };
  const pointer = pointerTokens(flags.pointer);
  let args = files;
  if (args.length === 0) {
    if (io.stdin.isTTY === true)
      throw new UsageError(`${op.name} needs a file (or "-" for standard input)`);
    args = ['-'];
  }
  const inputs = await expandInputs(args, io, {
    ...(flags.stdinFilename === undefined ? {} : { stdinName: flags.stdinFilename }),
    ignore: [{ patterns: flags.ignore ?? [], base: io.cwd }],
    errorOnUnmatched: flags.errorOnUnmatchedPattern !== false,
  });
  if (inputs.length === 0) throw new UsageError(`${op.name}: no input files`);
  const mode = chooseMode(flags, inputs);
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
  const writing = mode !== 'check';
  const cleared = new Set<string>();
  const clearOnce = async (dir: string): Promise<void> => {
    if (cleared.has(dir)) return;
    cleared.add(dir);
    await clearStaleTemps(dir);
  };

  const report: ReportEntry[] = [];
  let exit = EXIT_OK;
  let interrupted = false;
  for (const input of inputs) {
    if (io.signal?.aborted) {
      interrupted = true;
      break;
    }
    let outcome: FileOutcome;
    // --write reads each file under its lock, which is held until the file is replaced or let go.
    let replaceable: Replaceable | undefined;
    try {
      if (mode === 'write') {
        replaceable = await openForReplace(input.absolute!, { breakLinks: flags.breakLinks });
        // A run over a folder clears a killed run's leftovers there, even when it writes nothing.
        await clearOnce(path.dirname(replaceable.target));
      }
      const bytes = replaceable?.bytes ?? (await readInput(input, io));
      const kind = kindFromName(input.absolute ?? flags.stdinFilename ?? '');
      outcome = processDocument(
        input,
        readDocument(bytes, kind),
        op,
        flags,
        pointer,
        writing,
        mode === 'write',
      );
    } catch (e) {
      await replaceable?.release();
      // A file that cannot be read, or replaced, costs only this file, in one line; anything else is a bug.
      const error =
        e instanceof SourceError
          ? e
          : e instanceof RefusedWrite
            ? new SourceError(`not written: ${e.message}`)
            : typeof (e as { code?: unknown }).code === 'string'
              ? new SourceError(describeFsError(e))
              : new SourceError(`internal error: ${oneLine(e)}`);
      outcome = { entries: [errorEntry(input.display, error)], exit: EXIT_USAGE, changed: false };
    }

    if (outcome.text !== undefined) {
      try {
        await emit(input, outcome, mode, flags, io, outTargets, clearOnce, replaceable);
      } catch (e) {
        outcome.entries = [
          errorEntry(
            input.display,
            new SourceError(
              e instanceof RefusedWrite
                ? `not written: ${e.message}`
                : `cannot write: ${describeWriteError(e)}`,
            ),
          ),
        ];
        outcome.exit = EXIT_USAGE;
      }
    }
    await replaceable?.release();
    if (mode === 'check' && outcome.changed) outcome.exit = worstExit(outcome.exit, EXIT_FINDINGS);
    exit = worstExit(exit, outcome.exit);
    report.push(...outcome.entries);
    if (flags.reportFormat !== 'json') {
      const lines = humanLines(outcome, op, mode, stderrChalk);
      if (lines.length > 0) print(io.stderr, lines.join('\n') + '\n');
    }
  }

  const json = JSON.stringify({ files: report }, null, 2) + '\n';
  if (flags.reportFormat === 'json') print(io.stderr, json);
  if (flags.reportFile !== undefined) await writeOutputFile(io, flags.reportFile, json);
  return interrupted ? EXIT_INTERRUPTED : exit;
}

async function emit(
  input: InputRef,
  outcome: FileOutcome,
  mode: Mode,
  flags: TransformFlags,
  io: Io,
  outTargets: Map<InputRef, string> | undefined,
  clearOnce: (dir: string) => Promise<void>,
  replaceable: Replaceable | undefined,
): Promise<void> {
  // Only --write of an unchanged file comes without text, and it writes nothing.
  const text = outcome.text ?? '';
  switch (mode) {
    case 'stdout':
      print(io.stdout, text);
      return;
    case 'check':
      return;
    case 'write':
      // Through a symlink to the file it names (openForReplace found it), never over the link.
      if (outcome.changed) await replaceable!.replace(text);
      return;
    case 'output-file':
    case 'out-dir': {
      const target =
        mode === 'output-file' ? path.resolve(io.cwd, flags.outputFile!) : outTargets!.get(input)!;
      await fs.mkdir(path.dirname(target), { recursive: true });
      await clearOnce(path.dirname(target));
      await writeAtomic(target, text);
      return;
    }
  }
}
