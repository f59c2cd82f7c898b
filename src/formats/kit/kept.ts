/**
 * Kept data: what a reader keeps in `providerData[format]` of a v1 conversation, message or part
 * because v1 has no field for it, and how a writer puts it back. Source fields are kept under
 * their own names (a field whose name starts with `$` as `$$name`, so a file cannot pass itself a
 * hint); hints, the `$` keys, say how to write a value back. A block v1 cannot express at all is
 * a kept part, in one shape for every format (see {@link keptPart}). This is the only place that
 * makes or reads a kept part (test/architecture.test.ts).
 */
import { PROVIDER_STORAGE_SCHEMES, unsafeKeptScheme } from '../../core/url.js';
import { JsonNumber, setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import { isObject, type Part } from '../../model/types.js';
import type { Loss } from '../format.js';
import { isHintKey, keptPartNode, sourceKey, storedKey } from '../../model/provider-data.js';

// Kept data's key escaping and the kept-part node are the model's (core reads them too).
export { isHintKey, keptPartNode, sourceKey, storedKey } from '../../model/provider-data.js';

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
    // A source field named like a hint is kept escaped, so it is never read as one.
    setOwn(rest, storedKey(key), obj[key]!);
  }
  return rest;
}

/** Sets `providerData[format]` on a v1 message, part or conversation when there is something to keep, and returns it. */
export function keepProviderData<T extends JsonObject>(
  target: T,
  format: string,
  data: JsonObject | undefined,
): T {
  if (data === undefined || Object.keys(data).length === 0) return target;
  const existing = target.providerData;
  const pd: JsonObject = isPlainObject(existing) ? existing : {};
  setOwn(pd, format, data);
  setOwn(target, 'providerData', pd);
  return target;
}

/**
 * Adds `data` to what `target` already keeps under `format` (after it: a format read through
 * another's reader keeps its own fields beside what that reader kept, now under its key).
 */
export function addProviderData<T extends JsonObject>(
  target: T,
  format: string,
  data: JsonObject,
): T {
  const pd = target.providerData;
  const own = isPlainObject(pd) ? pd[format] : undefined;
  return keepProviderData(target, format, mergeFields(isPlainObject(own) ? own : undefined, data));
}

/**
 * Copies each field of `data` other than `skip` onto `target` (restoring kept fields on write),
 * skipping `$`-prefixed hints. A field the writer already set wins: kept data fills in what the
 * v1 fields do not say, and never overrides them (a stored `role` or `url` in providerData must
 * not turn a user message into a system prompt, or a checked URL into another one).
 */
export function restoreFields(
  target: JsonObject,
  data: JsonObject | undefined,
  skip: readonly string[] = [],
): void {
  if (data === undefined) return;
  for (const key of Object.keys(data)) {
    if (isHintKey(key)) continue;
    const name = sourceKey(key);
    if (skip.includes(name) || Object.hasOwn(target, name)) continue;
    setOwn(target, name, data[key]!);
  }
}

/**
 * Kept data without the `wire` fields, for a writer that lays a body out with writeBody (the
 * kept fields in the order read) rather than restoreFields: what only the v1 model sets never
 * comes back from kept data. With `nulls`, a wire field the source held as `null` (which sets
 * nothing) does come back, so a `"name": null` survives the round trip.
 */
export function withoutWire(
  kept: JsonObject | undefined,
  wire: readonly string[],
  nulls = false,
): JsonObject | undefined {
  if (kept === undefined) return undefined;
  const out: JsonObject = {};
  for (const k of Object.keys(kept)) {
    if (wire.includes(sourceKey(k)) && !(nulls && kept[k] === null)) continue;
    setOwn(out, k, kept[k]!);
  }
  return out;
}

/**
 * Kept request data without the fields named `keys`, where this format sets a system prompt. A
 * reader turns such a field into a v1 system message, so one still in kept data was put there by
 * hand: written out, it would bring back a system prompt sanitize dropped, or add one no system
 * message holds. Whatever its shape (a provider may read shapes the reader does not), it is left
 * out, a loss, unless it sets nothing (`null`, `""`, `[]`, `{}`).
 */
export function withoutSystemFields(
  kept: JsonObject | undefined,
  keys: readonly string[],
  losses: Loss[],
): JsonObject | undefined {
  if (kept === undefined) return kept;
  let out = kept;
  for (const key of keys) {
    if (!Object.hasOwn(kept, key) || setsNothing(kept[key]!)) continue;
    if (out === kept) {
      out = {};
      for (const k of Object.keys(kept)) setOwn(out, k, kept[k]!);
    }
    delete out[key];
    losses.push({
      what: `"${key}" kept in providerData (a system message carries the system prompt)`,
    });
  }
  return out;
}

