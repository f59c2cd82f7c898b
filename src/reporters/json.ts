/**
 * The `json` reporter: SPEC §5.3's shape, every file listed, each with the
 * provider target its conversations were checked against; each finding also
 * says where its rule's page is (`docsUrl`) and whether `--fix` would fix it.
 */
import type { FileResult, Finding } from '../lint/engine.js';
import { ruleById } from '../rules/index.js';
import type { Reporter, ReporterContext } from './types.js';

/**
 * True when `--fix` would fix the finding: its rule is fixable and the file's format can be
 * written (a Claude Code session is read only).
 */
export function isFixable(finding: Finding, file: FileResult): boolean {
  return file.readOnly === undefined && Boolean(ruleById(finding.ruleId)?.meta.fixable);
}

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

function entry(f: FileResult, ctx: ReporterContext): Record<string, unknown> {
  const out: Record<string, unknown> = { file: f.file };
  if (f.targets !== undefined) out.target = reportedTarget(f.targets);
  out.findings = f.findings.map((finding) => ({
    ...finding,
    docsUrl: ctx.docsUrl(finding.ruleId),
    fixable: isFixable(finding, f),
  }));
  if (f.error !== undefined) out.error = f.error;
  return out;
}

/** Renders results as the SPEC's JSON report. */
export const jsonReporter: Reporter = (results, ctx) =>
  JSON.stringify(
    {
      files: results.files.map((f) => entry(f, ctx)),
      errorCount: results.errorCount,
      warningCount: results.warningCount,
    },
    null,
    2,
  ) + '\n';
