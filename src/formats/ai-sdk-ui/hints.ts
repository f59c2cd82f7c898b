/**
 * What the `ai-sdk-ui` adapter keeps in `providerData["ai-sdk-ui"]`: the
 * source's fields v1 has no place for (a source field whose name starts with
 * `$` is kept as `$$name`, see the kit's restOf, so a file cannot pass itself a
 * hint), the parts v1 has no type for (see the kit's keptPart), and its hints,
 * the `$` keys that say how to write a value back. Every hint the reader
 * writes or the writer reads is listed here. And the wire fields kept data
 * never sets.
 */
import type { JsonValue } from '../../model/json.js';
import { BARE_HINT, KEYS_HINT } from '../kit/envelope.js';

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'ai-sdk-ui';

/** The hints, by the v1 object that carries them. */
export const HINTS = {
  /** Conversation: the history was a bare UIMessage array, and is written back as one. */
  bare: BARE_HINT,
  /** Conversation: the request body's key order, when the default write order would not give it back. */
  keys: KEYS_HINT,
  /** Message: the UIMessage had no `id` (every other message is written with one). */
  noId: '$noId',
  /**
   * Message: this message continues the UIMessage written before it. The reader splits a
   * UIMessage at a `step-start` that follows answered tool calls, so their results can go in a
   * v1 `tool` message between the two steps, as the AI SDK's convertToModelMessages does.
   */
  continues: '$continue',
  /** Tool call: the part's `state`, for the states v1 cannot tell apart (`input-streaming`, `approval-*`). */
  state: '$state',
  /** Tool call: a `dynamic-tool` part (name in `toolName`), not a `tool-<name>` one. */
  dynamic: '$dynamic',
  /** Tool call: the arguments were no JSON object: `absent`, `string` (raw text) or `json`. */
  input: '$input',
  /** Tool call: the arguments came from `rawInput` (an `output-error` whose input did not parse). */
  inputKey: '$inputKey',
  /** Tool call: the `rawInput` beside an `input` the AI SDK sends instead (written back only beside one). */
  rawInput: '$rawInput',
  /** Tool call: `input: null` beside the `rawInput` the AI SDK sends instead. */
  nullInput: '$nullInput',
  /**
   * Tool call: the part's `providerExecuted` when the place of its result does not say it (a
   * result in the assistant message itself is provider-executed, one in a tool message is not).
   */
  providerExecuted: '$providerExecuted',
  /** Tool result: the `output` was a JSON value other than a string (`json`), or absent (`absent`). */
  output: '$output',
  /** Reasoning: the provider in `providerMetadata` whose signature became v1 `signature`. */
  signature: '$signature',
  /** Reasoning: the provider in `providerMetadata` whose redacted data became v1 `redacted`. */
  redacted: '$redacted',
} as const;

/** The hints a v1 conversation read from this format carries. */
export interface AiSdkUiConversationHints {
  $bare?: true;
  $keys?: string[];
}

/** The hints a v1 message read from this format carries. */
export interface AiSdkUiMessageHints {
  $noId?: true;
  $continue?: true;
}

/** The hints a v1 part read from this format carries (a tool call, its result, a reasoning part). */
export interface AiSdkUiPartHints {
  $state?: string;
  $dynamic?: true;
  $input?: 'absent' | 'string' | 'json';
  $inputKey?: 'rawInput';
  $rawInput?: JsonValue;
  $nullInput?: true;
  $providerExecuted?: JsonValue;
  $output?: 'json' | 'absent';
  /** The AI SDK provider key (`anthropic`, `bedrock`, `google`, `openai`). */
  $signature?: string;
  $redacted?: string;
}

/** Every hint key of this format (the registry's `hints`). */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);

/** The states of a tool part that carry no result. */
export const OPEN_STATES: readonly string[] = [
  'input-streaming',
  'input-available',
  'approval-requested',
  'approval-responded',
];

/** The states of a tool part that carry a result (a denied call's result is the refusal). */
export const RESULT_STATES: readonly string[] = [
  'output-available',
  'output-error',
  'output-denied',
];

/**
 * The wire fields of a part only the v1 model sets (text, media, calls and results): kept data
 * never restores one, so what sanitize, lint and show checked is what the server receives. A
 * source part that has one v1 does not read is kept whole instead (it would not come back).
 */
export const PART_WIRE: readonly string[] = [
  'type',
  'text',
  'url',
  'mediaType',
  'toolCallId',
  'toolName',
  'input',
  'rawInput',
  'output',
  'errorText',
  'providerExecuted',
];

/** A document's name is v1's (`name`); an image has none, so its `filename` is kept data. */
export const DOCUMENT_WIRE: readonly string[] = [...PART_WIRE, 'filename'];

/** A tool part's `state` says whether it has a result; a text or reasoning part's (`done`) says nothing v1 has. */
export const TOOL_WIRE: readonly string[] = [...PART_WIRE, 'state'];

/** A message's wire fields (the AI SDK reads no other). */
export const MESSAGE_WIRE: readonly string[] = ['role', 'parts'];
