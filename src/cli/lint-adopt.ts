/**
 * The CLI side of adopting histlint on a big corpus: `lint --suppress-all`, `--suppress-rule`,
 * `--prune-suppressions` (src/lint/suppressions.ts) and `lint --cache` (src/lint/cache.ts). They
 * read and write their files here; lint-run.ts calls them at a few points of a run.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CACHE_FILE,
  formatCache,
  hashBytes,
  hashFile,
  isFresh,
  optionsHash,
  parseCache,
  type CacheEntries,
  type CacheEntry,
} from '../lint/cache.js';
import { countFindings, type FileResult, type LintOptions } from '../lint/engine.js';
import type { LintFileRef, LintFilesResult } from '../lint/files.js';
import {
  applySuppressions,
  formatSuppressions,
  parseSuppressions,
  pruneSuppressions,
  suppressAll,
  SUPPRESSIONS_FILE,
  unusedSuppressions,
  type SuppressionCounts,
} from '../lint/suppressions.js';
import { didYouMean } from '../model/suggest.js';
import { RULES, ruleById } from '../rules/index.js';
import { UsageError } from './exit-codes.js';
import { describeFsError, print, toPosix, writeOutputFile, type Io } from './io.js';

/** The flags of `histlint lint` these two read. */
export interface AdoptFlags {
  suppressAll?: boolean;
  suppressRule?: string[];
  pruneSuppressions?: boolean;
  suppressionsLocation?: string;
  cache?: boolean;
  cacheLocation?: string;
}

/** A file's name in the suppressions and cache files: POSIX, relative to the working folder. */
function keyOf(io: Io, file: string): string {
  return toPosix(path.relative(io.cwd, path.resolve(io.cwd, file)));
}

/** Bulk suppressions over one run. */
export class SuppressionRun {
  private next: SuppressionCounts;
  private readonly visited: { file: string; findings: FileResult['findings'] }[] = [];
  private suppressed = 0;

  private constructor(
    private readonly io: Io,
    /** The file as the user named it (or the default name). */
    private readonly display: string,
    private readonly previous: SuppressionCounts,
    private readonly mode: 'apply' | 'suppress' | 'prune',
    private readonly only: ReadonlySet<string> | undefined,
  ) {
    this.next = { ...previous };
  }

  /** The run's suppressions; undefined when there is no file and nothing to write. */
  static open(io: Io, flags: AdoptFlags): SuppressionRun | undefined {
    const rules = flags.suppressRule ?? [];
    for (const id of rules) {
      if (ruleById(id) === undefined) {
        throw new UsageError(
          `--suppress-rule "${id}": unknown rule${didYouMean(
            id,
            RULES.map((r) => r.meta.id),
          )}`,
        );
      }
    }
    const suppress = flags.suppressAll === true || rules.length > 0;
    if (suppress && flags.pruneSuppressions === true) {
      throw new UsageError(
        '--prune-suppressions cannot be combined with --suppress-all or --suppress-rule',
      );
    }
    const display = flags.suppressionsLocation ?? SUPPRESSIONS_FILE;
    const file = path.resolve(io.cwd, display);
    let previous: SuppressionCounts = {};
    let text: string | undefined;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
      // Only --suppress-all creates the file; a file named with the option must exist otherwise.
      if (!missing || (!suppress && flags.suppressionsLocation !== undefined)) {
        throw new UsageError(`cannot read ${display}: ${describeFsError(e)}`);
      }
    }
    if (text !== undefined) {
      try {
        previous = parseSuppressions(text).files;
      } catch (e) {
        throw new UsageError(`${display}: ${(e as Error).message}`);
      }
    } else if (!suppress) {
      return undefined;
    }
    const mode = suppress ? 'suppress' : flags.pruneSuppressions === true ? 'prune' : 'apply';
    const only = flags.suppressAll !== true && rules.length > 0 ? new Set(rules) : undefined;
    return new SuppressionRun(io, display, previous, mode, only);
  }

  /**
   * One file's result after any fix: recorded (with --suppress-all or --prune-suppressions), then
   * its suppressed errors left out.
   */
  filter(result: FileResult, absolute: string | undefined): FileResult {
    if (result.error !== undefined) return result;
    if (absolute === undefined && result.file === '<stdin>') return result;
    const file = keyOf(this.io, absolute ?? result.file);
    const input = { file, findings: result.findings };
    this.visited.push(input);
    if (this.mode === 'suppress') this.next = suppressAll(this.next, [input], this.only);
    if (this.mode === 'prune') this.next = pruneSuppressions(this.next, [input]);
    const applied = applySuppressions(result.findings, this.next[file]);
    for (const rule of applied.over) {
      const n = result.findings.filter((f) => f.ruleId === rule && f.severity === 'error').length;
      print(
        this.io.stderr,
        `${result.file}: note: ${n} ${rule} errors, more than the ${this.next[file]![rule]} suppressed: all ${n} are reported\n`,
      );
    }
    if (applied.suppressed === 0) return result;
    this.suppressed += applied.suppressed;
    return { ...result, findings: applied.findings, ...countFindings(applied.findings) };
  }

  /** Writes the file when this run changes it, and prints the summary lines on standard error. */
  async finish(): Promise<void> {
    if (this.mode === 'prune') {
      // An entry for a file that is gone no longer occurs either.
      for (const file of Object.keys(this.next)) {
        if (!existsSync(path.resolve(this.io.cwd, file))) delete this.next[file];
      }
    }
    if (this.mode !== 'apply') {
      const text = formatSuppressions(this.next);
      await writeOutputFile(this.io, this.display, text);
      const files = Object.keys(this.next).length;
      const errors = Object.values(this.next).reduce(
        (n, counts) => n + Object.values(counts).reduce((a, b) => a + b, 0),
        0,
      );
      print(
        this.io.stderr,
        `histlint: wrote ${this.display} (${plural(errors, 'error')} in ${plural(files, 'file')})\n`,
      );
    }
    if (this.suppressed > 0) {
      print(
        this.io.stderr,
        `histlint: ${plural(this.suppressed, 'error')} suppressed by ${this.display}\n`,
      );
    }
    if (this.mode === 'apply') {
      const unused = unusedSuppressions(this.previous, this.visited);
      if (unused > 0) {
        print(
          this.io.stderr,
          `histlint: ${plural(unused, 'suppression')} in ${this.display} no longer ${unused === 1 ? 'occurs' : 'occur'}; run with --prune-suppressions to drop them\n`,
        );
      }
    }
  }
}

