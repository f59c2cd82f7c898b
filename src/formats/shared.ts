/**
 * Helpers every format adapter uses: arguments between text and objects,
 * `providerData` bookkeeping, and loss reporting.
 */
import { SourceError } from '../model/errors.js';
import {
  JsonNumber,
  parseJson,
  setOwn,
  stringifyJson,
  type JsonObject,
  type JsonValue,
} from '../model/json.js';
import { isObject, type Message, type Part } from '../model/types.js';
import type { Conversation, Loss } from './format.js';

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

/** Tool-call arguments as text, from a format whose arguments are objects: compact JSON, numbers as written. */
export function objectToArguments(value: JsonValue): string {
  return stringifyJson(value, 0);
}

/** True when `v` is a plain JSON object (not an array, not a number wrapper). */
export function isPlainObject(v: JsonValue | undefined): v is JsonObject {
  return isObject(v) && !(v instanceof JsonNumber);
}

/** The fields of `obj` other than `known`, in their order, or undefined when there are none. */
export function restOf(obj: JsonObject, known: readonly string[]): JsonObject | undefined {
  let rest: JsonObject | undefined;
  for (const key of Object.keys(obj)) {
    if (known.includes(key)) continue;
    rest ??= {};
    setOwn(rest, key, obj[key]!);
  }
  return rest;
}

/** Sets `providerData[format]` on a v1 message, part or conversation, when there is something to keep. */
export function keepProviderData(
  target: JsonObject,
  format: string,
  data: JsonObject | undefined,
): void {
  if (data === undefined || Object.keys(data).length === 0) return;
  const existing = target.providerData;
  const pd: JsonObject = isPlainObject(existing) ? existing : {};
  setOwn(pd, format, data);
  setOwn(target, 'providerData', pd);
}

/** Copies each field of `data` onto `target` (restoring kept fields on write), skipping `$`-prefixed hints. */
export function restoreFields(target: JsonObject, data: JsonObject | undefined): void {
  if (data === undefined) return;
  for (const key of Object.keys(data)) {
    if (key.startsWith('$')) continue;
    setOwn(target, key, data[key]!);
  }
}

/** Losses for `providerData` of other formats, and v1 fields a format cannot express, on one object. */
export function providerDataLosses(
  obj: JsonObject,
  format: string,
  where: { messageIndex?: number; partIndex?: number },
): Loss[] {
  const pd = obj.providerData;
  if (!isPlainObject(pd)) return [];
  // An entry of shape hints only ($-keys) carries no data another format could lose.
  return Object.keys(pd)
    .filter((k) => k !== format)
    .filter((k) => {
      const entry = pd[k];
      return !isPlainObject(entry) || Object.keys(entry).some((key) => !key.startsWith('$'));
    })
    .map((k) => ({ ...where, what: `providerData.${k}` }));
}

/** Losses for the fields of `obj` a writer does not carry (not in `carried`, not `providerData`). */
export function fieldLosses(
  obj: JsonObject,
  carried: readonly string[],
  where: { messageIndex?: number; partIndex?: number },
  label: string,
): Loss[] {
  return Object.keys(obj)
    .filter((k) => k !== 'providerData' && !carried.includes(k))
    .map((k) => ({ ...where, what: `${label} field "${k}"` }));
}

/** Throws the one-line error for a value that is not this format. */
export function notFormat(format: string, why: string): never {
  throw new SourceError(`not ${format}: ${why}`);
}

/** A v1 message (role, parts, then anything else). */
export function makeMessage(role: string, parts: Part[]): Message {
  return { role, parts };
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
