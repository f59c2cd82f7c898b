/**
 * The config as a command sees it: found or named, with every config problem
 * turned into a usage error (exit 2).
 */
import { ConfigError, ConfigResolver, loadConfig, type LoadedConfig } from '../config/load.js';
import { SeverityResolver } from '../lint/severity.js';
import { UsageError } from './exit-codes.js';
import { pointerTokens } from './options.js';

/** Loads `--config FILE` or the config found upward from `cwd`; a config problem is a usage error. */
export async function loadCliConfig(cwd: string, file: string | undefined): Promise<LoadedConfig> {
  try {
    return await loadConfig(cwd, file);
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
}

/** Turns a config problem into a usage error (exit 2, one line per problem). */
async function asUsage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
}

/** The configs of a run: the working folder's, and each file's (the nearest above it). */
export interface CliConfigs {
  /** `--config FILE`, or the config found upward from the working folder. */
  root(): Promise<LoadedConfig>;
  /** The config of a file (absolute path; undefined: standard input, the root's). */
  forFile(absolute: string | undefined): Promise<LoadedConfig>;
}

/** Every file's config, as lint, show and stats find it; config problems are usage errors. */
export function cliConfigs(cwd: string, file: string | undefined): CliConfigs {
  const resolver = new ConfigResolver(cwd, file);
  // One wrapped promise per config, not one per file asking for it.
  const wrapped = new WeakMap<Promise<LoadedConfig>, Promise<LoadedConfig>>();
  const usage = (found: Promise<LoadedConfig>): Promise<LoadedConfig> => {
    let w = wrapped.get(found);
    if (w === undefined) wrapped.set(found, (w = asUsage(found)));
    return w;
  };
  return {
    root: () => usage(resolver.root()),
    forFile: (absolute) => usage(resolver.forFile(absolute)),
  };
}

/**
 * The read settings of one file: `--from`, `--pointer` and `--target`, else those of the
 * `overrides` entries of its config that match it, else its config's own. The one function
 * every command that reads conversations uses for a file.
 */
export async function readSettingsFor(
  configs: CliConfigs,
  absolute: string | undefined,
  flags: { from?: string; pointer?: string; target?: string },
): Promise<Omit<ReadSettings, 'ignore'>> {
  const { config, dir, overrideDirs } = await configs.forFile(absolute);
  const matched = new SeverityResolver(config, dir, new Map(), overrideDirs).settingsFor(absolute);
  const out: Omit<ReadSettings, 'ignore'> = {};
  const from = flags.from ?? matched.from ?? config.from;
  const pointer = flags.pointer ?? matched.pointer ?? config.pointer;
  const target = flags.target ?? matched.target ?? config.target;
  if (from !== undefined) out.from = from;
  if (pointer !== undefined) out.pointer = pointer;
  if (target !== undefined) out.target = target;
  return out;
}

/** The settings every command that reads conversations takes from its flags or the config. */
export interface ReadSettings {
  from?: string;
  pointer?: string;
  /** `--target` or the config's `target` (the commands that check or repair for a provider). */
  target?: string;
  /** The config's ignore patterns, for commands that walk folders (relative to the config's folder). */
  ignore: { patterns: string[]; base: string };
}

/**
 * `--from`, `--pointer` and `--target`, else the config's `from`, `pointer`
 * and `target`: every command that reads conversations honours the config
 * alike (lint and show read the rest of it too). Only the keys that have a
 * value are returned.
 */
export async function readSettings(
  cwd: string,
  flags: { config?: string; from?: string; pointer?: string; target?: string },
): Promise<ReadSettings> {
  const { config, dir } = await loadCliConfig(cwd, flags.config);
  const out: ReadSettings = { ignore: { patterns: config.ignore ?? [], base: dir } };
  const from = flags.from ?? config.from;
  const pointer = flags.pointer ?? config.pointer;
  const target = flags.target ?? config.target;
  if (from !== undefined) out.from = from;
  if (pointer !== undefined) out.pointer = pointer;
  if (target !== undefined) out.target = target;
  return out;
}

/** The configs of each run, by the run's flags object (one per command run). */
const runConfigs = new WeakMap<object, CliConfigs>();

/**
 * For a command that reads files one by one: a file's flags with what they leave out (`from`,
 * `pointer`, `target`) taken from the file's own config and its matching overrides, and the
 * pointer's tokens. `given` is the command's flags as parsed, the same object for every file of
 * a run (the configs are looked up once per run).
 */
export async function flagsForFile<
  F extends { config?: string; from?: string; pointer?: string; target?: string },
>(cwd: string, given: F, input: { absolute?: string }): Promise<{ flags: F; pointer: string[] }> {
  let configs = runConfigs.get(given);
  if (configs === undefined) runConfigs.set(given, (configs = cliConfigs(cwd, given.config)));
  const read = await readSettingsFor(configs, input.absolute, given);
  const flags = { ...given, ...read };
  return { flags, pointer: pointerTokens(flags.pointer) };
}
