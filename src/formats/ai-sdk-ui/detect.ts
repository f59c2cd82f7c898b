/**
 * `--from auto` for the AI SDK `UIMessage[]`: a UIMessage has `id`, `role` and
 * `parts` like a v1 message, and shares v1's `text` and `reasoning` parts, so a
 * history is this format only when something in it only a UIMessage has, and
 * nothing only v1 has. A text-only `[{"id", "role", "parts"}]` means the same in
 * both and is v1's.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';

/** The roles of a UIMessage (it has no `tool` role: results live on the call's part). */
const UI_ROLES = new Set(['system', 'user', 'assistant']);

/** Part types only a UIMessage has (besides `tool-<name>` and `data-<name>`). */
const UI_ONLY_TYPES = new Set([
  'file',
  'source-url',
  'source-document',
  'step-start',
  'dynamic-tool',
]);

/** True for a tool part's type: `dynamic-tool`, or `tool-<name>`. */
export function isToolPartType(type: string): boolean {
  return type === 'dynamic-tool' || (type.startsWith('tool-') && type.length > 'tool-'.length);
}

/** True when a part has what only a UIMessage part has. */
function isUiOnlyPart(p: JsonObject, type: string): boolean {
  if (UI_ONLY_TYPES.has(type) || type.startsWith('data-')) return true;
  // A tool part's fields; text and reasoning parts have a `state` and `providerMetadata` too.
  for (const key of ['toolCallId', 'state', 'providerMetadata'])
    if (Object.hasOwn(p, key)) return true;
  // v1's own part types start so too.
  return isToolPartType(type) && type !== 'tool-call' && type !== 'tool-result';
}

/** True when a part is v1's: its media and tool parts, or kept data (`providerData`). */
function isV1OnlyPart(p: JsonObject, type: string): boolean {
  if (Object.hasOwn(p, 'providerData')) return true;
  if (type === 'image' || type === 'document') return true;
  return (type === 'tool-call' || type === 'tool-result') && !Object.hasOwn(p, 'toolCallId');
}

/**
 * True when `value` is a UIMessage array (or a body holding one as `messages`, as `useChat`
 * posts it) with at least one UIMessage-only feature: a part of type `file`, `source-url`,
 * `source-document`, `step-start`, `tool-<name>`, `dynamic-tool` or `data-<name>`; a part with
 * `toolCallId`, `state` or `providerMetadata`; a message with `metadata`.
 */
export function detectAiSdkUi(value: JsonValue): boolean {
  let messages: JsonValue | undefined;
  if (Array.isArray(value)) messages = value;
  else if (isPlainObject(value) && !Object.hasOwn(value, 'version')) messages = value.messages;
  if (!Array.isArray(messages)) return false;
  let marked = false;
  for (const m of messages) {
    if (!isPlainObject(m) || typeof m.role !== 'string' || !UI_ROLES.has(m.role)) return false;
    // v4 UIMessages had `content` beside `parts` (and other part shapes); v1 keeps `providerData`.
    if (!Array.isArray(m.parts) || Object.hasOwn(m, 'content') || Object.hasOwn(m, 'providerData'))
      return false;
    if (Object.hasOwn(m, 'metadata')) marked = true;
    for (const p of m.parts) {
      if (!isPlainObject(p) || typeof p.type !== 'string') return false;
      if (isV1OnlyPart(p, p.type)) return false;
      if (!marked && isUiOnlyPart(p, p.type)) marked = true;
    }
  }
  return marked;
}
