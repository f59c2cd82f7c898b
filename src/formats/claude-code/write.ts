/**
 * Writes a repaired conversation back into the Claude Code session it was read from (SPEC §5.1):
 * the session's events in file order, where every event the repair did not touch is the very
 * event read (so its line is written back byte for byte), an event whose message changed is a
 * copy with the new content, an event left empty is gone (its children re-parented onto its
 * parent), and a message the repair added (a synthesized tool result) is a new `user` event right
 * after the last event of the message before it, with an id derived from its content, the
 * neighbour's session fields, and the `parentUuid` chain re-linked through it. See
 * docs/formats/claude-code.md ("Writing a session back").
 */
import { nameId } from '../../core/ids.js';
import { SourceError } from '../../model/errors.js';
import { jsonEqual, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message, Part } from '../../model/types.js';
import { anthropicFormat } from '../anthropic/index.js';
import type { Conversation, Loss, WriteResult } from '../format.js';
import { isPlainObject } from '../kit/kept.js';
import { rekeyed } from '../kit/rekey.js';
import { isMessageEvent } from './detect.js';
import { FORMAT } from './hints.js';

/** Where each part of a message read came from: the event, and the block (-1: a string content). */
export interface PartSource {
  event: number;
  block: number;
}

/** What a read of a session keeps for writing it back (held beside the context, see {@link sessionOf}). */
export interface SessionState {
  /** The value read: the events array, or the `{"loglines": [...]}` export. */
  root: JsonValue;
  /** Where the events are in it: `''` or `/loglines`. */
  base: string;
  events: readonly JsonValue[];
  /** The messages read, and for each the events it was read from, in file order. */
  messages: readonly Message[];
  groups: readonly (readonly number[])[];
  /** For each message read, where each of its parts came from. */
  sources: readonly (readonly PartSource[])[];
}

/** The state of each read's context: the context stays plain data (what `show` and tests see). */
const SESSIONS = new WeakMap<object, SessionState>();

/** Keeps what writing the session back needs, for the read whose context is `context`. */
export function keepSession(context: object, state: SessionState): void {
  SESSIONS.set(context, state);
}

/** The session a context was read from, or undefined (a context of another read, or none). */
function sessionOf(context: unknown): SessionState | undefined {
  return typeof context === 'object' && context !== null ? SESSIONS.get(context) : undefined;
}

/** The kept record of a message (its events' own fields), compared to find the message read. */
function recordOf(m: Message): JsonValue | undefined {
  const pd = m.providerData;
  return isPlainObject(pd) ? pd[FORMAT] : undefined;
}

/**
 * For each message written, the index of the message read it is (by its kept record, in order),
 * or -1 for a message the repair added.
 */
function matchMessages(out: readonly Message[], read: readonly Message[]): number[] {
  const match: number[] = [];
  let cursor = 0;
  for (const m of out) {
    const record = recordOf(m);
    let found = -1;
    if (record !== undefined) {
      for (let j = cursor; j < read.length; j++) {
        if (read[j] === m || jsonEqual(recordOf(read[j]!) ?? null, record)) {
          found = j;
          break;
        }
      }
    }
    match.push(found);
    if (found !== -1) cursor = found + 1;
  }
  return match;
}

