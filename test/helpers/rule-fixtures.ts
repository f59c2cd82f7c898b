/**
 * The rule fixture family: fixtures/rules/<id>/<case>/ (a provider rule
 * `<target>/<rule>` nests: fixtures/rules/<target>/<rule>/<case>/) with
 * `input.json` or `input.jsonl`, an optional `options.json` and
 * `expected.json`. Shared by the fixture runner and the meta tests.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  lintBytes,
  type EnabledRules,
  type Finding,
  type LintOptions,
} from '../../src/lint/engine.js';
import { SeverityResolver } from '../../src/lint/severity.js';
import { parsePointer } from '../../src/model/pointer.js';
import { RULES, ruleById } from '../../src/rules/index.js';
import type { Severity } from '../../src/rules/rule.js';
import { ROOT } from './cli.js';

/** Where the rule fixtures live. */
export const RULE_FIXTURES = path.join(ROOT, 'fixtures', 'rules');

/** Files a case folder may hold; anything else is a typo that would silently skip a check. */
export const CASE_FILES = new Set(['input.json', 'input.jsonl', 'options.json', 'expected.json']);
/** The keys `options.json` may hold. */
export const OPTION_KEYS = new Set(['rules', 'pointer', 'leavePending', 'target', 'from']);

/** What `options.json` may say. */
export interface CaseOptions {
  rules?: Record<string, Severity>;
  pointer?: string;
  leavePending?: boolean;
  /** `--target`: switches that provider's rules on. */
  target?: string;
  /** `--from`: the format the input is read as (detected when absent). */
  from?: string;
}

/** The provider targets that have rules (the folders of nested fixture cases). */
const TARGETS = new Set(RULES.flatMap((r) => (r.meta.target === undefined ? [] : [r.meta.target])));

/** One fixture case. */
export interface RuleCase {
  ruleId: string;
  name: string;
  dir: string;
}

/** Every case folder, by rule folder; folders that name no rule are listed as strays. */
export function discoverRuleCases(): { cases: RuleCase[]; strays: string[] } {
  const cases: RuleCase[] = [];
  const strays: string[] = [];
  if (!existsSync(RULE_FIXTURES)) return { cases, strays };
  const ruleIds: string[] = [];
  for (const entry of readdirSync(RULE_FIXTURES).sort()) {
    const dir = path.join(RULE_FIXTURES, entry);
    if (!statSync(dir).isDirectory()) strays.push(entry);
    else if (TARGETS.has(entry)) {
      for (const rule of readdirSync(dir).sort()) ruleIds.push(`${entry}/${rule}`);
    } else ruleIds.push(entry);
  }
  for (const ruleId of ruleIds) {
    const ruleDir = path.join(RULE_FIXTURES, ruleId);
    if (!statSync(ruleDir).isDirectory() || ruleById(ruleId) === undefined) {
      strays.push(ruleId);
      continue;
    }
    for (const name of readdirSync(ruleDir).sort()) {
      const dir = path.join(ruleDir, name);
      if (statSync(dir).isDirectory()) cases.push({ ruleId, name, dir });
      else strays.push(`${ruleId}/${name}`);
    }
  }
  return { cases, strays };
}

export function readOptions(dir: string): CaseOptions {
  const file = path.join(dir, 'options.json');
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as CaseOptions;
}

/** The input file of a case (`input.json` or `input.jsonl`). */
export function inputFile(dir: string): string {
  const found = ['input.json', 'input.jsonl'].filter((f) => existsSync(path.join(dir, f)));
  if (found.length !== 1)
    throw new Error(`${dir}: expected exactly one input file, found ${found.length}`);
  return found[0]!;
}

/**
 * The rules as `histlint lint` resolves them for a case: every rule at its
 * default severity, then the case's `rules` (provider rules run only under
 * their target: the case's `target`, else the input's own provider).
 */
export function enabledRules(options: CaseOptions): EnabledRules {
  const config = options.rules === undefined ? {} : { rules: options.rules };
  return new SeverityResolver(config, ROOT, new Map()).forFile(undefined);
}

/** Runs the engine over a case's input, with every rule enabled as the case says. */
export function lintCase(c: RuleCase): Finding[] {
  const options = readOptions(c.dir);
  const file = inputFile(c.dir);
  const lintOptions: LintOptions = {
    rules: enabledRules(options),
    kind: file.endsWith('.jsonl') ? 'jsonl' : 'json',
    leavePending: options.leavePending === true,
    target: options.target ?? 'auto',
  };
  if (options.pointer !== undefined) lintOptions.pointer = parsePointer(options.pointer);
  if (options.from !== undefined) lintOptions.from = options.from;
  return lintBytes(file, readFileSync(path.join(c.dir, file)), lintOptions).findings;
}
