/**
 * Reads a GitHub Copilot CLI session event log (the lines of the JSONL file as one array, the
 * caller joining them) into v1; see docs/formats/copilot-cli.md. The conversation is the main
 * agent's `system.message`, `user.message`, `assistant.message` and `tool.execution_complete`
 * events, in file order, each located at its line (`/N/data/...`): a user message is the text
 * sent to the model (`transformedContent`, else `content`) and its attachments, an assistant
 * message its reasoning, text and tool requests, and a run of completed executions one tool
 * message of results. Every other event (session settings, turn markers, execution starts,
 * sub-agent events) is not the conversation.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Message, Part } from '../../model/types.js';
import type { ReadOptions, ReadResult } from '../format.js';
import { isPlainObject, keepProviderData, keptPart, restOf } from '../kit/kept.js';
import { mediaPartType } from '../kit/media.js';
import { joinPointer, readBase, sourceMap, type SourceMap } from '../kit/source-map.js';
import {
  customInputToArguments,
  makeConversation,
  notFormat,
  objectToArguments,
} from '../shared.js';
import { isCopilotEvent } from './detect.js';
import { FORMAT } from './hints.js';

/** What a read leaves out of the conversation: the index (the line) of each such event. */
export interface CopilotCliContext {
  /** Session and turn events, execution starts, sub-agent events, repeated system prompts. */
  skippedEvents: number[];
}

/** A session event, as {@link isCopilotEvent} tells one. */
type CopilotEvent = JsonObject & { data: JsonObject };

/** The state of one read: the map, and the messages so far. */
interface Reading {
  map: SourceMap;
  messages: Message[];
}

/** True for an event of a sub-agent: its own conversation, not the main agent's. */
function isSubagentEvent(e: CopilotEvent): boolean {
  return typeof e.agentId === 'string' || typeof e.data.parentToolCallId === 'string';
}

/**
 * What is kept of an event on its message (or result part): the envelope's fields but `type`
 * and `data`, then the fields of `data` not read (`dataRest`), if any, as `data`.
 */
function eventRecord(e: CopilotEvent, dataRest: JsonObject): JsonObject | undefined {
  const record = restOf(e, ['type', 'data']) ?? {};
  if (Object.keys(dataRest).length > 0) record.data = dataRest;
  return Object.keys(record).length === 0 ? undefined : record;
}

/** The fields of `data` other than `read`, with `extra` (the rest of a nested object) after them. */
function dataRest(data: JsonObject, read: readonly string[], extra: JsonObject = {}): JsonObject {
  const rest = restOf(data, read) ?? {};
  for (const key of Object.keys(extra)) rest[key] = extra[key]!;
  return rest;
}

/** Base64 data and its media type as an image (an `image/*` type) or a document part. */
function mediaPart(data: string, mediaType: string): Part {
  return { type: mediaPartType(mediaType), data, mediaType };
}

/** A user message attachment: inline data as an image or a document, anything else kept whole. */
function readAttachment(a: JsonValue, r: Reading, i: number, parts: Part[], at: string): void {
  if (
    isPlainObject(a) &&
    a.type === 'blob' &&
    typeof a.data === 'string' &&
    typeof a.mimeType === 'string'
  ) {
    const part = mediaPart(a.data, a.mimeType);
    const read = ['type', 'data', 'mimeType'];
    if (part.type === 'document' && typeof a.displayName === 'string') {
      part.name = a.displayName;
      read.push('displayName');
    }
    keepProviderData(part, FORMAT, restOf(a, read));
    r.map.part(i, parts.length, at, { data: 'data', mediaType: 'mimeType', name: 'displayName' });
    parts.push(part);
    return;
  }
  // A file, folder, selection or GitHub reference: the model got it inside the text
  // (`transformedContent`) or natively, from bytes the log does not hold.
  r.map.part(i, parts.length, at);
  parts.push(keptPart(FORMAT, a, 'attachment'));
}

/** A `user.message` event: the text the model was sent, then its attachments. */
function readUser(e: CopilotEvent, r: Reading, at: string): Message {
  const d = e.data;
  const i = r.messages.length;
  const parts: Part[] = [];
  const read: string[] = [];
  const key = typeof d.transformedContent === 'string' ? 'transformedContent' : 'content';
  const text = d[key];
  if (typeof text === 'string') {
    read.push(key);
    if (text !== '') {
      r.map.part(i, parts.length, joinPointer(at, 'data', key));
      parts.push({ type: 'text', text });
    }
  }
  if (Array.isArray(d.attachments)) {
    read.push('attachments');
    d.attachments.forEach((a, k) =>
      readAttachment(a, r, i, parts, joinPointer(at, 'data', 'attachments', k)),
    );
  }
  return keepProviderData({ role: 'user', parts }, FORMAT, eventRecord(e, dataRest(d, read)));
}

