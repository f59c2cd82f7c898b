/**
 * `--from auto` for v1: the envelope `{"version": 1, "messages": [...]}`, or a bare array or an
 * object whose messages have v1's shape (parts, not content).
 */
import type { JsonValue } from '../../model/json.js';
import { isObject, shapeProblem } from '../../model/types.js';

function messagesOf(value: JsonValue): JsonValue | undefined {
  if (Array.isArray(value)) return value;
  if (isObject(value)) return value.messages;
  return undefined;
}

/** Why `value` is not a v1 conversation, or null when it has the basic shape. */
export function nativeProblem(value: JsonValue): string | null {
  const messages = messagesOf(value);
  if (messages === undefined) {
    return Array.isArray(value) || isObject(value)
      ? 'no "messages" array'
      : `a JSON ${value === null ? 'null' : typeof value} is not a conversation`;
  }
  return shapeProblem(messages);
}

/**
 * True for `{"messages": [], "system": ...}` without a version: a request of a provider whose
 * system prompt is a field of its own (Anthropic, Bedrock), holding nothing else. Its empty
 * messages fit v1 too, but v1 has no `system` field: the provider formats read it.
 */
function isProviderSystemOnly(value: JsonValue): boolean {
  return (
    isObject(value) &&
    !Object.hasOwn(value, 'version') &&
    Array.isArray(value.messages) &&
    value.messages.length === 0 &&
    (typeof value.system === 'string' || Array.isArray(value.system))
  );
}

/** The value detect() last accepted; read() of the same object skips the shape scan. */
let lastDetected: JsonValue | undefined;

/** True when `value` is a v1 conversation (`--from auto`). */
export function detectNative(value: JsonValue): boolean {
  // An object counts only with the version envelope or v1-shaped messages (parts, not content).
  const ok = nativeProblem(value) === null && !isProviderSystemOnly(value);
  if (ok) lastDetected = value;
  return ok;
}

/**
 * Why `value` is not a v1 conversation, or null; null at once for the value detect() just
 * accepted (the usual order: no second scan of the same object).
 */
export function readProblem(value: JsonValue): string | null {
  return value === lastDetected ? null : nativeProblem(value);
}
