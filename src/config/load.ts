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
}

/** A config problem: printed as one line, exit 2. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
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

/** The keys an object at a config path accepts, for error messages. */
function acceptedKeys(p: readonly PropertyKey[], schema: SchemaModule): string {
  const last = p[p.length - 1];
  if (last === 'rules') return 'a rule id (see "histlint rules")';
  if (p.length === 2 && p[0] === 'overrides') return 'one of files|rules';
  return `one of ${Object.keys(schema.ConfigSchema.shape).join('|')}`;
}

/** One readable line per zod issue. */
export function describeIssue(issue: z.core.$ZodIssue, schema: SchemaModule): string {
  const where = keyPath(issue.path);
  switch (issue.code) {
    case 'invalid_value':
      return `${where}: expected one of ${issue.values.map(String).join('|')}`;
    case 'unrecognized_keys':
      return issue.keys
        .map(
          (k) =>
            `${keyPath([...issue.path, k])}: unknown key (expected ${acceptedKeys(issue.path, schema)})`,
        )
        .join('; ');
    case 'invalid_type':
      // zod's "record" is a JSON object to the person editing the file.
      return `${where}: expected ${issue.expected === 'record' ? 'object' : issue.expected}`;
    case 'too_small':
      return `${where}: must not be empty`;
    default:
      return `${where}: ${issue.message}`;
  }
}

/** Validates a parsed config value. Throws {@link ConfigError}. */
export async function validateConfig(value: unknown, file: string): Promise<Config> {
  const schema = await import('./schema.js');
  const result = schema.ConfigSchema.safeParse(value);
  if (!result.success) {
    const text = result.error.issues.map((i) => describeIssue(i, schema)).join('; ');
    throw new ConfigError(`${file}: invalid config: ${text}`);
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

/** Loads `--config FILE`, or the config found upward from `cwd`, or an empty one. */
export async function loadConfig(cwd: string, explicit?: string): Promise<LoadedConfig> {
  if (explicit !== undefined) {
    const file = path.resolve(cwd, explicit);
    return { config: await readConfigFile(file, explicit), file, dir: path.dirname(file) };
  }
  const found = await findConfig(cwd);
  if (found === undefined) return { config: {}, dir: cwd };
  return {
    config: await readConfigFile(found, path.relative(cwd, found) || found),
    file: found,
    dir: path.dirname(found),
  };
}
