/**
 * normalize: repair call/result pairing (SPEC §2.1).
 */
import type { Message, Part } from '../model/types.js';
import {
  analyzePairing,
  isObjectJsonText,
  pendingAssistantPosition,
  type PairingOptions,
} from './pairing.js';
import { placeForTarget, type MergedMessage, type MovedResult } from './placement.js';
import type { ProviderView } from './turns.js';

export type { MergedMessage, MovedResult } from './placement.js';

/** The text of every synthesized result: the absence of an outcome, not a failure. */
export const INTERRUPTED_TEXT = 'interrupted before execution; no result was produced';

/** A result normalize added for an unanswered call. */
export interface SynthesizedResult {
  callId: string;
  name?: string;
  /** Input index of the assistant message that made the call. */
  assistantIndex: number;
}

/** A result normalize removed. */
export interface DroppedResult {
  callId: string;
  /** Input index of the message that held the result. */
  messageIndex: number;
  /** Input index of the result part in its message. */
  partIndex: number;
  reason: 'orphan' | 'before-call' | 'duplicate';
}

/** A tool call whose `arguments` is not the text of a JSON object (detection only). */
export interface TruncatedCall {
  callId?: string;
  name?: string;
  messageIndex: number;
  partIndex: number;
  arguments: string;
}

/** What normalize changed and found (`HistoryRepair` in SPEC §5.3). */
export interface HistoryRepair {
  synthesized: SynthesizedResult[];
  dropped: DroppedResult[];
  truncated: TruncatedCall[];
  /** Results moved for a provider target; always empty without one (and in sanitize). */
  moved: MovedResult[];
  /** Messages merged into the one before them for a provider target (Bedrock); present only when some were. */
  merged?: MergedMessage[];
}

/** Which repairs normalize may make (all by default); `lint --fix` narrows them to the enabled rules. */
export interface RepairSelection {
  /** Synthesize results for unanswered calls. */
  synthesize: boolean;
  /** The kinds of results to drop. */
  drop: ReadonlySet<DroppedResult['reason']>;
  /** With a target: move results and merge turns where its turn-order rules need it (default true). */
  place?: boolean;
}

/** Options of {@link normalizeHistory}. */
export interface NormalizeOptions extends PairingOptions {
  /** Leave the unanswered calls of a trailing assistant message alone (a resumed run may execute them). */
  leavePending?: boolean;
  /** Make only these repairs (default: all). */
  only?: RepairSelection;
  /**
   * The provider the history is repaired for (SPEC §3): results that exist are also moved to where
   * it needs them, and Bedrock turns merged. Without one, normalize is exactly SPEC §2.1.
   */
  target?: ProviderView;
}

/** The result of {@link normalizeHistory}. */
export interface NormalizeResult {
  messages: Message[];
  repair: HistoryRepair;
  /** True when messages were added or removed (truncated calls alone are no change). */
  changed: boolean;
}

/**
 * Where each message and part of an array came from in the input as read,
 * for operations (sanitize) that normalize what is left after their own drops.
 */
export interface InputIndexMap {
  /** Input index of the message at each position. */
  messages: readonly number[];
  /** Input index of each part, per position; absent means unchanged. */
  parts?: readonly (readonly number[] | undefined)[];
}

/** Repairs pairing: drops results that cannot stay, then synthesizes results for unanswered calls. */
export function normalizeHistory(
  messages: readonly Message[],
  options: NormalizeOptions = {},
): NormalizeResult {
  return normalizeMapped(messages, { messages: messages.map((_, i) => i) }, options);
}

