/**
 * Merging the reports of several shards (`--shard i/n`) into one: JSON
 * reports by joining their files and summing the counts, SARIF logs into one
 * run with artifact indices renumbered. Files come out in path order, the
 * order of a run over one folder or pattern, whatever order the shards are
 * given in; a file in two reports is an error (a report given twice would
 * count everything twice).
 */

/** Why reports cannot be merged. */
export class MergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MergeError';
  }
}

/** Code-unit order, as lint sorts the files of a folder or pattern. */
function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Throws when a name appears twice. */
function refuseRepeats(names: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new MergeError(`${name} is in more than one report`);
    seen.add(name);
  }
}

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

/** Merges JSON reports; files in path order. */
export function mergeJsonReports(reports: readonly JsonLintReport[]): JsonLintReport {
  const files = reports.flatMap((r) => r.files);
  refuseRepeats(files.map((f) => f.file));
  return {
    files: files.sort((a, b) => byPath(a.file, b.file)),
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
  // Artifacts in path order, and results in the order of their artifacts (stable: a file's
  // findings keep their order); results without an artifact index go last.
  const uriOf = (a: unknown): string => {
    const uri = (a as { location?: { uri?: unknown } }).location?.uri;
    if (typeof uri !== 'string') return '';
    try {
      return decodeURIComponent(uri);
    } catch {
      return uri;
    }
  };
  refuseRepeats(artifacts.map(uriOf).filter((u) => u !== ''));
  const order = artifacts
    .map((_, k) => k)
    .sort((a, b) => byPath(uriOf(artifacts[a]), uriOf(artifacts[b])));
  const newIndex = new Map(order.map((old, k) => [old, k]));
  const indexOf = (r: unknown): number => {
    const i = (r as NonNullable<SarifRun['results']>[number]).locations?.[0]?.physicalLocation
      ?.artifactLocation?.index;
    return typeof i === 'number' ? i : Number.MAX_SAFE_INTEGER;
  };
  for (const r of results as NonNullable<SarifRun['results']>) {
    for (const loc of r.locations ?? []) {
      const al = loc.physicalLocation?.artifactLocation;
      if (al !== undefined && typeof al.index === 'number')
        al.index = newIndex.get(al.index) ?? al.index;
    }
  }
  results.sort((a, b) => indexOf(a) - indexOf(b));
  // Files that could not be read, in path order too, as one run over every file lists them.
  const noticeUri = (n: unknown): string =>
    uriOf({
      location: (n as { locations?: { physicalLocation?: { artifactLocation?: unknown } }[] })
        .locations?.[0]?.physicalLocation?.artifactLocation,
    });
  notifications.sort((a, b) => byPath(noticeUri(a), noticeUri(b)));
  const merged: SarifRun = {
    ...first,
    artifacts: order.map((k) => artifacts[k]),
    results: results as SarifRun['results'],
  };
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
