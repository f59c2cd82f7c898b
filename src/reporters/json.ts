/**
 * The `json` reporter: SPEC §5.3's shape, every file listed.
 */
import type { Reporter } from './types.js';

/** Renders results as the SPEC's JSON report. */
export const jsonReporter: Reporter = (results) =>
  JSON.stringify(
    {
      files: results.files.map((f) =>
        f.error === undefined
          ? { file: f.file, findings: f.findings }
          : { file: f.file, findings: f.findings, error: f.error },
      ),
      errorCount: results.errorCount,
      warningCount: results.warningCount,
    },
    null,
    2,
  ) + '\n';
