/**
 * Exit codes (SPEC §5.2). With several files the highest of 0, 1, 2 wins.
 */

/** Done; nothing to report. */
export const EXIT_OK = 0;
/** Lint errors, `--check` found changes, or an operation refused a file. */
export const EXIT_FINDINGS = 1;
/** Usage error, unreadable file, invalid config or input that is not a conversation. */
export const EXIT_USAGE = 2;
/** `run` failed. */
export const EXIT_RUN_FAILED = 3;
/** Interrupted (Ctrl-C). */
export const EXIT_INTERRUPTED = 130;

/** Combines per-file exit codes: the highest wins. */
export function worstExit(a: number, b: number): number {
  return Math.max(a, b);
}

/** A usage error: printed as one line, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
