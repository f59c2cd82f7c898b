/**
 * `--from auto` for the AI SDK `ModelMessage[]`: plain role/content messages are OpenAI Chat's
 * too (and read as such), so a history is this format only when every message is a ModelMessage
 * and one of them uses something only the AI SDK has (`providerOptions`, a tool-call part with a
 * `toolCallId`, a reasoning part, an `image` part, ...).
 */
import type { JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';

const AI_ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** Every content part type of a ModelMessage (v4 to v6). */
const AI_PART_TYPES = new Set([
  'text',
  'image',
  'file',
  'reasoning',
  'redacted-reasoning',
  'reasoning-file',
  'tool-call',
  'tool-result',
  'tool-approval-request',
  'tool-approval-response',
  'custom',
]);

/** True when `p` is a ModelMessage content part (with the fields that make each type unambiguous). */
function isAiPart(p: JsonValue): boolean {
  if (!isPlainObject(p) || typeof p.type !== 'string' || !AI_PART_TYPES.has(p.type)) return false;
  switch (p.type) {
    case 'image':
      return Object.hasOwn(p, 'image');
    case 'file':
      return Object.hasOwn(p, 'data');
    case 'tool-call':
    case 'tool-result':
      return typeof p.toolCallId === 'string';
    default:
      return true;
  }
}

/** True when a part or message uses something only the AI SDK has. */
function isAiOnlyPart(p: JsonValue): boolean {
  if (!isPlainObject(p)) return false;
  if (Object.hasOwn(p, 'providerOptions')) return true;
  switch (p.type) {
    case 'tool-call':
    case 'tool-result':
      return typeof p.toolCallId === 'string';
    case 'reasoning':
    case 'redacted-reasoning':
    case 'tool-approval-request':
    case 'tool-approval-response':
      return true;
    case 'image':
      return Object.hasOwn(p, 'image');
    case 'file':
      return (
        Object.hasOwn(p, 'data') && (Object.hasOwn(p, 'mediaType') || Object.hasOwn(p, 'mimeType'))
      );
    default:
      return false;
  }
}

/** True when `m` is a ModelMessage (and not a v1, UIMessage or OpenAI Chat one). */
function isAiMessage(m: JsonValue): boolean {
  if (!isPlainObject(m) || typeof m.role !== 'string' || !AI_ROLES.has(m.role)) return false;
  // UIMessages and v1 have `parts`; OpenAI Chat has `tool_calls` / `tool_call_id`.
  for (const k of ['parts', 'type', 'tool_calls', 'tool_call_id', 'function_call']) {
    if (Object.hasOwn(m, k)) return false;
  }
  if (typeof m.content === 'string') return m.role !== 'tool';
  return m.role !== 'system' && Array.isArray(m.content) && m.content.every(isAiPart);
}

/** True when `value` is a ModelMessage array (or call options holding one) with an AI SDK-only feature. */
export function detectAiSdk(value: JsonValue): boolean {
  const messages = Array.isArray(value) ? value : isPlainObject(value) ? value.messages : undefined;
  if (!Array.isArray(messages) || messages.length === 0 || !messages.every(isAiMessage)) {
    return false;
  }
  // Plain role/content messages are read as OpenAI Chat; the AI SDK needs one of its own features.
  return messages.some(
    (m) =>
      isPlainObject(m) &&
      (Object.hasOwn(m, 'providerOptions') ||
        (Array.isArray(m.content) && m.content.some(isAiOnlyPart))),
  );
}
