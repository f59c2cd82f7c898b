/**
 * Provenance: was this v1 node read from this format? A writer asks it to tell a history it read
 * itself (written back as it was, quirks and all) from one another format or an operation made
 * (written strictly, as the provider accepts it). This is the only such test: an adapter never
 * keeps a policy of its own (test/architecture.test.ts).
 */
import type { JsonObject } from '../../model/json.js';
import { isObject, type Message, type Part } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import type { ReadOptions } from '../format.js';
import type { FieldSources, SourceMap } from './source-map.js';

/**
 * What a read hands to the write of the same format: the format, and every v1 message and part
 * object the read made, so that a writer can tell them from ones an operation added later
 * (normalize copies a message when it drops one of its parts, but keeps the other part objects).
 * A format adds what else its writer needs to rebuild the original shape.
 */
export interface ReadContext {
  format: string;
  read: WeakSet<object>;
}

/** The provenance of an untracked read: it keeps nothing (see {@link ReadOptions}). */
class UntrackedSet extends WeakSet<object> {
  override add(): this {
    return this;
  }
}
const UNTRACKED_READ: WeakSet<object> = new UntrackedSet();

/**
 * A new read context of `format`; the reader adds each message and part it makes (an untracked
 * read's context keeps none).
 */
export function readContext(format: string, options?: ReadOptions): ReadContext {
  return { format, read: options?.untracked === true ? UNTRACKED_READ : new WeakSet() };
}

/** The read context of `format` a writer was given, or undefined (a stored v1 file, another format). */
export function contextOf(context: unknown, format: string): ReadContext | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  const c = context as Partial<ReadContext>;
  return c.format === format && c.read instanceof WeakSet ? (c as ReadContext) : undefined;
}

/**
 * True when a v1 message or part came from a read of `format`: it is one of the objects the read
 * made (`context`), or it carries that format's providerData (a stored v1 file of such a read),
 * or, for a message, one of its parts does.
 */
export function readHere(context: unknown, node: JsonObject, format: string): boolean {
  if (providerDataOf(node, format) !== undefined) return true;
  const ctx = contextOf(context, format);
  if (ctx?.read.has(node) === true) return true;
  const parts = (node as Partial<Message>).parts;
  if (!Array.isArray(parts)) return false;
  return parts.some(
    (p) => isObject(p) && (ctx?.read.has(p) === true || providerDataOf(p, format) !== undefined),
  );
}

/**
 * True when a conversation as a whole came from a read of `format`: written with that read's
 * context, or holding a trace of the format (its providerData on the conversation, a message or
 * a part), as a stored v1 file of such a read does.
 */
export function conversationReadHere(
  context: unknown,
  conversation: { messages: readonly Message[] } & JsonObject,
  format: string,
): boolean {
  if (contextOf(context, format) !== undefined) return true;
  if (providerDataOf(conversation, format) !== undefined) return true;
  return conversation.messages.some((m) => isObject(m) && readHere(undefined, m, format));
}

/** One read in progress: its source map and its context, which every message and part made goes into. */
export interface Reading<C extends ReadContext = ReadContext> {
  map: SourceMap;
  ctx: C;
}

/** A v1 part a reader made, the node it came from, and where its fields are below that. */
export interface LocatedPart {
  part: Part;
  pointer: string;
  fields?: FieldSources;
}

/**
 * Records v1 message `i`, made from the node at `pointer` with `parts` in its order: where it and
 * each part came from, and that this read made them.
 */
export function recordMessage(
  r: Reading,
  i: number,
  pointer: string,
  message: Message,
  parts: readonly LocatedPart[],
): void {
  r.map.message(i, pointer);
  parts.forEach((p, j) => {
    r.map.part(i, j, p.pointer, p.fields);
    r.ctx.read.add(p.part);
  });
  r.ctx.read.add(message);
}

/**
 * Records v1 message `i`, a tool message of one result made from the whole node at `pointer`
 * (`fields` below it): the result's content parts are `items`, in their order.
 */
export function recordResultMessage(
  r: Reading,
  i: number,
  pointer: string,
  message: Message,
  fields: FieldSources,
  items: readonly LocatedPart[],
): void {
  const result = message.parts[0]!;
  r.map.message(i, pointer);
  const entry = r.map.part(i, 0, pointer, fields);
  items.forEach((c, k) => {
    r.map.child(entry, k, c.pointer, c.fields);
    r.ctx.read.add(c.part);
  });
  r.ctx.read.add(result);
  r.ctx.read.add(message);
}
