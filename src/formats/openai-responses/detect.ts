/**
 * `--from auto` for the OpenAI Responses API: a body with an `input` list (or string), or a bare
 * array of input items holding at least one item only Responses has (a bare array of `{role,
 * content}` is OpenAI chat's too).
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';

/** Item types of `ResponseInputItem` (openai 6.x) and of the output items a client replays. */
const ITEM_TYPES = new Set([
  'message',
  'function_call',
  'function_call_output',
  'reasoning',
  'custom_tool_call',
  'custom_tool_call_output',
  'item_reference',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'tool_search_call',
  'tool_search_output',
  'additional_tools',
  'compaction',
]);

/** Roles of a message item, and the v1 role each becomes. */
export const MESSAGE_ROLES: ReadonlyMap<string, 'user' | 'assistant' | 'system'> = new Map<
  string,
  'user' | 'assistant' | 'system'
>([
  ['user', 'user'],
  ['assistant', 'assistant'],
  ['system', 'system'],
  ['developer', 'system'],
]);

/** True for a content part type of the Responses API (message content and function output arrays). */
export function isContentType(type: string): boolean {
  return type.startsWith('input_') || type.startsWith('output_') || type === 'refusal';
}

/** True when an item is a message item: a known role and string or Responses-part content. */
function isMessageLike(item: JsonObject): boolean {
  if (typeof item.role !== 'string' || !MESSAGE_ROLES.has(item.role)) return false;
  const content = item.content;
  if (typeof content === 'string') return true;
  if (!Array.isArray(content)) return false;
  // A part without a type (rejected by the API, reported by lint) is read beside typed ones.
  const typed = (p: JsonValue): boolean =>
    isPlainObject(p) && typeof p.type === 'string' && isContentType(p.type);
  return (
    content.every((p) => typed(p) || (isPlainObject(p) && !Object.hasOwn(p, 'type'))) &&
    (content.length === 0 || content.some(typed))
  );
}

/** Block and event types of other formats that a bare array of items must not hold. */
const FOREIGN_TYPES = new Set([
  'text',
  'image',
  'document',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'user',
  'assistant',
  'system',
  'summary',
]);

/** True when `item` looks like a Responses input item: a snake_case `type`, or a message. */
function isItemLike(item: JsonValue, bare: boolean): boolean {
  if (!isPlainObject(item) || Object.hasOwn(item, 'parts')) return false;
  const type = item.type;
  if (type === undefined || type === 'message') return isMessageLike(item);
  if (typeof type !== 'string' || !/^[a-z][a-z0-9_]*$/.test(type)) return false;
  return !bare || !FOREIGN_TYPES.has(type);
}

/** True when an item can only be Responses: a known item type, or content parts of Responses types. */
function isDistinctive(item: JsonValue): boolean {
  if (!isPlainObject(item)) return false;
  if (typeof item.type === 'string') {
    return ITEM_TYPES.has(item.type) || /_(call|output)$/.test(item.type);
  }
  return Array.isArray(item.content) && item.content.length > 0;
}

/** True when `value` looks like a Responses request body or a bare array of input items. */
export function detectResponses(value: JsonValue): boolean {
  if (Array.isArray(value)) {
    // A bare array of {role, content: string} is OpenAI chat's too: ask for one Responses-only item.
    return value.length > 0 && value.every((i) => isItemLike(i, true)) && value.some(isDistinctive);
  }
  if (!isPlainObject(value)) return false;
  if ('messages' in value || 'contents' in value) return false;
  const input = value.input;
  // `input` as a string is one user message (the API takes it so).
  if (typeof input === 'string') return true;
  if (!Array.isArray(input)) return false;
  // No other format has `input`: an empty list (what an empty history is written as) is Responses'.
  if (input.length === 0) return true;
  return input.every((i) => isItemLike(i, false));
}
