/**
 * Helpers several format adapters use beside the kit (src/formats/kit/): tool-call arguments
 * between text and objects, checks of source messages, and loss reporting.
 */
import { SourceError } from '../model/errors.js';
import { parseJson, stringifyJson, type JsonObject, type JsonValue } from '../model/json.js';
import { isObject, type Message } from '../model/types.js';
import { type Conversation, type Loss } from './format.js';
import { isHintKey, isPlainObject, keepProviderData, sourceKey } from './kit/kept.js';

/** The key of the object a call's arguments become when their text is not a JSON object (SPEC §4). */
export const TRUNCATED_ARGS_KEY = 'truncated_args';

/**
 * Tool-call arguments as an object, for formats whose arguments are objects:
 * the parsed text when it is a JSON object (numbers keep their text), else
 * `{"truncated_args": "<the verbatim text>"}`.
 */
export function argumentsToObject(text: string): JsonObject {
  try {
    const v = parseJson(text);
    if (isObject(v)) return v;
  } catch {
    // Not JSON: wrapped below.
  }
  return { [TRUNCATED_ARGS_KEY]: text };
}

/**
 * Tool-call arguments as the JSON value their text holds (any value, not only
 * an object), or `{"truncated_args": ...}` when the text is not JSON.
 */
export function argumentsToValue(text: string): JsonValue {
  try {
    return parseJson(text);
  } catch {
    return argumentsToObject(text);
  }
}

/** Tool-call arguments as text, from a format whose arguments are objects: compact JSON, numbers as written. */
export function objectToArguments(value: JsonValue): string {
  return stringifyJson(value, 0);
}

/**
 * A custom tool's free-form input (a Responses `custom_tool_call`, Codex's `apply_patch`, a
 * Copilot CLI custom tool) as v1 arguments: the one field of `{"input": ...}`, so the text is an
 * object's field and not taken for truncated arguments.
 */
export function customInputToArguments(input: string): string {
  return objectToArguments({ input });
}

/** The free-form input back from v1 arguments: `{"input": <text>}`'s text, else the arguments as they are. */
export function argumentsToCustomInput(text: string): string {
  const args = argumentsToValue(text);
  const only = isObject(args) && Object.keys(args).length === 1 ? args.input : undefined;
  return typeof only === 'string' ? only : text;
}

/**
 * How a tool input that is not a JSON object was written, kept as the `$input` hint: `absent`
 * (no input), `string` (the raw text, as the AI SDK keeps unparsable model output), `json`
 * (another JSON value: an array, a number).
 */
export type InputMode = 'absent' | 'string' | 'json';

/** An AI SDK tool `input` (ModelMessage or UIMessage) as arguments text, and the mode to write it back in. */
export function inputToArguments(input: JsonValue | undefined): {
  text: string;
  mode?: InputMode;
} {
  if (input === undefined) return { text: '', mode: 'absent' };
  if (typeof input === 'string') return { text: input, mode: 'string' };
  const text = objectToArguments(input);
  return isPlainObject(input) ? { text } : { text, mode: 'json' };
}

/**
 * Arguments text as an AI SDK tool `input`, in the mode a read recorded (`$input`); without one,
 * an object (SPEC §4: `{"truncated_args": ...}` when the text is not one). Undefined: no input.
 */
export function argumentsToInput(text: string, mode: JsonValue | undefined): JsonValue | undefined {
  if (mode === 'string') return text;
  if (mode === 'absent' && text === '') return undefined;
  if (mode === 'json') return argumentsToValue(text);
  return argumentsToObject(text);
}

// ---------------------------------------------------------------------------
// Objects and providerData

/** True for a plain `{type: "text", text}` part and nothing more: what a string content is written as. */
export function isPlainTextPart(v: JsonValue | undefined): boolean {
  return (
    isPlainObject(v) &&
    v.type === 'text' &&
    typeof v.text === 'string' &&
    Object.keys(v).length === 2
  );
}

// ---------------------------------------------------------------------------
// Reading messages

/** Throws the one-line error for a value that is not this format. */
export function notFormat(format: string, why: string): never {
  throw new SourceError(`not ${format}: ${why}`);
}

/** Throws unless source message `index` is an object with a string `role`. */
export function assertMessage(
  m: JsonValue | undefined,
  index: number,
  format: string,
): asserts m is JsonObject & { role: string } {
  if (!isPlainObject(m)) notFormat(format, `message ${index} is not an object`);
  if (typeof m.role !== 'string') notFormat(format, `message ${index} has no string "role"`);
}

/** A v1 conversation with the format's request-level fields kept. */
export function makeConversation(
  messages: Message[],
  format: string,
  requestRest: JsonObject | undefined,
): Conversation {
  const c: Conversation = { version: 1, messages };
  keepProviderData(c, format, requestRest);
  return c;
}

