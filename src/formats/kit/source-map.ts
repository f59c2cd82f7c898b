/**
 * The source map of a read: where each v1 message, part and part field came from in the value
 * read, as RFC 6901 pointers. A reader records what it read (`map.message`, `map.part`,
 * `map.child`) and hands back `map.locate`; lint findings then point into the original file.
 * This is the only locator: an adapter never builds one of its own (test/architecture.test.ts).
 */
import type { JsonValue } from '../../model/json.js';
import { escapePointerToken, parsePointer, valueAt } from '../../model/pointer.js';
import type { Locator, ReadOptions } from '../format.js';

/**
 * Where a v1 field came from, below its part's source node: one source key (`"text"`), or the
 * tokens of a deeper path (`["source", "data"]`).
 */
export type FieldSource = string | readonly (string | number)[];

/** A v1 field name → where it came from, below the part's source node. */
export type FieldSources = Readonly<Record<string, FieldSource>>;

/** Where one v1 part (or one content part of a tool result) came from. */
export interface PartSource {
  /** The pointer of the source node the part came from. */
  pointer: string;
  fields?: FieldSources;
  /** A tool result's content parts, by content index. */
  content?: PartSource[];
  /** The pointer of a tool result's whole content, when its parts have no node of their own. */
  contentPointer?: string;
}

interface MessageSource {
  pointer: string;
  parts: PartSource[];
}

/**
 * The base pointer of an untracked read (see {@link ReadOptions}): joining tokens to it returns
 * it as it is, so a reader builds no pointer strings it would never report.
 */
export const UNTRACKED_BASE = '\u0000untracked';

/** The pointer a read builds on: `base`, or {@link UNTRACKED_BASE} for an untracked read. */
export function readBase(base: string, options?: ReadOptions): string {
  return options?.untracked === true ? UNTRACKED_BASE : base;
}

/** Appends tokens to an RFC 6901 pointer. */
export function joinPointer(base: string, ...tokens: readonly (string | number)[]): string {
  if (base === UNTRACKED_BASE) return base;
  let p = base;
  for (const t of tokens) p += '/' + escapePointerToken(t);
  return p;
}

/** The pointer of a field below `pointer`. */
function fieldPointer(pointer: string, field: FieldSource): string {
  return typeof field === 'string' ? joinPointer(pointer, field) : joinPointer(pointer, ...field);
}

/**
 * What one read recorded. `base` is the pointer of the message list (what a finding about the
 * whole history points at); `source` is the value read: a field pointer that does not resolve in
 * it (a field the source left out) falls back to its part's node.
 */
export class SourceMap {
  private readonly messages: MessageSource[] = [];

  constructor(
    readonly base: string,
    private readonly source: JsonValue,
  ) {}

  /** Records that v1 message `i` came from the node at `pointer`. */
  message(i: number, pointer: string): void {
    this.messages[i] = { pointer, parts: this.messages[i]?.parts ?? [] };
  }

  /** Records that part `j` of v1 message `i` came from the node at `pointer`; returns the entry. */
  part(i: number, j: number, pointer: string, fields?: FieldSources): PartSource {
    const entry: PartSource = fields === undefined ? { pointer } : { pointer, fields };
    const m = this.messages[i];
    if (m === undefined)
      throw new Error(`source map: part ${j} of message ${i} before the message`);
    m.parts[j] = entry;
    return entry;
  }

  /** Records where content part `k` of a tool result (recorded as `parent`) came from. */
  child(parent: PartSource, k: number, pointer: string, fields?: FieldSources): PartSource {
    const entry: PartSource = fields === undefined ? { pointer } : { pointer, fields };
    (parent.content ??= [])[k] = entry;
    return entry;
  }

  /** Records a whole part entry built elsewhere (a reader that returns locations with its parts). */
  place(i: number, j: number, entry: PartSource): void {
    const m = this.messages[i];
    if (m === undefined)
      throw new Error(`source map: part ${j} of message ${i} before the message`);
    m.parts[j] = entry;
  }

  /** The pointer of a v1 message, part, or a path below a part (see {@link Locator}). */
  readonly locate: Locator = (messageIndex, partIndex, path = []) => {
    if (messageIndex === undefined) return this.base;
    const m = this.messages[messageIndex];
    if (m === undefined) return this.base;
    if (partIndex === undefined) return m.pointer;
    const part = m.parts[partIndex];
    return part === undefined ? m.pointer : this.below(part, path);
  };

