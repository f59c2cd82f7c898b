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
