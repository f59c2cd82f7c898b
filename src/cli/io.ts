/**
 * Everything the CLI does with files and streams: the I/O handed to `main`,
 * input expansion, strict reading, and output files. Replacing a file is
 * `safe-write.ts`'s job.
 */
import {
  promises as fs,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  type Dirent,
} from 'node:fs';
import path from 'node:path';
import type FastGlob from 'fast-glob';
import ignoreFiles, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { CONFIG_NAME } from '../config/load.js';
import { KindProbe, type JsonlReader } from '../formats/kit/document.js';
import { describeFsError, SourceError } from '../model/errors.js';
import { UsageError } from './exit-codes.js';
import { describeWriteError, openAtomic, writeAtomic } from './safe-write.js';

export { describeFsError };

/** A readable stream as `main` sees it. */
export interface InputStream extends AsyncIterable<Uint8Array | string> {
  isTTY?: boolean;
}

/** A writable stream as `main` sees it. */
export interface OutputStream {
  /** `false`, from a Node stream, asks the writer to wait for `drain`. */
  write(chunk: string): unknown;
  /** A stream that can ask writers to wait has this (the output guard resumes them if it fails). */
  once?(event: 'drain', listener: () => void): unknown;
  isTTY?: boolean;
  /** The terminal's width, when the stream is one (Node sets it on a TTY). */
  columns?: number;
}

/** The I/O `main` runs against: the process's own, or a test's. */
export interface Io {
  argv: readonly string[];
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted on Ctrl-C: commands stop between files and exit 130. */
  signal?: AbortSignal;
}

/** One input of a file command. */
export interface InputRef {
  /** The path as shown in reports: as given (or as globbed), with `/` separators; `<stdin>` for `-`. */
  display: string;
  /** Absolute path; absent for standard input. */
  absolute?: string;
}

/** Shows a path with `/` separators. */
export function toPosix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

const GLOB_CHARS = /[*?[\]{}()!]/;

/** True when a file argument is a glob pattern rather than a plain path. */
export function hasGlobChars(arg: string): boolean {
  return GLOB_CHARS.test(arg);
}

/** Directories never read. */
export const ALWAYS_IGNORED = ['**/node_modules/**', '**/.git/**'];

/** The files a folder argument stands for, where a command expands folders. */
export const CONVERSATION_FILES = '**/*.{json,jsonl,ndjson}';

/** Options of {@link expandInputs}. */
export interface ExpandOptions {
  /** The name of standard input in reports. */
  stdinName?: string;
  /** Ignore patterns, each list with the folder it is relative to (`--ignore`: the working folder; the config's `ignore`: the config's folder). */
  ignore?: readonly IgnoreRule[];
  /** The folder patterns are relative to (default: the working folder). */
  base?: string;
  /** A pattern that matches nothing is a usage error (default true). */
  errorOnUnmatched?: boolean;
  /** A folder argument stands for the conversation files inside it (lint, stats); otherwise it is an input that fails to read. */
  expandDirectories?: boolean;
  /** A path that does not exist counts as a pattern that matches nothing (lint); otherwise it is an input that fails to read. */
  missingIsUnmatched?: boolean;
  /** Folder walks honour `.gitignore` files (default true; `--no-gitignore`). `.histlintignore` files apply either way. */
  gitignore?: boolean;
}

/**
 * Well-known files of other tools: a folder walk or a glob passes over them (counted in one
 * line); naming one reads it.
 */
const TOOL_FILE =
  /^(?:package\.json|package-lock\.json|npm-shrinkwrap\.json|tsconfig(?:\..*)?\.json|jsconfig\.json|\.eslintrc\.json|composer\.json|.*\.schema\.json|histlint-suppressions\.json)$/;

/** True for a file name {@link TOOL_FILE} lists. */
export function isToolFile(name: string): boolean {
  return TOOL_FILE.test(name);
}

/** The ignore files a folder walk reads, in each folder it enters. */
function ignoreFileNames(gitignore: boolean): string[] {
  return gitignore ? ['.gitignore', '.histlintignore'] : ['.histlintignore'];
}

