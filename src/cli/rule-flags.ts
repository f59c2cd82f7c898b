/**
 * `--rule ID=off|warn|error`, shared by lint and show (loaded with their
 * bodies, so `--help` never loads the rules).
 */
import { ruleById } from '../rules/index.js';
import type { Severity } from '../rules/rule.js';
import { UsageError } from './exit-codes.js';

/** `--rule ID=off|warn|error` flags as a map; a malformed one or an unknown rule is a usage error. */
export function parseRuleFlags(values: readonly string[]): Map<string, Severity> {
  const out = new Map<string, Severity>();
  for (const v of values) {
    const m = /^([^=]+)=(off|warn|error)$/.exec(v.trim());
    if (m === null) throw new UsageError(`--rule "${v}": expected ID=off|warn|error`);
    if (ruleById(m[1]!) === undefined)
      throw new UsageError(`--rule "${v}": unknown rule "${m[1]}" (see "histlint rules")`);
    out.set(m[1]!, m[2] as Severity);
  }
  return out;
}
