/**
 * Repair for a provider target (SPEC §3, §5.3 `moved`): results that exist
 * but are not where the provider needs them are moved next to their calls,
 * and, where Bedrock needs turns to alternate, consecutive turns of one role
 * are merged. Only what a turn-order rule finds (core/turn-order.ts) is
 * touched, nothing is invented, and nothing is dropped: a history those
 * rules pass comes back as the same objects.
 */
import { jsonEqual } from '../model/json.js';
import type { Message, Part } from '../model/types.js';
import { analyzePairing, type CallRef } from './pairing.js';
import { turnOrderProblems, type TurnOrderProblem } from './turn-order.js';
import { providerTurns, turnRole, type ProviderView } from './turns.js';

/** A result normalize moved to where its target provider needs it (SPEC §5.3 `moved`). */
export interface MovedResult {
  callId: string;
  /** Input index of the message that held the result. */
  fromIndex: number;
  /** Input index of the assistant message whose call it answers (it now stands in the turn right after it). */
  afterIndex: number;
}

/** A message normalize merged into the one before it, so that Bedrock turns alternate. */
export interface MergedMessage {
  /** Input index of the message merged away. */
  messageIndex: number;
  /** Input index of the message it joined. */
  intoIndex: number;
}

/** The result of {@link placeForTarget}. */
export interface PlacementResult {
  messages: Message[];
  /** Input index of each message (undefined for one an earlier step added), by position. */
  inputIndex: (number | undefined)[];
  moved: MovedResult[];
  merged: MergedMessage[];
  changed: boolean;
}

/** One message being placed, and the input index it came from (undefined for an added one). */
interface Slot {
  message: Message;
  from: number | undefined;
}

/** The call turns of a view: the runs of assistant messages the provider answers as one. */
function callTurns(messages: readonly Message[], view: ProviderView): number[][] {
  const turns = providerTurns(messages, view).filter((t) => t.role === 'assistant');
  if (view.target !== 'gemini') return turns.map((t) => t.messages);
  // Gemini answers model contents in a row as one call turn.
  const out: number[][] = [];
  for (const t of turns) {
    const last = out.at(-1);
    if (last !== undefined && last.at(-1)! + 1 === t.messages[0]) last.push(...t.messages);
    else out.push([...t.messages]);
  }
  return out;
}

/**
 * Moves results and merges turns so that `view`'s turn-order rules find
 * nothing they can be made to find nothing about. `inputIndex` maps each
 * position to the input index the report names (undefined for a message an
 * earlier step added).
 */
export function placeForTarget(
  messages: readonly Message[],
  inputIndex: readonly (number | undefined)[],
  view: ProviderView,
): PlacementResult {
  const unchanged: PlacementResult = {
    messages: messages.slice(),
    inputIndex: inputIndex.slice(),
    moved: [],
    merged: [],
    changed: false,
  };
  // A result synthesized by the step before is a turn of its own here; merged into its neighbour
  // below (Bedrock), the history is what the Bedrock writer writes and its next read gives.
  const problems = turnOrderProblems(messages, view);
  if (problems.length === 0) return unchanged;

  let slots: Slot[] = messages.map((message, i) => ({ message, from: inputIndex[i] }));
  const moved: MovedResult[] = [];
  // A move can leave the turn it came from short (Gemini counts a turn's responses): repeat until
  // nothing moves. A result only ever moves into its own call's turn, where it then stays.
  for (let round = 0; round <= messages.length; round++) {
    const current = slots.map((s) => s.message);
    const found = round === 0 ? problems : turnOrderProblems(current, view);
    const repair = turnsToRepair(current, view, found);
    const count = moved.length;
    if (repair.size > 0) slots = moveResults(slots, current, view, repair, moved);
    if (moved.length === count) break;
  }
  moved.sort((a, b) => a.afterIndex - b.afterIndex || a.fromIndex - b.fromIndex);
  const merged: MergedMessage[] = [];
  const before = slots.length;
  if (view.target === 'bedrock' && view.native) slots = mergeTurns(slots, merged);
  if (moved.length === 0 && slots.length === before) return unchanged;
  // Parts split off and merged back in one place are no change at all.
  if (
    jsonEqual(
      slots.map((s) => s.message),
      messages as Message[],
    )
  )
    return unchanged;
  return {
    messages: slots.map((s) => s.message),
    inputIndex: slots.map((s) => s.from),
    moved,
    merged,
    changed: true,
  };
}

/**
 * The call turns (by their first message) whose results a problem says are
 * misplaced: the turn of the call a problem names, or of the call the result
 * it names answers; for a problem at a whole content (Gemini), the turn
 * right before it, or the turns its results answer.
 */