/** The ignore files of one folder, or undefined when it has none. */
function readIgnoreFiles(folder: string, names: readonly string[]): Ignore | undefined {
  let ig: Ignore | undefined;
  for (const name of names) {
    let text: string;
    try {
      text = readFileSync(path.join(folder, name), 'utf8');
    } catch {
      continue;
    }
    ig ??= ignoreFiles();
    ig.add(text);
  }
  return ig;
}

/** The ignore files of a folder and where they apply from. */
interface IgnoreLayer {
  dir: string;
  ig: Ignore;
  /** `dir` with a final separator, the prefix of every path inside it. */
  prefix?: string;
}

/**
 * The ignore files that apply to a walk of `dir` from the folders above it: up to the top of
 * its git repository (the nearest folder above with `.git`), else the working folder when
 * `dir` is inside it, else none. Outermost first.
 */
function ancestorIgnores(dir: string, cwd: string, names: readonly string[]): IgnoreLayer[] {
  const chain: string[] = [];
  let top: string | undefined;
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    chain.push(d);
    if (existsSync(path.join(d, '.git'))) {
      top = d;
      break;
    }
    if (path.dirname(d) === d) break;
  }
  if (existsSync(path.join(dir, '.git'))) return [];
  if (top === undefined) {
    const rel = path.relative(cwd, dir);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return [];
    chain.length = chain.indexOf(cwd) + 1;
  }
  const out: IgnoreLayer[] = [];
  for (const d of chain.reverse()) {
    const ig = readIgnoreFiles(d, names);
    if (ig !== undefined) out.push({ dir: d, ig });
  }
  return out;
}

/**
 * Whether ignore files ignore a path (a file, or a folder when `isDir`), as git decides: the
 * deepest file that has a say wins, and a `!` pattern re-includes.
 */
