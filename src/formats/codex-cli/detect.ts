/**
 * `--from auto` for OpenAI Codex CLI rollouts: the lines of a rollout JSONL file as one array (the
 * caller joins them), each `{timestamp, type, payload}` with a rollout line type. The first line
 * alone tells a rollout (`detect([first])`), which is how the CLI picks the format of a JSONL file.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';

/** The line types a rollout holds (Codex's `RolloutItem`). */
export const LINE_TYPES: ReadonlySet<string> = new Set([
  'session_meta',
  'turn_context',
  'response_item',
  'event_msg',
  'compacted',
]);

/** A rollout line: a string `timestamp`, a rollout line `type` and an object `payload`. */
export function isRolloutLine(e: JsonValue | undefined): e is JsonObject & { payload: JsonObject } {
  return (
    isPlainObject(e) &&
    typeof e.timestamp === 'string' &&
    typeof e.type === 'string' &&
    LINE_TYPES.has(e.type) &&
    isPlainObject(e.payload)
  );
}

/** A `response_item` line: its payload is a Responses item, a part of the conversation. */
export function isResponseItemLine(
  e: JsonValue | undefined,
): e is JsonObject & { payload: JsonObject } {
  return isRolloutLine(e) && e.type === 'response_item';
}

/**
 * True when `value` is a rollout: a non-empty array of rollout lines. No other format has the
 * `{timestamp, type, payload}` envelope with these types (a Claude Code event has `uuid` or
 * `sessionId` and no `payload`; a Responses item has no `payload`).
 */
export function detectCodexCli(value: JsonValue): boolean {
  return Array.isArray(value) && value.length > 0 && value.every(isRolloutLine);
}