/** {@link normalizeHistory} over an array whose indices map to an earlier input. */
export function normalizeMapped(
  messages: readonly Message[],
  map: InputIndexMap,
  options: NormalizeOptions = {},
): NormalizeResult {
  const inputIndex = (pos: number): number => map.messages[pos]!;
  const inputPart = (pos: number, j: number): number => map.parts?.[pos]?.[j] ?? j;
  const repair: HistoryRepair = { synthesized: [], dropped: [], truncated: [], moved: [] };

  for (let pos = 0; pos < messages.length; pos++) {
    const parts = messages[pos]!.parts;
    for (let j = 0; j < parts.length; j++) {
      const part = parts[j]!;
      if (
        part.type === 'tool-call' &&
        typeof part.arguments === 'string' &&
        !isObjectJsonText(part.arguments)
      ) {
        const entry: TruncatedCall = {} as TruncatedCall;
        if (typeof part.id === 'string') entry.callId = part.id;
        if (typeof part.name === 'string') entry.name = part.name;
        entry.messageIndex = inputIndex(pos);
        entry.partIndex = inputPart(pos, j);
        entry.arguments = part.arguments;
        repair.truncated.push(entry);
      }
    }
  }

  // Drops first: a result placed before its call goes, which leaves the call to be synthesized.
  const pairing = analyzePairing(messages, options);
  const dropParts = new Map<number, Set<number>>();
  for (const r of pairing.results) {
    if (r.status === 'answer' || r.status === 'unpairable') continue;
    if (options.only !== undefined && !options.only.drop.has(r.status)) continue;
    repair.dropped.push({
      callId: r.callId!,
      messageIndex: inputIndex(r.position),
      partIndex: inputPart(r.position, r.partIndex),
      reason: r.status,
    });
    let set = dropParts.get(r.position);
    if (set === undefined) dropParts.set(r.position, (set = new Set()));
    set.add(r.partIndex);
  }

  const kept: Message[] = [];
  const keptFrom: number[] = [];
  for (let pos = 0; pos < messages.length; pos++) {
    const m = messages[pos]!;
    const drop = dropParts.get(pos);
    if (drop === undefined) {
      kept.push(m);
      keptFrom.push(pos);
      continue;
    }
    const parts = m.parts.filter((_, j) => !drop.has(j));
    if (parts.length === 0 && m.role === 'tool') continue;
    kept.push({ ...m, parts });
    keptFrom.push(pos);
  }

  // Then synthesis, one tool message per assistant message, in call order.
  let pending = -1;
  if (options.leavePending) {
    const at = pendingAssistantPosition(kept);
    if (at !== -1) pending = keptFrom[at]!;
  }
  const byPosition = new Map<number, Part[]>();
  for (const call of pairing.unanswered) {
    if (call.position === pending || options.only?.synthesize === false) continue;
    const part: Part = { type: 'tool-result', callId: call.id! };
    if (call.name !== undefined) part.name = call.name;
    part.content = [{ type: 'text', text: INTERRUPTED_TEXT }];
    let list = byPosition.get(call.position);
    if (list === undefined) byPosition.set(call.position, (list = []));
    list.push(part);
    const entry: SynthesizedResult = { callId: call.id! } as SynthesizedResult;
    if (call.name !== undefined) entry.name = call.name;
    entry.assistantIndex = inputIndex(call.position);
    repair.synthesized.push(entry);
  }

  let out: Message[] = kept;
  // The input index of each message of `out` (undefined for a synthesized one).
  let outFrom: (number | undefined)[] = keptFrom.map(inputIndex);
  if (byPosition.size > 0) {
    out = [];
    outFrom = [];
    for (let k = 0; k < kept.length; k++) {
      out.push(kept[k]!);
      outFrom.push(inputIndex(keptFrom[k]!));
      const added = byPosition.get(keptFrom[k]!);
      if (added !== undefined) {
        out.push({ role: 'tool', parts: added });
        outFrom.push(undefined);
      }
    }
  }
  let changed = repair.synthesized.length > 0 || repair.dropped.length > 0;
  if (options.target !== undefined && options.only?.place !== false) {
    const placed = placeForTarget(out, outFrom, options.target);
    if (placed.changed) {
      out = placed.messages;
      repair.moved = placed.moved;
      if (placed.merged.length > 0) repair.merged = placed.merged;
      changed = true;
    }
  }
  return { messages: changed ? out : messages.slice(), repair, changed };
}
