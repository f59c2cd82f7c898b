/**
 * What the `ai-sdk` adapter keeps in `providerData["ai-sdk"]`: the source's fields v1 has no
 * place for, under their own names (a source field whose name starts with `$` is kept as
 * `$$name`, see restOf in ../kit/kept.ts, so a file cannot pass itself a hint), and its hints,
 * the `$` keys that say how to write a value back. Also the wire fields kept data never sets,
 * and the default shapes a write gives when no hint says otherwise, which the reader measures
 * each hint against.
 */
import type { JsonValue } from '../../model/json.js';
import type { Part } from '../../model/types.js';
import { urlScheme } from '../../core/url.js';
import { BARE_HINT, KEYS_HINT } from '../kit/envelope.js';
import { isPlainTextPart, type InputMode } from '../shared.js';

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'ai-sdk';

/** The hints, by the v1 object that carries them. */
export const HINTS = {
  /** Conversation: the value read was a bare ModelMessage array, not call options (the kit's). */
  bare: BARE_HINT,
  /** Conversation: the call options' key order, when the default write order would lose it (the kit's). */
  keys: KEYS_HINT,
  /**
   * Message: the `content` shape the write must give back when the default one
   * ({@link defaultKind}) would differ: `string`, `array` or `absent` (no `content` key).
   */
  content: '$content',
  /**
   * Message (system, leading): it came from the call options' `system`: `true` for a string
   * (generateText's system prompt), `object` for one SystemModelMessage, `array` for an array of
   * them (AI SDK 6).
   */
  system: '$system',
  /** Image or document: the `image` / `data` string was a data: URL (split into data and media type). */
  dataUrl: '$dataUrl',
  /** Image or document: the media type came from the data: URL; the part had no media type field. */
  urlMediaType: '$urlMediaType',
  /** Image or document: the media type field was v4's `mimeType`, not `mediaType`. */
  mediaTypeKey: '$mediaTypeKey',
  /**
   * Image or document (also in a tool result's content): the source had no media type; v1's was
   * sniffed from the data or guessed from the URL, and is not written back.
   */
  noMediaType: '$noMediaType',
  /**
   * Image: the part type, when it is not the one the role takes by default ({@link imageKind}):
   * `file` or `image`. Reasoning: `redacted-reasoning` (v4's redacted part). A tool result's
   * content part: its item type, when not the default one ({@link outputItemType}): `media`,
   * `image-data` or `file-data`.
   */
  type: '$type',
  /**
   * Reasoning: the AI SDK provider in `providerOptions` whose signature became v1 `signature`
   * (ai-sdk-ui uses the same key), or `field` for v4's `signature` on the part itself.
   */
  signature: '$signature',
  /** Reasoning: the AI SDK provider in `providerOptions` whose redacted data became v1 `redacted`. */
  redacted: '$redacted',
  /** Tool call: the input was v4's `args`, not `input`. */
  inputKey: '$inputKey',
  /** Tool call: the input was no JSON object: `absent`, `string` (raw text) or `json`. */
  input: '$input',
  /** Tool result: it had no `toolName` (a write fills a missing one from the call otherwise). */
  noName: '$noName',
  /** Tool result: v4's `result` / `isError` fields, not an `output`. */
  v4: '$v4',
  /** Tool result (v4): an `isError: false` the write gives back. */
  isError: '$isError',
  /**
   * Tool result: the output shape when the default one ({@link defaultOutputType}) would differ:
   * `json` (the text is JSON), `content`, `execution-denied`, `absent` (no output) or `raw` (an
   * output v1 cannot read, kept whole as `output`).
   */
  output: '$output',
} as const;

/** Every hint key the adapter writes or reads (the format's `hints`). */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);

/** The hints a v1 conversation carries. */
export interface AiSdkConversationHints {
  $bare?: true;
  $keys?: string[];
}

/** The hints a v1 message carries. */
export interface AiSdkMessageHints {
  $content?: 'string' | 'array' | 'absent';
  $system?: true | 'object' | 'array';
}

/** The hints a v1 part carries (image, document, reasoning, tool call, tool result, its content). */
export interface AiSdkPartHints {
  $dataUrl?: true;
  $urlMediaType?: true;
  $mediaTypeKey?: 'mimeType';
  $noMediaType?: true;
  $type?: 'file' | 'image' | 'redacted-reasoning' | 'media' | 'image-data' | 'file-data';
  $signature?: string;
  $redacted?: string;
  $inputKey?: 'args';
  $input?: InputMode;
  $noName?: true;
  $v4?: true;
  $isError?: false;
  $output?: 'json' | 'content' | 'execution-denied' | 'absent' | 'raw';
}

/**
 * The wire fields only the v1 model sets (content, role, calls, results, media): kept data never
 * restores one, so what sanitize, lint and show checked is what the provider receives. Kept data
 * fills only fields v1 has no place for (`providerOptions`, ...).
 */
export const WIRE: readonly string[] = [
  'role',
  'content',
  'type',
  'text',
  'image',
  'data',
  'url',
  'mediaType',
  'mimeType',
  'filename',
  'toolCallId',
  'toolName',
  'input',
  'args',
  'output',
  'result',
  'value',
  'isError',
];

/**
 * True when a data string is a URL rather than base64. The AI SDK tries `new URL()`, which reads a
 * scheme as a browser does (edge spaces and controls trimmed, tabs and line breaks dropped), so
 * `" file:///x"` and `"java\tscript:x"` are URLs to it, and must be to sanitize too.
 */
export function isUrlString(s: string): boolean {
  return urlScheme(s) !== '';
}

/** The `content` shape a write gives when no `$content` hint says otherwise. */
export function defaultKind(items: readonly JsonValue[], role: string): string {
  if (role === 'tool') return 'array';
  if (items.length === 1 && isPlainTextPart(items[0])) return 'string';
  if (role === 'system' && items.length === 0) return 'string';
  return 'array';
}

/** The part type a v1 image is written as by default: user messages have image parts, assistants only files. */
export function imageKind(role: string): string {
  return role === 'user' ? 'image' : 'file';
}

/** The `content` output item type a v1 content part is written as by default. */
export function outputItemType(part: Part): string {
  if (part.type === 'text') return 'text';
  if (typeof part.url === 'string') return part.type === 'image' ? 'image-url' : 'file-url';
  return 'media';
}

/** The output type a result is written as without a hint. */
export function defaultOutputType(content: readonly Part[], failed: boolean): string {
  if (content.length === 0) return failed ? 'error-text' : 'text';
  if (content.length === 1 && isPlainTextPart(content[0] as JsonValue)) {
    return failed ? 'error-text' : 'text';
  }
  return 'content';
}
