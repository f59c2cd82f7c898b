/**
 * What the `gemini` adapter keeps in `providerData.gemini`: the source's fields v1 has no place
 * for, and its hints, the `$` keys that say how to write a value back (a source field whose name
 * starts with `$` is kept as `$$name`, see restOf in ../kit/kept.ts, so a file cannot pass itself
 * a hint). And the field names of a Gemini request the reader and the writer share: the REST
 * API's camelCase and the proto names it also accepts, the union field of a part, and the wire
 * fields kept data never sets.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { SHARED_HINTS } from '../../model/provider-data.js';
import { BARE_HINT, KEYS_HINT } from '../kit/envelope.js';

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'gemini';

/** The hints, by the v1 object that carries them. */
export const HINTS = {
  /** Conversation: the value read was a bare `contents` array (no request body). */
  bare: BARE_HINT,
  /** Conversation: the request body's key order, when the writer's default would not give it back. */
  keys: KEYS_HINT,
  /**
   * Message: the content's role when it was not the usual one for its turn: the role as written,
   * `null` for none, `{"null": true}` for an explicit `"role": null` (read by gemini/role).
   */
  role: SHARED_HINTS.gemini.role,
  /**
   * Message: a tool message read from a content of its own right after another tool content:
   * written back apart, not joined to the response turn before it (read by core/turns.ts).
   */
  separate: SHARED_HINTS.gemini.separate,
  /** Message: the content had no `parts` field (written back without one while it stays empty). */
  noParts: '$noParts',
  /**
   * Message: the content had `"parts": []`. It marks the message as read from Gemini: a write of a
   * history from elsewhere drops empty contents, which Gemini rejects.
   */
  emptyParts: '$emptyParts',
  /** System message: the system instruction was a plain string. */
  string: '$string',
  /** System message: the SDK shape of a system instruction other than a Content (`part`, `strings`, `parts`). */
  configShape: '$configShape',
  /** System message: read from the snake_case `system_instruction` field. */
  snakeKey: '$snakeKey',
  /** System message: read from the SDK's `config.systemInstruction` (or `config.system_instruction`). */
  configKey: '$configKey',
  /** Part: its data field was spelled in snake_case (`inline_data`, `function_call`, ...). */
  snake: '$snake',
  /** Part: the fields of the inner object (the blob, the call, the response) v1 has no place for. */
  inner: '$inner',
  /** Image or document: a `data:` URI that came in `fileData` (written back there, not inline). */
  fileData: '$fileData',
  /**
   * Text or reasoning: a blank text read from Gemini. It marks the part as read from Gemini, so a
   * write without the read's context keeps it (a blank one from another format is dropped).
   */
  blank: '$blank',
  /** Reasoning: the key the thought signature came in (`thoughtSignature` or `thought_signature`). */
  signatureKey: '$signatureKey',
  /** Tool call: the call had no `args` (written back without while the arguments stay `{}`). */
  noArgs: '$noArgs',
  /** Tool call: the `args` were no JSON object (written back as they parse, not as truncated_args). */
  rawArgs: '$rawArgs',
  /** Tool call: the call had no `id`; the reader made one up to pair it, and a write leaves it out. */
  syntheticId: '$syntheticId',
  /** Tool result: the response had no `name` (written back without one). */
  noName: '$noName',
  /** Tool result: the response had `"parts": []` (written back only with this hint). */
  parts: '$parts',
  /** Tool result: the `response` shape when it is not `{output}` or `{error}`: `none`, `result`, `json`. */
  response: '$response',
} as const;

/** Every hint key the adapter writes or reads (the registry entry's `hints`). */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);

/** The hints of a v1 conversation read from Gemini. */
export interface GeminiConversationHints {
  $bare?: true;
  $keys?: string[];
}

