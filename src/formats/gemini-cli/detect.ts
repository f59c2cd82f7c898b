/**
 * Detection of a Gemini CLI chat recording: the JSON file (`{sessionId, projectHash, startTime,
 * messages}`) or the lines of the JSONL form, whose first line is the header (`{sessionId,
 * projectHash, startTime, ...}`), so that line alone tells the file.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';

/** A recording's header: a session id and a project hash (no other format has both). */
export function isHeader(v: JsonValue | undefined): v is JsonObject {
  return isPlainObject(v) && typeof v.sessionId === 'string' && typeof v.projectHash === 'string';
}

/** A recorded message: a string `id` and `type` (a header or a `$set` line is none). */
export function isRecordedMessage(v: JsonValue | undefined): v is JsonObject {
  return isPlainObject(v) && typeof v.id === 'string' && typeof v.type === 'string';
}

/** True when `value` is a Gemini CLI recording (the JSON file, or the JSONL file's lines). */
export function detectGeminiCli(value: JsonValue): boolean {
  if (Array.isArray(value)) return isHeader(value[0]) && !('messages' in value[0]);
  return isHeader(value) && Array.isArray(value.messages);
}
