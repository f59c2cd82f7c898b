/**
 * Merging the reports of several shards (`--shard i/n`) into one: JSON
 * reports by concatenating their files and summing the counts, SARIF logs
 * into one run with artifact indices renumbered.
 */

/** A JSON lint report (SPEC §5.3). */
export interface JsonLintReport {
  files: { file: string; findings: unknown[]; error?: { message: string } }[];
  errorCount: number;
  warningCount: number;
}

/** True when a parsed value has the JSON lint report's shape. */
export function isJsonLintReport(v: unknown): v is JsonLintReport {
  const r = v as JsonLintReport;
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray(r.files) &&
    typeof r.errorCount === 'number' &&
    typeof r.warningCount === 'number'
  );
}

/** True when a parsed value is a SARIF log. */
export function isSarifLog(v: unknown): v is { version: string; runs: SarifRun[] } {
  const r = v as { version?: unknown; runs?: unknown };
  return typeof v === 'object' && v !== null && r.version === '2.1.0' && Array.isArray(r.runs);
}

/** The parts of a SARIF run merging touches. */
export interface SarifRun {
  tool: unknown;
  artifacts?: unknown[];
  results?: { locations?: { physicalLocation?: { artifactLocation?: { index?: number } } }[] }[];
  invocations?: { executionSuccessful: boolean; toolExecutionNotifications?: unknown[] }[];
  [key: string]: unknown;
}

/** Merges JSON reports; files keep the order of the reports, then their own order. */
export function mergeJsonReports(reports: readonly JsonLintReport[]): JsonLintReport {
  return {
    files: reports.flatMap((r) => r.files),
    errorCount: reports.reduce((n, r) => n + r.errorCount, 0),
    warningCount: reports.reduce((n, r) => n + r.warningCount, 0),
  };
}

/** Merges SARIF logs into one log with one run (the first run's tool and rules). */
export function mergeSarifLogs(logs: readonly { version: string; runs: SarifRun[] }[]): {
  $schema?: unknown;
  version: string;
  runs: SarifRun[];
} {
  const runs = logs.flatMap((l) => l.runs);
  const first = runs[0];
  if (first === undefined) return { version: '2.1.0', runs: [] };
  const artifacts: unknown[] = [];
  const results: unknown[] = [];
  const notifications: unknown[] = [];
  let successful = true;
  for (const run of runs) {
    const base = artifacts.length;
    artifacts.push(...(run.artifacts ?? []));
    for (const result of run.results ?? []) {
      // Artifact indices point into this run's list; shift them into the merged one.
      const copy = structuredClone(result);
      for (const loc of copy.locations ?? []) {
        const al = loc.physicalLocation?.artifactLocation;
        if (al !== undefined && typeof al.index === 'number') al.index += base;
      }
      results.push(copy);
    }
    for (const inv of run.invocations ?? []) {
      successful &&= inv.executionSuccessful;
      notifications.push(...(inv.toolExecutionNotifications ?? []));
    }
  }
  const merged: SarifRun = { ...first, artifacts, results: results as SarifRun['results'] };
  if (runs.some((r) => r.invocations !== undefined)) {
    merged.invocations = [
      { executionSuccessful: successful, toolExecutionNotifications: notifications },
    ];
  }
  const head = logs[0] as { $schema?: unknown };
  return {
    ...(head.$schema === undefined ? {} : { $schema: head.$schema }),
    version: '2.1.0',
    runs: [merged],
  };
}
