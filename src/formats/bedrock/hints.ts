/**
 * What the `bedrock` adapter keeps in `providerData.bedrock`: the source's fields v1 has no
 * place for, in the block's own shape (`{toolUse: {<extra fields>}}`; a field whose name starts
 * with `$` as `$$name`, see the kit's restOf, so a file cannot pass itself a hint), kept parts
 * (see the kit's keptPart), a `cachePoint` block that followed a part (kept on that part, under
 * its wire name), and the hints, the `$` keys that say how to write a value back. Every hint the
 * reader writes or the writer reads is listed here.
 */
import { BARE_HINT, KEYS_HINT } from '../kit/envelope.js';

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'bedrock';

/** The hints, by the v1 object that carries them. */
export const HINTS = {
  /** Conversation: the history was a bare messages array, and is written back as one. */
  bare: BARE_HINT,
  /** Conversation: the request body's key order, when the default write order would not give it back. */
  keys: KEYS_HINT,
  /** Message: a system message read from the top-level `system` list; it goes back there. */
  system: '$system',
  /** Message: a system message read inside `messages`; it stays there. */
  inline: '$inline',
  /** Message: the source role, when it is none of user, assistant and system (written back so). */
  role: '$role',
  /**
   * Image or document: the source was not `bytes`: `text` (a document's text; v1 `data` is its
   * base64) or `s3Location` (one whose uri does not say `s3://`).
   */
  sourceType: '$sourceType',
  /** Image or document: the source `format`, when the media type read from it would not give it back. */
  format: '$format',
  /** Text: a tool result's `json` block (v1 `text` is its compact JSON, written back as JSON). */
  json: '$json',
  /** Tool call: the `input` was no JSON object (written back as the arguments text parsed). */
  inputRaw: '$inputRaw',
  /** Reasoning: `redactedContent` was no base64 of ASCII text, so v1 `redacted` is it as read. */
  redactedRaw: '$redactedRaw',
} as const;

/** The hints a v1 conversation read from this format carries. */
export interface BedrockConversationHints {
  $bare?: true;
  $keys?: string[];
}

/** The hints a v1 message read from this format carries. */
export interface BedrockMessageHints {
  $system?: true;
  $inline?: true;
  $role?: string;
}

/** The hints a v1 part read from this format carries. */
export interface BedrockPartHints {
  $sourceType?: 'text' | 's3Location';
  $format?: string;
  $json?: true;
  $inputRaw?: true;
  $redactedRaw?: true;
}

/** Every hint key of this format (the registry's `hints`). */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);