/** One tool request of an assistant message: a v1 tool call, or kept whole when it is not one. */
function readToolRequest(tr: JsonValue, r: Reading, i: number, j: number, at: string): Part {
  if (!isPlainObject(tr) || typeof tr.toolCallId !== 'string' || typeof tr.name !== 'string') {
    r.map.part(i, j, at);
    return keptPart(FORMAT, tr, 'toolRequest');
  }
  // A custom (grammar-based) tool's input is raw text, read as `{"input": ...}` (see
  // customInputToArguments); a function's is a JSON value.
  const args = tr.arguments;
  const part: Part = {
    type: 'tool-call',
    id: tr.toolCallId,
    name: tr.name,
    arguments:
      typeof args === 'string' ? customInputToArguments(args) : objectToArguments(args ?? {}),
  };
  keepProviderData(part, FORMAT, restOf(tr, ['toolCallId', 'name', 'arguments']));
  // The wrapped text's arguments point at the request, which holds it.
  const argsAt = typeof args === 'string' ? [] : 'arguments';
  r.map.part(i, j, at, { id: 'toolCallId', name: 'name', arguments: argsAt });
  return part;
}

/** An `assistant.message` event: its reasoning, its text, then its tool requests. */
function readAssistant(e: CopilotEvent, r: Reading, at: string): Message {
  const d = e.data;
  const i = r.messages.length;
  const parts: Part[] = [];
  const read: string[] = [];
  const reasoning = typeof d.reasoningText === 'string' ? d.reasoningText : undefined;
  const opaque = typeof d.reasoningOpaque === 'string' ? d.reasoningOpaque : undefined;
  if (reasoning !== undefined) read.push('reasoningText');
  if (opaque !== undefined) read.push('reasoningOpaque');
  if ((reasoning ?? '') !== '' || (opaque ?? '') !== '') {
    // The opaque thinking data is what the provider checks the reasoning by: its signature.
    const part: Part = { type: 'reasoning', text: reasoning ?? '' };
    if (opaque !== undefined) part.signature = opaque;
    r.map.part(i, parts.length, joinPointer(at, 'data'), {
      text: 'reasoningText',
      signature: 'reasoningOpaque',
    });
    parts.push(part);
  }
  if (typeof d.content === 'string') {
    read.push('content');
    if (d.content !== '') {
      r.map.part(i, parts.length, joinPointer(at, 'data', 'content'));
      parts.push({ type: 'text', text: d.content });
    }
  }
  if (Array.isArray(d.toolRequests)) {
    read.push('toolRequests');
    d.toolRequests.forEach((tr, k) =>
      parts.push(
        readToolRequest(tr, r, i, parts.length, joinPointer(at, 'data', 'toolRequests', k)),
      ),
    );
  }
  return keepProviderData({ role: 'assistant', parts }, FORMAT, eventRecord(e, dataRest(d, read)));
}

/** A `system.message` event: the system prompt (or developer instructions) sent with a turn. */
function readSystem(e: CopilotEvent, r: Reading, at: string): Message {
  const d = e.data;
  const parts: Part[] = [];
  const read = d.role === 'system' ? ['role'] : [];
  if (typeof d.content === 'string') {
    read.push('content');
    if (d.content !== '') {
      r.map.part(r.messages.length, 0, joinPointer(at, 'data', 'content'));
      parts.push({ type: 'text', text: d.content });
    }
  }
  return keepProviderData({ role: 'system', parts }, FORMAT, eventRecord(e, dataRest(d, read)));
}

/**
 * The binary results a tool sent the model, as media parts: only when every one holds its bytes
 * (an omitted or interned one is kept with the others, in the result's kept data).
 */
function binaryResults(
  result: JsonObject,
): (JsonObject & { data: string; mimeType: string })[] | undefined {
  const list = result.binaryResultsForLlm;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const inline = (b: JsonValue): b is JsonObject & { data: string; mimeType: string } =>
    isPlainObject(b) && typeof b.data === 'string' && typeof b.mimeType === 'string';
  return list.every(inline) ? list : undefined;
}

