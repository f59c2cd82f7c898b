/**
 * Turns what an SDK throws into a {@link ModelRequestError}: the kind, the
 * status and the provider's message, one line, with every secret removed.
 * Request headers, response headers and the SDK error object itself are
 * never kept, so nothing downstream can print them.
 */
import { ModelRequestError, redactSecrets } from './errors.js';
import { BodyTimeoutError } from './fetch.js';

/** The error classes both official SDKs export. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
}

/** The longest provider message shown. */
const MAX_MESSAGE = 500;

/**
 * The first line of a provider's text, cut to MAX_MESSAGE. The secrets go first: cut first, a key
 * that straddled the cut would keep all but its tail, and nothing would match it whole.
 */
function firstLine(text: string, secrets: readonly string[]): string {
  const line = redactSecrets(text.split('\n')[0]!, secrets).trim();
  return line.length > MAX_MESSAGE ? line.slice(0, MAX_MESSAGE) + '…' : line;
}

function causeText(error: Error, secrets: readonly string[]): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message !== '') {
    const inner = (cause as { cause?: unknown }).cause;
    const code = inner instanceof Error ? ` (${firstLine(inner.message, secrets)})` : '';
    return firstLine(cause.message, secrets) + code;
  }
  return firstLine(error.message, secrets);
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
    return new ModelRequestError(
      'connection',
      clean(`connection error: ${causeText(error, secrets)}`),
    );
  }
  if (error instanceof classes.APIError) {
    const status = (error as { status?: unknown }).status;
    if (typeof status !== 'number') {
      // An error the server reported inside a 200: a stream's error event, or an error object.
      return new ModelRequestError(
        'http',
        clean(`the server reported an error: ${reportedError(error, secrets)}`),
      );
    }
    // "STATUS type: message" from the error body both SDKs keep, else the SDK's own text.
    const detail = errorObjectText((error as { error?: unknown }).error, secrets);
    return new ModelRequestError(
      'http',
      clean(detail === undefined ? firstLine(error.message, secrets) : `${status} ${detail}`),
      status,
    );
  }
  if (error instanceof BodyTimeoutError) {
    return new ModelRequestError(
      'timeout',
      `request timed out after ${timeoutMs / 1000}s: the reply stopped arriving`,
    );
  }
  if (error instanceof SyntaxError) {
    // V8's message quotes the start of the body, cut short: a key there would show in part.
    return new ModelRequestError('protocol', 'the server sent a reply that is not JSON');
  }
  // A stream or body cut short, or a reply the adapter could not read.
  const text = error instanceof Error ? causeText(error, secrets) : String(error);
  if (error instanceof TypeError && error.message === 'terminated') {
    return new ModelRequestError(
      'connection',
      clean(`the connection broke off mid-reply: ${text}`),
    );
  }
  return new ModelRequestError('connection', clean(text === '' ? 'request failed' : text));
}

/** The type and message of an error object a server sent with a 200. */
function reportedError(error: Error, secrets: readonly string[]): string {
  // The SDKs keep the parsed body (Anthropic) or its `error` member (OpenAI) as `error`.
  return (
    errorObjectText((error as { error?: unknown }).error, secrets) ??
    firstLine(error.message, secrets)
  );
}

/** `type: message` of an error object (`{type, message}`, or a body holding one as `error`). */
function errorObjectText(value: unknown, secrets: readonly string[]): string | undefined {
  const inner =
    typeof value === 'object' && value !== null && 'error' in value
      ? (value as { error: unknown }).error
      : value;
  if (typeof inner !== 'object' || inner === null) return undefined;
  const { type, message } = inner as { type?: unknown; message?: unknown };
  if (typeof message !== 'string' || message === '') return undefined;
  return firstLine(
    typeof type === 'string' && type !== '' ? `${type}: ${message}` : message,
    secrets,
  );
}

/** The error for a 200 whose body is not a reply: the error it holds, if any. */
export function notAReply(body: unknown, secrets: readonly string[]): ModelRequestError {
  const reported =
    typeof body === 'object' && body !== null && 'error' in body
      ? errorObjectText(body, secrets)
      : undefined;
  return new ModelRequestError(
    'protocol',
    redactSecrets(
      reported === undefined
        ? 'the server answered without a reply message'
        : `the server reported an error: ${reported}`,
      secrets,
    ),
  );
}
