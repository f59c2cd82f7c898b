/**
 * `histlint lint`: config, inputs, the engine over every file, `--fix`,
 * the reporter, the exit code (SPEC §3, §5.2).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { loadCliConfig } from './config.js';
import {
  REPORTER_NAMES,
  TARGET_CHOICES,
  type FromChoice,
  type ReporterName,
  type TargetChoice,
} from '../names.js';
import type { Config } from '../config/schema.js';
import { countFindings, lintBytes, type EnabledRules, type FileResult } from '../lint/engine.js';
import { runTasks, startPool, type LintPool } from '../lint/pool.js';
import { parseShard, shardOf } from '../lint/shard.js';
import {
  isEventLogFile,
  mergeRanges,
  rangeBytes,
  splitAtLines,
  toLintOptions,
  type LintTask,
  type TaskOptions,
  type TaskResult,
} from '../lint/tasks.js';
import { availableParallelism } from 'node:os';
import { fixBytes, isEmptyPlan, planFixes } from '../lint/fix.js';
import { SeverityResolver } from '../lint/severity.js';
import { kindFromName } from '../formats/kit/document.js';
import { describeFsError } from '../model/errors.js';
import { REPORTERS } from '../reporters/index.js';
import type { LintResults } from '../reporters/types.js';
import { RULES, ruleDocsUrl } from '../rules/index.js';
import { colorLevel } from './color.js';
import { EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from './exit-codes.js';
import {
  expandInputs,
  hasGlobChars,
  InputPaths,
  print,
  type IgnoreRule,
  readStdin,
  writeOutputFile,
  type InputRef,
  type Io,
} from './io.js';
import { openForReplace, RefusedWrite, type Replaceable } from './safe-write.js';
import { pointerTokens } from './options.js';
import { parseRuleFlags } from './rule-flags.js';
import { packageVersion } from './package-info.js';

/** The flags of `histlint lint`. */
export interface LintFlags {
  format?: ReporterName;
  outputFile?: string;
  config?: string;
  rule?: string[];
  maxWarnings?: number;
  quiet?: boolean;
  fix?: boolean;
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
  const loaded = await loadCliConfig(io.cwd, flags.config);
  const config: Config = loaded.config;
  const format = flags.format ?? config.format ?? 'stylish';
  checkChoice('--format', format, REPORTER_NAMES);
  const target = flags.target ?? config.target ?? 'auto';
  checkChoice('--target', target, TARGET_CHOICES);
  const cliRules = parseRuleFlags(flags.rule ?? []);
  const pointerText = flags.pointer ?? config.pointer;
  const pointer = pointerTokens(pointerText);
  const from = flags.from ?? config.from;
  // The config's ignore patterns are relative to its folder; --ignore, to the working folder.
  const ignore: IgnoreRule[] = [
    { patterns: config.ignore ?? [], base: loaded.dir },
    { patterns: flags.ignore ?? [], base: io.cwd },
  ];
  const errorOnUnmatched = flags.errorOnUnmatchedPattern !== false;

  const useStdin = patterns.length === 1 && patterns[0] === '-';
  const jobs = flags.jobs ?? availableParallelism();
  // A run that looks big (a folder, a glob, many names, or --jobs) starts its threads before
  // the inputs are expanded, so they load their code while this thread walks the file system.
  const early =
    jobs > 1 &&
    !useStdin &&
    (flags.jobs !== undefined ||
      (patterns.length > 0
        ? looksBig(patterns, io.cwd)
        : looksBig(config.files ?? [], loaded.dir ?? io.cwd)));
  const earlyPool = early ? startPool(jobs) : Promise.resolve(null);
  try {
    return await lintInputs(earlyPool);
  } catch (e) {
    // Whatever failed before the work was handed out, the threads must not keep the process alive.
    await (await earlyPool)?.destroy();
    throw e;
  }

