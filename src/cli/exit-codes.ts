/**
 * Exit codes (SPEC §5.2). With several files the highest of 0, 1, 2 wins.
 */

/** Done; nothing to report. */
export const EXIT_OK = 0;
/** Lint errors, `--check` found changes, or an operation refused a file. */
export const EXIT_FINDINGS = 1;
/** Usage error, unreadable file, invalid config, input that is not a conversation, or output that could not be written. */
export const EXIT_USAGE = 2;
/** `run` failed. */
export const EXIT_RUN_FAILED = 3;
/** Interrupted (Ctrl-C). */
export const EXIT_INTERRUPTED = 130;
/** Terminated (SIGTERM), with the guarantees of {@link EXIT_INTERRUPTED}. */
export const EXIT_TERMINATED = 143;

/** The signals that stop a run between files. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** The reason a signal aborts a run with: an AbortError (what the SDKs expect of an abort) that names the signal. */
export class Interruption extends Error {
  constructor(readonly signal: StopSignal) {
    super(`interrupted (${signal})`);
    this.name = 'AbortError';
  }
}

/** The exit code of a run a signal stopped: 143 when `signal` was aborted for SIGTERM, else 130. */
export function interruptedExit(signal: AbortSignal | undefined): number {
  const reason = signal?.reason as { signal?: unknown } | undefined;
  return reason?.signal === 'SIGTERM' ? EXIT_TERMINATED : EXIT_INTERRUPTED;
}

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
