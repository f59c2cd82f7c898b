/**
 * Helpers shared by the formats whose history is a list of user/assistant
 * turns of content blocks (Anthropic Messages, AWS Bedrock Converse): what a
 * read remembers for the write of the same format, how v1 messages are grouped
 * back into provider turns, pointers for `locate`, and plain text carried as
 * base64 in a v1 `data` field.
 */
import { setOwn, type JsonObject, type JsonValue } from '../model/json.js';
import { escapePointerToken } from '../model/pointer.js';
import type { Message, Part } from '../model/types.js';
import type { Locator, Loss } from './format.js';
import { providerDataOf } from './format.js';
import { isPlainObject, providerDataLosses } from './shared.js';

/** What a read of a block-turn format hands to the write of the same format. */
export interface TurnContext {
  /** The value read was a bare array of messages, not a request body. */
  bare: boolean;
  /** Every v1 message and part object the read produced, to tell them from ones an operation added. */
  read: WeakSet<object>;
  /** The request body's keys in the order read, so a write keeps it. */
  keys?: string[];
}

/** True when a v1 message came from the value read (by identity, or by carrying this format's providerData). */
export function isFromSource(
  ctx: TurnContext | undefined,
  message: Message,
  format: string,
): boolean {
  if (providerDataOf(message, format) !== undefined) return true;
  if (ctx === undefined) return false;
  // normalize copies a message when it drops one of its parts, but keeps the other part objects.
  return ctx.read.has(message) || message.parts.some((p) => ctx.read.has(p));
}

/** True when a v1 part came from the value read (by identity, or by carrying this format's providerData). */
export function isPartFromSource(
  ctx: TurnContext | undefined,
  part: Part,
  format: string,
): boolean {
  return providerDataOf(part, format) !== undefined || (ctx?.read.has(part) ?? false);
}

/** One v1 message as {@link groupTurns} sees it. */
export interface TurnEntry {
  /** The provider turn it may share with its neighbours; undefined never shares. */
  key: string | undefined;
  /** It came from the value read. */
  source: boolean;
}

/**
 * Groups consecutive entries into provider turns: entries with one `key`
 * share a turn, except that two entries from the source never do (so a read
 * writes back 1:1). An added entry joins the source entry after it when it
 * comes first in the run (normalize inserts results directly after the
 * call), otherwise the turn before it.
 */
export function groupTurns(entries: readonly TurnEntry[]): number[][] {
  const groups: number[][] = [];
  let current: number[] | undefined;
  let currentKey: string | undefined;
  let currentHasSource = false;
  entries.forEach((e, i) => {
    const joins =
      current !== undefined &&
      e.key !== undefined &&
      e.key === currentKey &&
      !(e.source && currentHasSource);
    if (joins) {
      current!.push(i);
      currentHasSource ||= e.source;
      return;
    }
    current = [i];
    groups.push(current);
    currentKey = e.key;
    currentHasSource = e.source;
  });
  return groups;
}

/** Moves the blocks `isResult` accepts to the front, keeping the order within both halves. */
export function resultsFirst<T>(blocks: readonly T[], isResult: (b: T) => boolean): T[] {
  return [...blocks.filter(isResult), ...blocks.filter((b) => !isResult(b))];
}

/** Where one v1 part came from, and how its fields map to the source's fields. */
export interface PartLocation {
  /** Pointer of the source node the part came from. */
  pointer: string;
  /** v1 field name → tokens below `pointer` of the source field it came from. */
  fields?: Record<string, readonly (string | number)[]>;
  /** Locations of a tool result's content parts, by content index. */
  content?: PartLocation[];
  /** Pointer of the whole content value, when `content` is not an array of blocks. */
  contentPointer?: string;
}

/** Where one v1 message came from. */
export interface MessageLocation {
  pointer: string;
  parts: PartLocation[];
}

/** Appends tokens to a pointer. */
export function joinPointer(base: string, ...tokens: readonly (string | number)[]): string {
  let p = base;
  for (const t of tokens) p += '/' + escapePointerToken(t);
  return p;
}

/** The pointer of a path below a part, mapped through its field table as far as it goes. */
function pointerBelow(loc: PartLocation, path: readonly (string | number)[]): string {
  if (path.length === 0) return loc.pointer;
  const [first, second] = path;
  if (first === 'content' && (loc.content !== undefined || loc.contentPointer !== undefined)) {
    if (loc.contentPointer !== undefined) return loc.contentPointer;
    const inner = typeof second === 'number' ? loc.content![second] : undefined;
    if (inner !== undefined) return pointerBelow(inner, path.slice(2));
  }
  const mapped = typeof first === 'string' ? loc.fields?.[first] : undefined;
  return mapped === undefined ? loc.pointer : joinPointer(loc.pointer, ...mapped);
}

