/**
 * Reads an OpenAI Codex CLI rollout (the lines of a rollout JSONL file as one array, the caller
 * joining them) into v1. The conversation is the `payload` of the `response_item` lines, in file
 * order: Responses items, read as the `openai-responses` adapter reads a bare array of items (see
 * ../openai-responses/read.ts), and located at their rollout line (`/N/payload/...`). The other
 * lines are not the conversation (see docs/formats/codex-cli.md): `session_meta` and `turn_context`
 * are settings, `event_msg` lines repeat for display what the response items hold (the user's
 * prompt, the agent's message, its reasoning summary) or count tokens. The read's context keeps
 * every line, for a write back to the same file.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { ReadOptions, ReadResult } from '../format.js';
import { relocateItems } from '../kit/source-map.js';
import { readContext, type ReadContext } from '../kit/provenance.js';
import { FORMAT as RESPONSES } from '../openai-responses/hints.js';
import { readResponses, type ResponsesContext } from '../openai-responses/read.js';
import { dropBareHint } from '../kit/envelope.js';
import { notFormat } from '../shared.js';
import { isResponseItemLine, isRolloutLine } from './detect.js';
import { FORMAT } from './hints.js';
import { rekeyed } from '../kit/rekey.js';

/** What a read of a rollout hands to its write (and to `show`): the lines, and which were read. */
export interface CodexCliContext extends ReadContext {
  /** The rollout's lines, the very array read: a write gives back each line it did not change. */
  events: JsonValue[];
  /** The line of each response item read, in the order read (the items' order in the file). */
  itemLines: number[];
  /** Lines that are not the conversation (session meta, turn contexts, UI events, compactions). */
  skippedEvents: number[];
  /** The read context of the items as a bare Responses array, for the Responses writer. */
  responses: ResponsesContext;
}

/** Reads a rollout's lines into one v1 conversation. */
export function readCodexCli(value: JsonValue, options?: ReadOptions): ReadResult {
  if (!Array.isArray(value)) notFormat(FORMAT, 'not an array of rollout lines');
  if (!value.some(isRolloutLine)) {
    notFormat(FORMAT, 'no rollout lines (objects with "timestamp", "type" and "payload")');
  }
  const itemLines: number[] = [];
  const skippedEvents: number[] = [];
  value.forEach((e, i) => (isResponseItemLine(e) ? itemLines : skippedEvents).push(i));
  const items = itemLines.map((i) => (value[i] as JsonObject).payload!);
  const inner = readResponses(items, options);
  const context: CodexCliContext = {
    ...readContext(FORMAT, options),
    events: value,
    itemLines,
    skippedEvents,
    responses: inner.context as ResponsesContext,
  };
  const innerRead = (inner.context as ResponsesContext).read;
  const conversation = rekeyed(inner.conversation, RESPONSES, FORMAT, (original, copy) => {
    if (innerRead.has(original)) context.read.add(copy);
  });
  dropBareHint(conversation, FORMAT);
  // Item `k`'s pointer `/k/...` is `/<line of k>/payload/...` in the rollout.
  const locate = relocateItems(
    inner.locate,
    itemLines.map((line) => ({ at: [line, 'payload'] })),
  );
  return { conversation, context, locate };
}
