/**
 * Detection of a Google ADK `Session` (as `Session.model_dump_json()` writes it, snake_case, or by
 * alias, camelCase): an object with a string `id`, the app's and the user's names and a list of
 * `events`, each an object with a string `author`. No other format names an app and a user.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';

/** True when `value` is an ADK session (one without events too: its fields say what it is). */
export function detectAdk(value: JsonValue): value is JsonObject {
  if (!isPlainObject(value) || typeof value.id !== 'string' || !Array.isArray(value.events))
    return false;
  const named =
    (typeof value.app_name === 'string' && typeof value.user_id === 'string') ||
    (typeof value.appName === 'string' && typeof value.userId === 'string');
  return named && value.events.every((e) => isPlainObject(e) && typeof e.author === 'string');
}
