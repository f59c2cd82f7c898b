/**
 * Detection of Anthropic Messages requests: a request body with a `messages` array (and fields
 * only Anthropic has, or blocks only it uses), or a bare messages array with an Anthropic-only
 * block. The other block-turn formats (Bedrock, OpenAI chat with parts) are told apart here.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';

/** Block types only the Anthropic Messages API uses (`text` is shared with OpenAI chat parts). */
const ANTHROPIC_BLOCK_TYPES = new Set([
  'image',
  'document',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'server_tool_use',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
  'search_result',
  'tool_reference',
  'tool_addition',
]);

/** Content part types of other formats, whose presence means the value is not Anthropic. */
const FOREIGN_BLOCK_TYPES = new Set([
  'image_url',
  'input_audio',
  'file',
  'refusal',
  'input_text',
  'input_image',
  'input_file',
  'output_text',
  'tool-call',
  'tool-result',
  'reasoning',
  'function_call',
  'function_call_output',
]);

/** Message keys of other formats (OpenAI chat, v1, Gemini, AI SDK). */
const FOREIGN_MESSAGE_KEYS = [
  'parts',
  'tool_calls',
  'tool_call_id',
  'function_call',
  'providerOptions',
];

/** Why a messages array is not Anthropic, or null; `found` learns whether an Anthropic-only block occurs. */
function messagesProblem(messages: JsonValue[], found: { anthropic: boolean }): string | null {
  // A block without a type (rejected by the API, reported by lint) is read when typed blocks are
  // there too: a Bedrock block, `{"text": ...}`, has no type either.
  let untyped: number | undefined;
  let typed = false;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isPlainObject(m)) return `message ${i} is not an object`;
    if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'system') {
      return `message ${i} has role ${JSON.stringify(m.role)}`;
    }
    if (FOREIGN_MESSAGE_KEYS.some((k) => Object.hasOwn(m, k))) {
      return `message ${i} has a field of another format`;
    }
    const content = m.content;
    if (typeof content === 'string') continue;
    if (!Array.isArray(content)) return `message ${i} has no string or array "content"`;
    for (const b of content) {
      if (isPlainObject(b) && !Object.hasOwn(b, 'type')) {
        untyped ??= i;
        continue;
      }
      if (!isPlainObject(b) || typeof b.type !== 'string') {
        return `message ${i} has a content block without a string "type"`;
      }
      typed = true;
      if (FOREIGN_BLOCK_TYPES.has(b.type)) return `message ${i} has a "${b.type}" block`;
      // AI SDK parts: images and files by an `image`/`data` field, provider options.
      if ((b.type === 'image' || b.type === 'document') && !isPlainObject(b.source)) {
        return `message ${i} has an image or document without a source`;
      }
      if (Object.hasOwn(b, 'providerOptions')) return `message ${i} has a part of another format`;
      if (isAnthropicOnlyBlock(b)) found.anthropic = true;
    }
  }
  if (untyped !== undefined && !typed)
    return `message ${untyped} has a content block without a string "type"`;
  return null;
}

/** True for a block shape no other supported format uses. */
function isAnthropicOnlyBlock(b: JsonObject): boolean {
  const type = b.type as string;
  if (type === 'text') return Object.hasOwn(b, 'cache_control') || Object.hasOwn(b, 'citations');
  if (type === 'image' || type === 'document') return isPlainObject(b.source);
  if (ANTHROPIC_BLOCK_TYPES.has(type)) return true;
  // Server tool results: web_search_tool_result, bash_code_execution_tool_result, ...
  return type.endsWith('_tool_result') && typeof b.tool_use_id === 'string';
}

/** Request fields only the Anthropic Messages API has. */
const ANTHROPIC_REQUEST_FIELDS = [
  'anthropic_version',
  'anthropic_beta',
  'stop_sequences',
  'top_k',
  'mcp_servers',
  'container',
  'output_config',
  'context_management',
];

/** Request fields only OpenAI chat has. */
const OPENAI_REQUEST_FIELDS = [
  'max_completion_tokens',
  'n',
  'response_format',
  'frequency_penalty',
  'presence_penalty',
  'logprobs',
  'top_logprobs',
  'logit_bias',
  'seed',
  'stream_options',
  'parallel_tool_calls',
  'functions',
  'function_call',
  'reasoning_effort',
  'modalities',
  'audio',
  'prediction',
  'web_search_options',
];

/** True when a request body has request-level fields only Anthropic uses. */
function hasAnthropicRequestFields(body: JsonObject): boolean {
  if (ANTHROPIC_REQUEST_FIELDS.some((k) => Object.hasOwn(body, k))) return true;
  const system = body.system;
  const systemOk =
    typeof system === 'string' ||
    (Array.isArray(system) &&
      system.length > 0 &&
      system.every((b) => isPlainObject(b) && typeof b.type === 'string'));
  // No other supported format has a top-level `system` beside `messages` (Bedrock's is untyped blocks).
  if (systemOk) return true;
  // OpenAI nests a tool's name under `function`; Anthropic tools carry it at the top.
  const tools = body.tools;
  if (
    Array.isArray(tools) &&
    tools.some(
      (t) => isPlainObject(t) && typeof t.name === 'string' && !Object.hasOwn(t, 'function'),
    )
  ) {
    return true;
  }
  const choice = body.tool_choice;
  if (isPlainObject(choice) && ['auto', 'any', 'tool', 'none'].includes(choice.type as string)) {
    return true;
  }
  const thinking = body.thinking;
  return isPlainObject(thinking) && typeof thinking.type === 'string';
}

/**
 * True for a body that is Anthropic only by elimination: `max_tokens` (which
 * Anthropic requires), every message's content a string or a non-empty array
 * of typed blocks, and no field only OpenAI chat has (the Chat reader leaves
 * such a body to this one).
 */
function isTextBlockBody(body: JsonObject, messages: JsonValue[]): boolean {
  if (!Object.hasOwn(body, 'max_tokens')) return false;
  if (OPENAI_REQUEST_FIELDS.some((k) => Object.hasOwn(body, k))) return false;
  return (
    messages.length > 0 &&
    messages.every(
      (m) =>
        isPlainObject(m) &&
        (typeof m.content === 'string' || (Array.isArray(m.content) && m.content.length > 0)),
    )
  );
}

/** True when `value` is an Anthropic Messages request body or an unambiguous bare messages array. */
export function isAnthropic(value: JsonValue): boolean {
  const found = { anthropic: false };
  if (Array.isArray(value)) {
    return value.length > 0 && messagesProblem(value, found) === null && found.anthropic;
  }
  if (!isPlainObject(value)) return false;
  if (
    ['input', 'contents', 'version', 'inferenceConfig', 'toolConfig', 'modelId'].some((k) =>
      Object.hasOwn(value, k),
    )
  ) {
    return false;
  }
  const messages = value.messages;
  if (!Array.isArray(messages) || messagesProblem(messages, found) !== null) return false;
  return found.anthropic || hasAnthropicRequestFields(value) || isTextBlockBody(value, messages);
}
