/**
 * What the `openai-chat` adapter keeps in `providerData["openai-chat"]`: the source's fields v1
 * has no place for, under their own names (a source field whose name starts with `$` is kept as
 * `$$name`, see restOf in ../kit/kept.ts, so a file cannot pass itself a hint), and its hints, the
 * `$` keys that say how to write a value back. Also the default shapes a write gives when no hint
 * says otherwise, which the reader measures each hint against.
 */
import type { JsonValue } from '../../model/json.js';
import { BARE_HINT, KEYS_HINT } from '../kit/envelope.js';
import { isPlainTextPart } from '../shared.js';

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'openai-chat';

/** The hints, by the v1 object that carries them. */
export const HINTS = {
  /** Conversation: the value read was a bare messages array, not a request body (the kit's). */
  bare: BARE_HINT,
  /** Conversation: the request body's key order, when the default write order would lose it (the kit's). */
  keys: KEYS_HINT,
  /**
   * Message (user, assistant, system) or tool result: the `content` shape the write must give
   * back when the default one ({@link defaultKind}) would differ: `null`, `absent` (no
   * `content` key) or `array` (a one-text-part array, not a string).
   */
  content: '$content',
  /**
   * Message: the source role v1 folds into another: `developer` on a v1 `system` message,
   * `function` (the deprecated result role) on a v1 `tool` message.
   */
  role: '$role',
  /** Message (assistant): an empty `tool_calls: []` the write gives back. */
  emptyToolCalls: '$emptyToolCalls',
  /**
   * Text part: `refusal`, a `{type: "refusal", refusal}` part. Document part: `file`, a `file`
   * part holding audio (written as `input_audio` by default).
   */
  type: '$type',
  /** Document part: the `input_audio` format, when the media type does not give it back ({@link audioFormat}). */
  format: '$format',
  /** Document part: the `file_data` was plain base64, not a data URL (read as a PDF). */
  base64: '$base64',
  /** Tool call: the `tool_calls` entry had no `type`. */
  noType: '$noType',
  /** Tool call: a `custom` tool call (`{type: "custom", custom: {name, input}}`), not a function one. */
  kind: '$kind',
  /** Tool call: the legacy `function_call` of an assistant message, not a `tool_calls` entry. */
  legacy: '$legacy',
  /** Tool call: the arguments were no string: `absent` (no key) or `json` (a JSON value, kept as its text). */
  arguments: '$arguments',
  /** Tool result: the tool message had a `name` (the legacy function name, now v1's `name`). */
  name: '$name',
  /**
   * Reasoning or text part: the assistant message field it came from, and goes back to:
   * `reasoning_content` (DeepSeek/Kimi-style reasoning) or `refusal` (the model's refusal text).
   */
  field: '$field',
  /** Kept part: the call list a call entry v1 cannot read came from (`tool_calls` or `function_call`). */
  in: '$in',
} as const;

/** Every hint key the adapter writes or reads (the format's `hints`). */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);

/** The shape of a source `content` value, as the `$content` hint records it. */
export type ContentKind = 'null' | 'absent' | 'array';

/** The hints a v1 conversation carries. */
export interface ChatConversationHints {
  $bare?: true;
  $keys?: string[];
}

/** The hints a v1 message carries. */
export interface ChatMessageHints {
  $content?: ContentKind;
  $role?: 'developer' | 'function';
  $emptyToolCalls?: true;
}

/** The hints a v1 part carries (text, document, tool call, tool result, reasoning, kept part). */
export interface ChatPartHints {
  $type?: 'refusal' | 'file';
  $format?: string;
  $base64?: true;
  $noType?: true;
  $kind?: 'custom';
  $legacy?: true;
  $arguments?: 'absent' | 'json';
  $name?: true;
  $content?: ContentKind;
  $field?: 'reasoning_content' | 'refusal';
  $in?: 'tool_calls' | 'function_call';
}

/**
 * The content shape a write produces when no `$content` hint says otherwise: no items → `null`
 * for an assistant message with calls, else `""` (`string`); one plain text item → its string;
 * otherwise the array.
 */
export function defaultKind(items: readonly JsonValue[], role: string, hasCalls: boolean): string {
  if (items.length === 0) return role === 'assistant' && hasCalls ? 'null' : 'string';
  if (items.length === 1 && isPlainTextPart(items[0])) return 'string';
  return 'array';
}

/** The `input_audio` format a write gives a media type when no `$format` hint says otherwise. */
export function audioFormat(mediaType: string): string {
  if (mediaType === 'audio/mpeg' || mediaType === 'audio/mp3') return 'mp3';
  if (mediaType === 'audio/wav' || mediaType === 'audio/x-wav' || mediaType === 'audio/wave')
    return 'wav';
  return mediaType.replace(/^audio\//, '');
}
