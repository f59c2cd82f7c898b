/**
 * Detection of LangChain message dicts (`messages_to_dict` of langchain_core.messages): a bare
 * list, or an object with `messages`, every item `{"type": <message type>, "data": {...}}` with no
 * `role`. No other format's messages have a LangChain type beside an object `data`.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { historyList } from '../kit/envelope.js';
import { isPlainObject } from '../kit/kept.js';
import { MESSAGE_TYPES } from './hints.js';

/** One LangChain message dict: a LangChain `type` and an object `data`. */
export type LangChainMessage = JsonObject & { type: string; data: JsonObject };

/** True for a LangChain message dict. */
export function isLangChainMessage(m: JsonValue | undefined): m is LangChainMessage {
  return (
    isPlainObject(m) &&
    typeof m.type === 'string' &&
    MESSAGE_TYPES.has(m.type) &&
    isPlainObject(m.data) &&
    !('role' in m)
  );
}

/** True when `value` is a non-empty list of LangChain message dicts, bare or under `messages`. */
export function detectLangChain(value: JsonValue): boolean {
  const list = historyList(value, 'messages');
  return list !== undefined && list.length > 0 && list.every(isLangChainMessage);
}