/** The name of each tool call id of a conversation (the first call's, when an id repeats). */
export function callNames(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type === 'tool-call' && typeof p.id === 'string' && typeof p.name === 'string') {
        if (!names.has(p.id)) names.set(p.id, p.name);
      }
    }
  }
  return names;
}

// ---------------------------------------------------------------------------
// Losses

/** Where a loss inside a message's part is. */
export type PartWhere = { messageIndex: number; partIndex: number };

/** The v1 conversation fields a writer carries (`providerData` aside); any other is a loss. */
export const CONVERSATION_FIELDS = ['version', 'messages'] as const;

/** The v1 message fields a writer carries (`providerData` aside); any other is a loss. */
export const MESSAGE_FIELDS = ['role', 'parts'] as const;

/** The fields of each v1 part type a writer carries (`providerData` aside); any other is a loss. */
export const PART_FIELDS = {
  text: ['type', 'text'],
  image: ['type', 'url', 'data', 'mediaType'],
  document: ['type', 'url', 'data', 'mediaType', 'name'],
  'tool-call': ['type', 'id', 'name', 'arguments'],
  'tool-result': ['type', 'callId', 'name', 'content', 'failed'],
  reasoning: ['type', 'text', 'signature', 'redacted'],
} as const satisfies Record<string, readonly string[]>;

/**
 * The request settings of each format's request body: fields that tune one request (model,
 * sampling, limits, tools offered, streaming, metadata) and hold no part of the conversation. A
 * system prompt is content (readers turn it into a system message), and so is a reference to
 * stored state (`previous_response_id`, `cachedContent`): neither is listed. A conversion to
 * another format drops these as settings, not as losses (see {@link splitLosses}).
 */
export const REQUEST_SETTINGS: Readonly<Record<string, readonly string[]>> = {
  anthropic: [
    'model',
    'max_tokens',
    'temperature',
    'top_p',
    'top_k',
    'stop_sequences',
    'stream',
    'metadata',
    'tools',
    'tool_choice',
    'thinking',
    'service_tier',
    'container',
    'mcp_servers',
    'context_management',
  ],
  'openai-chat': [
    'model',
    'max_tokens',
    'max_completion_tokens',
    'temperature',
    'top_p',
    'n',
    'stop',
    'stream',
    'stream_options',
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'functions',
    'function_call',
    'response_format',
    'seed',
    'presence_penalty',
    'frequency_penalty',
    'logit_bias',
    'logprobs',
    'top_logprobs',
    'user',
    'metadata',
    'store',
    'service_tier',
    'reasoning_effort',
    'modalities',
    'audio',
    'prediction',
    'web_search_options',
    'verbosity',
    'prompt_cache_key',
    'safety_identifier',
  ],
  'openai-responses': [
    'model',
    'max_output_tokens',
    'max_tool_calls',
    'temperature',
    'top_p',
    'top_logprobs',
    'stream',
    'stream_options',
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'reasoning',
    'text',
    'truncation',
    'include',
    'store',
    'background',
    'metadata',
    'user',
    'service_tier',
    'prompt_cache_key',
    'safety_identifier',
  ],
  gemini: ['model', 'generationConfig', 'safetySettings', 'tools', 'toolConfig', 'labels'],
  bedrock: [
    'modelId',
    'inferenceConfig',
    'toolConfig',
    'guardrailConfig',
    'additionalModelRequestFields',
    'additionalModelResponseFieldPaths',
    'requestMetadata',
    'performanceConfig',
  ],
};

/** histlint's own id fields (v1 conversation and message fields) no provider format has a place for. */
export const HISTLINT_ID_FIELDS: readonly string[] = ['conversationId', 'runId'];

/** True when `key` of a request body in `format` is a request setting ({@link REQUEST_SETTINGS}). */
export function isRequestSetting(format: string, key: string): boolean {
  return REQUEST_SETTINGS[format]?.includes(key) === true;
}

/**
 * Losses for `providerData` of other formats on one object, each naming its keys. On the
 * conversation itself (no `messageIndex`), the request settings of that format are split off
 * into a loss marked `dropped: "settings"`.
 */
export function providerDataLosses(
  obj: JsonObject,
  format: string,
  where: { messageIndex?: number; partIndex?: number },
): Loss[] {
  const pd = obj.providerData;
  if (!isPlainObject(pd)) return [];
  const out: Loss[] = [];
  for (const k of Object.keys(pd)) {
    if (k === format) continue;
    const entry = pd[k];
    if (!isPlainObject(entry)) {
      out.push({ ...where, what: `providerData.${k}` });
      continue;
    }
    // Shape hints ($-keys) carry no data another format could lose.
    const keys = Object.keys(entry)
      .filter((key) => !isHintKey(key))
      .map(sourceKey);
    const settings =
      where.messageIndex === undefined ? keys.filter((key) => isRequestSetting(k, key)) : [];
    const rest = keys.filter((key) => !settings.includes(key));
    if (rest.length > 0) out.push({ ...where, what: `providerData.${k}`, keys: rest });
    if (settings.length > 0)
      out.push({ ...where, what: `providerData.${k}`, keys: settings, dropped: 'settings' });
  }
  return out;
}

