/**
 * Writes a conversation back to the rollout it was read from (the read's context holds the lines).
 * The response items are written by the `openai-responses` adapter, as the bare array they were
 * read from; each item equal to the one read keeps its line, the very object read (the CLI writes
 * it back as its original bytes). An item a repair added (a synthesized `function_call_output` or
 * `custom_tool_call_output`) is a new item line right after the line of the item written before
 * it (the call, or the last call of its run, as Codex writes outputs after their calls): in a
 * current rollout a `response_item` line with the timestamp of its call's line, in an older one
 * the bare item (see ./lines.ts); an item a repair dropped loses its line; an item changed in
 * place is its line with the new item (a current line's other fields, in their order, as read).
 * Every other line (session meta, turn contexts, UI events, state lines) stays where it was, as
 * it was.
 */
import { SessionWriteError, SourceError } from '../../model/errors.js';
import { jsonEqual, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Conversation, WriteResult } from '../format.js';
import { contextOf, readContext } from '../kit/provenance.js';
import { isPlainObject } from '../kit/kept.js';
import { FORMAT as RESPONSES } from '../openai-responses/hints.js';
import { writeResponses } from '../openai-responses/write.js';
import type { ResponsesContext } from '../openai-responses/read.js';
import { FORMAT } from './hints.js';
import { formNamed } from './lines.js';
import type { CodexCliContext } from './read.js';
import { rekeyed } from '../kit/rekey.js';

/** The read context of a rollout, or undefined (a conversation never read from one). */
function rolloutContext(context: unknown): CodexCliContext | undefined {
  const ctx = contextOf(context, FORMAT) as Partial<CodexCliContext> | undefined;
  return ctx !== undefined && Array.isArray(ctx.events) && Array.isArray(ctx.itemLines)
    ? (ctx as CodexCliContext)
    : undefined;
}

/** What names an item across a change of its content: its type and its call id or id. */
function identity(item: JsonValue | undefined): string | undefined {
  if (!isPlainObject(item) || typeof item.type !== 'string') return undefined;
  const id =
    typeof item.call_id === 'string' ? item.call_id : typeof item.id === 'string' ? item.id : '';
  return `${item.type}\u0000${id}`;
}

/** Where each written item goes: an original line (kept or changed), or a new line. */
type Placed = { line: number; changed: boolean } | { line: undefined };

/**
 * The read item (from `next`) that `item` is a changed copy of: the first one of its type and id,
 * when the items read before it are gone (none of them is among the items written `later`), so
 * a dropped item just before a changed one does not make the changed one a new line. -1: none.
 */
function changedAt(
  read: readonly JsonValue[],
  next: number,
  item: JsonValue,
  later: readonly JsonValue[],
): number {
  const id = identity(item);
  if (id === undefined) return -1;
  for (let q = next; q < read.length; q++) {
    if (identity(read[q]) !== id) continue;
    const skipped = read.slice(next, q);
    return skipped.some((r) => later.some((w) => jsonEqual(r, w))) ? -1 : q;
  }
  return -1;
}

/**
 * Matches the written items to the items read, in order: an item equal to the next ones read is
 * that line (the read items skipped on the way were dropped); one of the same type and id as a
 * next read item is that item changed (see {@link changedAt}); any other is new.
 */
