/**
 * What reporters receive and return: lint results in, text out. Reporters
 * are pure; the CLI writes what they return.
 */
import type { FileResult } from '../lint/engine.js';
import type { RuleMeta } from '../rules/rule.js';

/** The results of one lint run. */
export interface LintResults {
  files: FileResult[];
  errorCount: number;
  warningCount: number;
}

/** What a reporter may use besides the results. */
export interface ReporterContext {
  /** Colors on (stylish only). */
  color: boolean;
  /** Every rule's metadata (SARIF lists them all). */
  rules: readonly RuleMeta[];
  /** The docs URL of a rule. */
  docsUrl(id: string): string;
  /** histlint's version. */
  version: string;
  /**
   * File names are Windows paths: `C:/…` or `C:\…` is a drive, and `\` separates folders. Elsewhere
   * `c:` is an ordinary folder name. Default: false.
   */
  windows?: boolean;
}

/** A reporter. */
export type Reporter = (results: LintResults, ctx: ReporterContext) => string;
