/**
 * The errors a run throws: {@link RunError} for a run that started and
 * failed, {@link AgentConfigError} for a model that cannot be set up (before
 * any request), {@link ModelRequestError} for a request that failed after its
 * retries. None of them carries a request header or an API key.
 */
import type { RunPartial, RunStage } from './types.js';

/** A run that failed; `partial` holds what it completed, or is absent when nothing completed. */
export class RunError extends Error {
  /** Where the run failed. */
  readonly stage: RunStage;
  /** Resume-ready history through the last completed model turn, with usage and counts. */
  readonly partial?: RunPartial;
  readonly runId: string;
  readonly conversationId: string;

  constructor(
    stage: RunStage,
    message: string,
    ids: { runId: string; conversationId: string },
    partial?: RunPartial,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'RunError';
    this.stage = stage;
    this.runId = ids.runId;
    this.conversationId = ids.conversationId;
    if (partial !== undefined) this.partial = partial;
  }
}

/** A model that cannot be set up: an unknown provider, a missing API key variable, a bad option. */
export class AgentConfigError extends Error {
  /** The environment variable that should hold the API key, when that is the problem. */
  readonly variable?: string;

  constructor(message: string, variable?: string) {
    super(message);
    this.name = 'AgentConfigError';
    if (variable !== undefined) this.variable = variable;
  }
}

/** A model request that failed after its retries: the status and the provider's message, secrets removed. */
export class ModelRequestError extends Error {
  /** The HTTP status, when the server answered. */
  readonly status?: number;
  /**
   * `timeout`, `connection` (no answer, or an answer cut short), `aborted`,
   * `http` (the server reported an error) or `protocol` (an answer the
   * adapter cannot read: not JSON, or not a reply).
   */
  readonly kind: 'timeout' | 'connection' | 'aborted' | 'http' | 'protocol';

  constructor(kind: ModelRequestError['kind'], message: string, status?: number) {
    super(message);
    this.name = 'ModelRequestError';
    this.kind = kind;
    if (status !== undefined) this.status = status;
  }
}

/** Keys shorter than this are not looked for in text: a placeholder like "none" would match ordinary words. */
const MIN_SECRET_LENGTH = 8;

/** Replaces every occurrence of each secret in `text` (raw and JSON-escaped) with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1)])) {
      out = out.split(form).join('[redacted]');
    }
  }
  return out;
}
