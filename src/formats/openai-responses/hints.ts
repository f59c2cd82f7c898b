/**
 * What the `openai-responses` adapter keeps in `providerData["openai-responses"]`: the source's
 * fields v1 has no place for (item ids, statuses, `detail`, annotations, request fields), and its
 * hints, the `$` keys that say how to write a value back (a source field whose name starts with
 * `$` is kept as `$$name`, see restOf in ../kit/kept.ts, so a file cannot pass itself a hint).
 * And the wire fields kept data never sets.
 */
import type { JsonObject } from '../../model/json.js';
import { BARE_HINT, KEYS_HINT } from '../kit/envelope.js';

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'openai-responses';

/** The hints, by the v1 object that carries them. */
export const HINTS = {
  /** Conversation: the value read was a bare array of items, not a request body (kit envelope). */
  bare: BARE_HINT,
  /** Conversation: the request body's keys in the order read, when a write would not give it back (kit envelope). */
  keys: KEYS_HINT,
  /** Message (system): it was the body's string `instructions`, written back there. */
  instructions: '$instructions',
  /** Message (user): it was the body's string `input`, written back as that string while it is one plain text. */
  input: '$input',
  /**
   * Message (user, system) and an assistant item's `$message`: the item's `content` was a
   * `string` or an `array`, written back so.
   */
  content: '$content',
  /** Message (system): the item's role was `developer`, which v1 reads as `system`. */
  role: '$role',
  /** Message: it holds one item of its own that v1 cannot express (a kept part), nothing else. */
  opaque: '$opaque',
  /**
   * Part of an assistant message: the index of the assistant message item its content part came
   * from, so that consecutive parts of one item are written back as one item again.
   */
  item: '$item',
  /** Part (the first of an assistant message item): the item's own fields (`id`, `status`, `$content`). */
  message: '$message',
  /**
   * Text part: the content part's type when it is not the role's default (`output_text` in a
   * user message, `input_text` in an assistant one, or `refusal`, whose text is `refusal`).
   */
  type: '$type',
  /** Reasoning: where its text came from, `summary` or `content` (always set: it marks the part as this format's). */
  text: '$text',
  /** Tool call: the `function_call` had no `name` (written back without one). */
  noName: '$noName',
  /**
   * Tool call and tool result: the client-run hosted tool item type it was read from
   * (`tool_search_call`, `tool_search_output`), written back as that item.
   */
  hosted: '$hosted',
  /**
   * Tool call and tool result: read from a `custom_tool_call` (its free-form `input` is the
   * arguments `{"input": ...}`) or a `custom_tool_call_output`, and written back as that item.
   */
  custom: '$custom',
  /** Tool call (hosted): the item had no `arguments`. */
  noArgs: '$noArgs',
  /** Tool call (hosted): the item's `arguments` were a JSON value, not text. */
  argsObject: '$argsObject',
  /** Tool result: the `output` was an array of content parts (not a string). */
  output: '$output',
} as const;

/** Every hint key the adapter writes or reads (the format's `hints`). */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);

/** The hints a conversation's kept data may carry. */
export interface ResponsesConversationHints {
  $bare?: true;
  $keys?: string[];
}

/** The hints a message's kept data may carry. */
export interface ResponsesMessageHints {
  $instructions?: true;
  $input?: 'string';
  $content?: 'string' | 'array';
  $role?: 'developer';
  $opaque?: true;
}

/** The hints a part's kept data may carry. */
export interface ResponsesPartHints {
  $item?: number;
  $message?: JsonObject;
  $type?: 'input_text' | 'output_text' | 'refusal';
  $text?: 'summary' | 'content';
  $noName?: true;
  $hosted?: string;
  $custom?: true;
  $noArgs?: true;
  $argsObject?: true;
  $output?: 'array';
}

/**
 * The wire fields only the v1 model sets (content, role, calls, results, media): kept data never
 * restores one, so what sanitize, lint and show checked is what the provider receives. Kept data
 * fills only fields v1 has no place for (item ids, statuses, `detail`, annotations, ...).
 */
export const WIRE: readonly string[] = [
  'type',
  'role',
  'content',
  'call_id',
  'output',
  'arguments',
  'input',
  'name',
  'text',
  'refusal',
  'image_url',
  'file_url',
  'file_data',
  'file_id',
  'filename',
  'url',
];

/**
 * Of a hosted tool's item (`tool_search_call` run by the client, ...), kept whole but for these,
 * which v1 sets: written only when its URLs are safe (see refusesKeptUrl in ../kit/kept.ts).
 */
export const HOSTED_WIRE: readonly string[] = ['type', 'call_id', 'arguments'];
