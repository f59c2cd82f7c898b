/**
 * Writing v1 conversations as Anthropic Messages requests: one provider turn per group of v1
 * messages (see core/turns.ts), leading system messages as the top-level `system`. A history
 * read from this format is written back as it was; one from another format or an operation is
 * adapted to what the API takes, with a loss for whatever does not fit.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { type Message, type Part } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import { groupTurns, writerTurnKey } from '../../core/turns.js';
import type { Conversation, Loss } from '../format.js';
import { writeBody, writesBare } from '../kit/envelope.js';
import { mergeKept, withoutSystemFields } from '../kit/kept.js';
import { base64ToText } from '../kit/media.js';
import { contextOf, readHere } from '../kit/provenance.js';
import {
  argumentsToObject,
  argumentsToValue,
  conversationLosses,
  type PartWhere,
} from '../shared.js';
import {
  keptBlock,
  lossPrefix,
  mediaSource,
  partLosses,
  skippedPartLoss,
  sortLosses,
  systemBlocks,
  writeTurn,
  type TurnWriter,
} from '../turns.js';
import { FORMAT, HINTS } from './hints.js';
import type { AnthropicContext } from './read.js';

/**
 * The wire fields only the v1 model sets (content, role, calls, results, media, system prompt):
 * kept data never sets one, at any depth, so what sanitize, lint and show checked is what the
 * provider receives. Kept data fills only fields v1 has no place for (`cache_control`, ...).
 */
const WIRE = [
  'role',
  'content',
  'type',
  'text',
  'source',
  'id',
  'name',
  'input',
  'tool_use_id',
  'is_error',
  'thinking',
  'signature',
  'data',
  'url',
  'media_type',
  'file_id',
  'title',
];

interface WriteState {
  /** The context the write was given (a read's of this format tells its parts apart). */
  context: unknown;
  losses: Loss[];
}

/** Writes an `image` or `document` part. */
function writeMedia(
  state: WriteState,
  part: Part,
  where: PartWhere,
  label: string | undefined,
): JsonObject | undefined {
  const pd = providerDataOf(part, FORMAT);
  // A part from another format is adapted to what Anthropic takes; one read here is written as read.
  const foreign = !readHere(state.context, part, FORMAT);
  const kind = part.type as 'image' | 'document';
  const source: JsonObject = {};
  const { url, data, mediaType } = mediaSource(part);
  const keepMediaType = pd?.[HINTS.mediaType] !== false;
  if (data !== undefined) {
    let text: string | undefined;
    if (kind === 'document') {
      const plain = mediaType?.split(';')[0]?.trim() === 'text/plain';
      if (pd?.[HINTS.sourceType] === 'text' || (foreign && plain)) text = base64ToText(data);
    }
    if (text !== undefined) {
      source.type = 'text';
      if (keepMediaType && mediaType !== undefined) {
        source.media_type = foreign ? 'text/plain' : mediaType;
      }
      source.data = text;
    } else {
      source.type = 'base64';
      if (keepMediaType && mediaType !== undefined) source.media_type = mediaType;
      source.data = data;
      if (foreign && kind === 'document' && mediaType !== 'application/pdf') {
        // Reported as lost, so left out: the API refuses other base64 document types.
        state.losses.push({
          ...where,
          what: `${lossPrefix(label)}document type ${mediaType ?? '(none)'} (Anthropic takes PDF and plain text)`,
        });
        return undefined;
      }
    }
  } else if (url !== undefined) {
    source.type = 'url';
    source.url = url;
    if (foreign && kind === 'document' && mediaType !== 'application/pdf') {
      state.losses.push({
        ...where,
        what: `${lossPrefix(label)}document type ${mediaType ?? '(none)'} (Anthropic URL documents are PDF)`,
      });
      return undefined;
    }
  } else {
    state.losses.push({ ...where, what: `${lossPrefix(label)}${kind} part without url or data` });
    return undefined;
  }
  const block: JsonObject = { type: kind, source };
  if (kind === 'document' && typeof part.name === 'string') block.title = part.name;
  mergeKept(block, pd, WIRE);
  return block;
}

