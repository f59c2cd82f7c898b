/**
 * `--from auto` for OpenAI Codex CLI rollouts: the lines of a rollout JSONL file as one array (the
 * caller joins them), each `{timestamp, type, payload}` with a rollout line type; or an older
 * rollout, whose first line is the session meta `{id, timestamp, instructions}` and whose other
 * lines are Responses items written as they are and `{"record_type": "state"}` lines. The first
 * line alone tells a rollout (`detect([first])`), which is how the CLI picks the format of a JSONL
 * file.
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

/** The keys the session meta line of an older rollout holds (`git` only inside a repository). */
const LEGACY_META_KEYS: ReadonlySet<string> = new Set(['id', 'timestamp', 'instructions', 'git']);

/** A session id as Codex writes it: a UUID. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The first line of an older rollout: a UUID `id`, a string `timestamp`, the `instructions`
 * (a string or null; the earliest writer left the key out when there were none) and `git` (an
 * object), and no other key.
 */
export function isLegacyMetaLine(e: JsonValue | undefined): e is JsonObject {
  if (!isPlainObject(e)) return false;
  if (typeof e.id !== 'string' || !SESSION_ID.test(e.id) || typeof e.timestamp !== 'string')
    return false;
  if (!Object.keys(e).every((k) => LEGACY_META_KEYS.has(k))) return false;
  const instructions = e.instructions;
  if (instructions !== undefined && instructions !== null && typeof instructions !== 'string')
    return false;
  return e.git === undefined || isPlainObject(e.git);
}

/** A state line of an older rollout (`{"record_type": "state", ...}`): no item. */
export function isStateLine(e: JsonValue | undefined): e is JsonObject {
  return isPlainObject(e) && e.record_type === 'state';
}

/** An item line of an older rollout: a Responses item as it is (a `type`, no record type). */
export function isLegacyItemLine(e: JsonValue | undefined): e is JsonObject {
  return (
    isPlainObject(e) &&
    typeof e.type === 'string' &&
    !Object.hasOwn(e, 'record_type') &&
    !isRolloutLine(e)
  );
}

/** An older rollout: its meta line, then item and state lines. */
export function isLegacyRollout(value: readonly JsonValue[]): boolean {
  return (
    isLegacyMetaLine(value[0]) &&
    value.every((e, i) => i === 0 || isStateLine(e) || isLegacyItemLine(e))
  );
}

/**
 * True when `value` is a rollout: a non-empty array of rollout lines, or an older rollout. No
 * other format has the `{timestamp, type, payload}` envelope with these types (a Claude Code event
 * has `uuid` or `sessionId` and no `payload`; a Responses item has no `payload`), nor a first
 * line of only a UUID `id`, a `timestamp`, `instructions` and `git` (a bare array of Responses
 * items starts with an item, which has a `type`).
 */
export function detectCodexCli(value: JsonValue): boolean {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    (value.every(isRolloutLine) || isLegacyRollout(value))
  );
}