function turnsToRepair(
  messages: readonly Message[],
  view: ProviderView,
  problems: readonly TurnOrderProblem[],
): Map<number, number[]> {
  const turns = callTurns(messages, view);
  const turnOf = new Map<number, number[]>();
  for (const t of turns) for (const i of t) turnOf.set(i, t);
  const pairing = analyzePairing(messages);
  const callAt = new Map<string, CallRef>();
  for (const c of pairing.calls) callAt.set(`${c.position}/${c.partIndex}`, c);
  const answerOf = new Map<string, CallRef>();
  for (const r of pairing.results)
    if (r.status === 'answer') answerOf.set(`${r.position}/${r.partIndex}`, r.call!);
  const out = new Map<number, number[]>();
  const add = (call: CallRef | undefined): void => {
    const t = call === undefined ? undefined : turnOf.get(call.position);
    if (t !== undefined) out.set(t[0]!, t);
  };
  for (const p of problems) {
    if (p.ruleId === 'bedrock/alternation') continue;
    const m = messages[p.messageIndex]!;
    if (p.partIndex !== undefined) {
      const key = `${p.messageIndex}/${p.partIndex}`;
      const part = m.parts[p.partIndex];
      if (part?.type === 'tool-call') {
        const call = callAt.get(key)!;
        add(call.idUse === 'same-message' ? call.earlier : call);
      } else if (part?.type === 'tool-result') add(answerOf.get(key));
      continue;
    }
    // A problem at a whole content: the call turn right before it, and the calls its results answer.
    let before = p.messageIndex - 1;
    while (before >= 0 && messages[before]!.role !== 'assistant') before--;
    if (before >= 0) {
      const t = turnOf.get(before);
      if (t !== undefined) out.set(t[0]!, t);
    }
    m.parts.forEach((_, j) => add(answerOf.get(`${p.messageIndex}/${j}`)));
  }
  return out;
}

/**
 * Puts the results of each call turn in `repair` right after it: the tool
 * messages already there that hold only its results stay first, the others
 * follow in call order (a message that also held other parts keeps them,
 * where it was). Whatever sat between the turn and a moved result now comes
 * after the results, in order.
 */
function moveResults(
  slots: Slot[],
  messages: readonly Message[],
  view: ProviderView,
  repair: ReadonlyMap<number, number[]>,
  moved: MovedResult[],
): Slot[] {
  const pairing = analyzePairing(messages);
  // Every result that answers some call: one of another turn's makes a message not in place.
  const anyAnswer = new Set(
    pairing.results.filter((r) => r.status === 'answer').map((r) => `${r.position}/${r.partIndex}`),
  );
  // Calls by position and the call order within their turn.
  const turnCalls = new Map<number, CallRef[]>();
  for (const [first, turn] of repair) {
    const members = new Set(turn);
    turnCalls.set(
      first,
      pairing.calls.filter(
        (c) => members.has(c.position) && c.answer !== undefined && c.idUse !== 'same-message',
      ),
    );
  }
  // Which parts to take out of which message, and where each goes.
  const take = new Map<number, Set<number>>();
  /** By the position each block goes after: the calls whose results go there, in call order. */
  const blocks = new Map<number, CallRef[]>();
  for (const [first, turn] of repair) {
    const last = turn.at(-1)!;
    const members = new Set(turn);
    // Only results of tool messages (or of user messages, where a hand-written v1 file may keep
    // them, and where a Bedrock merge would put them) move: one inside an assistant message (a
    // provider-executed call) or a system message is not a result any writer puts in a tool turn.
    const calls = turnCalls.get(first)!.filter((c) => {
      const role = messages[c.answer!.position]!.role;
      return !members.has(c.answer!.position) && (role === 'tool' || role === 'user');
    });
    // The tool messages right after the turn that hold its results and none of another call are
    // in place; for Anthropic, whose results come first in their turn, only up to the first
    // other content.
    const answers = new Set(calls.map((c) => `${c.answer!.position}/${c.answer!.partIndex}`));
    const resultsLead = view.target === 'anthropic';
    let placed = last;
    for (let k = last + 1; k < messages.length && messages[k]!.role === 'tool'; k++) {
      const parts = messages[k]!.parts;
      // A tool message that also holds a call is no result turn of its own (its call is a turn).
      if (parts.some((p) => p.type === 'tool-call')) break;
      const mine = (j: number): boolean => answers.has(`${k}/${j}`);
      let lead = 0;
      while (lead < parts.length && mine(lead)) lead++;
      const other = (j: number): boolean => !mine(j) && anyAnswer.has(`${k}/${j}`);
      const ok = resultsLead
        ? lead > 0 && !parts.slice(lead).some((p) => p.type === 'tool-result')
        : parts.some((_, j) => mine(j)) && !parts.some((_, j) => other(j));
      if (!ok) break;
      placed = k;
      if (resultsLead && lead < parts.length) break;
    }
    const toMove = calls.filter((c) => c.answer!.position > placed);
    if (toMove.length === 0) continue;
    blocks.set(placed, toMove);
    for (const c of toMove) {
      const r = c.answer!;
      let set = take.get(r.position);
      if (set === undefined) take.set(r.position, (set = new Set()));
      set.add(r.partIndex);
    }
  }
  if (take.size === 0) return slots;

  const out: Slot[] = [];
  slots.forEach((slot, pos) => {
    const taken = take.get(pos);
    if (taken === undefined) out.push(slot);
    else {
      const rest = slot.message.parts.filter((_, j) => !taken.has(j));
      // A message whose parts all moved is gone; one that keeps other parts stays here.
      if (rest.length > 0) out.push({ message: remainder(slot.message, rest), from: slot.from });
    }
    const block = blocks.get(pos);
    if (block === undefined) return;
    // The moved results, one message per source message, in the order of the calls.
    const groups: { from: number; parts: Part[]; calls: CallRef[] }[] = [];
    for (const c of block) {
      const r = c.answer!;
      let g = groups.find((x) => x.from === r.position);
      if (g === undefined) groups.push((g = { from: r.position, parts: [], calls: [] }));
      g.parts.push(messages[r.position]!.parts[r.partIndex]!);
      g.calls.push(c);
    }
    for (const g of groups) {
      const source = slots[g.from]!;
      const whole = g.parts.length === source.message.parts.length;
      const message: Message = whole ? source.message : { ...source.message, parts: g.parts };
      out.push({ message, from: source.from });
      for (const c of g.calls) {
        const entry: MovedResult = { callId: c.id!, fromIndex: source.from ?? -1, afterIndex: -1 };
        entry.afterIndex = slots[c.position]!.from ?? -1;
        moved.push(entry);
      }
    }
  });
  return out;
}