/** What the cache knows of a file this run read, before linting it. */
interface Seen {
  sha256: string;
  options: string;
}

/** `lint --cache` over one run. */
export class CacheRun {
  private readonly seen = new Map<string, Seen>();
  private readonly skipped = new Map<string, CacheEntry>();
  private order: readonly LintFileRef[] = [];

  private constructor(
    private readonly io: Io,
    private readonly display: string,
    private readonly entries: CacheEntries,
    private readonly version: string,
  ) {}

  /** Reads the cache file; a corrupt or foreign one is a note and starts empty. */
  static open(io: Io, flags: AdoptFlags, version: string): CacheRun | undefined {
    if (flags.cache !== true) return undefined;
    const display = flags.cacheLocation ?? CACHE_FILE;
    let entries: CacheEntries = {};
    let text: string | undefined;
    try {
      text = readFileSync(path.resolve(io.cwd, display), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        print(
          io.stderr,
          `histlint: note: cannot read ${display} (${describeFsError(e)}); linting every file\n`,
        );
      }
    }
    if (text !== undefined) {
      const parsed = parseCache(text);
      if (parsed === null) {
        print(
          io.stderr,
          `histlint: note: ${display} is not a histlint cache; ignored, it will be rewritten\n`,
        );
      } else {
        entries = parsed;
      }
    }
    return new CacheRun(io, display, entries, version);
  }

  /** The files to lint: those not unchanged since a clean run with the same options. */
  async select(
    files: readonly LintFileRef[],
    optionsFor: (absolute: string) => LintOptions | Promise<LintOptions>,
  ): Promise<readonly LintFileRef[]> {
    this.order = files;
    const out: LintFileRef[] = [];
    for (const ref of files) {
      if (ref.absolute === undefined) {
        out.push(ref);
        continue;
      }
      let sha256: string;
      try {
        sha256 = hashFile(ref.absolute);
      } catch {
        // Linting it reports why it cannot be read.
        out.push(ref);
        continue;
      }
      const options = optionsHash(await optionsFor(ref.absolute));
      this.seen.set(ref.absolute, { sha256, options });
      const entry = this.entries[keyOf(this.io, ref.absolute)];
      if (entry !== undefined && isFresh(entry, sha256, options, this.version)) {
        this.skipped.set(ref.absolute, entry);
      } else {
        out.push(ref);
      }
    }
    return out;
  }

  /** The run's results with the skipped files put back in order, clean. */
  merge(run: LintFilesResult): LintFilesResult {
    if (this.skipped.size === 0) return run;
    const files: FileResult[] = [];
    const paths: (string | undefined)[] = [];
    let k = 0;
    for (const ref of this.order) {
      const entry = ref.absolute === undefined ? undefined : this.skipped.get(ref.absolute);
      if (entry !== undefined) {
        const clean: FileResult = {
          file: ref.display,
          findings: [],
          errorCount: 0,
          warningCount: 0,
        };
        clean.targets = [...entry.targets];
        files.push(clean);
        paths.push(ref.absolute);
        continue;
      }
      // After an interruption the linted files are a prefix: stop where they stop.
      if (k >= run.files.length) break;
      files.push(run.files[k]!);
      paths.push(run.paths[k]);
      k++;
    }
    return { ...run, files, paths };
  }

  /**
   * Records a file's final result (after any fix, before --quiet or suppressions): clean files
   * are kept, others dropped. `written` is the bytes a fix wrote.
   */
  record(absolute: string | undefined, result: FileResult, written?: Uint8Array): void {
    if (absolute === undefined || this.skipped.has(absolute)) return;
    const seen = this.seen.get(absolute);
    const key = keyOf(this.io, absolute);
    if (seen === undefined || result.error !== undefined || result.findings.length > 0) {
      delete this.entries[key];
      return;
    }
    this.entries[key] = {
      sha256: written === undefined ? seen.sha256 : hashBytes(written),
      options: seen.options,
      version: this.version,
      targets: [...(result.targets ?? [])],
    };
  }

  /** Writes the cache file atomically; a failure is a note (the run's results stand). */
  async save(): Promise<void> {
    try {
      await writeOutputFile(this.io, this.display, formatCache(this.entries));
    } catch (e) {
      print(this.io.stderr, `histlint: note: ${(e as Error).message}; the cache is not updated\n`);
    }
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
