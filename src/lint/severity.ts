/**
 * Which rules run on a file, and how severe: defaults, then the config's
 * `rules`, then each matching `overrides` entry, then `--rule` flags.
 * Provider rules are in the result too: the engine runs them only on a
 * conversation checked against their target (SPEC §3, `--target`).
 */
import path from 'node:path';
import picomatch from 'picomatch';
import type { Config } from '../config/schema.js';
import { RULES } from '../rules/index.js';
import type { Severity } from '../rules/rule.js';
import type { EnabledRules, FindingSeverity } from './engine.js';

/** Resolves severities per file, caching by the set of overrides that match. */
export class SeverityResolver {
  private readonly base: Map<string, Severity>;
  private readonly overrides: {
    match: (p: string) => boolean;
    rules: Record<string, Severity | undefined>;
  }[];
  private readonly cli: ReadonlyMap<string, Severity>;
  private readonly cache = new Map<string, EnabledRules>();

  constructor(
    config: Config,
    private readonly configDir: string,
    cliRules: ReadonlyMap<string, Severity> = new Map(),
  ) {
    this.base = new Map(RULES.map((rule) => [rule.meta.id, rule.meta.defaultSeverity]));
    for (const [id, sev] of Object.entries(config.rules ?? {}))
      if (sev !== undefined) this.base.set(id, sev);
    this.overrides = (config.overrides ?? []).map((o) => ({
      match: picomatch(o.files, { dot: true }),
      rules: o.rules as Record<string, Severity | undefined>,
    }));
    this.cli = cliRules;
  }

  /** The enabled rules for a file (absolute path; undefined for standard input). */
  forFile(absolute: string | undefined): EnabledRules {
    // Without overrides every file gets the same rules: no path work per file.
    if (this.overrides.length === 0 || absolute === undefined) return this.resolve([]);
    const rel = path.relative(this.configDir, absolute).split(path.sep).join('/');
    return this.resolve(
      this.overrides.map((o, k) => (o.match(rel) ? k : -1)).filter((k) => k !== -1),
    );
  }

  /** The enabled rules for a set of matching overrides (cached: the same Map for the same set). */
  private resolve(matched: number[]): EnabledRules {
    const key = matched.join(',');
    let enabled = this.cache.get(key);
    if (enabled === undefined) {
      const sev = new Map(this.base);
      for (const k of matched) {
        for (const [id, s] of Object.entries(this.overrides[k]!.rules))
          if (s !== undefined) sev.set(id, s);
      }
      for (const [id, s] of this.cli) sev.set(id, s);
      const out = new Map<string, FindingSeverity>();
      for (const [id, s] of sev) if (s !== 'off') out.set(id, s);
      enabled = out;
      this.cache.set(key, enabled);
    }
    return enabled;
  }
}