/** Losses for the fields of `obj` a writer does not carry (not in `carried`, not `providerData`). */
export function fieldLosses(
  obj: JsonObject,
  carried: readonly string[],
  where: { messageIndex?: number; partIndex?: number },
  label: string,
): Loss[] {
  const own = label === 'conversation' || label === 'message';
  return Object.keys(obj)
    .filter((k) => k !== 'providerData' && !carried.includes(k))
    .map((k) => {
      const loss: Loss = { ...where, what: `${label} field "${k}"`, keys: [k] };
      if (own && HISTLINT_ID_FIELDS.includes(k)) loss.dropped = 'ids';
      return loss;
    });
}

/**
 * The provider-executed tool calls of an assistant message and their results,
 * by part index, each with the loss a writer reports when it drops it: a
 * `tool-call` answered by a `tool-result` later in the same assistant message
 * (e.g. an AI SDK call with `providerExecuted: true` and its result, such as
 * a web search the provider ran). No provider request but the AI SDK's can
 * replay such a call as a client call: written as one, it is left without a
 * result in the next turn, or its result lands in the assistant turn. Each
 * result is paired with the first earlier call of its id not yet paired.
 * Empty for any other message. Writers drop both parts only for a message
 * from another format (one read from their own format is written as read).
 */
export function providerExecutedParts(m: Message): Map<number, string> {
  const dropped = new Map<number, string>();
  if (m.role !== 'assistant' || !Array.isArray(m.parts)) return dropped;
  /** Unpaired calls so far: id → their part indices, in order. */
  const open = new Map<string, number[]>();
  m.parts.forEach((p, j) => {
    if (!isPlainObject(p)) return;
    if (p.type === 'tool-call' && typeof p.id === 'string') {
      const list = open.get(p.id);
      if (list === undefined) open.set(p.id, [j]);
      else list.push(j);
      return;
    }
    if (p.type !== 'tool-result' || typeof p.callId !== 'string') return;
    const call = open.get(p.callId)?.shift();
    if (call === undefined) return;
    const name = m.parts[call]!.name;
    const named = typeof name === 'string' ? ` (${name})` : '';
    dropped.set(call, `provider-executed tool call "${p.callId}"${named}`);
    dropped.set(j, `result of provider-executed tool call "${p.callId}"`);
  });
  return dropped;
}

/** Losses of one object: other formats' `providerData`, then the fields not in `carried` (named with `label`). */
export function objectLosses(
  obj: JsonObject,
  format: string,
  carried: readonly string[],
  where: { messageIndex?: number; partIndex?: number },
  label: string,
): Loss[] {
  return [...providerDataLosses(obj, format, where), ...fieldLosses(obj, carried, where, label)];
}

/** Losses of a conversation's own fields: other formats' `providerData`, then fields besides version and messages. */
export function conversationLosses(conversation: Conversation, format: string): Loss[] {
  return objectLosses(conversation, format, CONVERSATION_FIELDS, {}, 'conversation');
}

/** Losses of message `index`'s own fields: other formats' `providerData`, then fields besides role and parts. */
export function messageLosses(m: Message, index: number, format: string): Loss[] {
  return objectLosses(m, format, MESSAGE_FIELDS, { messageIndex: index }, 'message');
}

/** What a conversion dropped that is no content: request settings or histlint ids, by key. */
export interface Dropped {
  what: 'settings' | 'ids';
  /** The keys dropped, sorted, each once. */
  keys: string[];
}

/**
 * A writer's losses split into the losses of content (which need `--lossy`) and what was
 * dropped as settings or ids (reported, never refused), gathered into one entry per kind.
 */
export function splitLosses(all: readonly Loss[]): { losses: Loss[]; dropped: Dropped[] } {
  const losses: Loss[] = [];
  const byKind = new Map<Dropped['what'], Set<string>>();
  for (const l of all) {
    if (l.dropped === undefined) {
      losses.push(l);
      continue;
    }
    const set = byKind.get(l.dropped) ?? new Set<string>();
    for (const k of l.keys ?? []) set.add(k);
    byKind.set(l.dropped, set);
  }
  const dropped: Dropped[] = [];
  for (const what of ['settings', 'ids'] as const) {
    const set = byKind.get(what);
    if (set !== undefined) dropped.push({ what, keys: [...set].sort() });
  }
  return { losses, dropped };
}