/** The blocks of `parts` as a message of `role` holds them (as the reader maps them: Anthropic's). */
function blocksOf(parts: readonly Part[], role: string, losses: Loss[], at: number): JsonValue[] {
  // The blocks map as Anthropic's do: written by its writer, with the kept data under its name.
  const one: Conversation = { messages: [{ role, parts: [...parts] }] };
  const written = anthropicFormat.write(rekeyed(one, FORMAT, 'anthropic'));
  for (const loss of written.losses) losses.push({ ...loss, messageIndex: at });
  const messages = (written.value as JsonObject).messages as JsonObject[];
  const content = messages[0]?.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

/** An event's message content from its blocks: a string again when it was one and still is only text. */
function contentOf(original: JsonValue | undefined, blocks: JsonValue[]): JsonValue {
  const only = blocks.length === 1 ? blocks[0] : undefined;
  if (
    typeof original === 'string' &&
    isPlainObject(only) &&
    only.type === 'text' &&
    typeof only.text === 'string' &&
    Object.keys(only).length === 2
  )
    return only.text;
  return blocks;
}

/** The fields a new event copies from its neighbour, in Claude Code's order. */
const NEIGHBOUR_FIELDS = [
  'isSidechain',
  'userType',
  'cwd',
  'sessionId',
  'version',
  'gitBranch',
  'agentId',
] as const;

/** A new event holding `content`, modelled on `neighbour` (its session fields and timestamp). */
function newEvent(
  neighbour: JsonObject | undefined,
  type: 'user' | 'assistant',
  content: JsonValue[],
  uuid: string,
): JsonObject {
  const event: JsonObject = { parentUuid: null };
  for (const key of NEIGHBOUR_FIELDS)
    if (neighbour?.[key] !== undefined) event[key] = neighbour[key]!;
  event.type = type;
  event.message = { role: type, content };
  event.uuid = uuid;
  if (typeof neighbour?.timestamp === 'string') event.timestamp = neighbour.timestamp;
  return event;
}

/**
 * The uuid of a new event: the name-based UUID of `name` (the session id and the call id, for a
 * result), unless an event of the session or one added before has it (a call id used again in
 * a later turn): then that of `name` and the uuid of the event it follows, and a count past that.
 * So it depends on the session alone, and no two events share one (a shared uuid would make two
 * events one node of the `parentUuid` tree, and Claude Code's chain a loop).
 */
function freshUuid(name: string, after: JsonValue | undefined, taken: Set<string>): string {
  let uuid = nameId(name);
  for (let n = 0; taken.has(uuid); n++)
    uuid = nameId(`${name} after ${String(after)}${n === 0 ? '' : ` ${n}`}`);
  taken.add(uuid);
  return uuid;
}

/** The events a message the repair added becomes: one user event per tool result, else one event. */
function eventsOfNew(
  m: Message,
  neighbour: JsonObject | undefined,
  taken: Set<string>,
  losses: Loss[],
  at: number,
): JsonObject[] {
  const session = typeof neighbour?.sessionId === 'string' ? neighbour.sessionId : '';
  const after = neighbour?.uuid;
  const results = m.parts.every((p) => p.type === 'tool-result');
  if (m.role === 'tool' && results) {
    return m.parts.map((p) =>
      newEvent(
        neighbour,
        'user',
        blocksOf([p], 'tool', losses, at),
        freshUuid(`${FORMAT} tool_result ${session} ${String(p.callId)}`, after, taken),
      ),
    );
  }
  const type = m.role === 'assistant' ? 'assistant' : 'user';
  const content = blocksOf(m.parts, m.role, losses, at);
  return [
    newEvent(
      neighbour,
      type,
      content,
      freshUuid(`${FORMAT} ${type} ${session} ${JSON.stringify(content)}`, after, taken),
    ),
  ];
}

/**
 * The new content of each event of a message read whose parts changed: a part equal to one read
 * keeps its block as it was (and its event); a changed part replaces the block it was read from
 * (by position, when the message kept its number of parts); a part added goes to the event of
 * the part before it. An event whose parts are all gone maps to null.
 */
function rewriteMessage(
  m: Message,
  read: Message,
  sources: readonly PartSource[],
  events: readonly JsonValue[],
  losses: Loss[],
  at: number,
): Map<number, JsonValue[] | null> {
  const contentOfEvent = (e: number): JsonValue | undefined =>
    ((events[e] as JsonObject).message as JsonObject).content;
  const byEvent = new Map<number, JsonValue[]>(sources.map((s) => [s.event, []]));
  // The events that took a block they did not hold, or lost one.
  const changed = new Set<number>();
  const same = m.parts.length === read.parts.length;
  let cursor = 0;
  let owner = sources[0]?.event;
  m.parts.forEach((part, k) => {
    let q = cursor;
    while (q < read.parts.length && read.parts[q] !== part && !jsonEqual(read.parts[q]!, part)) q++;
    if (q < read.parts.length) {
      // Parts skipped on the way were dropped: their events change.
      for (let j = cursor; j < q; j++) changed.add(sources[j]!.event);
      cursor = q + 1;
      const { event, block } = sources[q]!;
      owner = event;
      const content = contentOfEvent(event);
      byEvent
        .get(event)!
        .push(
          block === -1
            ? { type: 'text', text: content as string }
            : (content as JsonValue[])[block]!,
        );
      return;
    }
    if (same) owner = sources[k]!.event;
    if (owner === undefined)
      throw new SourceError(`${FORMAT}: a message with no event to write it in`);
    changed.add(owner);
    byEvent.get(owner)!.push(...blocksOf([part], read.role, losses, at));
  });
  for (let j = cursor; j < read.parts.length; j++) changed.add(sources[j]!.event);
  const out = new Map<number, JsonValue[] | null>();
  for (const e of changed) {
    const blocks = byEvent.get(e)!;
    out.set(e, blocks.length === 0 ? null : blocks);
  }
  return out;
}

/** Writes a conversation read from a Claude Code session back into that session's events. */
export function writeClaudeCode(conversation: Conversation, context?: unknown): WriteResult {
  const state = sessionOf(context);
  if (state === undefined)
    throw new SourceError(`a ${FORMAT} session is written only back to the file it was read from`);
  const { events, groups, messages: read, sources } = state;
  const losses: Loss[] = [];
  const out = conversation.messages;
  const match = matchMessages(out, read);

  // What becomes of each event read: a new value (its content changed) or null (gone).
  const replaced = new Map<number, JsonValue | null>();
  // The events added after an event read (-1: before the first message's).
  const added = new Map<number, JsonObject[]>();
  const kept = new Set<number>();
  const taken = new Set(
    events.flatMap((e) => (isPlainObject(e) && typeof e.uuid === 'string' ? [e.uuid] : [])),
  );
  let anchor = -1;
  out.forEach((m, k) => {
    const j = match[k]!;
    if (j !== -1) {
      kept.add(j);
      anchor = groups[j]![groups[j]!.length - 1]!;
      if (m === read[j] || jsonEqual(m, read[j]!)) return;
      for (const [e, blocks] of rewriteMessage(m, read[j]!, sources[j]!, events, losses, k)) {
        const event = events[e] as JsonObject;
        const message = event.message as JsonObject;
        replaced.set(
          e,
          blocks === null
            ? null
            : { ...event, message: { ...message, content: contentOf(message.content, blocks) } },
        );
      }
      return;
    }
    const neighbourAt = anchor !== -1 ? anchor : groups[0]?.[0];
    const neighbour = neighbourAt === undefined ? undefined : (events[neighbourAt] as JsonObject);
    const list = added.get(anchor) ?? [];
    list.push(...eventsOfNew(m, neighbour, taken, losses, k));
    added.set(anchor, list);
  });
  read.forEach((_, j) => {
    if (!kept.has(j)) for (const e of groups[j]!) replaced.set(e, null);
  });

  return { value: relink(state, replaced, added), losses };
}

/**
 * The session's events after the changes, in file order, with the `parentUuid` chain re-linked:
 * the children of a removed event go to its parent, and a run of added events sits between the
 * event it follows and that event's children on the same thread. Every message child moves,
 * the prompts of a rewound branch too, so a fork stays a fork one event lower (left at the event
 * above, an abandoned prompt would be no later prompt's sibling, and so read again); a line of
 * another type moves only when the chain goes through it (an event hangs from it), so a hook's
 * progress line that ends there stays as it was. An event not changed is the value read.
 */
function relink(
  state: SessionState,
  replaced: ReadonlyMap<number, JsonValue | null>,
  added: ReadonlyMap<number, JsonObject[]>,
): JsonValue {
  const { events, groups } = state;
  const uuidOf = (i: number): string | undefined => {
    const e = events[i];
    return isPlainObject(e) && typeof e.uuid === 'string' ? e.uuid : undefined;
  };
  // Where the children of a removed event go: its parent (itself removed: that one's parent).
  const removedParent = new Map<string, JsonValue>();
  for (const [i, v] of replaced) {
    const uuid = uuidOf(i);
    if (v === null && uuid !== undefined)
      removedParent.set(uuid, (events[i] as JsonObject).parentUuid ?? null);
  }
  const resolve = (parent: JsonValue | undefined): JsonValue | undefined => {
    const seen = new Set<string>();
    while (typeof parent === 'string' && removedParent.has(parent) && !seen.has(parent)) {
      seen.add(parent);
      parent = removedParent.get(parent);
    }
    return parent;
  };
  // Each run of added events hangs from the event it follows (before the first message: from
  // that message's parent), and its last event takes that event's children on the same thread.
  const first = groups[0]?.[0];
  const runs = new Map<string, { last: string; sidechain: JsonValue | undefined }>();
  const chains = new Map<number, JsonObject[]>();
  for (const [at, list] of added) {
    const hang =
      at === -1
        ? resolve(first === undefined ? null : ((events[first] as JsonObject).parentUuid ?? null))
        : resolve(uuidOf(at) ?? null);
    const chain = list.map((e, k): JsonObject => ({
      ...e,
      parentUuid: k === 0 ? (hang ?? null) : list[k - 1]!.uuid!,
    }));
    chains.set(at, chain);
    if (typeof hang === 'string')
      runs.set(hang, {
        last: chain[chain.length - 1]!.uuid as string,
        sidechain: chain[0]!.isSidechain,
      });
  }
  // The uuids some event hangs from: the lines the chain goes through.
  const parents = new Set(
    events.flatMap((e) =>
      isPlainObject(e) && typeof e.parentUuid === 'string' ? [e.parentUuid] : [],
    ),
  );
  const result: JsonValue[] = [];
  const push = (i: number): void => {
    const value = replaced.has(i) ? replaced.get(i)! : events[i]!;
    if (value === null) return;
    if (!isPlainObject(value) || !('parentUuid' in value)) return void result.push(value);
    let parent = resolve(value.parentUuid);
    const run = typeof parent === 'string' ? runs.get(parent) : undefined;
    // Only the thread of the added events goes through them (a sidechain's is its own).
    const through = typeof value.uuid === 'string' && parents.has(value.uuid);
    const moves = through || isMessageEvent(value);
    if (run !== undefined && moves && value.isSidechain === run.sidechain) parent = run.last;
    result.push(parent === value.parentUuid ? value : { ...value, parentUuid: parent ?? null });
  };
  events.forEach((_, i) => {
    if (i === first) result.push(...(chains.get(-1) ?? []));
    push(i);
    result.push(...(chains.get(i) ?? []));
  });
  if (state.base === '') return result;
  return { ...(state.root as JsonObject), loglines: result };
}
