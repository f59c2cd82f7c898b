/**
 * Reads a Gemini CLI chat recording into v1 (see docs/formats/gemini-cli.md): each `user`
 * message a user message, each `gemini` message an assistant one (its text, then its tool calls),
 * followed by a tool message of the results recorded on those calls; `info`, `error` and
 * `warning` messages are the CLI's own notes, not the conversation. In the JSONL form a message
 * written again under its id (with more content) is read once, at its first line, as its last
 * version.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Message, Part } from '../../model/types.js';
import type { ReadOptions, ReadResult } from '../format.js';
import { FORMAT as GEMINI } from '../gemini/hints.js';
import { contentRole, readGeminiParts } from '../gemini/read.js';
import { isPlainObject, keepProviderData, keptPart, restOf } from '../kit/kept.js';
import { rekeyedPart } from '../kit/rekey.js';
import { joinPointer, readBase, sourceMap, type SourceMap } from '../kit/source-map.js';
import { makeConversation, notFormat, objectToArguments } from '../shared.js';
import { detectGeminiCli, isHeader, isRecordedMessage } from './detect.js';
import { FORMAT, REWIND, SET } from './hints.js';
import { keepRecording, type ReadMessage } from './write.js';

/** What a read leaves out of the conversation, by index in the message list (JSONL: the line). */
export interface GeminiCliContext {
  /** The CLI's notes (`info`, `error`, `warning`), headers and `$set` lines, earlier versions. */
  skippedEvents: number[];
}

/**
 * A content (a string, or a list of Gemini parts) as the parts of v1 message `i`, recorded at `at`:
 * a string one text part, a list read as the `gemini` format reads a content's parts, its kept
 * data under this format's key.
 */
function readContent(
  content: JsonValue | undefined,
  map: SourceMap,
  i: number,
  at: string,
): Part[] {
  if (typeof content === 'string') {
    if (content === '') return [];
    map.part(i, 0, at);
    return [{ type: 'text', text: content }];
  }
  if (!Array.isArray(content)) return [];
  return readGeminiParts(content, map, i, (k) => joinPointer(at, k)).map((p) =>
    rekeyedPart(p, GEMINI, FORMAT),
  );
}

/** The text and failure of a recorded result (`[{functionResponse: {response}}]`). */
function resultText(result: JsonValue): { text: string; failed: boolean } {
  const first = Array.isArray(result) ? result[0] : undefined;
  const fr =
    isPlainObject(first) && isPlainObject(first.functionResponse)
      ? first.functionResponse
      : undefined;
  const response = fr?.response;
  if (isPlainObject(response)) {
    if (typeof response.output === 'string') return { text: response.output, failed: false };
    if (typeof response.error === 'string') return { text: response.error, failed: true };
  }
  return { text: JSON.stringify(response ?? result), failed: false };
}

/** A recorded message of the conversation: the version read, its entry in the list, its path there. */
interface Slot {
  record: JsonObject;
  entry: number;
  /** Below the entry: empty for a message line, `['$set', 'messages', k]` for one a `$set` line lists. */
  path: (string | number)[];
}

/**
 * The recorded `user` and `gemini` messages that make the conversation, in order, replayed as
 * Gemini CLI replays a recording it resumes: a message written again under its id is one message,
 * at its first position, as its last version; in the JSONL form a `{"$rewindTo": id}` line removes
 * that message and every later one (all of them for an id not recorded), and a `$set` line with
 * `messages` replaces them all.
 */
function recordsOf(list: readonly JsonValue[], lines: boolean): Slot[] {
  // Map.set keeps the position of an id already there: a later version takes the first place.
  const byId = new Map<string, Slot>();
  const add = (record: JsonValue | undefined, entry: number, path: Slot['path']): void => {
    if (!isRecordedMessage(record) || isHeader(record)) return;
    byId.set((record as JsonObject).id as string, { record: record as JsonObject, entry, path });
  };
  list.forEach((m, e) => {
    if (!lines || !isPlainObject(m)) return add(m, e, []);
    const to = m[REWIND];
    if (typeof to === 'string') {
      const ids = [...byId.keys()];
      const from = ids.indexOf(to);
      for (const id of from === -1 ? ids : ids.slice(from)) byId.delete(id);
      return;
    }
    const set = m[SET];
    if (isPlainObject(set) && Array.isArray(set.messages)) {
      byId.clear();
      set.messages.forEach((r, k) => add(r, e, [SET, 'messages', k]));
      return;
    }
    add(m, e, []);
  });
  return [...byId.values()].filter((r) => r.record.type === 'user' || r.record.type === 'gemini');
}