/** A `tool.execution_complete` event as a tool result, part `j` of tool message `i`. */
function readResult(
  e: CopilotEvent,
  r: Reading,
  i: number,
  j: number,
  at: string,
  names: ReadonlyMap<string, string>,
): Part {
  const d = e.data;
  const callId = d.toolCallId as string;
  const part: Part = { type: 'tool-result', callId };
  const name = names.get(callId);
  if (name !== undefined) part.name = name;
  const data = joinPointer(at, 'data');
  const entry = r.map.part(i, j, data, { callId: 'toolCallId' });
  const content: Part[] = [];
  const read = ['toolCallId'];
  const extra: JsonObject = {};
  const result = isPlainObject(d.result) ? d.result : undefined;
  const error = isPlainObject(d.error) ? d.error : undefined;
  if (result !== undefined) {
    read.push('result');
    const resultRead: string[] = [];
    if (typeof result.content === 'string') {
      resultRead.push('content');
      if (result.content !== '') {
        r.map.child(entry, content.length, joinPointer(data, 'result', 'content'));
        content.push({ type: 'text', text: result.content });
      }
    }
    const media = binaryResults(result);
    if (media !== undefined) {
      resultRead.push('binaryResultsForLlm');
      media.forEach((b, k) => {
        const where = joinPointer(data, 'result', 'binaryResultsForLlm', k);
        r.map.child(entry, content.length, where, { data: 'data', mediaType: 'mimeType' });
        const p = mediaPart(b.data, b.mimeType);
        content.push(keepProviderData(p, FORMAT, restOf(b, ['data', 'mimeType'])));
      });
    }
    const rest = restOf(result, resultRead);
    if (rest !== undefined) extra.result = rest;
  } else if (error !== undefined && typeof error.message === 'string') {
    // A failed execution has no result: the model is sent the error's message.
    read.push('error');
    r.map.child(entry, 0, joinPointer(data, 'error', 'message'));
    content.push({ type: 'text', text: error.message });
    const rest = restOf(error, ['message']);
    if (rest !== undefined) extra.error = rest;
  }
  part.content = content;
  if (d.success === false) {
    part.failed = true;
    read.push('success');
  }
  keepProviderData(part, FORMAT, eventRecord(e, dataRest(d, read, extra)));
  return part;
}

/** The system prompt a `system.message` event sets, to tell a repeat of the one before. */
function promptKey(e: CopilotEvent): string {
  return JSON.stringify([e.data.role ?? null, e.data.content ?? null]);
}

/** Reads a session's events into one v1 conversation. */
export function readCopilotCli(value: JsonValue, options?: ReadOptions): ReadResult {
  if (!Array.isArray(value)) notFormat(FORMAT, 'not an array of session events');
  if (!value.some(isCopilotEvent))
    notFormat(FORMAT, 'no session events (objects with "type", "data", "id" and "timestamp")');
  const base = readBase('', options);
  const r: Reading = { map: sourceMap(base, value, options), messages: [] };
  const context: CopilotCliContext = { skippedEvents: [] };

  // A result names its tool as its execution's start does (the result event does not).
  const names = new Map<string, string>();
  for (const e of value) {
    if (!isCopilotEvent(e) || e.type !== 'tool.execution_start' || isSubagentEvent(e)) continue;
    const { toolCallId, toolName } = e.data;
    if (typeof toolCallId === 'string' && typeof toolName === 'string')
      names.set(toolCallId, toolName);
  }

  /** The tool message the results read last went into, while no other message came after it. */
  let results: { message: Message; index: number } | undefined;
  let prompt: string | undefined;
  value.forEach((e, n) => {
    if (!isCopilotEvent(e) || isSubagentEvent(e)) {
      context.skippedEvents.push(n);
      return;
    }
    const at = joinPointer(base, n);
    const i = r.messages.length;
    let message: Message | undefined;
    switch (e.type) {
      case 'user.message':
        r.map.message(i, at);
        message = readUser(e, r, at);
        break;
      case 'assistant.message':
        r.map.message(i, at);
        message = readAssistant(e, r, at);
        break;
      case 'system.message': {
        // Copilot CLI logs its system prompt again with every turn: a repeat is no new message.
        const key = promptKey(e);
        if (key === prompt) break;
        prompt = key;
        r.map.message(i, at);
        message = readSystem(e, r, at);
        break;
      }
      case 'tool.execution_complete': {
        if (typeof e.data.toolCallId !== 'string') break;
        if (results === undefined) {
          r.map.message(i, at);
          results = { message: { role: 'tool', parts: [] }, index: i };
          r.messages.push(results.message);
        }
        const parts = results.message.parts;
        parts.push(readResult(e, r, results.index, parts.length, at, names));
        return;
      }
    }
    if (message === undefined) {
      context.skippedEvents.push(n);
      return;
    }
    results = undefined;
    r.messages.push(message);
  });
  const conversation = makeConversation(r.messages, FORMAT, undefined);
  return { conversation, context, locate: r.map.locate };
}
