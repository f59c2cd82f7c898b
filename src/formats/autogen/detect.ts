/**
 * Detection of an AutoGen message list (autogen-core `LLMMessage`s, as a model context or an
 * agent's state stores them): a bare array, or an object with `messages`, every message an object
 * with one of AutoGen's four `type`s and no `role` (no other format's messages have both).
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { historyList } from '../kit/envelope.js';
import { isPlainObject } from '../kit/kept.js';

/** AutoGen's message types. */
export const MESSAGE_TYPES: ReadonlySet<string> = new Set([
  'SystemMessage',
  'UserMessage',
  'AssistantMessage',
  'FunctionExecutionResultMessage',
]);

/** True for an AutoGen message. */
export function isAutoGenMessage(m: JsonValue | undefined): m is JsonObject {
  return (
    isPlainObject(m) && typeof m.type === 'string' && MESSAGE_TYPES.has(m.type) && !('role' in m)
  );
}

/** True when `value` looks like an AutoGen message list (an empty one is anyone's). */
export function detectAutoGen(value: JsonValue): boolean {
  const list = historyList(value, 'messages');
  return list !== undefined && list.length > 0 && list.every(isAutoGenMessage);
}
