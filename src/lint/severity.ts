/**
 * Which rules run on a file, and how severe: defaults, then the config's
 * `rules`, then each matching `overrides` entry, then `--rule` flags. The
 * matching entries' `from`, `pointer` and `target` too (the last that sets one wins).
 * Provider rules are in the result too: the engine runs them only on a
 * conversation checked against their target (SPEC §3, `--target`).
 */
import path from 'node:path';
import picomatch from 'picomatch';
import type { Config } from '../config/schema.js';
import { RULES } from '../rules/index.js';
import type { Severity } from '../rules/rule.js';
import type { EnabledRules, FindingSeverity } from './engine.js';

/** What an `overrides` entry may set besides rules. */
export interface OverrideReadSettings {
  from?: string;
  pointer?: string;
  target?: string;
}

/** Resolves severities per file, caching by the set of overrides that match. */
export class SeverityResolver {
  private readonly base: Map<string, Severity>;
  private readonly overrides: {
    match: (p: string) => boolean;
    /** The folder the entry's patterns are relative to. */
    dir: string;
    rules: Record<string, Severity | undefined>;
    read: OverrideReadSettings;
  }[];
  private readonly cli: ReadonlyMap<string, Severity>;
  private readonly cache = new Map<string, EnabledRules>();

  constructor(
    config: Config,
    private readonly configDir: string,
    cliRules: ReadonlyMap<string, Severity> = new Map(),
    overrideDirs?: readonly string[],
  ) {
    this.base = new Map(RULES.map((rule) => [rule.meta.id, rule.meta.defaultSeverity]));
    for (const [id, sev] of Object.entries(config.rules ?? {}))
      if (sev !== undefined) this.base.set(id, sev);
    this.overrides = (config.overrides ?? []).map((o, k) => {
      const read: OverrideReadSettings = {};
      if (o.from !== undefined) read.from = o.from;
      if (o.pointer !== undefined) read.pointer = o.pointer;
      if (o.target !== undefined) read.target = o.target;
      return {
        match: picomatch(o.files, { dot: true }),
        dir: overrideDirs?.[k] ?? configDir,
        rules: (o.rules ?? {}) as Record<string, Severity | undefined>,
        read,
      };
    });
    this.cli = cliRules;
  }

  /** The enabled rules for a file (absolute path; undefined for standard input). */
  forFile(absolute: string | undefined): EnabledRules {
    return this.resolve(this.matching(absolute));
  }

  /** The enabled rules and the matching overrides' `from`, `pointer` and `target` for a file. */
  settingsFor(absolute: string | undefined): { rules: EnabledRules } & OverrideReadSettings {
    const matched = this.matching(absolute);
    const out: { rules: EnabledRules } & OverrideReadSettings = { rules: this.resolve(matched) };
    for (const k of matched) Object.assign(out, this.overrides[k]!.read);
    return out;
  }

  /** The indexes of the overrides that match a file. */
  private matching(absolute: string | undefined): number[] {
    // Without overrides every file gets the same rules: no path work per file.
    if (this.overrides.length === 0 || absolute === undefined) return [];
    const out: number[] = [];
    for (const [k, o] of this.overrides.entries()) {
      const rel = path.relative(o.dir, absolute).split(path.sep).join('/');
      if (o.match(rel)) out.push(k);
    }
    return out;
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
