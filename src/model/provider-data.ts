/**
 * `providerData`: what a format adapter keeps on a v1 conversation, message or part, by format
 * name. The adapters declare their own keys (src/formats/<name>/hints.ts); the few hints read
 * outside them, by lint rules and core operations, are declared here, with what they say, so a
 * rule never spells a hint of its own.
 */
import { setOwn, type JsonObject, type JsonValue } from './json.js';
import { isObject, type Part } from './types.js';

/** The `providerData` entry a format left on a message, part or conversation, if any. */
export function providerDataOf(obj: JsonObject, format: string): JsonObject | undefined {
  const pd = obj.providerData;
  if (!isObject(pd)) return undefined;
  const entry = pd[format];
  return isObject(entry) ? entry : undefined;
}

/** The hints read outside the adapters, by the format that writes them. */
export const SHARED_HINTS = {
  gemini: {
    /**
     * Message: a tool message read from a Gemini content of its own (results of one model turn
     * may be sent in one content or several; core/turns.ts groups them as read).
     */
    separate: '$separate',
    /** Message: the content's role when it was not the usual one for its turn (any JSON value). */
    role: '$role',
  },
  'openai-chat': {
    /** Message: an assistant content that was `null` (`"null"`) or missing (`"absent"`). */
    content: '$content',
  },
} as const;

/** A hint a format left on `obj` (see {@link SHARED_HINTS}), or undefined. */
export function sharedHint<F extends keyof typeof SHARED_HINTS>(
  obj: JsonObject,
  format: F,
  hint: keyof (typeof SHARED_HINTS)[F],
): JsonValue | undefined {
  const key = SHARED_HINTS[format][hint] as string;
  return providerDataOf(obj, format)?.[key];
}

/**
 * True for a hint an adapter wrote into providerData (`$name`); a source field that starts with
 * `$` is kept as `$$name` (see {@link restOf}) and is data.
 */
export function isHintKey(key: string): boolean {
  return key.startsWith('$') && !key.startsWith('$$');
}

/** The key kept data holds a source field under (`$name` is kept as `$$name`). */
export function storedKey(field: string): string {
  return field.startsWith('$') ? `$${field}` : field;
}

/** The source field name of a key of kept data (`$$name` is the field `$name`). */
export function sourceKey(key: string): string {
  return key.startsWith('$$') ? key.slice(1) : key;
}

/** The formats that stored a kept part's fields spread, before the one shape. */
const SPREAD_FORMATS: readonly string[] = ['anthropic', 'bedrock', 'openai-responses'];

/**
 * The node a kept part of `format` holds, whatever shape it was stored in, or undefined for a part
 * that is none (another type, no data of this format). v1 files written by earlier versions read
 * the same as before:
 *
 * - `{part: node, ...hints}`: the one shape (`keptPart` in src/formats/kit/kept.ts);
 * - `{block: node}`: claude-code's earlier shape;
 * - the node's own fields, spread and escaped (`$$name`), with `$empty` for `{}`: the earlier
 *   shape of anthropic, bedrock and openai-responses.
 *
 * A spread node whose only field was `part` (an untyped block, which the APIs refuse) reads as the
 * first shape: the one stored shape that does not come back the same.
 */
export function keptPartNode(part: Part, format: string): JsonValue | undefined {
  if (!part.type.startsWith(`${format}:`)) return undefined;
  const data = providerDataOf(part, format);
  if (data === undefined) return undefined;
  const fields = Object.keys(data).filter((k) => !isHintKey(k));
  if (Object.hasOwn(data, 'part') && fields.length === 1) return data.part!;
  if (format === 'claude-code' && Object.hasOwn(data, 'block') && fields.length === 1)
    return data.block!;
  if (!SPREAD_FORMATS.includes(format)) return undefined;
  const node: JsonObject = {};
  for (const k of fields) setOwn(node, sourceKey(k), data[k]!);
  return node;
}