/** Parts with the results first, except a result whose call comes earlier among them. */
function resultsFirst(parts: readonly Part[]): Part[] {
  const calls = new Set<string>();
  const first: Part[] = [];
  const rest: Part[] = [];
  for (const p of parts) {
    if (p.type === 'tool-call' && typeof p.id === 'string') calls.add(p.id);
    const pinned = typeof p.callId === 'string' && calls.has(p.callId);
    (p.type === 'tool-result' && !pinned ? first : rest).push(p);
  }
  return [...first, ...rest];
}

/** A message with some of its parts taken out: a tool message left with no results speaks as the user. */
function remainder(m: Message, parts: Part[]): Message {
  const role = m.role === 'tool' && !parts.some((p) => p.type === 'tool-result') ? 'user' : m.role;
  return { ...m, role, parts };
}

/**
 * Merges each run of consecutive messages of one provider role into one
 * (Bedrock turns must alternate), as the Bedrock writer merges turns: the
 * message with fields of its own besides its role and parts (or else the
 * first read from the file) keeps its fields, and in a user turn the results
 * come first, except a result whose call is earlier in the same turn, which
 * stays after it. Two messages with fields of their own are never merged
 * (one's would have nowhere to go): the run is split between them. Messages
 * an operation added merge silently (the synthesized report names them).
 */
function mergeTurns(slots: Slot[], merged: MergedMessage[]): Slot[] {
  const runs: Slot[][] = [];
  for (const slot of slots) {
    const run = runs.at(-1);
    const prev = run?.at(-1);
    if (
      prev !== undefined &&
      slot.message.role !== 'system' &&
      prev.message.role !== 'system' &&
      turnRole(prev.message) === turnRole(slot.message)
    )
      run!.push(slot);
    else runs.push([slot]);
  }
  const out: Slot[] = [];
  const plain = (s: Slot): boolean =>
    Object.keys(s.message).every((k) => k === 'role' || k === 'parts');
  for (const run of runs) {
    // Greedy groups: at most one message with fields of its own each, which keeps them.
    const groups: Slot[][] = [];
    for (const s of run) {
      const g = groups.at(-1);
      if (g !== undefined && (plain(s) || g.every(plain))) g.push(s);
      else groups.push([s]);
    }
    for (const group of groups) {
      if (group.length === 1) {
        out.push(group[0]!);
        continue;
      }
      const base =
        group.find((s) => !plain(s)) ?? group.find((s) => s.from !== undefined) ?? group[0]!;
      const parts = group.flatMap((s) => s.message.parts);
      const user = turnRole(base.message) === 'user';
      const ordered = user ? resultsFirst(parts) : parts;
      const role =
        user && ordered.some((p) => p.type === 'tool-result') ? 'tool' : base.message.role;
      out.push({ message: { ...base.message, role, parts: ordered }, from: base.from });
      for (const s of group)
        if (s !== base && s.from !== undefined)
          merged.push({ messageIndex: s.from, intoIndex: base.from ?? -1 });
    }
  }
  return out;
}
