/**
 * Writes a repaired conversation back into the Gemini CLI recording it was read from (SPEC
 * §5.1): every recorded message the repair did not touch is the very value read (a JSONL line is
 * then written byte for byte); a result synthesized for an interrupted call is recorded on that
 * call, as Gemini CLI records a cancelled one (`status: "cancelled"`, a `functionResponse` whose
 * `response.error` says why), in a copy of its message at the position of the version read.
 * Any other change (a message's content, a message added or removed) is refused: a recording has
 * no place for it that Gemini CLI would read back the same.
 */
import { SessionWriteError, SourceError } from '../../model/errors.js';
import { jsonEqual, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message, Part } from '../../model/types.js';
import type { Conversation, WriteResult } from '../format.js';
import { isPlainObject } from '../kit/kept.js';
import { FORMAT } from './hints.js';

/** Where a message read came from: the recorded message (its index in the list), or the results on its calls. */
export interface ReadMessage {
  /** Its entry in the list. */
  entry: number;
  /** The recorded message (the version read). */
  record: JsonObject;
  kind: 'message' | 'results';
  /** Listed by a `$set` line (not a line of its own): nothing can be recorded on it. */
  nested: boolean;
}

/** What writing a recording back needs, held beside the read's context. */
export interface RecordingState {
  root: JsonValue;
  /** The JSONL form: the root is the lines. */
  lines: boolean;
  list: readonly JsonValue[];
  messages: readonly Message[];
  sources: readonly ReadMessage[];
}

const RECORDINGS = new WeakMap<object, RecordingState>();

/** Keeps what writing the recording back needs, for the read whose context is `context`. */
export function keepRecording(context: object, state: RecordingState): void {
  RECORDINGS.set(context, state);
}

function refuse(why: string): never {
  throw new SessionWriteError('recording', FORMAT, why);
}

/** The recorded message id a message read keeps. */
function idOf(m: Message): JsonValue | undefined {
  const pd = m.providerData;
  const own = isPlainObject(pd) ? pd[FORMAT] : undefined;
  return isPlainObject(own) ? own.id : undefined;
}

/** Writes a conversation read from a Gemini CLI recording back into it. */
export function writeGeminiCli(conversation: Conversation, context?: unknown): WriteResult {
  const state =
    typeof context === 'object' && context !== null ? RECORDINGS.get(context) : undefined;
  if (state === undefined)
    throw new SourceError(`a ${FORMAT} session is written only back to the file it was read from`);
  const { list, messages: read, sources } = state;
  // The results to record, by message entry, then call id.
  const added = new Map<number, Map<string, string>>();
  let cursor = 0;
  let current: ReadMessage | undefined;
  for (const m of conversation.messages) {
    const id = idOf(m);
    if (id !== undefined) {
      let j = cursor;
      while (j < read.length && (sources[j]!.kind !== 'message' || idOf(read[j]!) !== id)) {
        if (sources[j]!.kind === 'message') refuse(`message ${j} is gone`);
        j++;
      }
      if (j === read.length) refuse('a message was added or moved');
      if (!jsonEqual(m, read[j]!)) refuse(`message ${j} changed`);
      cursor = j + 1;
      current = sources[j]!;
      continue;
    }
    if (m.role !== 'tool' || current === undefined) refuse('a message was added');
    const calls = current.record.toolCalls as JsonValue[] | undefined;
    for (const part of m.parts) {
      if (part.type !== 'tool-result') refuse('a part was added to a results turn');
      const call = calls?.find((c) => isPlainObject(c) && c.id === part.callId) as
        JsonObject | undefined;
      if (call === undefined)
        refuse(`a result for a call the turn does not make (${String(part.callId)})`);
      if (call.result !== undefined) continue;
      if (current.nested) refuse(`the call ${String(part.callId)} is recorded in a $set line`);
      const content = Array.isArray(part.content) ? (part.content as Part[]) : [];
      const text = content.map((c) => (c.type === 'text' ? String(c.text) : '')).join('');
      const map = added.get(current.entry) ?? new Map<string, string>();
      map.set(call.id as string, text);
      added.set(current.entry, map);
    }
    // The results turn read after this message, if any, is this one (a result kept or added).
    while (
      cursor < read.length &&
      sources[cursor]!.kind === 'results' &&
      sources[cursor]!.entry === current.entry
    )
      cursor++;
  }
  for (let j = cursor; j < read.length; j++)
    if (sources[j]!.kind === 'message') refuse(`message ${j} is gone`);

  const out = list.map((v, e) => {
    const results = added.get(e);
    if (results === undefined) return v;
    const g = v as JsonObject;
    const toolCalls = (g.toolCalls as JsonValue[]).map((c) => {
      if (!isPlainObject(c) || typeof c.id !== 'string' || !results.has(c.id)) return c;
      const response = { error: results.get(c.id)! };
      return {
        ...c,
        result: [{ functionResponse: { id: c.id, name: c.name ?? '', response } }],
        status: 'cancelled',
      };
    });
    return { ...g, toolCalls };
  });
  if (state.lines) return { value: out, losses: [] };
  return { value: { ...(state.root as JsonObject), messages: out }, losses: [] };
}
