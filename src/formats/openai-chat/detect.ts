/**
 * Detection of OpenAI Chat Completions `messages`: a bare messages array or a request body
 * holding `messages`, told apart from the other formats' bare arrays and bodies (v1, Gemini,
 * Responses, Anthropic, Bedrock, the AI SDK).
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';

/** Roles a Chat Completions message may have (`function` is the deprecated one). */
const CHAT_ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/** Top-level keys of other formats' request bodies (Anthropic, Bedrock, Gemini, Responses, the v1 envelope), never of a Chat one. */
const FOREIGN_BODY_KEYS = [
  // The v1 envelope's version: a v1 file whose messages are broken is not a Chat history.
  'version',
  'system',
  'thinking',
  'mcp_servers',
  'output_config',
  'container',
  'context_management',
  'top_k',
  'stop_sequences',
  'anthropic_version',
  'anthropic_beta',
  'contents',
  'systemInstruction',
  'generationConfig',
  'input',
  'instructions',
  'previous_response_id',
  'toolConfig',
  'inferenceConfig',
  'additionalModelRequestFields',
];

/** Top-level keys only a Chat Completions body has: with one, `max_tokens` is not Anthropic's. */
const CHAT_BODY_KEYS = [
  'max_completion_tokens',
  'stream_options',
  'n',
  'response_format',
  'logprobs',
  'top_logprobs',
  'logit_bias',
  'frequency_penalty',
  'presence_penalty',
  'seed',
  'stop',
  'parallel_tool_calls',
  'functions',
  'function_call',
  'modalities',
  'audio',
  'prediction',
  'reasoning_effort',
  'verbosity',
  'web_search_options',
  'store',
  'user',
];

/**
 * True when `p` is a Chat Completions content part; with `untyped`, also an
 * object that lacks its `type` (OpenAI rejects it; it is read whole, and
 * lint reports it).
 */
function isChatPart(p: JsonValue, untyped = false): boolean {
  if (!isPlainObject(p) || Object.hasOwn(p, 'providerOptions')) return false;
  if (untyped && !Object.hasOwn(p, 'type')) return true;
  switch (p.type) {
    case 'text':
      return typeof p.text === 'string';
    case 'refusal':
      return typeof p.refusal === 'string';
    case 'image_url':
      return isPlainObject(p.image_url);
    case 'input_audio':
      return isPlainObject(p.input_audio);
    case 'file':
      return isPlainObject(p.file);
    default:
      return false;
  }
}

/**
 * True when `m` is a Chat Completions message (and not a v1, Gemini, Responses, Anthropic or AI
 * SDK one); with `untyped`, its content may hold parts without a `type`.
 */
function isChatMessage(m: JsonValue, untyped = false): boolean {
  if (!isPlainObject(m) || typeof m.role !== 'string' || !CHAT_ROLES.has(m.role)) return false;
  // v1 and Gemini have `parts`, Responses items a `type`, the AI SDK `providerOptions`.
  if (Object.hasOwn(m, 'parts') || Object.hasOwn(m, 'type') || Object.hasOwn(m, 'providerOptions'))
    return false;
  const c = m.content;
  // Only an assistant message may go without content (its tool calls say it all).
  if (c === undefined && m.role !== 'assistant') return false;
  if (c !== undefined && c !== null && typeof c !== 'string') {
    if (!Array.isArray(c) || !c.every((p) => isChatPart(p, untyped))) return false;
  }
  const calls = m.tool_calls;
  if (calls !== undefined) {
    if (!Array.isArray(calls)) return false;
    for (const t of calls) {
      if (!isPlainObject(t) || !(isPlainObject(t.function) || isPlainObject(t.custom)))
        return false;
    }
  }
  return true;
}

/** True when a message's content holds a Chat part with its type. */
function hasTypedPart(m: JsonValue): boolean {
  return isPlainObject(m) && Array.isArray(m.content) && m.content.some((p) => isChatPart(p));
}

/** True when a message uses something only Chat Completions has (a role, calls, null content, a part type). */
function hasChatFeature(m: JsonObject): boolean {
  if (m.role !== 'user' && m.role !== 'assistant') return true;
  if (Object.hasOwn(m, 'tool_calls') || Object.hasOwn(m, 'function_call') || m.content === null)
    return true;
  return Array.isArray(m.content) && m.content.some((p) => isPlainObject(p) && p.type !== 'text');
}

/** True when `value` is a Chat Completions messages array or request body. */
export function detectChat(value: JsonValue): boolean {
  let messages: JsonValue | undefined;
  if (Array.isArray(value)) messages = value;
  else if (isPlainObject(value)) {
    if (FOREIGN_BODY_KEYS.some((k) => Object.hasOwn(value, k))) return false;
    // Chat tools are {type: "function", function} or {type: "custom", custom}; Anthropic's and others' are not.
    const tools = value.tools;
    if (
      Array.isArray(tools) &&
      tools.some(
        (t) => !isPlainObject(t) || !(isPlainObject(t.function) || isPlainObject(t.custom)),
      )
    )
      return false;
    messages = value.messages;
  }
  if (!Array.isArray(messages) || messages.length === 0) return false;
  // Parts without a type are Chat's when the history has typed Chat parts too (a Bedrock block,
  // `{"text": ...}`, has no type either).
  if (
    !messages.every((m) => isChatMessage(m)) &&
    !(messages.every((m) => isChatMessage(m, true)) && messages.some(hasTypedPart))
  )
    return false;
  // Anthropic requires max_tokens; a text-only body with it and nothing OpenAI-only is read as Anthropic.
  if (isPlainObject(value) && Object.hasOwn(value, 'max_tokens')) {
    return (
      CHAT_BODY_KEYS.some((k) => Object.hasOwn(value, k)) ||
      (Array.isArray(value.tools) && value.tools.length > 0) ||
      messages.some((m) => hasChatFeature(m as JsonObject))
    );
  }
  return true;
}