  /** The pointer of `path` below a part, mapped through its fields as far as it goes. */
  private below(part: PartSource, path: readonly (string | number)[]): string {
    if (path.length === 0) return part.pointer;
    const [first, second] = path;
    if (first === 'content') {
      if (part.contentPointer !== undefined) return part.contentPointer;
      const inner = typeof second === 'number' ? part.content?.[second] : undefined;
      if (inner !== undefined) return this.below(inner, path.slice(2));
    }
    const field = typeof first === 'string' ? part.fields?.[first] : undefined;
    if (field === undefined) return part.pointer;
    const pointer = fieldPointer(part.pointer, field);
    return this.exists(pointer) ? pointer : part.pointer;
  }

  private exists(pointer: string): boolean {
    return valueAt(this.source, parsePointer(pointer)) !== undefined;
  }
}

/**
 * The locator of an untracked read: every location is the document's root. One function, so a
 * caller can tell a read that recorded nothing from one whose locator is real (v1's reader
 * tracks nothing and needs no map).
 */
export const untrackedLocate: Locator = () => '';

/** The map of an untracked read: it records nothing. */
class UntrackedSourceMap extends SourceMap {
  private static readonly ENTRY: PartSource = { pointer: UNTRACKED_BASE };
  override readonly locate: Locator = untrackedLocate;
  override message(): void {}
  override part(): PartSource {
    return UntrackedSourceMap.ENTRY;
  }
  override child(): PartSource {
    return UntrackedSourceMap.ENTRY;
  }
  override place(): void {}
}

/**
 * The source map of a read of `source` whose message list is at `base` (as the envelope gave it);
 * one that records nothing for an untracked read.
 */
export function sourceMap(base: string, source: JsonValue, options?: ReadOptions): SourceMap {
  return options?.untracked === true
    ? new UntrackedSourceMap(UNTRACKED_BASE, source)
    : new SourceMap(base, source);
}

/**
 * The locator of a value that is v1 already (no map needed): message `i` is at `base/i`, its
 * part `j` at `base/i/parts/j`, and a path below a part is the same path in the source.
 */
export function identityLocator(base: string): Locator {
  return (messageIndex, partIndex, path = []) => {
    if (messageIndex === undefined) return base;
    let p = `${base}/${messageIndex}`;
    if (partIndex !== undefined) p += `/parts/${partIndex}`;
    return joinPointer(p, ...path);
  };
}

/**
 * A read's locator moved onto other pointers, for a format that reads its items through another
 * format's reader (a Codex CLI rollout's Responses items, each at `/<line>/payload`): `move` maps
 * the tokens of each pointer the inner read gives to the tokens in the source, or undefined to
 * keep it. An untracked read's locator stays the kit's own (lint reads again, tracked).
 */
export function relocate(
  inner: Locator,
  move: (tokens: string[]) => readonly (string | number)[] | undefined,
): Locator {
  if (inner === untrackedLocate) return inner;
  return (messageIndex, partIndex, path) => {
    const pointer = inner(messageIndex, partIndex, path);
    const moved = move(parsePointer(pointer));
    return moved === undefined ? pointer : joinPointer('', ...moved);
  };
}

/** Where one item of a list read through another format's reader sits in the value read. */
export interface ItemSource {
  /** The item's path in the value read. */
  at: readonly (string | number)[];
  /** The fields of the item read whose path differs from their name: each field's path below `at`. */
  fields?: Readonly<Record<string, readonly (string | number)[]>>;
}

/**
 * A locator for a list of items read by another reader as a bare array (whose pointers are
 * `/k/field/...`) that names each item, and each renamed field, where it sits in the value read.
 */
export function relocateItems(inner: Locator, sources: readonly ItemSource[]): Locator {
  return relocate(inner, (tokens) => {
    const source = tokens.length === 0 ? undefined : sources[Number(tokens[0])];
    if (source === undefined) return undefined;
    const [field, ...below] = tokens.slice(1);
    if (field === undefined) return source.at;
    const renamed = source.fields !== undefined && Object.hasOwn(source.fields, field);
    return [...source.at, ...(renamed ? source.fields![field]! : [field]), ...below];
  });
}
