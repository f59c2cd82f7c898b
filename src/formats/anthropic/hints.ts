/**
 * What the `anthropic` adapter keeps in `providerData.anthropic`: the source's fields v1 has no
 * place for (under their own names; a field whose name starts with `$` as `$$name`, see the kit's
 * restOf, so a file cannot pass itself a hint), kept parts (see the kit's keptPart), and its
 * hints, the `$` keys that say how to write a value back. Every hint the reader writes or the
 * writer reads is listed here.
 */
import { BARE_HINT, KEYS_HINT } from '../kit/envelope.js';

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'anthropic';

/** The hints, by the v1 object that carries them. */
export const HINTS = {
  /** Conversation: the history was a bare messages array, and is written back as one. */
  bare: BARE_HINT,
  /** Conversation: the request body's key order, when the default write order would not give it back. */
  keys: KEYS_HINT,
  /** Message: the `content` was a string (written back as one while it is one plain text block). */
  string: '$string',
  /**
   * Message: a system message read from the top-level `system`, and the shape it had there
   * (`string` or `blocks`); it goes back there, also when it is not the first message.
   */
  system: '$system',
  /** Message: a system message read inside `messages`; it stays there. */
  inline: '$inline',
  /** Message: the source role, when it is none of user, assistant and system (written back so). */
  role: '$role',
  /** Image or document: the source had no `media_type` (v1's is a default, not written). */
  mediaType: '$mediaType',
  /** Document: the source was a `text` one (v1 `data` is the base64 of its text). */
  sourceType: '$sourceType',
  /** Tool call: the `input` was no JSON object (written back as the arguments text parsed). */
  inputRaw: '$inputRaw',
  /** Tool result: the `content` was a string (written back as one while it is one plain text part). */
  contentString: '$contentString',
  /** Tool result: the block had no `content` (none is written while v1 content is empty). */
  noContent: '$noContent',
} as const;

/** The hints a v1 conversation read from this format carries. */
export interface AnthropicConversationHints {
  $bare?: true;
  $keys?: string[];
}

/** The hints a v1 message read from this format carries. */
export interface AnthropicMessageHints {
  $string?: true;
  $system?: 'string' | 'blocks';
  $inline?: true;
  $role?: string;
}

/** The hints a v1 part read from this format carries. */
export interface AnthropicPartHints {
  $mediaType?: false;
  $sourceType?: 'text';
  $inputRaw?: true;
  $contentString?: true;
  $noContent?: true;
}

/** Every hint key of this format (the registry's `hints`). */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);
