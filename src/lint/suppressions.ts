/**
 * Bulk suppressions (`lint --suppress-all`, `--prune-suppressions`): a record of how many errors
 * each file has of each rule, so a big corpus can adopt histlint and only new errors fail CI.
 * Pure functions over plain data; the CLI reads and writes `histlint-suppressions.json`.
 *
 * A file's errors of a rule are suppressed while there are at most as many as recorded. Once
 * there are more, every one of them is reported again, not only the new ones: a count cannot say
 * which of them is new, so the person fixing them sees them all.
 */
import type { Finding } from './engine.js';

/** The default name of the suppressions file, in the working folder. */
export const SUPPRESSIONS_FILE = 'histlint-suppressions.json';

/** Recorded error counts: file (POSIX path relative to the working folder) -> rule id -> count. */
export type SuppressionCounts = Record<string, Record<string, number>>;

/** The contents of a suppressions file. */
export interface Suppressions {
  version: 1;
  files: SuppressionCounts;
}

/** One file's findings, named as in the suppressions file. */
export interface SuppressionInput {
  file: string;
  findings: readonly Finding[];
}

/** What {@link applySuppressions} leaves of one file's findings. */
export interface AppliedSuppressions {
  /** The findings still reported, in their order. */
  findings: Finding[];
  /** How many errors were suppressed. */
  suppressed: number;
  /** Rules whose errors outnumber their recorded count, so all of them are reported. */
  over: string[];
}

/**
 * Counts one file's errors (not warnings) by rule, keys in order; with `only`, just those rules.
 */
export function countErrors(
  findings: readonly Finding[],
  only?: ReadonlySet<string>,
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const f of findings) {
    if (f.severity !== 'error') continue;
    if (only !== undefined && !only.has(f.ruleId)) continue;
    counts[f.ruleId] = (counts[f.ruleId] ?? 0) + 1;
  }
  return sortKeys(counts);
}

/** Counts the errors of several files; files without errors are left out. */
export function countSuppressions(
  files: readonly SuppressionInput[],
  only?: ReadonlySet<string>,
): SuppressionCounts {
  const out: SuppressionCounts = {};
  for (const { file, findings } of files) {
    const counts = countErrors(findings, only);
    if (Object.keys(counts).length > 0) out[file] = counts;
  }
  return sortKeys(out);
}

/**
 * What `--suppress-all` records: the files linted in this run get their current counts (with
 * `only`, only those rules' counts are replaced and the file's other entries kept); files not
 * linted in this run keep their entries.
 */
export function suppressAll(
  previous: SuppressionCounts,
  files: readonly SuppressionInput[],
  only?: ReadonlySet<string>,
): SuppressionCounts {
  const out: SuppressionCounts = { ...previous };
  for (const { file, findings } of files) {
    const current = countErrors(findings, only);
    const kept: Record<string, number> = {};
    if (only !== undefined) {
      for (const [rule, n] of Object.entries(previous[file] ?? {})) {
        if (!only.has(rule)) kept[rule] = n;
      }
    }
    const merged = sortKeys({ ...kept, ...current });
    if (Object.keys(merged).length > 0) out[file] = merged;
    else delete out[file];
  }
  return sortKeys(out);
}

/**
 * Suppresses one file's errors of each rule while they are at most the recorded count; a rule
 * over its count has all its errors reported. Warnings are never suppressed.
 */
export function applySuppressions(
  findings: readonly Finding[],
  recorded: Readonly<Record<string, number>> | undefined,
): AppliedSuppressions {
  if (recorded === undefined) return { findings: [...findings], suppressed: 0, over: [] };
  const counts = countErrors(findings);
  const hidden = new Set<string>();
  const over: string[] = [];
  for (const [rule, n] of Object.entries(counts)) {
    const limit = recorded[rule];
    if (limit === undefined) continue;
    if (n <= limit) hidden.add(rule);
    else over.push(rule);
  }
  const kept = findings.filter((f) => !(f.severity === 'error' && hidden.has(f.ruleId)));
  return { findings: kept, suppressed: findings.length - kept.length, over };
}

/**
 * What `--prune-suppressions` records: for the files linted in this run, each count lowered to
 * the errors there are now, entries with none dropped; never raised. Other files keep theirs.
 */
export function pruneSuppressions(
  previous: SuppressionCounts,
  files: readonly SuppressionInput[],
): SuppressionCounts {
  const out: SuppressionCounts = { ...previous };
  for (const { file, findings } of files) {
    const before = previous[file];
    if (before === undefined) continue;
    const current = countErrors(findings);
    const after: Record<string, number> = {};
    for (const [rule, n] of Object.entries(before)) {
      const now = Math.min(n, current[rule] ?? 0);
      if (now > 0) after[rule] = now;
    }
    if (Object.keys(after).length > 0) out[file] = sortKeys(after);
    else delete out[file];
  }
  return sortKeys(out);
}

/** How many recorded entries of the files linted in this run count more errors than there are now. */
export function unusedSuppressions(
  previous: SuppressionCounts,
  files: readonly SuppressionInput[],
): number {
  let unused = 0;
  for (const { file, findings } of files) {
    const before = previous[file];
    if (before === undefined) continue;
    const current = countErrors(findings);
    for (const [rule, n] of Object.entries(before)) if ((current[rule] ?? 0) < n) unused++;
  }
  return unused;
}

/** The suppressions file's text: keys sorted, two-space JSON, a final newline. */
export function formatSuppressions(files: SuppressionCounts): string {
  const sorted: SuppressionCounts = {};
  for (const [file, counts] of Object.entries(sortKeys(files))) sorted[file] = sortKeys(counts);
  return `${JSON.stringify({ version: 1, files: sorted }, null, 2)}\n`;
}

/** Reads a suppressions file's text; throws an Error saying what is wrong. */
export function parseSuppressions(text: string): Suppressions {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`not JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.files)) {
    throw new Error('expected {"version": 1, "files": {...}}');
  }
  const files: SuppressionCounts = {};
  for (const [file, counts] of Object.entries(value.files)) {
    if (!isRecord(counts)) throw new Error(`files["${file}"]: expected an object of counts`);
    const out: Record<string, number> = {};
    for (const [rule, n] of Object.entries(counts)) {
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
        throw new Error(`files["${file}"]["${rule}"]: expected a count (an integer >= 0)`);
      }
      out[rule] = n;
    }
    files[file] = out;
  }
  return { version: 1, files };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key]!;
  return out;
}
