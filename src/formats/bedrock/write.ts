/**
 * Writing v1 conversations as AWS Bedrock Converse requests: one provider turn per group of v1
 * messages (see core/turns.ts), turns alternating, system messages in the top-level `system`
 * list. A history read from this format is written back as it was; one from another format or an
 * operation is adapted to what Converse takes, with a loss for whatever does not fit.
 */
import { parseJson, setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import { type Part } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import { groupTurns, writerTurnKey } from '../../core/turns.js';
import type { Conversation, Loss } from '../format.js';
import { writeBody, writesBare } from '../kit/envelope.js';
import { isKeptPart, mergeKept, withoutSystemFields } from '../kit/kept.js';
import { base64ToText, textToBase64 } from '../kit/media.js';
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
  resultsFirst,
  skippedPartLoss,
  sortLosses,
  systemBlocks,
  writeTurn,
  type TurnWriter,
} from '../turns.js';
import { DOCUMENT_TYPES, documentFormat, IMAGE_FORMATS, imageFormat, isS3Uri } from './blocks.js';
import { FORMAT, HINTS } from './hints.js';
import type { BedrockContext } from './read.js';

/**
 * The wire fields only the v1 model sets (content, role, calls, results, media, system prompt):
 * kept data never sets one, at any depth, so what sanitize, lint and show checked is what the
 * provider receives. A kept `cachePoint` is the block after the one it was kept on, not a field
 * of it, so it is never set either.
 */
const WIRE = [
  'role',
  'content',
  'text',
  'json',
  'image',
  'document',
  'video',
  'toolUse',
  'toolResult',
  'toolUseId',
  'name',
  'input',
  'status',
  'reasoningContent',
  'reasoningText',
  'signature',
  'redactedContent',
  'format',
  'source',
  'bytes',
  's3Location',
  'uri',
  'url',
  'cachePoint',
];

interface WriteState {
  /** The context the write was given (a read's of this format tells its parts apart). */
  context: unknown;
  losses: Loss[];
  /** Documents written without a name so far, to name the next one. */
  unnamed: number;
  /** Names of the tools the written history uses, for a minimal `toolConfig`. */
  toolNames: Set<string>;
  /** Whether the written history has toolUse or toolResult blocks. */
  toolBlocks: boolean;
}

/** Bedrock document names: alphanumerics, single spaces, hyphens, parentheses, square brackets. */
function documentName(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9\s\-()[\]]/g, '-')
      .replace(/\s+/g, ' ')
      .trim() || 'Document'
  );
}

/** Wraps an inner object as a block of `kind`, with the fields kept from the source block. */
function wrap(kind: string, inner: JsonValue, pd: JsonObject | undefined): JsonObject {
  const block: JsonObject = {};
  setOwn(block, kind, inner);
  // A kept cachePoint is the block after this one, not a field of it.
  mergeKept(block, pd, WIRE);
  return block;
}

/** Writes an `image` or `document` part. */
function writeMedia(
  state: WriteState,
  part: Part,
  where: PartWhere,
  label: string | undefined,
): JsonObject | undefined {
  const pd = providerDataOf(part, FORMAT);
  const kind = part.type as 'image' | 'document';
  // A part from another format is adapted to what Bedrock takes; one read here is written as read.
  const foreign = !readHere(state.context, part, FORMAT);
  const { url, data, mediaType } = mediaSource(part);
  const source: JsonObject = {};
  if (data !== undefined) {
    const text = pd?.[HINTS.sourceType] === 'text' ? base64ToText(data) : undefined;
    if (text !== undefined) source.text = text;
    else source.bytes = data;
  } else if (url !== undefined && (isS3Uri(url) || pd?.[HINTS.sourceType] === 's3Location')) {
    source.s3Location = { uri: url };
  } else {
    state.losses.push({
      ...where,
      what: `${lossPrefix(label)}${kind} ${url === undefined ? 'without url or data' : 'by URL (Bedrock takes bytes or S3)'}`,
    });
    return undefined;
  }
  const inner: JsonObject = {};
  const keptFormat = pd?.[HINTS.format];
  if (typeof keptFormat === 'string') inner.format = keptFormat;
  else if (mediaType !== undefined) {
    const format = kind === 'image' ? imageFormat(mediaType) : documentFormat(mediaType);
    const allowed =
      kind === 'image'
        ? IMAGE_FORMATS.has(format ?? '')
        : Object.hasOwn(DOCUMENT_TYPES, format ?? '');
    if (foreign && !allowed) {
      state.losses.push({
        ...where,
        what: `${lossPrefix(label)}${kind} type ${mediaType} has no Bedrock format`,
      });
    }
    if (format !== undefined) inner.format = format;
  }
  if (kind === 'document') {
    if (typeof part.name === 'string') {
      const name = foreign ? documentName(part.name) : part.name;
      if (name !== part.name) {
        state.losses.push({
          ...where,
          what: `${lossPrefix(label)}document name "${part.name}" written as "${name}"`,
        });
      }
      inner.name = name;
    } else if (foreign) {
      // Bedrock requires a name.
      inner.name = `Document ${++state.unnamed}`;
    }
  }
  inner.source = source;
  return wrap(kind, inner, pd);
}

