/**
 * Finding and loading the config: `histlint.config.json` upward from the
 * working folder, or `--config FILE`. JSON only (no code runs at load);
 * every problem names the key and what is accepted.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { JsonParseError, parseJson } from '../model/json.js';
import { LineIndex } from '../model/positions.js';
import { didYouMean } from '../model/suggest.js';
import type * as SchemaModuleNs from './schema.js';
import type { Config } from './schema.js';

/** The zod schema module, loaded only when there is a config to validate (zod costs start-up time). */
type SchemaModule = typeof SchemaModuleNs;

/** The config file name looked for. */
export const CONFIG_NAME = 'histlint.config.json';

/** A config and where it came from. */
export interface LoadedConfig {
  config: Config;
  /** Absolute path of the file; undefined when none was found. */
  file?: string;
  /** The folder patterns in the config are relative to. */
  dir: string;
  /**
   * The folder each `overrides` entry's `files` are relative to, when not all are `dir`: an
   * entry inherited through `extends` keeps its own config's folder.
   */
  overrideDirs?: string[];
  /** The config files `extends` read, nearest first (absent: none). */
  extended?: string[];
}

/** A config problem: one line per problem (each names the file and the key), exit 2. */
export class ConfigError extends Error {
  /** The problems, one line each. */
  readonly lines: string[];

  constructor(message: string | readonly string[]) {
    const lines = typeof message === 'string' ? [message] : [...message];
    super(lines.join('\n'));
    this.name = 'ConfigError';
    this.lines = lines;
  }
}

/** Renders a zod issue path as `config.rules["unsafe-url"]`. */
function keyPath(p: readonly PropertyKey[]): string {
  let out = 'config';
  for (const k of p)
    out +=
      typeof k === 'number'
        ? `[${k}]`
        : /^[A-Za-z_$][\w$]*$/.test(String(k))
          ? `.${String(k)}`
          : `[${JSON.stringify(String(k))}]`;
  return out;
}

/** The keys an object at a config path accepts. */
function knownKeys(p: readonly PropertyKey[], schema: SchemaModule): string[] {
  if (p.length === 2 && p[0] === 'overrides') return Object.keys(schema.OverrideSchema.shape);
  return Object.keys(schema.ConfigSchema.shape);
}

/** The keys an object at a config path accepts, for error messages. */
function acceptedKeys(p: readonly PropertyKey[], schema: SchemaModule): string {
  return `one of ${knownKeys(p, schema).join('|')}`;
}

/** The rule ids, for "did you mean". */
async function ruleIds(): Promise<string[]> {
  const { RULES } = await import('../rules/index.js');
  return RULES.map((r) => r.meta.id);
}

/** Readable lines for one zod issue (one per unknown key). */
export function describeIssue(
  issue: z.core.$ZodIssue,
  schema: SchemaModule,
  rules: readonly string[] = [],
): string[] {
  const where = keyPath(issue.path);
  switch (issue.code) {
    case 'invalid_value':
      return [`${where}: expected one of ${issue.values.map(String).join('|')}`];
    case 'unrecognized_keys':
      return issue.keys.map((k) =>
        issue.path[issue.path.length - 1] === 'rules'
          ? `${keyPath([...issue.path, k])}: unknown rule${didYouMean(k, rules) || ' (see "histlint rules")'}`
          : `${keyPath([...issue.path, k])}: unknown key (expected ${acceptedKeys(issue.path, schema)})${didYouMean(k, knownKeys(issue.path, schema))}`,
      );
    case 'invalid_type':
      // zod's "record" is a JSON object to the person editing the file.
      return [`${where}: expected ${issue.expected === 'record' ? 'object' : issue.expected}`];
    case 'too_small':
      return [`${where}: must not be empty`];
    default:
      return [`${where}: ${issue.message}`];
  }
}

/** Validates a parsed config value. Throws {@link ConfigError}, one line per problem. */
export async function validateConfig(value: unknown, file: string): Promise<Config> {
  const schema = await import('./schema.js');
  const result = schema.ConfigSchema.safeParse(value);
  if (!result.success) {
    const rules = await ruleIds();
    throw new ConfigError(
      result.error.issues
        .flatMap((i) => describeIssue(i, schema, rules))
        .map((line) => `${file}: ${line}`),
    );
  }
  return result.data;
}

/** Reads and validates a config file. Throws {@link ConfigError}. */
export async function readConfigFile(file: string, shown: string): Promise<Config> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(
      `${shown}: cannot read config: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String((e as Error).message)}`,
    );
  }
  const body = text.replace(/^\uFEFF/, '');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    // The lossless parser knows where the error is.
    let where = '';
    let detail = (e as Error).message;
    try {
      parseJson(body);
    } catch (p) {
      if (p instanceof JsonParseError) {
        const pos = new LineIndex(body).position(p.offset);
        where = `:${pos.line}:${pos.column}`;
        detail = p.message;
      }
    }
    throw new ConfigError(`${shown}${where}: invalid JSON in config: ${detail}`);
  }
  return await validateConfig(value, shown);
}

