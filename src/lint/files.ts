/**
 * `lintFiles`: paths, globs, folders or texts in, each file's findings out, in input order. It
 * owns what makes a run fast without changing its results: whether worker threads pay for
 * themselves, cutting a big JSONL file into line-aligned byte ranges, and joining the ranges'
 * findings again.
 */
import { readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { expandInputs, type IgnoreRule, type InputRef, type Io } from '../cli/io.js';
import type { Config } from '../config/schema.js';
import { kindFromName } from '../formats/kit/document.js';
import { parsePointer } from '../model/pointer.js';
import { FROM_CHOICES, TARGET_CHOICES, type FromChoice, type TargetChoice } from '../names.js';
import { ruleById } from '../rules/index.js';
import type { Severity } from '../rules/rule.js';
import { lintBytes, type EnabledRules, type FileResult, type LintOptions } from './engine.js';
import { runTasks, startPool, type LintPool } from './pool.js';
import { SeverityResolver } from './severity.js';
import {
  isEventLogFile,
  mergeRanges,
  rangeBytes,
  splitAtLines,
  toLintOptions,
  type LintTask,
  type TaskOptions,
  type TaskResult,
} from './tasks.js';

/** A text to lint as if it were the file at `path`; nothing is read from disk. */
export interface LintTextInput {
  /**
   * The file the text stands for: the name in the result, matched against the config's
   * `overrides`, and its extension (`.jsonl`, `.ndjson`) makes it JSONL. Without it the text is
   * named `<text>` and read as JSON.
   */
  path?: string;
  /** The text, or its bytes (held to strict UTF-8, as a file's bytes are). */
  text: string | Uint8Array;
  /** JSON or JSONL, overriding what `path` implies (standard input decides it from its bytes). */
  kind?: 'json' | 'jsonl';
}

/** One input of {@link lintFiles}: a file or folder path, a glob, or a text. */
export type LintInput = string | LintTextInput;

/** A file of a run, as {@link LintFilesOptions.select} sees it. */
export interface LintFileRef {
  /** The name results carry: as given or as globbed, relative to `cwd`, with `/` separators. */
  readonly display: string;
  /** The absolute path; absent for a text input. */
  readonly absolute?: string;
}

/** Where a run stands, for a progress display. */
export interface LintProgress {
  /** The file a piece of work just finished for; absent in the first call, made before any work. */
  file?: string;
  /** The bytes that piece of work read (0 in the first call). */
  bytes: number;
  /** Pieces of work finished so far. */
  done: number;
  /** Pieces of work in all: one per file, and one per byte range of a JSONL file split across threads. */
  total: number;
}

/** Options of {@link lintFiles}. */
export interface LintFilesOptions {
  /** The folder relative inputs, `ignore` and the names in results are relative to (default: `process.cwd()`). */
  cwd?: string;
  /**
   * A histlint config (the shape of `histlint.config.json`): its `rules`, `overrides`, `ignore`,
   * `target`, `from` and `pointer` apply, and its `files` are linted when `inputs` is empty.
   */
  config?: Config;
  /** The folder the config's `files`, `ignore` and `overrides` patterns are relative to (default: `cwd`). */
  configDir?: string;
  /**
   * Each file's own config (by its absolute path), in place of `config` for that file: its
   * `rules`, `overrides`, `target`, `from` and `pointer` apply (`config` still gives `files`
   * and `ignore`). `histlint lint` gives the nearest `histlint.config.json` above the file.
   * Called once per file; return the same object for files that share a config.
   */
  configFor?: (absolute: string) => FileConfig | Promise<FileConfig>;
  /**
   * Severities by rule id (`off`, `warn`, `error`) over the defaults, the config's `rules` and its
   * matching `overrides`, as `--rule` flags are. Rules left out keep their severity.
   */
  rules?: Readonly<Record<string, Severity>> | ReadonlyMap<string, Severity>;
  /**
   * Whose acceptance rules to check: `auto` (the provider of the format each conversation is read
   * as), `none`, or a provider. Default: the config's `target`, else `auto`.
   */
  target?: TargetChoice;
  /** The format to read (default: the config's `from`, else `auto`). */
  from?: FromChoice;
  /** Where the conversation is inside each document: an RFC 6901 pointer, or its tokens (default: the config's `pointer`, else the document itself). */
  pointer?: string | readonly string[];
  /** Do not report the unanswered calls of a trailing assistant message. */
  leavePending?: boolean;
  /** Patterns of files and folders not to lint, relative to `cwd` (the config's `ignore` applies too). */
  ignore?: readonly string[];
  /** An input that matches no file throws (default true); otherwise it is passed over. */
  errorOnUnmatchedPattern?: boolean;
  /** Folder walks honour `.gitignore` files (default true); `.histlintignore` files apply either way. */
  gitignore?: boolean;
  /**
   * Threads to lint on, this one included. Default: one per core, started only when the work is
   * big enough to pay for them, so the default is never slower than `1`. Results do not depend on it.
   */
  jobs?: number;
  /** Stops the run: files not finished by then have no result, and the result says `interrupted`. */
  signal?: AbortSignal;
  /** Called once when the work is known, then as each piece of it finishes. */
  onProgress?: (progress: LintProgress) => void;
  /** Called with a one-line note for an input that is passed over (it matches `ignore`, or is inside `node_modules` or `.git`). */
  onWarning?: (message: string) => void;
  /**
   * Called once with the files the inputs stand for, before any is read; returns the ones to lint,
   * in order (e.g. one shard of a CI matrix). It may throw to stop the run.
   */
  select?: (
    files: readonly LintFileRef[],
  ) => readonly LintFileRef[] | Promise<readonly LintFileRef[]>;
}

/** What {@link lintFiles} returns; `files` and the counts have the shape reporters take. */
export interface LintFilesResult {
  /**
   * Each file's result, in input order (a folder or glob in path order). After an interruption:
   * those before the first file left unfinished.
   */
  files: FileResult[];
  /** The absolute path of each entry of `files`; undefined for a text input. */
  paths: (string | undefined)[];
  errorCount: number;
  warningCount: number;
  /** True when `signal` stopped the run before every file was linted. */
  interrupted: boolean;
}

/** Knobs of {@link lintFilesWith} for tests and the CLI; not public API. */
export interface LintFilesTuning {
  /** JSONL files at least this big are cut into byte ranges when threads run (default {@link SPLIT_MIN_BYTES}). */
  splitMinBytes?: number;
  /** The size of the byte ranges a split file is cut into (default: tasks.ts `rangeBytes`). */
  rangeBytes?: number;
  /** The estimated work, in bytes, at which default jobs start threads (default {@link POOL_MIN_WORK}). */
  poolMinWork?: number;
  /** The name of a text input without a path (default `<text>`). */
  unnamedText?: string;
}

/**
 * Default jobs start threads from this much work on. A worker costs about 80 ms until it has
 * loaded the bundle, then slower first tasks while its code warms up, and longer for a provider's
 * format (more code to warm up) than for v1. Measured on an idle 2-core machine (December 2026),
 * `farm-bench` pairs of default jobs against `--jobs 1`, median wall time of default over
 * `--jobs 1`, with threads from 24 MB on: v1 JSONL of 63 MB 0.99, 128 MB 0.85, 268 MB 0.84;
 * OpenAI Chat JSONL of 63 MB 1.09 (slower), 128 MB 0.93, 248 MB 0.86; a folder of 20,000 v1
 * files (151 MB) 0.83. Below about 100 MB threads do not pay for every format.
 */
export const POOL_MIN_WORK = 96 * 1024 * 1024;

/**
 * What one file costs besides its bytes (open, stat, read, close, a result), as bytes of v1 text
 * linted in the same time: 20,000 files of 7.3 kB lint in about the time of 180 MB of JSONL.
 */
const FILE_COST_BYTES = 2 * 1024;

/**
 * JSONL files at least this big are cut into byte ranges when threads run (default jobs start
 * them only from {@link POOL_MIN_WORK}; `--jobs N` from two tasks on).
 */
export const SPLIT_MIN_BYTES = 24 * 1024 * 1024;

/** How many JSON files are sized to estimate the rest (a stat each: 20,000 cost 75-150 ms here). */
const SIZE_SAMPLE = 32;

/**
 * Lints files, folders (their `.json`, `.jsonl` and `.ndjson` files), globs and texts with
 * histlint's rules, as `histlint lint` does; the same inputs give the same results whatever
 * `jobs` is. Unreadable files have a result with `error` set; a pattern that matches nothing
 * throws, unless `errorOnUnmatchedPattern` is false.
 */
export function lintFiles(
  inputs: readonly LintInput[],
  options: LintFilesOptions = {},
): Promise<LintFilesResult> {
  return lintFilesWith(inputs, options, {});
}

/** One file of a run, with what linting it needs. */
interface Slot {
  ref: LintFileRef;
  /** The path overrides match and the extension is read from (a text input may have one too). */
  absolute: string | undefined;
  /** Set for a text input. */
  bytes?: Uint8Array;
  options: TaskOptions;
  /** The file's tasks are tasks[first, first + count); -1 for a text input. */
  first: number;
  count: number;
}

/** {@link lintFiles} with knobs that are not public API. */
export async function lintFilesWith(
  inputs: readonly LintInput[],
  options: LintFilesOptions,
  tuning: LintFilesTuning,
): Promise<LintFilesResult> {
  const settings = runSettingsOf(options);
  const signal = options.signal;
  const busyAtStart = othersRunnable();
  let slots = await expand(inputs, options, settings, tuning);
  if (options.select !== undefined) {
    const bySlot = new Map(slots.map((s) => [s.ref, s]));
    slots = (await options.select(slots.map((s) => s.ref))).flatMap((ref) => {
      const s = bySlot.get(ref);
      return s === undefined ? [] : [s];
    });
  }

  const explicit = options.jobs !== undefined;
  const jobs = options.jobs ?? availableParallelism();
  // What one thread has to do, in bytes: JSONL files are sized (their size decides a split), JSON
  // files are estimated from a sample, since a stat per small file costs a syscall each.
  const sizes = new Map<Slot, number>();
  const jsonSlots: Slot[] = [];
  let work = 0;
  for (const s of slots) {
    if (s.bytes !== undefined || s.absolute === undefined) continue;
    work += FILE_COST_BYTES;
    if ((s.options.kind ?? kindFromName(s.absolute)) === 'jsonl') {
      const size = regularFileSize(s.absolute);
      sizes.set(s, size);
      work += size;
    } else {
      jsonSlots.push(s);
    }
  }
  work += estimatedBytes(jsonSlots);
  const threads =
    jobs > 1 &&
    signal?.aborted !== true &&
    (explicit || (work >= (tuning.poolMinWork ?? POOL_MIN_WORK) && !coresTaken(jobs, busyAtStart)));
  const splitMin = tuning.splitMinBytes ?? SPLIT_MIN_BYTES;

  // One task per file; with threads, a big JSONL file becomes line-aligned byte ranges so they share it.
  const tasks: LintTask[] = [];
  const taskSizes: number[] = [];
  for (const s of slots) {
    if (s.bytes !== undefined || s.absolute === undefined) continue;
    const size = sizes.get(s) ?? 0;
    s.first = tasks.length;
    if (threads && size >= splitMin && !isEventLogFile(s.absolute, toLintOptions(s.options))) {
      const ranges = await splitAtLines(
        s.absolute,
        size,
        tuning.rangeBytes ?? rangeBytes(size, jobs),
      );
      for (const range of ranges)
        tasks.push({ file: s.ref.display, absolute: s.absolute, options: s.options, range });
    } else {
      tasks.push({ file: s.ref.display, absolute: s.absolute, options: s.options });
    }
    s.count = tasks.length - s.first;
    for (let k = s.first; k < tasks.length; k++) taskSizes[k] = size;
  }

  const texts = slots.filter((s) => s.bytes !== undefined);
  const total = tasks.length + texts.length;
  let done = 0;
  const onProgress = options.onProgress;
  onProgress?.({ bytes: 0, done, total });
  const pool: LintPool | null = threads && tasks.length > 1 ? await startPool(jobs) : null;
  const taskResults = await runTasks(
    tasks,
    pool,
    onProgress === undefined
      ? undefined
      : (r) => onProgress({ file: r.file, bytes: r.bytes, done: ++done, total }),
    signal,
    taskSizes,
  );
  // Texts are in this thread's memory already: linted here, after the files.
  const textResults = new Map<Slot, FileResult>();
  for (const s of texts) {
    if (signal?.aborted === true) break;
    textResults.set(s, lintBytes(s.ref.display, s.bytes!, toLintOptions(s.options)));
    onProgress?.({ file: s.ref.display, bytes: s.bytes!.length, done: ++done, total });
  }

  const files: FileResult[] = [];
  const paths: (string | undefined)[] = [];
  let interrupted = false;
  for (const s of slots) {
    let result: FileResult | undefined;
    if (s.first === -1) {
      result = textResults.get(s);
    } else {
      const parts = taskResults.slice(s.first, s.first + s.count);
      // includes() sees the holes an interrupted run leaves (some() skips them).
      if (!parts.includes(undefined)) result = mergeRanges(parts as TaskResult[]);
    }
    if (result === undefined) {
      interrupted = true;
      break;
    }
    files.push(result);
    paths.push(s.ref.absolute);
  }
  return {
    files,
    paths,
    errorCount: files.reduce((n, f) => n + f.errorCount, 0),
    warningCount: files.reduce((n, f) => n + f.warningCount, 0),
    interrupted,
  };
}

/**
 * How many threads besides this one are running or waiting for a core at this moment, on the
 * whole machine: /proc/loadavg's fourth field (Linux); undefined where there is none.
 */
function othersRunnable(): number | undefined {
  try {
    const m = /^\S+ \S+ \S+ (\d+)\//.exec(readFileSync('/proc/loadavg', 'latin1'));
    return m === null ? undefined : Math.max(0, Number(m[1]) - 1);
  } catch {
    return undefined;
  }
}

/**
 * True when other work holds every core a worker could use: a worker then only takes time from
 * this thread (on 2 cores shared with other benchmarks, `--jobs 2` took 1.2-1.6x the time of
 * `--jobs 1` at every size). Two looks, at the start and now, so one passing thread does not decide.
 */
function coresTaken(jobs: number, atStart: number | undefined): boolean {
  const now = othersRunnable();
  if (atStart === undefined || now === undefined) return false;
  return Math.min(atStart, now) >= Math.min(jobs, availableParallelism());
}

/** The size of a regular file; 0 for anything else or what cannot be read (its task reports it). */
function regularFileSize(absolute: string): number {
  try {
    const st = statSync(absolute);
    return st.isFile() ? st.size : 0;
  } catch {
    return 0;
  }
}

/** The bytes of JSON files, from the sizes of a few spread over the list. */
function estimatedBytes(slots: readonly Slot[]): number {
  if (slots.length === 0) return 0;
  const step = Math.max(1, Math.floor(slots.length / SIZE_SAMPLE));
  let sum = 0;
  let n = 0;
  for (let k = 0; k < slots.length && n < SIZE_SAMPLE; k += step, n++)
    sum += regularFileSize(slots[k]!.absolute!);
  return (sum / n) * slots.length;
}

/** A file's config as {@link LintFilesOptions.configFor} gives it (what `histlint lint` loads). */
export interface FileConfig {
  config: Config;
  /** The folder the config's patterns are relative to. */
  dir: string;
  /** The folder of each `overrides` entry's patterns, where not `dir` (entries inherited through `extends`). */
  overrideDirs?: readonly string[];
}

/** Read settings: a flag's, the config's, or an override's. */
interface ReadLayer {
  pointer?: string[];
  target?: string;
  from?: string;
}

/** A config's settings, checked once, and the task options of each distinct rule set and kind. */
interface Settings {
  cwd: string;
  configDir: string;
  resolver: SeverityResolver;
  /** The options' (flags') settings, over every config. */
  flags: ReadLayer;
  /** The config's top-level settings, under its overrides'. */
  config: ReadLayer;
  leavePending: boolean;
  /** Task options are shared by every file with the same rules, kind and read settings (the resolver returns one Map per rule set). */
  cache: Map<EnabledRules, Map<string, TaskOptions>>;
}

/** The settings of a run: its options' config, and each config {@link LintFilesOptions.configFor} gives. */
interface RunSettings {
  base: Settings;
  /** The settings of the file at an absolute path (the base's for a text without one). */
  forFile(absolute: string | undefined): Promise<Settings>;
}

function checkTarget(where: string, target: string | undefined): void {
  if (target !== undefined && !(TARGET_CHOICES as readonly string[]).includes(target))
    throw new TypeError(`${where}: expected one of ${TARGET_CHOICES.join('|')}, got "${target}"`);
}

function checkFrom(where: string, from: string | undefined): void {
  if (from !== undefined && !(FROM_CHOICES as readonly string[]).includes(from))
    throw new TypeError(`${where}: expected one of ${FROM_CHOICES.join('|')}, got "${from}"`);
}

function pointerOf(where: string, p: string | readonly string[] | undefined): string[] | undefined {
  if (p === undefined) return undefined;
  try {
    return typeof p === 'string' ? parsePointer(p) : [...p];
  } catch (e) {
    throw new TypeError(`${where}: ${(e as Error).message}`, { cause: e });
  }
}

function runSettingsOf(options: LintFilesOptions): RunSettings {
  const cwd = options.cwd ?? process.cwd();
  const layer = new Map<string, Severity>(
    options.rules instanceof Map
      ? options.rules
      : Object.entries((options.rules ?? {}) as Record<string, Severity>),
  );
  checkRules('rules', Object.fromEntries(layer));
  checkTarget('target', options.target);
  checkFrom('from', options.from);
  if (options.jobs !== undefined && !(Number.isInteger(options.jobs) && options.jobs >= 1))
    throw new TypeError(`jobs: expected a whole number of at least 1, got ${options.jobs}`);
  const flags: ReadLayer = {};
  const flagPointer = pointerOf('pointer', options.pointer);
  if (flagPointer !== undefined) flags.pointer = flagPointer;
  if (options.target !== undefined) flags.target = options.target;
  if (options.from !== undefined) flags.from = options.from;
  const leavePending = options.leavePending === true;
  const settingsOf = (fc: FileConfig): Settings => {
    const config = fc.config;
    checkRules('config.rules', config.rules ?? {});
    for (const [k, o] of (config.overrides ?? []).entries()) {
      checkRules(`config.overrides[${k}].rules`, o.rules ?? {});
      checkTarget(`config.overrides[${k}].target`, o.target);
      checkFrom(`config.overrides[${k}].from`, o.from);
      pointerOf(`config.overrides[${k}].pointer`, o.pointer);
    }
    checkTarget('config.target', config.target);
    checkFrom('config.from', config.from);
    const own: ReadLayer = {};
    const pointer = pointerOf('config.pointer', config.pointer);
    if (pointer !== undefined) own.pointer = pointer;
    if (config.target !== undefined) own.target = config.target;
    if (config.from !== undefined) own.from = config.from;
    return {
      cwd,
      configDir: fc.dir,
      resolver: new SeverityResolver(config, fc.dir, layer, fc.overrideDirs),
      flags,
      config: own,
      leavePending,
      cache: new Map(),
    };
  };
  const base = settingsOf({ config: options.config ?? {}, dir: options.configDir ?? cwd });
  const configFor = options.configFor;
  if (configFor === undefined) return { base, forFile: () => Promise.resolve(base) };
  const byConfig = new Map<FileConfig, Settings>();
  return {
    base,
    async forFile(absolute) {
      if (absolute === undefined) return base;
      const fc = await configFor(absolute);
      let s = byConfig.get(fc);
      if (s === undefined) byConfig.set(fc, (s = settingsOf(fc)));
      return s;
    },
  };
}

/** Throws on an unknown rule id or severity (a config object given by code is not checked by the config loader). */
function checkRules(where: string, rules: Readonly<Record<string, unknown>>): void {
  for (const [id, sev] of Object.entries(rules)) {
    if (ruleById(id) === undefined) throw new TypeError(`${where}: unknown rule "${id}"`);
    if (sev !== undefined && sev !== 'off' && sev !== 'warn' && sev !== 'error')
      throw new TypeError(`${where}["${id}"]: expected one of off|warn|error`);
  }
}

/**
 * The task options of a file: its rules and read settings (by its path, for overrides; a flag
 * over an override over the config) and its kind (by its name).
 */
function taskOptionsFor(
  s: Settings,
  absolute: string | undefined,
  name: string,
  given?: 'json' | 'jsonl',
): TaskOptions {
  const { rules, ...matched } = s.resolver.settingsFor(absolute);
  const kind = given ?? kindFromName(name);
  const pointer =
    s.flags.pointer ??
    (matched.pointer === undefined ? undefined : parsePointer(matched.pointer)) ??
    s.config.pointer ??
    [];
  const target = s.flags.target ?? matched.target ?? s.config.target ?? 'auto';
  const from = s.flags.from ?? matched.from ?? s.config.from;
  let byKind = s.cache.get(rules);
  if (byKind === undefined) s.cache.set(rules, (byKind = new Map()));
  const key = [kind ?? '', target, from ?? '', ...pointer].join('\u0000');
  let o = byKind.get(key);
  if (o === undefined) {
    o = { rules: [...rules], pointer, leavePending: s.leavePending, target };
    if (from !== undefined) o.from = from;
    if (kind !== undefined) o.kind = kind;
    byKind.set(key, o);
  }
  return o;
}

/**
 * The lint options {@link lintFiles} uses for the file at an absolute path, under the same
 * options (`histlint lint --fix` lints a fixed file again with them).
 */
export function lintOptionsFor(
  options: LintFilesOptions,
): (absolute: string) => Promise<LintOptions> {
  const settings = runSettingsOf(options);
  return async (absolute) =>
    toLintOptions(taskOptionsFor(await settings.forFile(absolute), absolute, absolute));
}

/** The slots of a run's inputs, in order: each run of path inputs expanded as one list. */
async function expand(
  inputs: readonly LintInput[],
  options: LintFilesOptions,
  run: RunSettings,
  tuning: LintFilesTuning,
): Promise<Slot[]> {
  const s = run.base;
  const config = options.config ?? {};
  const io: Io = {
    argv: [],
    stdin: { async *[Symbol.asyncIterator]() {} },
    stdout: { write: () => true },
    stderr: {
      write: (text: string) => {
        options.onWarning?.(text.replace(/\n$/, ''));
        return true;
      },
    },
    cwd: s.cwd,
    env: {},
  };
  const ignore: IgnoreRule[] = [
    { patterns: config.ignore ?? [], base: s.configDir },
    { patterns: options.ignore ?? [], base: s.cwd },
  ];
  const expandOptions = {
    ignore,
    errorOnUnmatched: options.errorOnUnmatchedPattern !== false,
    expandDirectories: true,
    missingIsUnmatched: true,
    gitignore: options.gitignore !== false,
  };
  const fileSlot = async (ref: InputRef): Promise<Slot> => {
    if (ref.absolute === undefined)
      throw new TypeError('"-" names no file: give standard input\'s text as { path, text }');
    return {
      ref,
      absolute: ref.absolute,
      options: taskOptionsFor(await run.forFile(ref.absolute), ref.absolute, ref.absolute),
      first: 0,
      count: 0,
    };
  };
  if (inputs.length === 0) {
    const files = config.files ?? [];
    if (files.length === 0) return [];
    const refs = await expandInputs(files, io, { ...expandOptions, base: s.configDir });
    const slots: Slot[] = [];
    for (const ref of refs) slots.push(await fileSlot(ref));
    return slots;
  }
  const out: Slot[] = [];
  // A file named twice (by two arguments) is linted once, as expandInputs does within one list.
  const seen = new Set<string>();
  let group: string[] = [];
  let groups = 0;
  const flush = async (): Promise<void> => {
    if (group.length === 0) return;
    groups++;
    const refs = await expandInputs(group, io, expandOptions);
    group = [];
    for (const ref of refs) {
      const slot = await fileSlot(ref);
      if (groups > 1 && seen.has(slot.absolute!)) continue;
      seen.add(slot.absolute!);
      out.push(slot);
    }
  };
  for (const input of inputs) {
    if (typeof input === 'string') {
      group.push(input);
      continue;
    }
    await flush();
    const name = input.path;
    const absolute = name === undefined ? undefined : path.resolve(s.cwd, name);
    const bytes = typeof input.text === 'string' ? Buffer.from(input.text, 'utf8') : input.text;
    out.push({
      ref: { display: name ?? tuning.unnamedText ?? '<text>' },
      absolute,
      bytes,
      options: taskOptionsFor(await run.forFile(absolute), absolute, name ?? '', input.kind),
      first: -1,
      count: 0,
    });
  }
  await flush();
  return out;
}