function ignoredBy(layers: readonly IgnoreLayer[], absolute: string, isDir: boolean): boolean {
  for (let k = layers.length - 1; k >= 0; k--) {
    const layer = layers[k]!;
    // The walk's paths are normalized and absolute: a path inside the layer's folder starts
    // with it, so a slice is its relative path (path.relative per file costs more than the test).
    const prefix = (layer.prefix ??= layer.dir.endsWith(path.sep)
      ? layer.dir
      : layer.dir + path.sep);
    if (!absolute.startsWith(prefix) || absolute.length === prefix.length) continue;
    const rel = toPosix(absolute.slice(prefix.length));
    const ig = layer.ig;
    const r = ig.test(isDir ? `${rel}/` : rel);
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}

/** fast-glob, loaded on first use: a run over named files never needs it. */
async function loadGlob(): Promise<typeof FastGlob> {
  return (await import('fast-glob')).default;
}

const CONVERSATION_FILE = /\.(?:json|jsonl|ndjson)$/;

/**
 * The conversation files under `dir` ({@link CONVERSATION_FILES}), as sorted
 * `/`-separated paths that start with `prefix`: what a folder argument
 * stands for. Like a glob of that pattern: names starting with "." are
 * skipped, `node_modules` and `.git` are never entered, neither is a folder
 * `ignored` names (checked with `prefix`), symbolic links are not followed
 * (a link back up would loop; a glob pattern skips them too, so both agree),
 * and unreadable folders are passed over. A synchronous walk: a folder of 20,000 files is listed in a
 * few milliseconds, several times faster than a glob library's walk.
 */
function conversationFilesIn(
  dir: string,
  prefix: string,
  ignored: ((absolute: string) => boolean) | undefined,
  walk: { layers: IgnoreLayer[]; names: readonly string[]; toolFiles: string[] },
): string[] {
  const out: string[] = [];
  const todo: [string, string, IgnoreLayer[]][] = [[dir, prefix, walk.layers]];
  while (todo.length > 0) {
    const [folder, rel, above] = todo.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    // The listing says whether there is an ignore file to read: no failed open per folder.
    const own = entries.some((e) => walk.names.includes(e.name))
      ? readIgnoreFiles(folder, walk.names)
      : undefined;
    const layers = own === undefined ? above : [...above, { dir: folder, ig: own }];
    // Joined by hand: the folder is already normal, and path.join per file costs more than the rest.
    const inFolder = folder.endsWith(path.sep) ? folder : folder + path.sep;
    for (const e of entries) {
      const name = e.name;
      if (name.startsWith('.')) continue;
      const relPath = rel + name;
      if (e.isDirectory()) {
        const sub = inFolder + name;
        if (name !== 'node_modules' && !ignored?.(sub) && !ignoredBy(layers, sub, true))
          todo.push([sub, relPath + '/', layers]);
        continue;
      }
      if (!e.isFile() || !CONVERSATION_FILE.test(name) || name === CONFIG_NAME) continue;
      const file = inFolder + name;
      if (ignored?.(file) || ignoredBy(layers, file, false)) continue;
      if (isToolFile(name)) walk.toolFiles.push(name);
      else out.push(relPath);
    }
  }
  return out.sort();
}

/** True for a path inside `node_modules` or `.git` (wherever the working folder is). */
function insideIgnoredFolder(absolute: string): boolean {
  return absolute.split(/[\\/]/).some((seg) => seg === 'node_modules' || seg === '.git');
}

/** Ignore patterns and the folder they are relative to. */
export interface IgnoreRule {
  patterns: readonly string[];
  base: string;
}

/**
 * Whether an absolute path is ignored: a pattern matches the path relative to its rule's folder
 * (an absolute pattern, the absolute path), or a folder the path is in (`a/b` and `a/b/` ignore
 * everything below `a/b`, as in .gitignore). Undefined when there is nothing to ignore.
 */
function ignoreMatcher(rules: readonly IgnoreRule[]): ((absolute: string) => boolean) | undefined {
  const tests = rules
    .filter((r) => r.patterns.length > 0)
    .map(({ patterns, base }) => {
      const forms = (list: string[]): string[] =>
        list.flatMap((p) => {
          const bare = p.replace(/\/+$/, '');
          return bare === '' ? [] : [bare, `${bare}/**`];
        });
      const relative = forms(patterns.filter((p) => !path.isAbsolute(p)));
      const absolute = forms(patterns.filter((p) => path.isAbsolute(p)).map(toPosix));
      const rel = relative.length > 0 ? picomatch(relative, { dot: true }) : undefined;
      const abs = absolute.length > 0 ? picomatch(absolute, { dot: true }) : undefined;
      return (file: string): boolean => {
        if (abs?.(toPosix(file))) return true;
        if (rel === undefined) return false;
        const r = toPosix(path.relative(base, file));
        return r !== '' && !r.startsWith('../') && r !== '..' && !path.isAbsolute(r) && rel(r);
      };
    });
  if (tests.length === 0) return undefined;
  return (file) => tests.some((t) => t(file));
}

/**
 * Turns file arguments into inputs: `-` is standard input, an existing path
 * is itself, anything else with glob characters is expanded (sorted).
 * `node_modules` and `.git` are never read, even when named.
 */
export async function expandInputs(
  args: readonly string[],
  io: Io,
  options: ExpandOptions = {},
): Promise<InputRef[]> {
  const base = options.base ?? io.cwd;
  const userIgnored = ignoreMatcher(options.ignore ?? []);
  const out: InputRef[] = [];
  // One argument never names a file twice (a folder walk or a glob lists each once): the set of
  // what earlier arguments gave is built only when a second argument adds files.
  let seen: Set<string> | undefined;
  let firstArgument = true;
  const add = (absolute: string, display: string): void => {
    if (!firstArgument) {
      seen ??= new Set(out.flatMap((i) => (i.absolute === undefined ? [] : [i.absolute])));
      if (seen.has(absolute)) return;
      seen.add(absolute);
    }
    out.push({ display: toPosix(display), absolute });
  };
  const shown = (absolute: string): string => {
    const rel = path.relative(io.cwd, absolute);
    return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? absolute : rel;
  };
  const unmatched = (arg: string, why = ''): void => {
    if (options.errorOnUnmatched !== false)
      throw new UsageError(`no files match the pattern "${arg}"${why}`);
  };
  const names = ignoreFileNames(options.gitignore !== false);
  // Tool files a walk or a glob passed over: one line for all of them, at the end.
  const toolFiles: string[] = [];
  try {
    await expandEach();
  } finally {
    if (toolFiles.length > 0) print(io.stderr, toolFilesLine(toolFiles));
  }
  return out;

  /**
   * Why a folder walk found nothing, when `.gitignore` files are the reason (the same walk without
   * them finds files): said after the error, with the way to read them. Only on that error path.
   */
  function ignoredWhy(absolute: string, inside: string | null): string {
    if (options.gitignore === false) return '';
    const without = ignoreFileNames(false);
    const prefix = inside === null || inside === '' ? '' : `${inside}/`;
    const found = conversationFilesIn(absolute, prefix, userIgnored, {
      layers: ancestorIgnores(absolute, io.cwd, without),
      names: without,
      toolFiles: [],
    });
    return found.length === 0
      ? ''
      : ' (its files are ignored by .gitignore; --no-gitignore reads them)';
  }

  async function expandEach(): Promise<void> {
    for (const arg of args) {
      firstArgument = out.length === 0;
      if (arg === '-') {
        if (out.some((i) => i.absolute === undefined))
          throw new UsageError('"-" (standard input) is given more than once');
        out.push({ display: options.stdinName ?? '<stdin>' });
        continue;
      }
      const absolute = path.resolve(base, arg);
      const rel = toPosix(path.relative(base, absolute));
      const glob = hasGlobChars(arg) && !(await exists(absolute));
      // A path (not a glob) inside node_modules or .git, or ignored, is skipped with a word on why.
      if (!glob && (insideIgnoredFolder(absolute) || userIgnored?.(absolute) === true)) {
        const why = insideIgnoredFolder(absolute)
          ? 'node_modules and .git are never read'
          : 'it matches an ignore pattern';
        print(io.stderr, `histlint: ${toPosix(arg)}: skipped (${why})\n`);
        continue;
      }
      const stat = await fs.stat(absolute).catch(() => undefined);
      const display = base === io.cwd ? arg : shown(absolute);
      if (stat?.isDirectory() && options.expandDirectories) {
        // Walked from the base folder's view, so ignore patterns (relative to it) apply inside the folder too.
        const inside = rel.startsWith('..') || path.isAbsolute(rel) ? null : rel;
        const root = inside === null ? absolute : base;
        const matches = conversationFilesIn(
          absolute,
          inside === null || inside === '' ? '' : `${inside}/`,
          userIgnored,
          { layers: ancestorIgnores(absolute, io.cwd, names), names, toolFiles },
        );
        if (matches.length === 0) unmatched(arg, ignoredWhy(absolute, inside));
        const prefix = root.endsWith(path.sep) ? root : root + path.sep;
        const relativeToCwd = root === io.cwd;
        for (const m of matches) {
          const abs = prefix + (path.sep === '/' ? m : m.split('/').join(path.sep));
          add(abs, relativeToCwd ? m : shown(abs));
        }
        continue;
      }
      // A name that exists but cannot be followed (a symlink loop) is still an input; reading it reports the problem.
      const present =
        stat !== undefined ||
        (await fs.lstat(absolute).then(
          () => true,
          () => false,
        ));
      if (present || (!hasGlobChars(arg) && !options.missingIsUnmatched)) {
        add(absolute, display);
        continue;
      }
      if (!hasGlobChars(arg)) {
        unmatched(arg);
        continue;
      }
      const fg = await loadGlob();
      const found = await fg(arg, {
        cwd: base,
        ignore: ALWAYS_IGNORED,
        dot: false,
        onlyFiles: true,
        followSymbolicLinks: false,
        suppressErrors: true,
        unique: true,
      });
      // histlint's own config is no conversation: a glob or folder never yields it (naming it does).
      const matches = found.filter((m) => {
        const name = path.posix.basename(m);
        if (name === CONFIG_NAME || userIgnored?.(path.resolve(base, m)) === true) return false;
        if (!isToolFile(name)) return true;
        toolFiles.push(name);
        return false;
      });
      if (matches.length === 0) {
        unmatched(arg);
        continue;
      }
      matches.sort();
      for (const m of matches) {
        const abs = path.resolve(base, m);
        add(abs, base === io.cwd ? m : shown(abs));
      }
    }
  }
}

/** The one line that says which tool files a walk or glob passed over. */
function toolFilesLine(names: readonly string[]): string {
  const distinct = [...new Set(names)].sort();
  const listed = distinct.slice(0, 3).join(', ') + (distinct.length > 3 ? ', …' : '');
  const count = names.length === 1 ? '1 tool file' : `${names.length} tool files`;
  return `histlint: skipped ${count} (${listed}); name one to lint it\n`;
}

/** True when something is at `file` (a link to nothing included). */
function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}

