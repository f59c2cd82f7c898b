/**
 * `--rule ID=off|warn|error`, shared by lint and show (loaded with their
 * bodies, so `--help` never loads the rules). Also taken: `warning` for
 * `warn`, ESLint's `0|1|2`, and `ID:SEVERITY` for `ID=SEVERITY`.
 */
import { didYouMean } from '../model/suggest.js';
import { RULES, ruleById } from '../rules/index.js';
import type { Severity } from '../rules/rule.js';
import { UsageError } from './exit-codes.js';

/** Every spelling of a severity `--rule` takes. */
const SEVERITIES: Readonly<Record<string, Severity>> = {
  off: 'off',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  '0': 'off',
  '1': 'warn',
  '2': 'error',
};

/** The severity a `--rule` value names, or undefined. */
export function severityOf(text: string): Severity | undefined {
  const key = text.toLowerCase();
  return Object.hasOwn(SEVERITIES, key) ? SEVERITIES[key] : undefined;
}

/** `--rule ID=SEVERITY` flags as a map; a malformed one or an unknown rule is a usage error. */
export function parseRuleFlags(values: readonly string[]): Map<string, Severity> {
  const out = new Map<string, Severity>();
  for (const v of values) {
    // Rule ids hold neither "=" nor ":", so the first of them ends the id.
    const m = /^([^=:]+)[=:](.*)$/.exec(v.trim());
    const severity = m === null ? undefined : severityOf(m[2]!.trim());
    if (m === null || severity === undefined)
      throw new UsageError(
        `--rule "${v}": expected ID=off|warn|error (also warning, 0|1|2, or ID:SEVERITY)`,
      );
    const id = m[1]!.trim();
    if (ruleById(id) === undefined)
      throw new UsageError(
        `--rule "${v}": unknown rule "${id}"${didYouMean(
          id,
          RULES.map((r) => r.meta.id),
        )} (see "histlint rules")`,
      );
    out.set(id, severity);
  }
  return out;
}
