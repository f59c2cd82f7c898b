/**
 * The pairing index: which tool results answer which tool calls (SPEC §2.1).
 * normalize and the pairing lint rules share it, so they always agree.
 */
import type { Message } from '../model/types.js';

/** A tool call found in a history. */
export interface CallRef {
  /** The call's `id`, when it is a string. */
  id?: string;
  /** The call's `name`, when it is a string. */
  name?: string;
  /** Position of the message in the array analysed. */
  position: number;
  /** Index of the part in its message. */
  partIndex: number;
}

/** Why a result is not kept. */
export type ResultStatus = 'answer' | 'orphan' | 'before-call' | 'duplicate' | 'unpairable';

/** A tool result found in a history, with its pairing status. */
export interface ResultRef {
  /** The result's `callId`, when it is a string. */
  callId?: string;
  /** Position of the message in the array analysed. */
  position: number;
  /** Index of the part in its message. */
  partIndex: number;
  /** `answer` for the kept result of a call; otherwise why it cannot stay. */
  status: ResultStatus;
}

/** Options that change which result of several is kept. */
export interface PairingOptions {
  /** Which of several results for one call is kept (default `keep-first`). */
  duplicates?: 'keep-first' | 'keep-last';
}

/** The pairing of one history. */
export interface Pairing {
  /** Every tool call, in order. */
  calls: CallRef[];
  /** Every tool result, in order, with its status. */
  results: ResultRef[];
  /** The first call of each id, by id. */
  firstCallById: Map<string, CallRef>;
  /** First calls (one per id) that no kept result answers, in order. */
  unanswered: CallRef[];
}

/** Builds the pairing index of a message array. */
export function analyzePairing(
  messages: readonly Message[],
  options: PairingOptions = {},
): Pairing {
  const calls: CallRef[] = [];
  const firstCallById = new Map<string, CallRef>();
  const results: ResultRef[] = [];
  for (let pos = 0; pos < messages.length; pos++) {
    const parts = messages[pos]!.parts;
    for (let j = 0; j < parts.length; j++) {
      const part = parts[j]!;
      if (part.type === 'tool-call') {
        const call: CallRef = { position: pos, partIndex: j };
        if (typeof part.id === 'string') call.id = part.id;
        if (typeof part.name === 'string') call.name = part.name;
        calls.push(call);
        if (call.id !== undefined && !firstCallById.has(call.id)) firstCallById.set(call.id, call);
      } else if (part.type === 'tool-result') {
        const result: ResultRef = { position: pos, partIndex: j, status: 'unpairable' };
        if (typeof part.callId === 'string') result.callId = part.callId;
        results.push(result);
      }
    }
  }

  // Results that come after the first call with their id compete to answer it: one is kept.
  const keepLast = options.duplicates === 'keep-last';
  const kept = new Map<string, ResultRef>();
  for (const r of results) {
    if (r.callId === undefined) continue;
    const call = firstCallById.get(r.callId);
    if (call === undefined) {
      r.status = 'orphan';
    } else if (
      call.position > r.position ||
      (call.position === r.position && call.partIndex > r.partIndex)
    ) {
      r.status = 'before-call';
    } else {
      const earlier = kept.get(r.callId);
      if (earlier === undefined) {
        r.status = 'answer';
        kept.set(r.callId, r);
      } else if (keepLast) {
        earlier.status = 'duplicate';
        r.status = 'answer';
        kept.set(r.callId, r);
      } else {
        r.status = 'duplicate';
      }
    }
  }

  // First calls are in the map in the order they appear, so this list is in input order.
  const unanswered: CallRef[] = [];
  for (const call of firstCallById.values()) {
    if (!kept.has(call.id!)) unanswered.push(call);
  }
  return { calls, results, firstCallById, unanswered };
}

/** Above this many calls, {@link pairsCleanly} does not look (its search is quadratic). */
const CLEAN_CHECK_MAX_CALLS = 64;
/** Reused by {@link pairsCleanly} (one conversation at a time), so the check allocates nothing. */
const seenIds: string[] = new Array<string>(CLEAN_CHECK_MAX_CALLS).fill('');
const seenAnswered: boolean[] = new Array<boolean>(CLEAN_CHECK_MAX_CALLS).fill(false);

/**
 * A quick check for the common case, without building the index: true when
 * every tool call has a string id used by no other call and exactly one
 * result after it, and every tool result answers such a call. Then the
 * pairing of `messages` holds no finding of any kind. False means "not
 * known": build the index with {@link analyzePairing}.
 */
export function pairsCleanly(messages: readonly Message[]): boolean {
  let calls = 0;
  let answered = 0;
  for (let pos = 0; pos < messages.length; pos++) {
    const parts = messages[pos]!.parts;
    for (let j = 0; j < parts.length; j++) {
      const part = parts[j]!;
      if (part.type === 'tool-call') {
        const id = part.id;
        if (typeof id !== 'string' || calls === CLEAN_CHECK_MAX_CALLS) return false;
        for (let k = 0; k < calls; k++) if (seenIds[k] === id) return false;
        seenIds[calls] = id;
        seenAnswered[calls++] = false;
      } else if (part.type === 'tool-result') {
        const callId = part.callId;
        if (typeof callId !== 'string') return false;
        // Results mostly answer recent calls: search from the end.
        let k = calls - 1;
        while (k >= 0 && seenIds[k] !== callId) k--;
        if (k === -1 || seenAnswered[k]) return false;
        seenAnswered[k] = true;
        answered++;
      }
    }
  }
  return answered === calls;
}

/** True when `text` is the JSON text of an object; lives in json-text.ts, kept here for importers. */
export { isObjectJsonText } from './json-text.js';

/**
 * Finds the last assistant message whose unanswered calls may still be
 * executed by a resumed run: nothing but its own tool results follows it.
 * Returns its position, or -1.
 */
export function pendingAssistantPosition(messages: readonly Message[]): number {
  let last = -1;
  for (let pos = messages.length - 1; pos >= 0; pos--) {
    if (messages[pos]!.role === 'assistant') {
      last = pos;
      break;
    }
  }
  if (last === -1) return -1;
  const ids = new Set<string>();
  for (const part of messages[last]!.parts) {
    if (part.type === 'tool-call' && typeof part.id === 'string') ids.add(part.id);
  }
  if (ids.size === 0) return -1;
  for (let pos = last + 1; pos < messages.length; pos++) {
    const m = messages[pos]!;
    if (m.role !== 'tool') return -1;
    for (const part of m.parts) {
      if (part.type !== 'tool-result' || typeof part.callId !== 'string' || !ids.has(part.callId))
        return -1;
    }
  }
  return last;
}