/** Writes one v1 part as a content block, or records why it cannot be written. */
function writePart(
  state: WriteState,
  part: Part,
  where: PartWhere,
  inResult: boolean,
  label?: string,
): JsonObject | undefined {
  const block = writeBlock(state, part, where, inResult, label);
  // What a written part does not carry; a part not written at all is one loss already.
  if (block !== undefined) state.losses.push(...partLosses(part, where, FORMAT));
  return block;
}

function writeBlock(
  state: WriteState,
  part: Part,
  where: PartWhere,
  inResult: boolean,
  label: string | undefined,
): JsonObject | undefined {
  const pd = providerDataOf(part, FORMAT);
  const fromSource = readHere(state.context, part, FORMAT);
  const skipped = skippedPartLoss(part, where, label, inResult, fromSource, FORMAT);
  if (skipped !== undefined) {
    state.losses.push(skipped);
    return undefined;
  }
  switch (part.type) {
    case 'text': {
      const block: JsonObject = {
        type: 'text',
        text: typeof part.text === 'string' ? part.text : '',
      };
      mergeKept(block, pd, WIRE);
      return block;
    }
    case 'image':
    case 'document':
      return writeMedia(state, part, where, label);
    case 'tool-call': {
      const block: JsonObject = { type: 'tool_use' };
      if (typeof part.id === 'string') block.id = part.id;
      // A block read without one is written back as it was: nothing is lost.
      else if (!fromSource)
        state.losses.push({ ...where, what: `${lossPrefix(label)}tool call without id` });
      if (typeof part.name === 'string') block.name = part.name;
      const args = typeof part.arguments === 'string' ? part.arguments : '';
      // Only an input that was not an object is the arguments text parsed as is.
      block.input =
        pd?.[HINTS.inputRaw] === true ? argumentsToValue(args) : argumentsToObject(args);
      mergeKept(block, pd, WIRE);
      return block;
    }
    case 'tool-result': {
      const block: JsonObject = { type: 'tool_result' };
      if (typeof part.callId === 'string') block.tool_use_id = part.callId;
      else if (!fromSource)
        state.losses.push({ ...where, what: `${lossPrefix(label)}tool result without callId` });
      const content = Array.isArray(part.content) ? (part.content as Part[]) : [];
      const only = content.length === 1 ? content[0] : undefined;
      if (
        pd?.[HINTS.contentString] === true &&
        only?.type === 'text' &&
        typeof only.text === 'string' &&
        only.providerData === undefined
      ) {
        block.content = only.text;
      } else if (!(pd?.[HINTS.noContent] === true && content.length === 0)) {
        const blocks: JsonValue[] = [];
        content.forEach((c, k) => {
          const b = writePart(state, c, where, true, `tool result content ${k}`);
          if (b !== undefined) blocks.push(b);
        });
        block.content = blocks;
      }
      if (typeof part.failed === 'boolean') block.is_error = part.failed;
      mergeKept(block, pd, WIRE);
      return block;
    }
    case 'reasoning': {
      if (typeof part.redacted === 'string') {
        if (typeof part.text === 'string' && part.text !== '') {
          state.losses.push({
            ...where,
            what: `${lossPrefix(label)}text of a redacted reasoning part`,
          });
        }
        const block: JsonObject = { type: 'redacted_thinking', data: part.redacted };
        mergeKept(block, pd, WIRE);
        return block;
      }
      // Anthropic rejects thinking without a signature; one read that way stays as it was.
      if (typeof part.signature !== 'string' && !fromSource) {
        state.losses.push({
          ...where,
          what: `${lossPrefix(label)}reasoning part without signature`,
        });
        return undefined;
      }
      const block: JsonObject = {
        type: 'thinking',
        thinking: typeof part.text === 'string' ? part.text : '',
      };
      if (typeof part.signature === 'string') block.signature = part.signature;
      mergeKept(block, pd, WIRE);
      return block;
    }
    default:
      return keptBlock(part, FORMAT, state.losses, where, label);
  }
}