/** True for a value that sets nothing: `null`, `""`, `[]`, `{}`. */
function setsNothing(v: JsonValue): boolean {
  if (v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

/**
 * True when kept data holds `field`: a source field the reader could not map (a content that is
 * an object, a tool name that is a number), which the writer puts back instead of a default of
 * its own. The fields that give authority (a role, a system prompt, a URL) are never taken so:
 * see restoreFields and withoutSystemFields.
 */
export function keptField(data: JsonObject | undefined, field: string): boolean {
  return data !== undefined && Object.hasOwn(data, field);
}

/**
 * A kept `field` the reader could not map (an object, a number: no provider reads it as
 * content), so writing it back keeps the round trip; undefined for anything a provider would
 * read (a string, an array), which only the v1 model may set.
 */
export function keptUnreadable(data: JsonObject | undefined, field: string): JsonValue | undefined {
  if (!keptField(data, field)) return undefined;
  const v = data![field]!;
  return typeof v === 'string' || Array.isArray(v) ? undefined : v;
}

/** A new object with the fields of `first`, then those of `second` (either may be absent). */
export function mergeFields(
  first: JsonObject | undefined,
  second: JsonObject | undefined,
): JsonObject {
  const out: JsonObject = {};
  for (const src of [first, second]) {
    if (src === undefined) continue;
    for (const k of Object.keys(src)) setOwn(out, k, src[k]!);
  }
  return out;
}

/**
 * True, with a loss, when kept data a writer would write as it is (a block v1 cannot express)
 * holds a URL the provider would fetch from a place other than the web or its own storage:
 * sanitize drops such a part, and no writer brings one back. Every writer's kept blocks go
 * through here.
 */
export function refusesKeptUrl(
  kept: unknown,
  format: string,
  losses: Loss[],
  where: { messageIndex?: number; partIndex?: number },
  what: string,
): boolean {
  const scheme = unsafeKeptScheme(kept, PROVIDER_STORAGE_SCHEMES[format]);
  if (scheme === null) return false;
  losses.push({ ...where, what: `${what} with a ${scheme}: URL` });
  return true;
}

/**
 * Copies kept fields onto a block built from v1 fields. Kept fields mirror the
 * source block's shape, so a kept object merges into the object the block
 * already has there (e.g. the extra fields of an image's `source`). `$` hints
 * are not copied, and a `skip` key is never set, at any depth: a writer passes
 * its wire fields (content, role, calls, results, media), which only the v1
 * model sets.
 */
export function mergeKept(
  target: JsonObject,
  kept: JsonObject | undefined,
  skip: readonly string[] = [],
): void {
  if (kept === undefined) return;
  for (const key of Object.keys(kept)) {
    if (isHintKey(key)) continue;
    const name = sourceKey(key);
    // Own fields only: `__proto__` would reach Object.prototype (and merge into it).
    const have = Object.hasOwn(target, name) ? target[name] : undefined;
    const add = kept[key]!;
    // Extra fields of an object the writer built (an image's `source`) merge into it.
    if (isPlainObject(have) && isPlainObject(add)) mergeKept(have, add, skip);
    // What the writer set from the v1 fields wins over kept data (see restoreFields).
    else if (!skip.includes(name) && !Object.hasOwn(target, name)) setOwn(target, name, add);
  }
}

/**
 * A part for a source node v1 cannot hold: type `<format>:<label>`, and the node whole, unchanged,
 * as `providerData[format].part` (then the `hints`). This is the one shape of a kept part.
 */
export function keptPart(format: string, node: JsonValue, label: string, hints?: JsonObject): Part {
  const data: JsonObject = { part: node };
  if (hints !== undefined) for (const k of Object.keys(hints)) setOwn(data, k, hints[k]!);
  return keepProviderData({ type: `${format}:${label}` }, format, data);
}

/** True for a kept part of this format ({@link keptPartNode} finds its node). */
export function isKeptPart(part: Part, format: string): boolean {
  return keptPartNode(part, format) !== undefined;
}

/**
 * The node of a kept part, to be written back as it was; undefined (with a loss) when it is not a
 * kept part of this format, or when {@link refusesKeptUrl}.
 */
export function keptNode(
  part: Part,
  format: string,
  losses: Loss[],
  where: { messageIndex?: number; partIndex?: number },
  what = `${part.type} block`,
): JsonValue | undefined {
  const node = keptPartNode(part, format);
  if (node === undefined) {
    losses.push({ ...where, what: `unknown part type "${part.type}"` });
    return undefined;
  }
  return refusesKeptUrl(node, format, losses, where, what) ? undefined : node;
}
