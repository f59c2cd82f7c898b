/**
 * `--from auto` for Claude Code session logs: an array of session events (the lines of a session
 * JSONL file, joined by the caller), or a `{"loglines": [...]}` export. The first line of a file
 * alone tells a session file, so a bookkeeping line counts as an event too.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';

/** The events of a session value and the pointer of their list, or undefined for another shape. */
export function eventsOf(value: JsonValue): { events: JsonValue[]; base: string } | undefined {
  if (Array.isArray(value)) return { events: value, base: '' };
  if (isPlainObject(value) && Array.isArray(value.loglines)) {
    return { events: value.loglines, base: '/loglines' };
  }
  return undefined;
}

/**
 * A session event: a `type`, an identity (`uuid` or `sessionId`) and an
 * object `message` or a `parentUuid`; or one of the bookkeeping lines a session
 * file may start with (a summary, a file-history snapshot, a queue
 * operation), so that the first line alone tells a session file.
 */
export function isSessionEvent(e: JsonValue): boolean {
  if (!isPlainObject(e) || typeof e.type !== 'string') return false;
  // A message is an object (`{role, content}`): an application log's text `message` is not one.
  if (('uuid' in e || 'sessionId' in e) && (isPlainObject(e.message) || 'parentUuid' in e))
    return true;
  switch (e.type) {
    case 'summary':
      return typeof e.summary === 'string' && 'leafUuid' in e;
    case 'file-history-snapshot':
      return 'messageId' in e && 'snapshot' in e;
    case 'queue-operation':
      return 'operation' in e && 'sessionId' in e;
    default:
      return false;
  }
}

/** A user or assistant event with an object `message`: one that makes the conversation. */
export function isMessageEvent(e: JsonValue | undefined): e is JsonObject {
  return (
    isPlainObject(e) && (e.type === 'user' || e.type === 'assistant') && isPlainObject(e.message)
  );
}

/** True when `value` looks like a Claude Code session (events) or a loglines export. */
export function detectClaudeCode(value: JsonValue): boolean {
  const found = eventsOf(value);
  if (found === undefined) return false;
  // Messages of other formats have a top-level role; events never do.
  if (found.events.some((e) => isPlainObject(e) && 'role' in e)) return false;
  if (found.base === '/loglines') return found.events.some(isMessageEvent);
  return found.events.some(isSessionEvent);
}
