/**
 * `--from auto` for GitHub Copilot CLI session event logs (`~/.copilot/session-state/`): the lines
 * of the JSONL file as one array (the caller joins them), each `{type, data, id, timestamp,
 * parentId}` with a dotted event type (`session.start`, `user.message`, …). The first line alone
 * tells a session (`detect([first])`), which is how the CLI picks the format of a JSONL file.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';

/** An event type: a namespace and a name, dotted (`tool.execution_complete`). */
const EVENT_TYPE = /^[a-z][a-z_]*(?:\.[a-z][a-z_]*)+$/;

/**
 * A session event: a dotted `type`, an object `data`, a string `id` and `timestamp`, and a
 * `parentId` that is a string or null (the first event's). No other format has this envelope: a
 * Claude Code event has `uuid` and `parentUuid`, a Codex CLI line a `payload`, a UI message
 * stream chunk no `timestamp`.
 */
export function isCopilotEvent(e: JsonValue | undefined): e is JsonObject & { data: JsonObject } {
  return (
    isPlainObject(e) &&
    typeof e.type === 'string' &&
    EVENT_TYPE.test(e.type) &&
    isPlainObject(e.data) &&
    typeof e.id === 'string' &&
    typeof e.timestamp === 'string' &&
    (typeof e.parentId === 'string' || e.parentId === null)
  );
}

/** True when `value` is a Copilot CLI session: a non-empty array of session events. */
export function detectCopilotCli(value: JsonValue): boolean {
  return Array.isArray(value) && value.length > 0 && value.every(isCopilotEvent);
}