/** The top-level `system` value from the v1 system messages that go there. */
function writeSystem(
  writer: TurnWriter,
  messages: readonly Message[],
  indices: readonly number[],
): JsonValue | undefined {
  if (indices.length === 0) return undefined;
  const blocks = systemBlocks(writer, indices);
  const first = messages[indices[0]!]!;
  const hint = providerDataOf(first, FORMAT)?.[HINTS.system];
  const only = blocks.length === 1 ? blocks[0]! : undefined;
  const plain =
    only !== undefined && Object.keys(only).length === 2 && typeof only.text === 'string';
  if (indices.length === 1 && hint !== 'blocks' && plain) return only.text as string;
  return blocks.length === 0 ? undefined : blocks;
}

/**
 * Writes a v1 conversation as an Anthropic Messages request body, or as a bare messages array
 * when it was read from one; `context` is the read's of this format, when there was one.
 */
export function writeAnthropic(
  conversation: Conversation,
  context?: unknown,
): { value: JsonValue; losses: Loss[] } {
  const ctx = contextOf(context, FORMAT) as AnthropicContext | undefined;
  const state: WriteState = { context, losses: [] };
  state.losses.push(...conversationLosses(conversation, FORMAT));
  const messages = conversation.messages;
  const bare = writesBare(ctx, conversation, FORMAT, { losses: state.losses });

  // Leading system messages go to the top-level `system`; later ones, and ones read inline, stay inline.
  const top: number[] = [];
  const turns: number[] = [];
  let leading = true;
  messages.forEach((m, i) => {
    const hinted = providerDataOf(m, FORMAT)?.[HINTS.system] !== undefined;
    const toTop =
      !bare && m.role === 'system' && (hinted || (leading && !readHere(context, m, FORMAT)));
    (toTop ? top : turns).push(i);
    if (m.role !== 'system') leading = false;
  });
  const writer: TurnWriter = {
    messages,
    context,
    format: FORMAT,
    hints: HINTS,
    provider: 'Anthropic',
    losses: state.losses,
    writePart: (p, where) => {
      const block = writePart(state, p, where, false);
      return block === undefined ? [] : [block];
    },
    isResult: (b) => b.type === 'tool_result',
  };
  const system = writeSystem(writer, messages, top);

  const entries = turns.map((i) => ({
    key: writerTurnKey(FORMAT, messages[i]!),
    source: readHere(context, messages[i]!, FORMAT),
  }));
  const out: JsonValue[] = [];
  for (const group of groupTurns(entries)) {
    const members = group.map((g) => turns[g]!);
    const turn = writeTurn(writer, members);
    if (turn === undefined) continue;
    const { role, blocks } = turn;
    const pd = providerDataOf(messages[turn.lead]!, FORMAT);
    const message: JsonObject = { role };
    const only = blocks.length === 1 ? blocks[0]! : undefined;
    if (
      pd?.[HINTS.string] === true &&
      members.length === 1 &&
      only !== undefined &&
      Object.keys(only).length === 2 &&
      typeof only.text === 'string'
    ) {
      message.content = only.text;
    } else {
      message.content = blocks;
    }
    mergeKept(message, pd, WIRE);
    out.push(message);
  }

  // A system prompt only ever comes from a system message (see withoutSystemFields).
  const kept = bare
    ? undefined
    : withoutSystemFields(providerDataOf(conversation, FORMAT), ['system'], state.losses);
  sortLosses(state.losses);
  if (bare) return { value: out, losses: state.losses };
  // A top-level system the writer does not set is no field of its own: a kept one keeps its place.
  const own: Record<string, JsonValue | undefined> =
    system === undefined ? { messages: out } : { system, messages: out };
  return { value: writeBody(kept, own, ctx?.keys), losses: state.losses };
}