/** Writes one v1 part as content blocks (a part may carry a cachePoint after it), or records why not. */
function writePart(
  state: WriteState,
  part: Part,
  where: PartWhere,
  inResult: boolean,
  label?: string,
): JsonObject[] {
  const pd = providerDataOf(part, FORMAT);
  const block = writeBlock(state, part, pd, where, inResult, label);
  if (block === undefined) return [];
  // What a written part does not carry; a part not written at all is one loss already.
  state.losses.push(...partLosses(part, where, FORMAT));
  const cachePoint = isKeptPart(part, FORMAT) ? undefined : pd?.cachePoint;
  return cachePoint === undefined ? [block] : [block, { cachePoint }];
}

function writeBlock(
  state: WriteState,
  part: Part,
  pd: JsonObject | undefined,
  where: PartWhere,
  inResult: boolean,
  label: string | undefined,
): JsonObject | undefined {
  const fromSource = readHere(state.context, part, FORMAT);
  const skipped = skippedPartLoss(part, where, label, inResult, fromSource, FORMAT);
  if (skipped !== undefined) {
    state.losses.push(skipped);
    return undefined;
  }
  switch (part.type) {
    case 'text': {
      const text = typeof part.text === 'string' ? part.text : '';
      if (pd?.[HINTS.json] === true) {
        try {
          const block: JsonObject = { json: parseJson(text) };
          mergeKept(block, pd, WIRE);
          return block;
        } catch {
          // Edited into text that is no longer JSON: it stays text.
        }
      }
      const block: JsonObject = { text };
      mergeKept(block, pd, WIRE);
      return block;
    }
    case 'image':
    case 'document':
      return writeMedia(state, part, where, label);
    case 'tool-call': {
      const use: JsonObject = {};
      if (typeof part.id === 'string') use.toolUseId = part.id;
      // A block read without one is written back as it was: nothing is lost.
      else if (!fromSource)
        state.losses.push({ ...where, what: `${lossPrefix(label)}tool call without id` });
      if (typeof part.name === 'string') {
        use.name = part.name;
        state.toolNames.add(part.name);
      }
      const args = typeof part.arguments === 'string' ? part.arguments : '';
      // Only an input that was not an object is the arguments text parsed as is.
      use.input = pd?.[HINTS.inputRaw] === true ? argumentsToValue(args) : argumentsToObject(args);
      state.toolBlocks = true;
      return wrap('toolUse', use, pd);
    }
    case 'tool-result': {
      const result: JsonObject = {};
      if (typeof part.callId === 'string') result.toolUseId = part.callId;
      else if (!fromSource)
        state.losses.push({ ...where, what: `${lossPrefix(label)}tool result without callId` });
      if (typeof part.name === 'string') state.toolNames.add(part.name);
      const content: JsonValue[] = [];
      const parts = Array.isArray(part.content) ? (part.content as Part[]) : [];
      parts.forEach((c, k) => {
        content.push(...writePart(state, c, where, true, `tool result content ${k}`));
      });
      result.content = content;
      if (typeof part.failed === 'boolean') result.status = part.failed ? 'error' : 'success';
      state.toolBlocks = true;
      return wrap('toolResult', result, pd);
    }
    case 'reasoning': {
      const reasoning: JsonObject = {};
      if (typeof part.redacted === 'string') {
        if (typeof part.text === 'string' && part.text !== '') {
          state.losses.push({
            ...where,
            what: `${lossPrefix(label)}text of a redacted reasoning part`,
          });
        }
        reasoning.redactedContent =
          pd?.[HINTS.redactedRaw] === true
            ? part.redacted
            : (textToBase64(part.redacted) ?? part.redacted);
      } else {
        const rt: JsonObject = { text: typeof part.text === 'string' ? part.text : '' };
        if (typeof part.signature === 'string') rt.signature = part.signature;
        reasoning.reasoningText = rt;
      }
      return wrap('reasoningContent', reasoning, pd);
    }
    default:
      return keptBlock(part, FORMAT, state.losses, where, label);
  }
}

