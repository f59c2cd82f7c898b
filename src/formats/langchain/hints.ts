/**
 * What the `langchain` adapter keeps in `providerData.langchain`, and its hints. A message keeps
 * the fields of its `data` v1 has no place for (`additional_kwargs`, `response_metadata`, `id`,
 * `usage_metadata`, `artifact`, ...) under `data`, as the source nests them, and any other field
 * of the `{type, data}` object beside it; a part keeps its block's or tool call's other fields.
 * Also the shape `messages_to_dict` gives each message type, which the writer gives a message
 * and the reader measures the `$absent` hint against.
 */
import type { JsonValue } from '../../model/json.js';
import { BARE_HINT, KEYS_HINT } from '../kit/envelope.js';

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'langchain';

/** The hints, by the v1 object that carries them. */
export const HINTS = {
  /** Conversation: the value read was a bare list, not `{"messages": [...]}` (the kit's). */
  bare: BARE_HINT,
  /** Conversation: the body's key order, when the default write order would lose it (the kit's). */
  keys: KEYS_HINT,
  /**
   * Message: the source `type` when the v1 role gives another: `chat` (a ChatMessage, its role
   * the v1 role) or `function` (a FunctionMessage, read as a tool message).
   */
  type: '$type',
  /**
   * Message: a `chat` message's own role `developer` (OpenAI's system role), read as a v1 system
   * message and written back as it was. It is written only for a system message: kept data never
   * gives a message more authority than its v1 role.
   */
  role: '$role',
  /**
   * Message, tool call or media part: the keys of the shape `messages_to_dict` writes (see
   * {@link DATA_KEYS}) the source left out, so a write leaves them out too.
   */
  absent: '$absent',
  /**
   * Message or tool result: `list`, a content list that the default write would give as a
   * string (empty, or one plain text block).
   */
  content: '$content',
  /** Text part: a bare string item of a content list, not a `{type: "text"}` block. */
  string: '$string',
  /**
   * Image or document part: the block's shape when not the standard one with `source_type`:
   * `image_url` (OpenAI's `{type: "image_url", image_url: {url}}`) or `v1` (langchain-core 1's
   * `{type, url}` / `{type, base64, mime_type}`).
   */
  block: '$block',
  /**
   * Tool call: `string` (a tool call whose `args` was a string, not an object) or `json` (a JSON
   * value that was neither: kept as its JSON text).
   */
  args: '$args',
  /** Tool call: an entry of `invalid_tool_calls` (its `args` the raw text the model gave). */
  invalid: '$invalid',
  /** Kept part: the call list an entry v1 cannot read came from (`tool_calls` or `invalid_tool_calls`). */
  in: '$in',
} as const;

/** Every hint key the adapter writes or reads (the format's `hints`). */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);

/** The hints a v1 conversation carries. */
export interface LangChainConversationHints {
  $bare?: boolean;
  $keys?: string[];
}

/** The hints a v1 message carries. */
export interface LangChainMessageHints {
  $type?: 'chat' | 'function';
  $role?: 'developer';
  $absent?: string[];
  $content?: 'list';
}

/** The hints a v1 part carries (text, media, tool call, tool result, kept part). */
export interface LangChainPartHints {
  $absent?: string[];
  $content?: 'list';
  $string?: true;
  $block?: 'image_url' | 'v1';
  $args?: 'string' | 'json';
  $invalid?: true;
  $in?: 'tool_calls' | 'invalid_tool_calls';
}

/** LangChain's message types (`messages_to_dict`'s `type`). */
export const MESSAGE_TYPES: ReadonlySet<string> = new Set([
  'human',
  'ai',
  'tool',
  'system',
  'chat',
  'function',
]);

/** The fields of every message's `data`, in `model_dump` order. */
const BASE_KEYS = ['content', 'additional_kwargs', 'response_metadata', 'type', 'name', 'id'];

/** The keys of a message's `data` as `messages_to_dict` writes them (langchain-core 0.3), by type. */
export const DATA_KEYS: Readonly<Record<string, readonly string[]>> = {
  human: [...BASE_KEYS, 'example'],
  ai: [...BASE_KEYS, 'example', 'tool_calls', 'invalid_tool_calls', 'usage_metadata'],
  system: BASE_KEYS,
  chat: [...BASE_KEYS, 'role'],
  function: BASE_KEYS,
  tool: [...BASE_KEYS, 'tool_call_id', 'artifact', 'status'],
};

/** The value `messages_to_dict` writes for a field of `data` nothing sets (`type` is the message's own). */
export const DATA_DEFAULTS: Readonly<Record<string, JsonValue>> = {
  content: '',
  additional_kwargs: {},
  response_metadata: {},
  name: null,
  id: null,
  example: false,
  tool_calls: [],
  invalid_tool_calls: [],
  usage_metadata: null,
  artifact: null,
  status: 'success',
};

/** The keys of a `tool_calls` entry, and of an `invalid_tool_calls` one, in LangChain's order. */
export const CALL_KEYS = {
  valid: ['name', 'args', 'id', 'type'],
  invalid: ['name', 'args', 'id', 'error', 'type'],
} as const;

/** The value LangChain gives a field of a tool call nothing sets. */
export const CALL_DEFAULTS: Readonly<Record<string, JsonValue>> = { id: null, error: null };