/** Finds `histlint.config.json` in `cwd` or the nearest folder above it. */
export async function findConfig(cwd: string): Promise<string | undefined> {
  let dir = path.resolve(cwd);
  for (;;) {
    const candidate = path.join(dir, CONFIG_NAME);
    try {
      if ((await fs.stat(candidate)).isFile()) return candidate;
    } catch {
      // Not here; look further up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The path of a config as messages show it: relative to the working folder when inside it. */
function shownPath(cwd: string, file: string): string {
  const rel = path.relative(cwd, file);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}

/**
 * Reads a config file and what it `extends` (a path relative to it): the extended config's
 * settings first, then this one's (`rules` merged key by key, `overrides` appended; `files` and
 * `ignore` are each config's own). A cycle is a config error.
 */
async function readWithExtends(
  file: string,
  shown: string,
  cwd: string,
  chain: readonly string[] = [],
): Promise<LoadedConfig> {
  const own = await readConfigFile(file, shown);
  const dir = path.dirname(file);
  if (own.extends === undefined) return { config: own, file, dir };
  const baseFile = path.resolve(dir, own.extends);
  const seen = [...chain, file];
  if (seen.includes(baseFile))
    throw new ConfigError(
      `${shown}: config.extends: "${own.extends}" makes a cycle (${[...seen, baseFile].map((f) => shownPath(cwd, f)).join(' -> ')})`,
    );
  let base: LoadedConfig;
  try {
    base = await readWithExtends(baseFile, shownPath(cwd, baseFile), cwd, seen);
  } catch (e) {
    // A missing extended file is this config's problem: name the key that points at it.
    if (e instanceof ConfigError && /cannot read config/.test(e.message) && e.lines.length === 1)
      throw new ConfigError(`${shown}: config.extends: ${e.message}`);
    throw e;
  }
  const { extends: _extends, ...mine } = own;
  const { files: _files, ignore: _ignore, $schema: _schema, ...inherited } = base.config;
  const config: Config = { ...inherited, ...mine };
  if (base.config.rules !== undefined || own.rules !== undefined)
    config.rules = { ...base.config.rules, ...own.rules };
  const baseOverrides = base.config.overrides ?? [];
  if (baseOverrides.length > 0 || own.overrides !== undefined)
    config.overrides = [...baseOverrides, ...(own.overrides ?? [])];
  const baseDirs = base.overrideDirs ?? baseOverrides.map(() => base.dir);
  const out: LoadedConfig = { config, file, dir, extended: [baseFile, ...(base.extended ?? [])] };
  if (baseDirs.some((d) => d !== dir))
    out.overrideDirs = [...baseDirs, ...(own.overrides ?? []).map(() => dir)];
  return out;
}

/** Loads `--config FILE`, or the config found upward from `cwd`, or an empty one. */
export async function loadConfig(cwd: string, explicit?: string): Promise<LoadedConfig> {
  if (explicit !== undefined) {
    const file = path.resolve(cwd, explicit);
    return readWithExtends(file, explicit, cwd);
  }
  const found = await findConfig(cwd);
  if (found === undefined) return { config: {}, dir: cwd };
  return readWithExtends(found, path.relative(cwd, found) || found, cwd);
}

/**
 * The config of each file (ESLint's flat config in subfolders, Ruff): the nearest
 * `histlint.config.json` at or above the file's folder, looked for up to the working folder;
 * above that, and for files outside it, the working folder's config (found upward from it).
 * `--config FILE` is every file's config. The nearest config wins whole (no cascade) but for
 * what it `extends`. Folders and files are looked up once.
 */
export class ConfigResolver {
  private readonly cwd: string;
  private rootConfig: Promise<LoadedConfig> | undefined;
  private readonly byFolder = new Map<string, Promise<LoadedConfig>>();

  constructor(
    cwd: string,
    private readonly explicit?: string,
  ) {
    this.cwd = path.resolve(cwd);
  }

  /** The working folder's config: `--config FILE`, or the one found upward, or an empty one. */
  root(): Promise<LoadedConfig> {
    this.rootConfig ??= loadConfig(this.cwd, this.explicit);
    return this.rootConfig;
  }

  /** The config of the file at an absolute path (undefined: standard input, the root's). */
  forFile(absolute: string | undefined): Promise<LoadedConfig> {
    if (absolute === undefined || this.explicit !== undefined) return this.root();
    return this.forFolder(path.dirname(path.resolve(absolute)));
  }

  private forFolder(dir: string): Promise<LoadedConfig> {
    // Looked up first: a walk asks once per file, and most files share their folder.
    let found = this.byFolder.get(dir);
    if (found === undefined) {
      const rel = path.relative(this.cwd, dir);
      if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) found = this.root();
      else {
        const candidate = path.join(dir, CONFIG_NAME);
        found = fs.stat(candidate).then(
          (st) =>
            st.isFile()
              ? readWithExtends(candidate, shownPath(this.cwd, candidate), this.cwd)
              : this.forFolder(path.dirname(dir)),
          () => this.forFolder(path.dirname(dir)),
        );
      }
      this.byFolder.set(dir, found);
    }
    return found;
  }
}
