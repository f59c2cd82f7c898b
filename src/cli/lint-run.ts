/**
 * `histlint lint`: config, inputs, the engine over every file, `--fix`,
 * the reporter, the exit code (SPEC §3, §5.2).
 */
import { cliConfigs } from './config.js';
import {
  REPORTER_NAMES,
  TARGET_CHOICES,
  type FromChoice,
  type ReporterName,
  type TargetChoice,
} from '../names.js';
import type { Config } from '../config/schema.js';
import { countFindings, lintBytes, type FileResult, type LintOptions } from '../lint/engine.js';
import {
  lintFilesWith,
  lintOptionsFor,
  type LintFilesOptions,
  type LintInput,
  type LintProgress,
} from '../lint/files.js';
import { parseShard, shardOf } from '../lint/shard.js';
import { fixBytes, isEmptyPlan, planFixes } from '../lint/fix.js';
import { readFile } from 'node:fs/promises';
import { Chalk } from 'chalk';
import { inputKind, kindFromName } from '../formats/kit/document.js';
import { describeFsError, ReadOnlyFormatError } from '../model/errors.js';
import { REPORTERS } from '../reporters/index.js';
import { colorDiff, unifiedDiff } from './diff.js';
import type { LintResults } from '../reporters/types.js';
import { RULES, ruleById, ruleDocsUrl } from '../rules/index.js';
import { colorLevel } from './color.js';
import { EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from './exit-codes.js';
import { InputPaths, print, readStdin, toPosix, writeOutputFile, type Io } from './io.js';
import { readSettingsFor } from './config.js';
import { SeverityResolver } from '../lint/severity.js';
import type { Severity } from '../rules/rule.js';
import path from 'node:path';
import { openForReplace, RefusedWrite, type Replaceable } from './safe-write.js';
import { pointerTokens } from './options.js';
import { parseRuleFlags } from './rule-flags.js';
import { packageVersion } from './package-info.js';
import { CacheRun, SuppressionRun, type AdoptFlags } from './lint-adopt.js';

/** The flags of `histlint lint`. */
export interface LintFlags extends AdoptFlags {
  format?: ReporterName;
  outputFile?: string;
  config?: string;
  rule?: string[];
  maxWarnings?: number;
  quiet?: boolean;
  fix?: boolean;
  /** `--fix-dry-run`: compute the fixes, report as if fixed, write nothing. */
  fixDryRun?: boolean;
  /** `--diff`: print a unified diff of what `--fix` would write, write nothing, no report. */
  diff?: boolean;
  /** `--break-links`: `--fix` replaces a file that has other hard links. */
  breakLinks?: boolean;
  leavePending?: boolean;
  ignore?: string[];
  errorOnUnmatchedPattern?: boolean;
  stdinFilename?: string;
  from?: FromChoice;
  pointer?: string;
  target?: TargetChoice;
  color?: boolean;
  jobs?: number;
  shard?: string;
  progress?: boolean;
  /** `--print-config FILE`: print that file's effective config and lint nothing. */
  printConfig?: string;
  /** `--no-gitignore` makes it false: folder walks read what .gitignore ignores. */
  gitignore?: boolean;
}

function checkChoice<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): asserts value is T | undefined {
  if (value !== undefined && !(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${name}: expected one of ${allowed.join('|')}, got "${value}"`);
  }
}

/** Runs `histlint lint`; returns the exit code. */
export async function runLint(
  patterns: readonly string[],
  flags: LintFlags,
  io: Io,
): Promise<number> {
  // Each file's config is the nearest above it; the working folder's gives files, ignore and format.
  const configs = cliConfigs(io.cwd, flags.config);
  const loaded = await configs.root();
  const config: Config = loaded.config;
  const format = flags.format ?? config.format ?? 'stylish';
  checkChoice('--format', format, REPORTER_NAMES);
  checkChoice('--target', flags.target, TARGET_CHOICES);
  const rules = parseRuleFlags(flags.rule ?? []);
  if (flags.printConfig !== undefined) return printConfig(flags.printConfig, flags, rules, io);

  // --fix-dry-run and --diff compute the fixes and write nothing.
  if (flags.fixDryRun && flags.fix)
    throw new UsageError('--fix-dry-run writes nothing: it cannot be combined with --fix');
  if (flags.diff && flags.outputFile !== undefined)
    throw new UsageError('--diff prints a patch on standard output: it cannot be combined with -o');
  if (flags.diff && flags.format !== undefined && flags.format !== 'stylish')
    throw new UsageError(
      `--diff prints a patch, not a report: it cannot be combined with --format ${flags.format}`,
    );
  const fixing = flags.fix === true || flags.fixDryRun === true || flags.diff === true;
  const writing = flags.fix === true && flags.diff !== true;

  const useStdin = patterns.length === 1 && patterns[0] === '-';
  // --suppress-all, --prune-suppressions, --cache (lint-adopt.ts).
  const suppressions = SuppressionRun.open(io, flags);
  const cache = useStdin ? undefined : CacheRun.open(io, flags, packageVersion());
  let inputs: LintInput[];
  if (useStdin) {
    if (fixing) throw new UsageError(`${fixOption(flags)} cannot fix standard input`);
    const text = await readStdin(io);
    // JSON or JSONL as normalize and show decide it: the name's extension, else the bytes.
    const kind = inputKind(text, flags.stdinFilename);
    inputs = [
      flags.stdinFilename === undefined
        ? { text, kind }
        : { path: flags.stdinFilename, text, kind },
    ];
  } else if (patterns.length > 0 || (config.files !== undefined && config.files.length > 0)) {
    if (patterns.includes('-')) throw new UsageError('"-" cannot be combined with other patterns');
    inputs = [...patterns];
  } else {
    throw new UsageError('lint needs file patterns (or "files" in histlint.config.json)');
  }
  const options: LintFilesOptions = {
    cwd: io.cwd,
    config,
    configDir: loaded.dir,
    configFor: (absolute) => configs.forFile(absolute),
    rules,
    leavePending: flags.leavePending === true,
    ignore: flags.ignore ?? [],
    errorOnUnmatchedPattern: flags.errorOnUnmatchedPattern !== false,
    gitignore: flags.gitignore !== false,
    onWarning: (message) => print(io.stderr, `${message}\n`),
    select: async (files) => {
      // The report never replaces an input (one run's report, linted by the next, is one).
      if (flags.outputFile !== undefined)
        new InputPaths(files).refuseOutput(io, '-o', flags.outputFile);
      if (flags.shard === undefined)
        return (await cache?.select(files, lintOptionsFor(options))) ?? files;
      const shard = parseShard(flags.shard);
      if (shard === null)
        throw new UsageError(`--shard "${flags.shard}": expected i/n with 1 <= i <= n`);
      const sharded = shardOf(files, shard);
      return (await cache?.select(sharded, lintOptionsFor(options))) ?? sharded;
    },
  };
  // Flags over every file's config; each file's config (and its overrides) gives the rest.
  if (flags.target !== undefined) options.target = flags.target;
  if (flags.pointer !== undefined) options.pointer = pointerTokens(flags.pointer);
  if (flags.from !== undefined) options.from = flags.from;
  if (flags.jobs !== undefined) options.jobs = flags.jobs;
  if (io.signal !== undefined) options.signal = io.signal;
  // Standard input is one text, read before the run: no progress to show.
  const progress = useStdin ? undefined : createProgress(io, flags.progress);
  if (progress !== undefined) options.onProgress = progress.update;

  const linted = await lintFilesWith(inputs, options, { unnamedText: '<stdin>' });
  const run = cache === undefined ? linted : cache.merge(linted);
  progress?.done();

  const optionsFor = fixing ? lintOptionsFor(options) : undefined;
  const patches: string[] = [];
  const files: FileResult[] = [];
  let warnings = 0;
  let exit = EXIT_OK;
  let interrupted = run.interrupted;
  for (const [k, linted] of run.files.entries()) {
    // --fix writes files: a signal stops it between them, as it stops normalize --write.
    if (writing && io.signal?.aborted === true) {
      interrupted = true;
      break;
    }
    let result = linted;
    const absolute = run.paths[k];
    if (result.error !== undefined) {
      print(io.stderr, `${result.file}: error: ${result.error.message}\n`);
      exit = EXIT_USAGE;
    }
    if (optionsFor !== undefined && absolute !== undefined && result.findings.length > 0) {
      const fixed = await applyFix(absolute, result, await optionsFor(absolute), io, {
        write: writing,
        diff: flags.diff === true,
        breakLinks: flags.breakLinks,
      });
      if (fixed.error) exit = EXIT_USAGE;
      result = fixed.result;
      if (flags.diff && fixed.patch !== undefined && fixed.patch !== '') patches.push(fixed.patch);
      // A dry run's result is of bytes not on disk: recorded only when the fix changed nothing.
      if (writing || !fixed.changed) cache?.record(absolute, result, fixed.written);
    } else {
      cache?.record(absolute, result);
    }
    if (suppressions !== undefined) result = suppressions.filter(result, absolute);
    // Warnings count toward --max-warnings even when --quiet leaves them out (as in ESLint).
    warnings += result.warningCount;
    if (flags.quiet) {
      const findings = result.findings.filter((f) => f.severity === 'error');
      result = { ...result, findings, ...countFindings(findings) };
    }
    files.push(result);
  }

  await cache?.save();
  await suppressions?.finish();
  const results: LintResults = {
    files,
    errorCount: files.reduce((n, f) => n + f.errorCount, 0),
    warningCount: files.reduce((n, f) => n + f.warningCount, 0),
  };
  const outStream =
    flags.outputFile === undefined ? io.stdout : { isTTY: false, write: () => true };
  if (flags.diff)
    return diffExit(patches, results, colorLevel(flags.color, io.env, outStream), io, {
      exit,
      interrupted,
      tooManyWarnings: flags.maxWarnings !== undefined && warnings > flags.maxWarnings,
    });
  const text = REPORTERS[format](results, {
    color: colorLevel(flags.color, io.env, outStream) > 0,
    rules: RULES.map((r) => r.meta),
    docsUrl: ruleDocsUrl,
    version: packageVersion(),
    windows: process.platform === 'win32',
  });
  if (flags.outputFile !== undefined) {
    await writeOutputFile(io, flags.outputFile, text);
  } else if (text !== '') {
    print(io.stdout, text);
  }

  if (interrupted) return EXIT_INTERRUPTED;
  if (results.errorCount > 0) exit = Math.max(exit, EXIT_FINDINGS);
  if (flags.maxWarnings !== undefined && warnings > flags.maxWarnings) {
    if (format === 'stylish') {
      print(io.stderr, `histlint found too many warnings (maximum: ${flags.maxWarnings}).\n`);
    }
    exit = Math.max(exit, EXIT_FINDINGS);
  }
  return exit;
}

/**
 * `--print-config FILE`: the settings linting FILE would use (its config after `extends`, with
 * the matching `overrides` and the flags applied), as JSON on standard output.
 */
async function printConfig(
  file: string,
  flags: LintFlags,
  cliRules: ReadonlyMap<string, Severity>,
  io: Io,
): Promise<number> {
  const absolute = path.resolve(io.cwd, file);
  const configs = cliConfigs(io.cwd, flags.config);
  const loaded = await configs.forFile(absolute);
  const root = await configs.root();
  const read = await readSettingsFor(configs, absolute, flags);
  const enabled = new SeverityResolver(
    loaded.config,
    loaded.dir,
    cliRules,
    loaded.overrideDirs,
  ).forFile(absolute);
  const shown = (f: string): string => toPosix(path.relative(io.cwd, f) || f);
  const out = {
    file: toPosix(file),
    config: loaded.file === undefined ? null : shown(loaded.file),
    extends: (loaded.extended ?? []).map(shown),
    from: read.from ?? 'auto',
    pointer: read.pointer ?? '',
    target: read.target ?? 'auto',
    format: flags.format ?? root.config.format ?? 'stylish',
    rules: Object.fromEntries(RULES.map((r) => [r.meta.id, enabled.get(r.meta.id) ?? 'off'])),
  };
  print(io.stdout, `${JSON.stringify(out, null, 2)}\n`);
  return EXIT_OK;
}

/** The option that asked for the fixes, for messages. */
function fixOption(flags: LintFlags): string {
  return flags.diff ? '--diff' : flags.fixDryRun ? '--fix-dry-run' : '--fix';
}

/**
 * `--diff`'s ending: the patches (and nothing else) on standard output, one summary line on
 * standard error; exit 1 when there is a patch, else lint's exit from what would remain.
 */
function diffExit(
  patches: readonly string[],
  results: LintResults,
  color: number,
  io: Io,
  state: { exit: number; interrupted: boolean; tooManyWarnings: boolean },
): number {
  const chalk = new Chalk({ level: color > 0 ? 1 : 0 });
  for (const patch of patches) print(io.stdout, colorDiff(patch, chalk));
  const remaining = results.errorCount + results.warningCount;
  const files =
    patches.length === 1 ? '1 file' : `${patches.length === 0 ? 'no' : patches.length} files`;
  const left = remaining === 1 ? '1 problem' : `${remaining} problems`;
  print(io.stderr, `${files} would be fixed; ${left} would remain\n`);
  if (state.interrupted) return EXIT_INTERRUPTED;
  let exit = state.exit;
  if (patches.length > 0 || results.errorCount > 0 || state.tooManyWarnings)
    exit = Math.max(exit, EXIT_FINDINGS);
  return exit;
}

/** What the fixes of one file came to: its findings after them, and the patch when asked. */
interface FixOutcome {
  result: FileResult;
  error: boolean;
  /** The unified diff from the file's bytes to the fixed bytes ('' when nothing changed). */
  patch?: string;
  /** The fixes changed the file's bytes (written, or, in a dry run, would have). */
  changed?: boolean;
  /** The bytes written, when they were. */
  written?: Uint8Array;
}

/**
 * `--fix` for one file: the enabled rules' fixes, written atomically, then a fresh lint of the new
 * text. Without `write` (`--fix-dry-run`, `--diff`) the same bytes are computed, not written, and
 * the patch says what `--fix` would write. A read-only format is not fixed: one note says so.
 */
async function applyFix(
  absolute: string,
  result: FileResult,
  options: LintOptions,
  io: Io,
  how: { write: boolean; diff: boolean; breakLinks: boolean | undefined },
): Promise<FixOutcome> {
  const plan = planFixes(options.rules);
  if (isEmptyPlan(plan)) return { result, error: false };
  if (result.readOnly !== undefined) return notFixed(result, result.readOnly, io);
  let file: Replaceable | undefined;
  try {
    // Read again under the lock, which is held until the fix is written or let go.
    if (how.write) file = await openForReplace(absolute, { breakLinks: how.breakLinks });
    const bytes = file === undefined ? await readFile(absolute) : file.bytes;
    const kind = options.kind ?? kindFromName(absolute);
    let fixed;
    try {
      fixed = fixBytes(bytes, kind, plan, {
        pointer: options.pointer ?? [],
        leavePending: options.leavePending === true,
        ...(options.target === undefined ? {} : { target: options.target }),
        ...(options.from === undefined ? {} : { from: options.from }),
      });
    } catch (e) {
      if (e instanceof ReadOnlyFormatError) return notFixed(result, e.format, io);
      throw e;
    }
    if (fixed === null) return { result, error: false, patch: '' };
    if (file !== undefined) await file.replace(fixed);
    const after = typeof fixed === 'string' ? Buffer.from(fixed, 'utf8') : fixed;
    const fresh = lintBytes(result.file, after, options);
    const done = {
      result: fresh,
      error: false,
      changed: true,
      ...(file === undefined ? {} : { written: after }),
    };
    // Only --diff pays for the diff (a big file's is costly).
    if (!how.diff) return done;
    const patch = unifiedDiff(
      result.file,
      Buffer.from(bytes).toString('utf8'),
      Buffer.from(after).toString('utf8'),
    );
    return { ...done, patch };
  } catch (e) {
    const message =
      e instanceof RefusedWrite
        ? `fix not written: ${e.message}`
        : `${how.write ? 'cannot write the fix' : 'cannot compute the fix'}: ${describeFsError(e)}`;
    print(io.stderr, `${result.file}: error: ${message}\n`);
    // The report says so too (its findings are the file's as it still is).
    return { result: { ...result, error: { message } }, error: true };
  } finally {
    await file?.release();
  }
}

/** A file in a read-only format: linted, not fixed, and one note line when it had something to fix. */
function notFixed(result: FileResult, format: string, io: Io): FixOutcome {
  if (result.findings.some((f) => Boolean(ruleById(f.ruleId)?.meta.fixable)))
    print(
      io.stderr,
      `${result.file}: note: not fixed: ${format} files are read only (see histlint convert)\n`,
    );
  // Its findings are not fixable: the reporters count them so.
  return { result: { ...result, readOnly: format }, error: false };
}

/** Progress on standard error: on a terminal, or with --progress; never on standard output. */
function createProgress(
  io: Io,
  flag: boolean | undefined,
): { update(p: LintProgress): void; done(): void } | undefined {
  const tty = io.stderr.isTTY === true;
  if (!(flag === true || (flag === undefined && tty))) return undefined;
  const started = Date.now();
  let bytes = 0;
  let tasks = 0;
  let totalTasks = 0;
  let last = 0;
  const render = (final: boolean): void => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const rate = bytes / 1e6 / seconds;
    // Sizes are known up front only for JSONL files: time left follows the share of tasks done.
    const left = tasks > 0 ? (seconds * (totalTasks - tasks)) / tasks : 0;
    const text = `linted ${tasks}/${totalTasks} (${(bytes / 1e6).toFixed(1)} MB, ${rate.toFixed(1)} MB/s, ${final ? 'done' : `~${Math.ceil(left)} s left`})`;
    print(io.stderr, tty ? `\r${text}\u001b[K${final ? '\n' : ''}` : `${text}\n`);
  };
  return {
    update(p) {
      totalTasks = p.total;
      // The first call only says how much work there is.
      if (p.file === undefined) return;
      bytes += p.bytes;
      tasks = p.done;
      const now = Date.now();
      if (now - last >= (tty ? 100 : 1000)) {
        last = now;
        render(false);
      }
    },
    done() {
      if (totalTasks > 0) render(true);
    },
  };
}
