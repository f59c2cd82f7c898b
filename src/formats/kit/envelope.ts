/**
 * The envelope of a stored history: a bare array of messages, or a request body holding the
 * list under one key (`messages`, `input`, `contents`) beside its other fields. One policy for
 * every format:
 *
 * - a read records which it was in the conversation's kept data: `$bare: true` for a bare
 *   array, so a stored v1 file written back later (without the read's context) keeps the shape;
 * - a body's fields are kept in the order read, and a write puts them back in that order: the
 *   `$keys` hint records the order when the default one (`model`, the fields the writer sets,
 *   then the others) would not give it back.
 *
 * This is the only place that decides either (test/architecture.test.ts).
 */
import { setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import { SourceError } from '../../model/errors.js';
import { isObject } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import type { Loss, ReadOptions } from '../format.js';
import { isHintKey, restOf, sourceKey, storedKey } from './kept.js';
import { readContext, type ReadContext } from './provenance.js';
import { readBase } from './source-map.js';

/** The hint that marks a history read from a bare array. */
export const BARE_HINT = '$bare';
/** The hint that records a request body's key order, when the default order would lose it. */
export const KEYS_HINT = '$keys';

/** A history's envelope, as read. */
export interface Envelope {
  /** The value was a bare array (no request body). */
  bare: boolean;
  /** The history's list. */
  list: JsonValue[];
  /** The pointer of the list. */
  base: string;
  /** The request body, when there was one. */
  body?: JsonObject;
}

/**
 * The envelope of `value`: a bare array, or a body with an array under `listKey`. Throws the
 * one-line `not <format>: <why>` for anything else (`bareAllowed: false` refuses bare arrays).
 */
export function readEnvelope(
  value: JsonValue,
  format: string,
  listKey: string,
  options: { bareAllowed?: boolean; why?: string } = {},
  read?: ReadOptions,
): Envelope {
  if (Array.isArray(value) && options.bareAllowed !== false) {
    return { bare: true, list: value, base: readBase('', read) };
  }
  if (isObject(value) && Array.isArray(value[listKey])) {
    const base = readBase(`/${listKey}`, read);
    return { bare: false, list: value[listKey] as JsonValue[], base, body: value };
  }
  throw new SourceError(`not ${format}: ${options.why ?? `no "${listKey}" array`}`);
}

/**
 * The history list of `value` for detection: the value itself when it is an array, else its
 * `listKey` array; undefined for any other shape. What {@link readEnvelope} reads, without the
 * read.
 */
export function historyList(value: JsonValue, listKey: string): JsonValue[] | undefined {
  if (Array.isArray(value)) return value;
  if (isObject(value) && Array.isArray(value[listKey])) return value[listKey] as JsonValue[];
  return undefined;
}

/** What a read of a bare list or a body hands the write of its format, to give the same shape back. */
export interface EnvelopeContext extends ReadContext {
  /** The value read was a bare array (no body). */
  bare: boolean;
  /** The body's keys in the order read (absent for a bare array). */
  keys?: string[];
}

/** The read context of `format` for a history read through {@link readEnvelope}. */
export function envelopeContext(
  format: string,
  envelope: Envelope,
  options?: ReadOptions,
): EnvelopeContext {
  const ctx: EnvelopeContext = { ...readContext(format, options), bare: envelope.bare };
  if (envelope.body !== undefined) ctx.keys = Object.keys(envelope.body);
  return ctx;
}

/** The default order of a written body's keys: `model`, the writer's own fields, then the kept ones. */
function defaultOrder(kept: readonly string[], own: readonly string[]): string[] {
  const out: string[] = [];
  if (kept.includes('model')) out.push('model');
  for (const k of own) if (!out.includes(k)) out.push(k);
  for (const k of kept) if (!out.includes(k)) out.push(k);
  return out;
}

/**
 * The request-level data a read keeps on the conversation: the body's fields other than `taken`
 * (the list and what the reader turned into messages, in the order the writer sets them), in
 * their order, with `$keys` when a write
 * would not give the order back by default; `{$bare: true}` for a bare array. `extra` (hints of
 * the format's own) goes first. Undefined when there is nothing to keep; but a format whose
 * writer makes a bare array by default (`bareByDefault`, see {@link writesBare}) records
 * `$bare: false` for a body that keeps nothing else (`{"messages": [...]}` alone), so it stays one.
 */
export function envelopeData(
  envelope: Envelope,
  taken: readonly string[],
  extra?: JsonObject,
  bareByDefault = false,
): JsonObject | undefined {
  const out: JsonObject = {};
  if (extra !== undefined) for (const k of Object.keys(extra)) setOwn(out, k, extra[k]!);
  if (envelope.bare) {
    setOwn(out, BARE_HINT, true);
    return out;
  }
  const body = envelope.body!;
  const rest = restOf(body, taken);
  const keys = Object.keys(body);
  const restKeys = keys.filter((k) => !taken.includes(k));
  const own = taken.filter((k) => keys.includes(k));
  const order = defaultOrder(restKeys, own);
  if (order.some((k, i) => k !== keys[i])) setOwn(out, KEYS_HINT, keys);
  if (rest !== undefined) for (const k of Object.keys(rest)) setOwn(out, k, rest[k]!);
  if (Object.keys(out).length > 0) return out;
  return bareByDefault ? { [BARE_HINT]: false } : undefined;
}

/**
 * True when a history is written as a bare array: the read's context says so when there is one
 * (`context.bare`), else the conversation's kept data (`$bare`), else `fallback` (the format's
 * default shape). When it is, each request field the kept data holds beside `$bare` is added to
 * `losses` (a bare array has no place for one): hand-edited, or from a conversation that had a
 * body. A writer asks this once, where it decides the shape, and writes bare exactly when true.
 */
export function writesBare(
  context: { bare?: boolean } | undefined,
  conversation: JsonObject,
  format: string,
  options: { fallback?: boolean; losses?: Loss[] } = {},
): boolean {
  const pd = providerDataOf(conversation, format);
  const bare =
    typeof context?.bare === 'boolean'
      ? context.bare
      : pd === undefined
        ? (options.fallback ?? false)
        : pd[BARE_HINT] === true;
  if (bare && pd !== undefined && options.losses !== undefined) {
    for (const k of Object.keys(pd))
      if (!isHintKey(k))
        options.losses.push({
          what: `request field "${sourceKey(k)}" (a bare array has none)`,
          keys: [sourceKey(k)],
        });
  }
  return bare;
}

/**
 * A request body from the writer's own fields (`own`: the list and what it writes from v1
 * messages; undefined ones left out) and the fields kept from the read (`kept`, hints left out),
 * in the order read (`$keys`, or `order` from a read context), else the default order. What the
 * writer sets wins over kept data; a kept field fills in one the writer leaves undefined (a
 * writer that must not bring a kept field back takes it out first: see withoutSystemFields).
 */
export function writeBody(
  kept: JsonObject | undefined,
  own: Record<string, JsonValue | undefined>,
  order?: readonly string[],
): JsonObject {
  const body: JsonObject = {};
  const recorded = kept?.[KEYS_HINT];
  const keys =
    order ??
    (Array.isArray(recorded) && recorded.every((k) => typeof k === 'string')
      ? (recorded as string[])
      : undefined);
  const place = (key: string): void => {
    if (Object.hasOwn(body, key)) return;
    const v = Object.hasOwn(own, key) ? own[key] : undefined;
    const stored = storedKey(key);
    if (v !== undefined) setOwn(body, key, v);
    else if (kept !== undefined && Object.hasOwn(kept, stored)) setOwn(body, key, kept[stored]!);
  };
  if (keys !== undefined) for (const k of keys) place(k);
  else if (kept !== undefined && Object.hasOwn(kept, 'model')) place('model');
  for (const k of Object.keys(own)) place(k);
  if (kept !== undefined) for (const k of Object.keys(kept)) if (!isHintKey(k)) place(sourceKey(k));
  return body;
}

/**
 * `conversation` without the bare-array hint of `format`'s kept data (a format whose items are
 * read through another's bare-array reader, and which is never a bare array itself): in place.
 */
export function dropBareHint<T extends JsonObject>(conversation: T, format: string): T {
  const pd = conversation.providerData as JsonValue | undefined;
  if (!isObject(pd)) return conversation;
  const own = pd[format];
  if (!isObject(own) || !Object.hasOwn(own, BARE_HINT)) return conversation;
  const rest: JsonObject = { ...own };
  delete rest[BARE_HINT];
  const out: JsonObject = { ...pd };
  if (Object.keys(rest).length === 0) delete out[format];
  else out[format] = rest;
  if (Object.keys(out).length === 0) delete (conversation as JsonObject).providerData;
  else (conversation as JsonObject).providerData = out;
  return conversation;
}