/** The hints of a v1 message read from a Gemini content or system instruction. */
export interface GeminiMessageHints {
  $role?: JsonValue;
  $separate?: true;
  $noParts?: true;
  $emptyParts?: true;
  $string?: true;
  $configShape?: 'part' | 'strings' | 'parts';
  $snakeKey?: true;
  $configKey?: true;
}

/** The hints of a v1 part read from a Gemini part. */
export interface GeminiPartHints {
  $snake?: true;
  $inner?: JsonObject;
  $fileData?: true;
  $blank?: true;
  $signatureKey?: string;
  $noArgs?: true;
  $rawArgs?: true;
  $syntheticId?: true;
  $noName?: true;
  $parts?: true;
  $response?: 'none' | 'result' | 'json';
}

/** Field names of a part: the REST API's camelCase, or the proto names it also accepts. */
export interface Keys {
  inlineData: string;
  fileData: string;
  functionCall: string;
  functionResponse: string;
  thoughtSignature: string;
  mimeType: string;
  fileUri: string;
}

/** The REST API's camelCase field names. */
export const CAMEL: Keys = {
  inlineData: 'inlineData',
  fileData: 'fileData',
  functionCall: 'functionCall',
  functionResponse: 'functionResponse',
  thoughtSignature: 'thoughtSignature',
  mimeType: 'mimeType',
  fileUri: 'fileUri',
};

/** The proto (snake_case) field names the API accepts too. */
export const SNAKE: Keys = {
  inlineData: 'inline_data',
  fileData: 'file_data',
  functionCall: 'function_call',
  functionResponse: 'function_response',
  thoughtSignature: 'thought_signature',
  mimeType: 'mime_type',
  fileUri: 'file_uri',
};

/** The union field `data` of a Gemini part (exactly one is set), in both spellings. */
export const DATA_FIELDS: readonly string[] = [
  'text',
  'inlineData',
  'inline_data',
  'fileData',
  'file_data',
  'functionCall',
  'function_call',
  'functionResponse',
  'function_response',
  'executableCode',
  'executable_code',
  'codeExecutionResult',
  'code_execution_result',
  'toolCall',
  'tool_call',
  'toolResponse',
  'tool_response',
];

/** The data fields spelled in snake_case. */
export const SNAKE_FIELDS: ReadonlySet<string> = new Set([
  'inline_data',
  'file_data',
  'function_call',
  'function_response',
  'executable_code',
  'code_execution_result',
  'tool_call',
  'tool_response',
]);

/** The data fields of a part (one, for a well-formed part). */
export function dataFieldsOf(part: JsonObject): string[] {
  return Object.keys(part).filter((k) => DATA_FIELDS.includes(k));
}

/**
 * The wire fields only the v1 model sets (content, role, calls, results, media), in both
 * spellings: kept data never restores one, so what sanitize, lint and show checked is what the
 * provider receives. Kept data fills only fields v1 has no place for (`thoughtSignature`,
 * `videoMetadata`, request settings, ...).
 */
export const WIRE: readonly string[] = [
  'role',
  'parts',
  ...DATA_FIELDS,
  'mimeType',
  'mime_type',
  'data',
  'fileUri',
  'file_uri',
  'name',
  'args',
  'response',
  'id',
];

/** The wire fields of a system instruction, whose `role` gives no turn a voice. */
export const WIRE_BUT_ROLE: readonly string[] = WIRE.filter((k) => k !== 'role');

/** The request fields that hold a system prompt, in the order they are written. */
export const SYSTEM_KEYS = ['systemInstruction', 'system_instruction'] as const;

/** Where a system message goes: a request field, or the SDK's `config.systemInstruction`. */
export type SystemKey = (typeof SYSTEM_KEYS)[number] | 'config';

/**
 * The request fields the writer sets from v1 messages, in the order it writes them (after
 * `model`, before the kept ones): what the reader records a request's key order against.
 */
export const OWN_KEYS: readonly string[] = ['contents', ...SYSTEM_KEYS];
