/**
 * Detection of AWS Bedrock Converse requests: messages whose content blocks are keyed by their
 * kind (`{text}`, `{toolUse: {...}}`), without `type`, in a request body or a bare array.
 */
import type { JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';
import { BLOCK_KINDS, kindOf, SYSTEM_KINDS } from './blocks.js';

/** Why a messages array is not Bedrock, or null; `found` learns whether any block occurs. */
function messagesProblem(messages: JsonValue[], found: { blocks: boolean }): string | null {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isPlainObject(m)) return `message ${i} is not an object`;
    if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'system') {
      return `message ${i} has role ${JSON.stringify(m.role)}`;
    }
    if (['parts', 'tool_calls', 'tool_call_id', 'function_call'].some((k) => Object.hasOwn(m, k))) {
      return `message ${i} has a field of another format`;
    }
    if (!Array.isArray(m.content)) return `message ${i} has no "content" array`;
    for (const b of m.content) {
      if (!isPlainObject(b) || Object.hasOwn(b, 'type') || kindOf(b, BLOCK_KINDS) === undefined) {
        return `message ${i} has a content block that is not a Converse block`;
      }
      found.blocks = true;
    }
  }
  return null;
}

/** True for a Converse `system` list: blocks keyed by text, cachePoint or guardContent. */
function isSystemList(system: JsonValue | undefined): boolean {
  return (
    Array.isArray(system) &&
    system.every(
      (b) => isPlainObject(b) && !Object.hasOwn(b, 'type') && kindOf(b, SYSTEM_KINDS) !== undefined,
    )
  );
}

/** True when `value` is a Bedrock Converse request body or a bare array of Converse messages. */
export function isBedrock(value: JsonValue): boolean {
  const found = { blocks: false };
  if (Array.isArray(value)) {
    return value.length > 0 && messagesProblem(value, found) === null && found.blocks;
  }
  if (!isPlainObject(value)) return false;
  if (['input', 'contents', 'version'].some((k) => Object.hasOwn(value, k))) return false;
  const messages = value.messages;
  if (!Array.isArray(messages) || messagesProblem(messages, found) !== null) return false;
  if (value.system !== undefined && !isSystemList(value.system)) return false;
  if (found.blocks) return true;
  // No block to go by: a system list of Converse blocks with no messages (what a history of a
  // system prompt alone is written as), or with the Converse request fields.
  return (
    isSystemList(value.system) &&
    (messages.length === 0 ||
      ['inferenceConfig', 'toolConfig', 'modelId'].some((k) => Object.hasOwn(value, k)))
  );
}
