/**
 * Detection of pydantic-ai `ModelMessage` JSON (`ModelMessagesTypeAdapter.dump_json`): a list of
 * `{kind: "request" | "response", parts: [{part_kind, ...}]}`. No other format has `part_kind`.
 */
import type { JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';

/** True when `m` is one pydantic-ai model message. */
export function isModelMessage(m: JsonValue): boolean {
  return (
    isPlainObject(m) &&
    (m.kind === 'request' || m.kind === 'response') &&
    Array.isArray(m.parts) &&
    m.parts.every((p) => isPlainObject(p) && typeof p.part_kind === 'string')
  );
}

/** True when `value` is a non-empty list of pydantic-ai model messages, one with a part. */
export function detectPydanticAi(value: JsonValue): boolean {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(isModelMessage) &&
    value.some((m) => isPlainObject(m) && Array.isArray(m.parts) && m.parts.length > 0)
  );
}