  async function lintInputs(earlyPool: Promise<LintPool | null>): Promise<number> {
    let inputs: InputRef[];
    if (useStdin) {
      if (flags.fix) throw new UsageError('--fix cannot write standard input');
      inputs = [{ display: flags.stdinFilename ?? '<stdin>' }];
    } else if (patterns.length > 0 || (config.files !== undefined && config.files.length > 0)) {
      if (patterns.includes('-'))
        throw new UsageError('"-" cannot be combined with other patterns');
      const fromConfig = patterns.length === 0;
      inputs = await expandInputs(fromConfig ? config.files! : patterns, io, {
        ignore,
        errorOnUnmatched,
        expandDirectories: true,
        missingIsUnmatched: true,
        ...(fromConfig ? { base: loaded.dir } : {}),
      });
    } else {
      throw new UsageError('lint needs file patterns (or "files" in histlint.config.json)');
    }

    // The report never replaces an input (one run's report, linted by the next, is one).
    if (flags.outputFile !== undefined)
      new InputPaths(inputs).refuseOutput(io, '-o', flags.outputFile);
    const resolver = new SeverityResolver(config, loaded.dir, cliRules);
    if (flags.shard !== undefined) {
      const shard = parseShard(flags.shard);
      if (shard === null)
        throw new UsageError(`--shard "${flags.shard}": expected i/n with 1 <= i <= n`);
      inputs = shardOf(inputs, shard);
    }
    const leavePending = flags.leavePending === true;
    // Task options are shared by every file with the same rules and kind (the resolver returns one Map per rule set).
    const optionCache = new Map<EnabledRules, Map<string, TaskOptions>>();
    const taskOptionsFor = (input: InputRef): TaskOptions => {
      // Standard input is matched against the config's overrides by its --stdin-filename.
      const rules = resolver.forFile(
        input.absolute ??
          (flags.stdinFilename === undefined
            ? undefined
            : path.resolve(io.cwd, flags.stdinFilename)),
      );
      const kind = kindFromName(input.absolute ?? flags.stdinFilename ?? '');
      let byKind = optionCache.get(rules);
      if (byKind === undefined) optionCache.set(rules, (byKind = new Map()));
      const key = kind ?? '';
      let o = byKind.get(key);
      if (o === undefined) {
        o = { rules: [...rules], pointer, leavePending, target };
        if (from !== undefined) o.from = from;
        if (kind !== undefined) o.kind = kind;
        byKind.set(key, o);
      }
      return o;
    };

    // Threads start now, loading their code while this thread sizes and cuts the work. Without
    // --jobs, a run of a few small files stays in this thread: starting threads would cost more.
    const mayBeSmall = flags.jobs === undefined && inputs.length < SMALL_RUN_FILES;
    let pool = await earlyPool;
    if (pool === null && jobs > 1 && !mayBeSmall) pool = await startPool(jobs);

    // One task per file; a big JSONL file is cut into line-aligned byte ranges so all cores share it.
    const tasks: LintTask[] = [];
    const sizes: number[] = [];
    const slots: { input: InputRef; first: number; count: number }[] = [];
    let totalBytes = 0;
    for (const input of inputs) {
      if (input.absolute === undefined) {
        slots.push({ input, first: -1, count: 0 });
        continue;
      }
      const options = taskOptionsFor(input);
      const kind = options.kind ?? kindFromName(input.absolute);
      // Only JSONL sizes matter before reading (to cut big files); a stat per small file would cost a syscall each.
      let size = 0;
      if (kind === 'jsonl') {
        try {
          const st = statSync(input.absolute);
          size = st.isFile() ? st.size : 0;
        } catch {
          // Unreadable: the task reports it.
        }
      }
      totalBytes += size;
      const sizeIndex = tasks.length;
      const first = tasks.length;
      if (
        jobs > 1 &&
        size >= SPLIT_MIN_BYTES &&
        kind === 'jsonl' &&
        !(await isEventLogFile(input.absolute, toLintOptions(options)))
      ) {
        const ranges = await splitAtLines(input.absolute, size, rangeBytes(size, jobs));
        for (const range of ranges)
          tasks.push({ file: input.display, absolute: input.absolute, options, range });
      } else {
        tasks.push({ file: input.display, absolute: input.absolute, options });
      }
      for (let k = sizeIndex; k < tasks.length; k++) sizes[k] = size;
      slots.push({ input, first, count: tasks.length - first });
    }

    const progress = createProgress(io, flags.progress, tasks.length);
    if (mayBeSmall && jobs > 1) {
      if (pool === null && totalBytes >= SMALL_RUN_BYTES) pool = await startPool(jobs);
      else if (pool !== null && totalBytes < SMALL_RUN_BYTES) {
        // Started early, but the run is small after all: this thread alone is quicker.
        await pool.destroy();
        pool = null;
      }
    }
    const taskResults = await runTasks(
      tasks,
      pool,
      (r) => progress.update(r.bytes),
      io.signal,
      sizes,
    );
    progress.done();

    const files: FileResult[] = [];
    let warnings = 0;
    let exit = EXIT_OK;
    let interrupted = io.signal?.aborted === true;
    for (const slot of slots) {
      // --fix writes files: a signal stops it between them, as it stops normalize --write.
      if (flags.fix && io.signal?.aborted === true) {
        interrupted = true;
        break;
      }
      const input = slot.input;
      let result: FileResult;
      if (slot.first === -1) {
        const options = toLintOptions(taskOptionsFor(input));
        result = lintBytes(input.display, await readStdin(io), options);
      } else {
        const parts = taskResults.slice(slot.first, slot.first + slot.count);
        // includes() sees the holes an interrupted run leaves (some() skips them).
        if (parts.includes(undefined)) {
          interrupted = true;
          break;
        }
        result = mergeRanges(parts as TaskResult[]);
      }
      if (result.error !== undefined) {
        print(io.stderr, `histlint: ${input.display}: ${result.error.message}\n`);
        exit = EXIT_USAGE;
      }
      if (flags.fix && input.absolute !== undefined && result.findings.length > 0) {
        const fixed = await applyFix(input, result, taskOptionsFor(input), io, flags.breakLinks);
        if (fixed.error) exit = EXIT_USAGE;
        result = fixed.result;
      }
      // Warnings count toward --max-warnings even when --quiet leaves them out (as in ESLint).
      warnings += result.warningCount;
      if (flags.quiet) {
        const findings = result.findings.filter((f) => f.severity === 'error');
        result = { ...result, findings, ...countFindings(findings) };
      }
      files.push(result);
    }

    const results: LintResults = {
      files,
      errorCount: files.reduce((n, f) => n + f.errorCount, 0),
      warningCount: files.reduce((n, f) => n + f.warningCount, 0),
    };
    const outStream =
      flags.outputFile === undefined ? io.stdout : { isTTY: false, write: () => true };
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
}

/** True when lint patterns may stand for many files: a glob, a folder, or many names. */
function looksBig(patterns: readonly string[], base: string): boolean {
  if (patterns.length >= SMALL_RUN_FILES) return true;
  return patterns.some((p) => {
    if (hasGlobChars(p)) return true;
    try {
      return statSync(path.resolve(base, p)).isDirectory();
    } catch {
      return false;
    }
  });
}

/** Below both of these, a run without --jobs does not start worker threads. */
const SMALL_RUN_FILES = 16;
const SMALL_RUN_BYTES = 4 * 1024 * 1024;

/** JSONL files at least this big are split across workers. */
const SPLIT_MIN_BYTES = 32 * 1024 * 1024;

/** `--fix` for one file: the enabled rules' fixes, written atomically, then a fresh lint of the new text. */
async function applyFix(
  input: InputRef,
  result: FileResult,
  taskOptions: TaskOptions,
  io: Io,
  breakLinks: boolean | undefined,
): Promise<{ result: FileResult; error: boolean }> {
  const options = toLintOptions(taskOptions);
  const plan = planFixes(options.rules);
  if (isEmptyPlan(plan)) return { result, error: false };
  let file: Replaceable | undefined;
  try {
    // Read again under the lock, which is held until the fix is written or let go.
    file = await openForReplace(input.absolute!, { breakLinks });
    const bytes = file.bytes;
    const kind = options.kind ?? kindFromName(input.absolute!);
    const fixed = fixBytes(bytes, kind, plan, {
      pointer: taskOptions.pointer,
      leavePending: taskOptions.leavePending,
      ...(taskOptions.target === undefined ? {} : { target: taskOptions.target }),
      ...(taskOptions.from === undefined ? {} : { from: taskOptions.from }),
    });
    if (fixed === null) return { result, error: false };
    await file.replace(fixed);
    const written = typeof fixed === 'string' ? Buffer.from(fixed, 'utf8') : fixed;
    return { result: lintBytes(input.display, written, options), error: false };
  } catch (e) {
    const message =
      e instanceof RefusedWrite
        ? `fix not written: ${e.message}`
        : `cannot write the fix: ${describeFsError(e)}`;
    print(io.stderr, `histlint: ${input.display}: ${message}\n`);
    // The report says so too (its findings are the file's as it still is).
    return { result: { ...result, error: { message } }, error: true };
  } finally {
    await file?.release();
  }
}

/** Progress on standard error: on a terminal, or with --progress; never on standard output. */
function createProgress(
  io: Io,
  flag: boolean | undefined,
  totalTasks: number,
): { update(bytes: number): void; done(): void } {
  const tty = io.stderr.isTTY === true;
  if (!(flag === true || (flag === undefined && tty)) || totalTasks === 0)
    return { update() {}, done() {} };
  const started = Date.now();
  let bytes = 0;
  let tasks = 0;
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
    update(b) {
      bytes += b;
      tasks++;
      const now = Date.now();
      if (now - last >= (tty ? 100 : 1000)) {
        last = now;
        render(false);
      }
    },
    done() {
      render(true);
    },
  };
}