/**
 * Writes a v1 conversation as a Bedrock Converse request body, or as a bare messages array when
 * it was read from one; `context` is the read's of this format, when there was one.
 */
export function writeBedrock(
  conversation: Conversation,
  context?: unknown,
): { value: JsonValue; losses: Loss[] } {
  const ctx = contextOf(context, FORMAT) as BedrockContext | undefined;
  const state: WriteState = {
    context,
    losses: [],
    unnamed: 0,
    toolNames: new Set(),
    toolBlocks: false,
  };
  state.losses.push(...conversationLosses(conversation, FORMAT));
  const messages = conversation.messages;
  const bare = writesBare(ctx, conversation, FORMAT, { losses: state.losses });

  // System messages go to the top-level `system`, except ones read inline (kept for the round trip).
  const top: number[] = [];
  const turns: number[] = [];
  let leading = true;
  messages.forEach((m, i) => {
    const source = readHere(context, m, FORMAT);
    const hinted = providerDataOf(m, FORMAT)?.[HINTS.system] !== undefined;
    const toTop = !bare && m.role === 'system' && (hinted || !source);
    if (toTop && !hinted && !leading) {
      state.losses.push({
        messageIndex: i,
        what: 'system message moved into the top-level system prompt',
      });
    }
    (toTop ? top : turns).push(i);
    if (m.role !== 'system') leading = false;
  });
  const writer: TurnWriter = {
    messages,
    context,
    format: FORMAT,
    hints: HINTS,
    provider: 'Bedrock',
    losses: state.losses,
    writePart: (p, where) => writePart(state, p, where, false),
    isResult: (b) => Object.hasOwn(b, 'toolResult'),
  };
  // The top-level `system` list from the v1 system messages that go there.
  const system = top.length > 0 ? systemBlocks(writer, top) : undefined;

  // Turns must alternate: what an operation or another format put next to a turn of the same role joins it.
  const entries = turns.map((i) => {
    const m = messages[i]!;
    return { key: writerTurnKey(FORMAT, m), source: readHere(context, m, FORMAT) };
  });
  const out: JsonObject[] = [];
  // Whether each written message holds a message read from the source.
  const outSource: boolean[] = [];
  for (const group of groupTurns(entries)) {
    // All results of a turn go in one user message, results first (providers.md §5).
    const members = group.map((g) => turns[g]!);
    const turn = writeTurn(writer, members);
    if (turn === undefined) continue;
    const { role, blocks } = turn;
    const source = members.some((i) => readHere(context, messages[i]!, FORMAT));
    const previous = out[out.length - 1];
    if (previous?.role === role && !(source && outSource[out.length - 1] === true)) {
      // A dropped message left two turns of one role side by side: they become one.
      const merged = [...(previous.content as JsonObject[]), ...blocks];
      previous.content = role === 'user' ? resultsFirst(merged, writer.isResult) : merged;
      outSource[out.length - 1] ||= source;
      continue;
    }
    const message: JsonObject = { role, content: blocks };
    mergeKept(message, providerDataOf(messages[turn.lead]!, FORMAT), WIRE);
    out.push(message);
    outSource.push(source);
  }

  sortLosses(state.losses);
  if (bare) return { value: out, losses: state.losses };
  // A system prompt only ever comes from a system message (see withoutSystemFields).
  const kept = withoutSystemFields(providerDataOf(conversation, FORMAT), ['system'], state.losses);
  const own: Record<string, JsonValue | undefined> = { messages: out, system };
  if (ctx === undefined && kept === undefined && state.toolBlocks) {
    // Bedrock refuses toolUse/toolResult blocks without a toolConfig: declare the tools the history uses.
    const names = state.toolNames.size > 0 ? [...state.toolNames] : ['tool'];
    own.toolConfig = {
      tools: names.map((name) => ({
        toolSpec: { name, inputSchema: { json: { type: 'object' } } },
      })),
    };
  }
  return { value: writeBody(kept, own, ctx?.keys), losses: state.losses };
}