function placeItems(
  read: readonly JsonValue[],
  lines: readonly number[],
  nested: readonly boolean[],
  written: readonly JsonValue[],
): Placed[] {
  // An item of a compaction (its history or summary) has no line of its own to change or drop.
  const refuseNested = (q: number, what: string): void => {
    if (nested[q] === true)
      throw new SessionWriteError('rollout', FORMAT, `item ${q} of a compaction ${what}`);
  };
  const out: Placed[] = [];
  let next = 0;
  written.forEach((item, k) => {
    let found = -1;
    for (let q = next; q < read.length; q++) {
      if (jsonEqual(read[q]!, item)) {
        found = q;
        break;
      }
    }
    if (found !== -1) {
      for (let q = next; q < found; q++) refuseNested(q, 'was removed');
      out.push({ line: lines[found]!, changed: false });
      next = found + 1;
      return;
    }
    const changed = changedAt(read, next, item, written.slice(k + 1));
    if (changed === -1) return void out.push({ line: undefined });
    for (let q = next; q < changed; q++) refuseNested(q, 'was removed');
    refuseNested(changed, 'changed');
    out.push({ line: lines[changed]!, changed: true });
    next = changed + 1;
  });
  for (let q = next; q < read.length; q++) refuseNested(q, 'was removed');
  return out;
}

/** The timestamp of the line of the call an output answers (of the items read), else `fallback`. */
function callTimestamp(ctx: CodexCliContext, item: JsonValue, fallback: JsonValue): JsonValue {
  const callId = isPlainObject(item) ? item.call_id : undefined;
  if (typeof callId !== 'string') return fallback;
  for (const [k, p] of ctx.items.entries()) {
    if (!isPlainObject(p) || p.call_id !== callId) continue;
    if (typeof p.type !== 'string' || p.type.endsWith('_output')) continue;
    const e = ctx.events[ctx.itemLines[k]!];
    if (isPlainObject(e) && e.timestamp !== undefined) return e.timestamp;
  }
  return fallback;
}

/** The timestamp of a line, if it has one. */
function stampOf(e: JsonValue | undefined): JsonValue | undefined {
  return isPlainObject(e) && typeof e.timestamp === 'string' ? e.timestamp : undefined;
}

/** Writes a conversation read from a rollout back as that rollout's lines. */
export function writeCodexCli(conversation: Conversation, context?: unknown): WriteResult {
  const ctx = rolloutContext(context);
  if (ctx === undefined)
    throw new SourceError('a codex-cli session is written only back to the file it was read from');
  const responses: ResponsesContext = { ...ctx.responses, read: readContext(RESPONSES).read };
  const back = rekeyed(conversation, FORMAT, RESPONSES, (original, copy) => {
    if (ctx.read.has(original)) responses.read.add(copy);
  });
  const written = writeResponses(back, responses);
  const items = written.value as JsonValue[];
  const events = ctx.events;
  const lines = ctx.itemLines;
  const form = formNamed(ctx.legacy === true);
  const placed = placeItems(ctx.items, lines, ctx.nested, items);

  // The lines kept or changed, and the new lines after each line (or before the first one).
  const kept = new Map<number, JsonValue>();
  const after = new Map<number, JsonValue[]>();
  const head: JsonValue[] = [];
  let anchor: number | undefined;
  placed.forEach((p, k) => {
    const item = items[k]!;
    if (p.line !== undefined) {
      const e = events[p.line] as JsonObject;
      if (!kept.has(p.line)) kept.set(p.line, p.changed ? form.changed(e, item) : e);
      anchor = p.line;
      return;
    }
    const near = anchor;
    const line = form.added(item, () => {
      const fallback = near === undefined ? undefined : stampOf(events[near]);
      return callTimestamp(ctx, item, fallback ?? events.map(stampOf).find(Boolean) ?? '');
    });
    if (anchor === undefined) head.push(line);
    else {
      const list = after.get(anchor);
      if (list === undefined) after.set(anchor, [line]);
      else list.push(line);
    }
  });

  // New items before every kept one go before the first item line (after every line when none).
  const itemLine = new Set(lines);
  const firstItem = lines[0];
  const value: JsonValue[] = [];
  events.forEach((e, i) => {
    if (i === firstItem) value.push(...head);
    if (!itemLine.has(i)) value.push(e);
    else if (kept.has(i)) value.push(kept.get(i)!);
    value.push(...(after.get(i) ?? []));
  });
  if (firstItem === undefined) value.push(...head);
  return { value, losses: written.losses };
}
