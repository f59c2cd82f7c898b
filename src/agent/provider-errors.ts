/**
 * Turns what an SDK throws into a {@link ModelRequestError}: the kind, the
 * status and the provider's message, one line, with every secret removed.
 * Request headers, response headers and the SDK error object itself are
 * never kept, so nothing downstream can print them.
 */
import { ModelRequestError, redactSecrets } from './errors.js';

/** The error classes both official SDKs export. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
}

/** The longest provider message shown. */
const MAX_MESSAGE = 500;

function firstLine(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > MAX_MESSAGE ? line.slice(0, MAX_MESSAGE) + '…' : line;
}

function causeText(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message !== '') {
    const inner = (cause as { cause?: unknown }).cause;
    const code = inner instanceof Error ? ` (${firstLine(inner.message)})` : '';
    return firstLine(cause.message) + code;
  }
  return firstLine(error.message);
}

/** A {@link ModelRequestError} for what an SDK call threw. */
export function toModelRequestError(
  error: unknown,
  classes: SdkErrorClasses,
  secrets: readonly string[],
  timeoutMs: number,
  signal?: AbortSignal,
): ModelRequestError {
  const clean = (s: string): string => redactSecrets(s, secrets);
  if (error instanceof ModelRequestError) return error;
  if (signal?.aborted || error instanceof classes.APIUserAbortError) {
    return new ModelRequestError('aborted', 'request aborted');
  }
  if (error instanceof classes.APIConnectionTimeoutError) {
    return new ModelRequestError('timeout', `request timed out after ${timeoutMs / 1000}s`);
  }
  if (error instanceof classes.APIConnectionError) {
    return new ModelRequestError('connection', clean(`connection error: ${causeText(error)}`));
  }
  if (error instanceof classes.APIError) {
    const status = (error as { status?: unknown }).status;
    return new ModelRequestError(
      'http',
      clean(firstLine(error.message)),
      typeof status === 'number' ? status : undefined,
    );
  }
  // A stream cut short, or a reply the adapter could not read.
  const text = error instanceof Error ? causeText(error) : String(error);
  return new ModelRequestError('connection', clean(text === '' ? 'request failed' : text));
}
