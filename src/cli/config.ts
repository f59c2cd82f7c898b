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

/**
 * `--from` and `--pointer`, else the config's `from` and `pointer`: every
 * command that reads conversations honours the config alike (lint and show
 * read the rest of it too). Only the keys that have a value are returned.
 */
export async function readSettings(
  cwd: string,
  flags: { config?: string; from?: string; pointer?: string },
): Promise<{ from?: string; pointer?: string; ignore: { patterns: string[]; base: string } }> {
  const { config, dir } = await loadCliConfig(cwd, flags.config);
  // The config's ignore patterns, for commands that walk folders (relative to the config's folder).
  const out: { from?: string; pointer?: string; ignore: { patterns: string[]; base: string } } = {
    ignore: { patterns: config.ignore ?? [], base: dir },
  };
  const from = flags.from ?? config.from;
  const pointer = flags.pointer ?? config.pointer;
  if (from !== undefined) out.from = from;
  if (pointer !== undefined) out.pointer = pointer;
  return out;
}