/** A {@link Locator} over the locations a read recorded; `base` is the pointer of the messages array. */
export function makeLocator(base: string, messages: readonly MessageLocation[]): Locator {
  return (messageIndex, partIndex, path = []) => {
    if (messageIndex === undefined) return base;
    const m = messages[messageIndex];
    if (m === undefined) return base;
    if (partIndex === undefined) return m.pointer;
    const part = m.parts[partIndex];
    return part === undefined ? m.pointer : pointerBelow(part, path);
  };
}

/**
 * Copies kept fields onto a block built from v1 fields. Kept fields mirror the
 * source block's shape, so a kept object merges into the object the block
 * already has there (e.g. the extra fields of an image's `source`). `$` hints
 * and the `skip` keys are not copied.
 */
export function mergeKept(
  target: JsonObject,
  kept: JsonObject | undefined,
  skip: readonly string[] = [],
): void {
  if (kept === undefined) return;
  for (const key of Object.keys(kept)) {
    if (key.startsWith('$') || skip.includes(key)) continue;
    const have = target[key];
    const add = kept[key]!;
    if (isPlainObject(have) && isPlainObject(add)) mergeKept(have, add);
    else setOwn(target, key, add);
  }
}

/** Sets `obj[key]` to `value` when `value` has fields. */
export function setIfAny(obj: JsonObject, key: string, value: JsonObject | undefined): void {
  if (value !== undefined && Object.keys(value).length > 0) setOwn(obj, key, value);
}

/**
 * Losses for the providerData other formats left on an object. An entry with
 * only `$` hints (shape, no data) is not a loss.
 */
export function foreignDataLosses(
  obj: JsonObject,
  format: string,
  where: { messageIndex?: number; partIndex?: number },
): Loss[] {
  return providerDataLosses(obj, format, where).filter((loss) => {
    const entry = providerDataOf(obj, loss.what.slice('providerData.'.length));
    return entry === undefined || Object.keys(entry).some((k) => !k.startsWith('$'));
  });
}

/** Sorts losses in place by message, then part (conversation-level ones first), keeping the order of ties. */
export function sortLosses(losses: Loss[]): void {
  const key = (l: Loss): [number, number] => [l.messageIndex ?? -1, l.partIndex ?? -1];
  losses.sort((a, b) => {
    const [am, ap] = key(a);
    const [bm, bp] = key(b);
    return am - bm || ap - bp;
  });
}

/** Builds the request body: keys in the order read (`order`), then the history, then the kept fields. */
export function assembleBody(
  order: readonly string[] | undefined,
  kept: JsonObject | undefined,
  own: Record<string, JsonValue | undefined>,
): JsonObject {
  const body: JsonObject = {};
  const place = (key: string): void => {
    if (Object.hasOwn(body, key)) return;
    const v = Object.hasOwn(own, key) ? own[key] : undefined;
    if (v !== undefined) setOwn(body, key, v);
    else if (kept !== undefined && !key.startsWith('$') && Object.hasOwn(kept, key)) {
      setOwn(body, key, kept[key]!);
    }
  };
  for (const k of order ?? []) place(k);
  for (const k of Object.keys(own)) place(k);
  if (kept !== undefined) for (const k of Object.keys(kept)) place(k);
  return body;
}

/** The conversation fields a block-turn writer carries; any other is a loss. */
export const CONVERSATION_FIELDS = ['version', 'messages'] as const;

/** The v1 message fields a block-turn writer carries; any other is a loss. */
export const MESSAGE_FIELDS = ['role', 'parts'] as const;

/** UTF-8 text as base64, or undefined when the text would not come back identical (lone surrogates). */
export function textToBase64(text: string): string | undefined {
  const bytes = new TextEncoder().encode(text);
  if (new TextDecoder().decode(bytes) !== text) return undefined;
  let binary = '';
  // Chunks keep String.fromCharCode's argument list short.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** The UTF-8 text a base64 string holds, or undefined when it is not base64 of UTF-8 text. */
export function base64ToText(data: string): string | undefined {
  try {
    const binary = atob(data);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    // Only when encoding the text again gives these exact characters.
    return textToBase64(text) === data ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The media type and base64 payload of a `data:` URL, or undefined. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = /^data:([^;,]+)(?:;[^;,=]+=[^;,]*)*;base64,(.*)$/is.exec(url);
  return m === null ? undefined : { mediaType: m[1]!.toLowerCase(), data: m[2]! };
}
