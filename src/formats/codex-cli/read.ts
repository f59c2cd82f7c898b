/**
 * Reads an OpenAI Codex CLI rollout (the lines of a rollout JSONL file as one array, the caller
 * joining them) into v1. The conversation is the Responses items its lines hold, in file order:
 * the `payload` of the `response_item` lines of a current rollout, located at their line
 * (`/N/payload/...`); the item lines of an older rollout, which are the items themselves
 * (`/N/...`). They are read as the `openai-responses` adapter reads a bare array of items (see
 * ../openai-responses/read.ts). The other lines are not the conversation (see
 * docs/formats/codex-cli.md): `session_meta` and `turn_context` are settings, `event_msg` lines
 * repeat for display what the response items hold (the user's prompt, the agent's message, its
 * reasoning summary) or count tokens; an older rollout's meta and state lines are settings too.
 * The read's context keeps every line, for a write back to the same file.
 */
import type { JsonValue } from '../../model/json.js';
import type { ReadOptions, ReadResult } from '../format.js';
import { isPlainObject } from '../kit/kept.js';
import type { ItemSource } from '../kit/source-map.js';
import { readContext, type ReadContext } from '../kit/provenance.js';
import { FORMAT as RESPONSES } from '../openai-responses/hints.js';
import { readResponses, type ResponsesContext } from '../openai-responses/read.js';
import { notFormat } from '../shared.js';
import { isRolloutLine } from './detect.js';
import { FORMAT } from './hints.js';
import { formOfLines, type RolloutForm } from './lines.js';
import { readThrough } from '../kit/rekey.js';

/** What a read of a rollout hands to its write (and to `show`): the lines, and which were read. */
export interface CodexCliContext extends ReadContext {
  /** The rollout's lines, the very array read: a write gives back each line it did not change. */
  events: JsonValue[];
  /** The response items read, in order: line payloads, or the items of a compaction. */
  items: JsonValue[];
  /** The line of each response item read, in the order read (the items' order in the file). */
  itemLines: number[];
  /** Per item read: it is inside a `compacted` line (its history or summary), not a line itself. */
  nested: boolean[];
  /** Lines that are not the conversation (session meta, turn contexts, UI events, compactions). */
  skippedEvents: number[];
  /** The older form: `{id, timestamp, instructions}` first, then bare item lines and state lines. */
  legacy: boolean;
  /** The read context of the items as a bare Responses array, for the Responses writer. */
  responses: ResponsesContext;
}

/** A response item of the conversation, and where it is: its line, and its path there. */
interface ItemAt extends ItemSource {
  item: JsonValue;
  line: number;
  nested: boolean;
}

/** A user message item (what a compaction without a replacement history keeps of the history). */
function isUserMessage(item: JsonValue): boolean {
  return isPlainObject(item) && item.role === 'user' && (item.type ?? 'message') === 'message';
}

/**
 * The response items of the conversation, in order, as Codex rebuilds the history when it resumes
 * a rollout: the item each item line holds (in `form`); a `compacted` line replaces what came
 * before it with its `replacement_history`, or, without one, with the user messages so far and
 * its summary `message` as a user message after them. The other lines are skipped.
 */
function itemsOf(
  value: readonly JsonValue[],
  form: RolloutForm,
): { sources: ItemAt[]; skippedEvents: number[] } {
  let sources: ItemAt[] = [];
  value.forEach((e, i) => {
    const own = form.itemOf(e, i);
    if (own !== undefined) {
      sources.push({ item: own.item, at: [i, ...own.at], line: i, nested: false });
      return;
    }
    if (!isRolloutLine(e) || e.type !== 'compacted') return;
    const history = e.payload.replacement_history;
    if (Array.isArray(history)) {
      const at = (k: number): ItemSource['at'] => [i, 'payload', 'replacement_history', k];
      sources = history.map((item, k) => ({ item, at: at(k), line: i, nested: true }));
    } else if (typeof e.payload.message === 'string') {
      const summary = { role: 'user', content: e.payload.message };
      sources = sources.filter((s) => isUserMessage(s.item));
      sources.push({
        item: summary,
        at: [i, 'payload', 'message'],
        fields: { content: [] },
        line: i,
        nested: true,
      });
    }
  });
  // Every line whose own payload is not an item read: a compaction, what it replaced, the rest.
  const read = new Set(sources.flatMap((s) => (s.nested ? [] : [s.line])));
  const skippedEvents = value.flatMap((_, i) => (read.has(i) ? [] : [i]));
  return { sources, skippedEvents };
}

/** Reads a rollout's lines into one v1 conversation. */
export function readCodexCli(value: JsonValue, options?: ReadOptions): ReadResult {
  if (!Array.isArray(value)) notFormat(FORMAT, 'not an array of rollout lines');
  const form = formOfLines(value);
  if (!form.legacy && !value.some(isRolloutLine)) {
    notFormat(
      FORMAT,
      'no rollout lines (objects with "timestamp", "type" and "payload"), nor an older rollout\'s first line ({"id", "timestamp", "instructions"})',
    );
  }
  const { sources, skippedEvents } = itemsOf(value, form);
  const items = sources.map((s) => s.item);
  const itemLines = sources.map((s) => s.line);
  const inner = readResponses(items, options);
  const context: CodexCliContext = {
    ...readContext(FORMAT, options),
    events: value,
    items,
    itemLines,
    nested: sources.map((s) => s.nested),
    skippedEvents,
    legacy: form.legacy,
    responses: inner.context as ResponsesContext,
  };
  const innerRead = (inner.context as ResponsesContext).read;
  // Item `k`'s pointer `/k/...` is `/<line of k>/payload/...` in the rollout (`/<line of k>/...`
  // in an older one, or inside a compaction).
  const read = readThrough(inner, RESPONSES, FORMAT, sources, (original, copy) => {
    if (innerRead.has(original)) context.read.add(copy);
  });
  return { ...read, context };
}