/** Reads all of standard input. */
export async function readStdin(io: Io): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** Reads an input's bytes. Throws {@link SourceError} with a short reason. */
export async function readInput(input: InputRef, io: Io): Promise<Uint8Array> {
  if (input.absolute === undefined) return readStdin(io);
  try {
    const stat = await fs.stat(input.absolute);
    if (stat.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    return await fs.readFile(input.absolute);
  } catch (e) {
    throw new SourceError(describeFsError(e));
  }
}

/** An input read in order, chunk by chunk. */
export interface ChunkSource {
  /**
   * The next bytes, or null at the end; valid until the next call (a file's reads share one
   * buffer: a gigabyte read in fresh megabyte buffers left the process 100 MB bigger). Throws
   * {@link SourceError} with a short reason.
   */
  next(): Promise<Uint8Array | null>;
  /** Lets the input go (safe to call twice). */
  close(): Promise<void>;
}

/** How much of a file is read at a time: large enough to cost few reads, small enough to cost no memory. */
const READ_CHUNK = 1 << 20;

/**
 * Opens an input to be read as a stream: standard input as it arrives, a file (a named pipe or a
 * device too) in chunks, in order, never sized nor seeked. Throws {@link SourceError} with a short
 * reason.
 */
export async function openInputStream(input: InputRef, io: Io): Promise<ChunkSource> {
  if (input.absolute === undefined) {
    const chunks = io.stdin[Symbol.asyncIterator]();
    return {
      async next() {
        const { value, done } = await chunks.next();
        if (done === true) return null;
        return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
      },
      async close() {
        // Standard input is the process's; it is not closed here.
      },
    };
  }
  let handle: fs.FileHandle;
  try {
    const stat = await fs.stat(input.absolute);
    if (stat.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    handle = await fs.open(input.absolute, 'r');
  } catch (e) {
    throw new SourceError(describeFsError(e));
  }
  let closed = false;
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  return {
    async next() {
      let n: number;
      try {
        ({ bytesRead: n } = await handle.read(buffer, 0, READ_CHUNK, null));
      } catch (e) {
        throw new SourceError(describeFsError(e));
      }
      return n === 0 ? null : buffer.subarray(0, n);
    },
    async close() {
      if (closed) return;
      closed = true;
      await handle.close().catch(() => undefined);
    },
  };
}

/** Reads the rest of a source into one buffer, after the chunks already read (copies of their own). */
export async function readRest(
  source: ChunkSource,
  head: readonly Uint8Array[] = [],
): Promise<Buffer> {
  const chunks = [...head];
  for (let chunk; (chunk = await source.next()) !== null;) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * Reads an input of the given kind (by its name): JSONL line by line, through the reader `start`
 * returns (called once, before the first chunk), with `afterChunk` awaited after each chunk;
 * returns null then, and the reader is left to be ended. Anything else (JSON, or a name that does
 * not tell and first lines that do not show JSONL: see {@link KindProbe}) is read whole and its
 * bytes returned.
 */
export async function readJsonlOrWhole(
  source: ChunkSource,
  kind: 'json' | 'jsonl' | undefined,
  start: () => JsonlReader,
  afterChunk?: () => Promise<void>,
): Promise<Buffer | null> {
  const head: Uint8Array[] = [];
  if (kind !== 'jsonl') {
    // Without a telling name, the first lines decide; what they took is read again below.
    const probe = kind === undefined ? new KindProbe() : undefined;
    let decided: 'jsonl' | 'whole' | undefined = probe === undefined ? 'whole' : undefined;
    while (decided === undefined) {
      const chunk = await source.next();
      if (chunk === null) decided = probe!.end();
      else {
        head.push(Buffer.from(chunk));
        decided = probe!.push(chunk);
      }
    }
    if (decided === 'whole') return readRest(source, head);
  }
  const reader = start();
  for (const chunk of head) reader.push(chunk);
  for (let chunk; (chunk = await source.next()) !== null;) {
    reader.push(chunk);
    await afterChunk?.();
  }
  return null;
}

/**
 * The paths of a command's inputs, to refuse an output that would overwrite
 * one: no input changes without `--write` (SPEC §6).
 */
export class InputPaths {
  /** Built for a short list or on the second question: one question about a long list (lint's -o) scans it instead. */
  private paths: Set<string> | undefined;
  private asked = false;

  constructor(private readonly inputs: readonly InputRef[]) {}

  /** Every input's path, and, for a short list, where it leads. */
  private *allPaths(): Generator<string> {
    // Folders and globs never yield symbolic links; a path named on the command line may be
    // one, so a short list (the only kind that names paths one by one) is resolved too.
    const resolveLinks = this.inputs.length <= 256;
    for (const input of this.inputs) {
      if (input.absolute === undefined) continue;
      yield input.absolute;
      if (resolveLinks) {
        try {
          yield realpathSync(input.absolute);
        } catch {
          // Unreadable: reading it reports the problem.
        }
      }
    }
  }

  private includes(target: string): boolean {
    if (this.paths !== undefined) return this.paths.has(target);
    for (const p of this.allPaths()) if (p === target) return true;
    return false;
  }

  /** True when writing `target` (an absolute path) would overwrite an input. */
  has(target: string): boolean {
    if (this.asked || this.inputs.length <= 256) this.paths ??= new Set(this.allPaths());
    this.asked = true;
    if (this.includes(target)) return true;
    try {
      return this.includes(realpathSync(target));
    } catch {
      return false; // not there yet, so no input
    }
  }

  /** Throws a usage error when the output file `file` (as given to `option`) is an input. */
  refuseOutput(io: Io, option: string, file: string): void {
    if (this.has(path.resolve(io.cwd, file)))
      throw new UsageError(
        `${option} ${file} is one of the inputs; inputs change only with --write`,
      );
  }
}

/**
 * Writes an output file the user named (`-o`, `--report-file`): folders
 * created, written atomically; a failure is a one-line usage error naming the
 * file (never the temp file's name).
 */
export async function writeOutputFile(io: Io, file: string, text: string): Promise<void> {
  const target = path.resolve(io.cwd, file);
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
    await writeAtomic(target, text);
  } catch (e) {
    throw new UsageError(`cannot write ${file}: ${describeWriteError(e)}`);
  }
}

/**
 * {@link writeOutputFile} for output made in pieces: `parts` writes them in order through its
 * argument (a JSON report of a long run, held in a spool and not in one string).
 */
export async function writeOutputParts(
  io: Io,
  file: string,
  parts: (write: (data: string | Uint8Array) => void) => void,
): Promise<void> {
  const target = path.resolve(io.cwd, file);
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
    const out = await openAtomic(target);
    try {
      parts((data) => out.write(data));
    } catch (e) {
      out.discard();
      throw e;
    }
    await out.commit();
  } catch (e) {
    throw new UsageError(`cannot write ${file}: ${describeWriteError(e)}`);
  }
}

/** Writes text to a stream. */
export function print(stream: OutputStream, text: string): void {
  stream.write(text);
}

/**
 * Writes texts to a stream one after another, waiting whenever the stream asks to (a pipe whose
 * reader is slower): output made in pieces then never piles up in memory.
 */
export async function printAll(
  stream: OutputStream,
  texts: Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  for await (const text of texts) {
    if (stream.write(text) !== false || stream.once === undefined) continue;
    // A stream that fails never drains: the output guard (main) resumes its waiters then.
    await new Promise<void>((resolve) => stream.once!('drain', resolve));
  }
}
