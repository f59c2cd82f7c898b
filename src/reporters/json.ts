/**
 * The `json` reporter: SPEC §5.3's shape, every file listed, each with the
 * provider target its conversations were checked against.
 */
import type { FileResult } from '../lint/engine.js';
import type { Reporter } from './types.js';

/**
 * A file's `target`: the provider its conversations were checked against, `null` for none (or
 * when none could be read), and a list in the rare JSONL file whose lines were read as formats
 * of different providers.
 */
export function reportedTarget(
  targets: readonly (string | null)[],
): string | null | (string | null)[] {
  return targets.length === 0 ? null : targets.length === 1 ? targets[0]! : [...targets];
}

function entry(f: FileResult): Record<string, unknown> {
  const out: Record<string, unknown> = { file: f.file };
  if (f.targets !== undefined) out.target = reportedTarget(f.targets);
  out.findings = f.findings;
  if (f.error !== undefined) out.error = f.error;
  return out;
}

/** Renders results as the SPEC's JSON report. */
export const jsonReporter: Reporter = (results) =>
  JSON.stringify(
    {
      files: results.files.map(entry),
      errorCount: results.errorCount,
      warningCount: results.warningCount,
    },
    null,
    2,
  ) + '\n';
