/**
 * The config as a command sees it: found or named, with every config problem
 * turned into a usage error (exit 2).
 */
import { ConfigError, loadConfig, type LoadedConfig } from '../config/load.js';
import { UsageError } from './exit-codes.js';

/** Loads `--config FILE` or the config found upward from `cwd`; a config problem is a usage error. */
export async function loadCliConfig(cwd: string, file: string | undefined): Promise<LoadedConfig> {
  try {
    return await loadConfig(cwd, file);
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
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
