/**
 * The pairing index: which tool results answer which tool calls (SPEC §2.1).
 * normalize and the pairing lint rules share it, so they always agree.
 */
import type { Message } from '../model/types.js';

/**
 * How a call's id relates to the calls before it (SPEC §2.1): `first` (no
 * earlier call has it), `same-message` (an earlier call of the same message
 * has it: both count as that one call), `reopened` (the earlier call of the
 * id was still unanswered: this call closes it as unanswered and takes its
 * place), `reused` (the earlier call was answered: this is a new call).
 */
export type IdUse = 'first' | 'same-message' | 'reopened' | 'reused';

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
  /** How its id relates to earlier calls; absent for a call without an id. */
  idUse?: IdUse;
  /**
   * The earlier call its id points back to: the call of the same message it counts as
   * (`same-message`), the call it closed unanswered (`reopened`), the answered call (`reused`).
   */
  earlier?: CallRef;
  /** The kept result that answers it (only on calls that are not `same-message`). */
  answer?: ResultRef;
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
  /**
   * The call it concerns: the call it answers (`answer`), the answered call it repeats
   * (`duplicate`), the first later call of its id (`before-call`).
   */
  call?: CallRef;
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
  /**
   * Calls that no kept result answers, in order: calls with an id, one per call as pairing
   * counts them (not `same-message`), including those a `reopened` call closed.
   */
  unanswered: CallRef[];
}

/**
 * Builds the pairing index of a message array in one ordered walk (SPEC
 * §2.1): a result answers the open call of its id, the call of that id made
 * earlier that no result has answered yet.
 */
export function analyzePairing(
  messages: readonly Message[],
  options: PairingOptions = {},
): Pairing {
  const keepLast = options.duplicates === 'keep-last';
  const calls: CallRef[] = [];
  const results: ResultRef[] = [];
  /** The open call of each id. */
  const open = new Map<string, CallRef>();
  /** The latest answered call of each id: a result with no open call repeats its answer. */
  const answered = new Map<string, CallRef>();
  /** Results with no call of their id before them: before-call or orphan, told apart at the end. */
  const early: ResultRef[] = [];
  /** The first call of each id, for the early results. */
  const firstCall = new Map<string, CallRef>();
  for (let pos = 0; pos < messages.length; pos++) {
    const parts = messages[pos]!.parts;
    /** The call each id has in this message, when there are several calls. */
    let inMessage: Map<string, CallRef> | undefined;
    for (let j = 0; j < parts.length; j++) {
      const part = parts[j]!;
      if (part.type === 'tool-call') {
        const call: CallRef = { position: pos, partIndex: j };
        calls.push(call);
        if (typeof part.name === 'string') call.name = part.name;
        if (typeof part.id !== 'string') continue;
        const id = part.id;
        call.id = id;
        const same = inMessage?.get(id);
        if (same !== undefined) {
          call.idUse = 'same-message';
          call.earlier = same;
          continue;
        }
        (inMessage ??= new Map()).set(id, call);
        const before = open.get(id) ?? answered.get(id);
        if (before === undefined) {
          call.idUse = 'first';
          firstCall.set(id, call);
        } else {
          call.idUse = before.answer === undefined ? 'reopened' : 'reused';
          call.earlier = before;
        }
        open.set(id, call);
      } else if (part.type === 'tool-result') {
        const result: ResultRef = { position: pos, partIndex: j, status: 'unpairable' };
        results.push(result);
        if (typeof part.callId !== 'string') continue;
        const id = part.callId;
        result.callId = id;
        const call = open.get(id);
        if (call !== undefined) {
          result.status = 'answer';
          result.call = call;
          call.answer = result;
          open.delete(id);
          answered.set(id, call);
          continue;
        }
        const done = answered.get(id);
        if (done === undefined) {
          early.push(result);
          continue;
        }
        result.call = done;
        if (keepLast) {
          done.answer!.status = 'duplicate';
          result.status = 'answer';
          done.answer = result;
        } else result.status = 'duplicate';
      }
    }
  }
  for (const r of early) {
    const later = firstCall.get(r.callId!);
    if (later === undefined) r.status = 'orphan';
    else {
      r.status = 'before-call';
      r.call = later;
    }
  }
  const unanswered: CallRef[] = [];
  for (const call of calls) {
    if (call.idUse !== undefined && call.idUse !== 'same-message' && call.answer === undefined)
      unanswered.push(call);
  }
  return { calls, results, unanswered };
}

/**
 * True when every call of the message at `position` is answered in a window
 * of `messages` that starts there (trim's head rule, SPEC §2.3): walking from
 * that message, the next use of each of its ids (after the message's own
 * calls of that id) is a result, not a call that would close it unanswered.
 * Built once per history; each question costs a binary search per call.
 */
export class WindowAnswers {
  /** Per id, its uses in order: position * 2 + 1 for a result, position * 2 for a call. */
  private readonly uses = new Map<string, number[]>();

  constructor(private readonly messages: readonly Message[]) {
    for (let pos = 0; pos < messages.length; pos++) {
      for (const part of messages[pos]!.parts) {
        const id =
          part.type === 'tool-call'
            ? part.id
            : part.type === 'tool-result'
              ? part.callId
              : undefined;
        if (typeof id !== 'string') continue;
        let list = this.uses.get(id);
        if (list === undefined) this.uses.set(id, (list = []));
        list.push(pos * 2 + (part.type === 'tool-result' ? 1 : 0));
      }
    }
  }

  /** True when each call with an id in message `position` is answered after it. */
  callsAnswered(position: number): boolean {
    const parts = this.messages[position]!.parts;
    // Calls sharing an id in one message are one call: the first of them is asked about.
    const asked = new Set<string>();
    for (let j = 0; j < parts.length; j++) {
      const part = parts[j]!;
      if (part.type !== 'tool-call' || typeof part.id !== 'string' || asked.has(part.id)) continue;
      asked.add(part.id);
      if (!this.answeredAfter(part.id, position, j)) return false;
    }
    return true;
  }

  private answeredAfter(id: string, position: number, partIndex: number): boolean {
    // A result inside the call's own message (a provider-executed call) answers it when it comes
    // after the call; other calls of the id in the message are the same call.
    const parts = this.messages[position]!.parts;
    for (let j = partIndex + 1; j < parts.length; j++) {
      const p = parts[j]!;
      if (p.type === 'tool-result' && p.callId === id) return true;
    }
    const list = this.uses.get(id)!;
    // The first use in a later message.
    let lo = 0;
    let hi = list.length;
    const after = position * 2 + 2;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < after) lo = mid + 1;
      else hi = mid;
    }
    return lo < list.length && list[lo]! % 2 === 1;
  }
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