/** Reads a recording (the JSON file, or the JSONL file's lines as one array). */
export function readGeminiCli(value: JsonValue, options?: ReadOptions): ReadResult {
  if (!detectGeminiCli(value))
    notFormat(
      FORMAT,
      'not a Gemini CLI recording ({"sessionId", "projectHash", "messages"} or its JSONL lines)',
    );
  const lines = Array.isArray(value);
  const list = lines ? (value as JsonValue[]) : ((value as JsonObject).messages as JsonValue[]);
  const base = readBase(lines ? '' : '/messages', options);
  const map = sourceMap(base, value, options);
  const context: GeminiCliContext = { skippedEvents: [] };

  const messages: Message[] = [];
  const sources: ReadMessage[] = [];
  const slots = recordsOf(list, lines);
  const used = new Set(slots.filter((r) => r.path.length === 0).map((r) => r.entry));
  list.forEach((_, e) => {
    if (!used.has(e)) context.skippedEvents.push(e);
  });
  for (const { record: g, entry: at, path } of slots) {
    const pointer = joinPointer(base, at, ...path);
    const i = messages.length;
    map.message(i, pointer);
    const model = g.type === 'gemini';
    const parts = readContent(g.content, map, i, joinPointer(pointer, 'content'));
    // Before the calls: a user content holding function responses answers calls, a tool turn.
    const role = contentRole(model, parts);
    const calls = model && Array.isArray(g.toolCalls) ? g.toolCalls : [];
    calls.forEach((tc, k) => {
      if (!isPlainObject(tc) || typeof tc.id !== 'string' || typeof tc.name !== 'string') {
        map.part(i, parts.length, joinPointer(pointer, 'toolCalls', k));
        parts.push(keptPart(FORMAT, tc, 'toolCall'));
        return;
      }
      const part: Part = {
        type: 'tool-call',
        id: tc.id,
        name: tc.name,
        arguments: objectToArguments(tc.args ?? {}),
      };
      keepProviderData(part, FORMAT, restOf(tc, ['id', 'name', 'args', 'result']));
      map.part(i, parts.length, joinPointer(pointer, 'toolCalls', k), {
        id: 'id',
        name: 'name',
        arguments: 'args',
      });
      parts.push(part);
    });
    const message: Message = { role, parts };
    keepProviderData(message, FORMAT, restOf(g, model ? ['content', 'toolCalls'] : ['content']));
    messages.push(message);
    sources.push({ entry: at, record: g, kind: 'message', nested: path.length > 0 });

    // The results recorded on the calls: the user turn Gemini CLI sends after the model's.
    const answered = calls.flatMap((tc, k) =>
      isPlainObject(tc) && typeof tc.id === 'string' && tc.result !== undefined ? [{ tc, k }] : [],
    );
    if (answered.length > 0) {
      const j = messages.length;
      map.message(j, joinPointer(pointer, 'toolCalls'));
      const results = answered.map(({ tc, k }, n) => {
        const { text, failed } = resultText(tc.result!);
        const part: Part = {
          type: 'tool-result',
          callId: tc.id as string,
          content: [{ type: 'text', text }],
        };
        if (typeof tc.name === 'string') part.name = tc.name;
        if (failed) part.failed = true;
        const at = joinPointer(pointer, 'toolCalls', k);
        const entry = map.part(j, n, at, { callId: 'id', name: 'name' });
        entry.contentPointer = joinPointer(at, 'result');
        return part;
      });
      messages.push({ role: 'tool', parts: results });
      sources.push({ entry: at, record: g, kind: 'results', nested: path.length > 0 });
    }
  }
  const conversation = makeConversation(messages, FORMAT, undefined);
  keepRecording(context, {
    root: value,
    lines,
    list,
    messages: conversation.messages.slice(),
    sources,
  });
  return { conversation, context, locate: map.locate };
}
