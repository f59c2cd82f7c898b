/**
 * Which events of a Claude Code session make the conversation, and how they group into v1
 * messages: the message events of the main thread (or of a sub-agent's own transcript), an event
 * logged twice read once, abandoned branches of a rewind left out, and the events of one API
 * message joined. See docs/formats/claude-code.md ("Which events make the conversation").
 */
import { jsonEqual, type JsonObject, type JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';
import { isMessageEvent } from './detect.js';

/** What a read leaves out of the conversation, by event index (for `show` and debugging). */
export interface ClaudeCodeContext {
  /** Events of sub-agent threads (`isSidechain: true`) in a main session file. */
  sidechainEvents: number[];
  /** Events on a branch the user abandoned by rewinding to an earlier prompt. */
  abandonedEvents: number[];
  /** Lines that are not user or assistant messages (summary, system, progress, snapshots, junk). */
  skippedEvents: number[];
  /** Every message event was a sidechain: the file is a sub-agent's own transcript, read whole. */
  subagentTranscript: boolean;
  /**
   * Message events written again under the uuid of an earlier one, with the same message (a
   * resumed session): read once, at the first copy. Present only when there are some.
   */
  duplicateEvents?: number[];
}

/** The events that become one v1 message. */
export interface Group {
  /** The event indices, in file order; the first one locates the message. */
  indices: number[];
  role: string;
  messageId?: string;
  /** A user event of tool results only (no typed prompt). */
  results?: boolean;
}

/**
 * The later copies of events logged twice: a message event whose `uuid` an earlier message
 * event has, with the same `type` and `message` (compared as JSON). Claude Code writes an event
 * again, under its uuid, when a session is resumed; it is one event, read once, at its first
 * line (so `locate` points there and its record is the first copy's). Only the message is
 * compared: a rewrite may carry its own timestamp or other metadata, which is not the
 * conversation.
 *
 * A later event of a known uuid whose message differs (more content, another result) is not
 * that event written again, and which of the two Claude Code sent cannot be told from the file:
 * both are read, as when no uuid repeats, so lint shows the conflict (a duplicate tool result
 * or call, at the later line) instead of the reader hiding either one. Neither first-wins
 * (which would silently lose what only the later copy holds) nor last-wins or merging (which
 * would read content at a line other than the one located) is safe. A line that is not a
 * message event (junk, a bookkeeping line) does not claim its uuid either.
 */
function repeatedEvents(events: readonly JsonValue[]): Set<number> {
  const read = new Map<string, JsonObject[]>();
  const out = new Set<number>();
  events.forEach((e, i) => {
    if (!isMessageEvent(e) || typeof e.uuid !== 'string') return;
    const earlier = read.get(e.uuid);
    if (earlier === undefined) read.set(e.uuid, [e]);
    else if (earlier.some((x) => x.type === e.type && jsonEqual(x.message!, e.message!)))
      out.add(i);
    else earlier.push(e);
  });
  return out;
}

/** A user event that is a typed prompt (not tool results). */
function isPrompt(e: JsonObject): boolean {
  if (e.type !== 'user' || !isPlainObject(e.message)) return false;
  const content = e.message.content;
  return !(
    Array.isArray(content) && content.some((b) => isPlainObject(b) && b.type === 'tool_result')
  );
}

/**
 * Events on abandoned branches: when the user rewinds, the new prompt is a
 * later sibling (same `parentUuid`) of an earlier prompt, and the earlier
 * prompt's whole subtree is no longer the conversation. Other siblings
 * (parallel tool calls and their results, progress lines) are kept.
 */
function abandonedEvents(events: readonly JsonValue[], repeated: ReadonlySet<number>): Set<number> {
  const byUuid = new Map<string, number>();
  events.forEach((e, i) => {
    if (isPlainObject(e) && typeof e.uuid === 'string' && !byUuid.has(e.uuid))
      byUuid.set(e.uuid, i);
  });
  const children = new Map<string, number[]>();
  events.forEach((e, i) => {
    // A copy is no sibling of its first line: a prompt logged twice is not a rewind.
    if (repeated.has(i)) return;
    if (!isPlainObject(e) || typeof e.parentUuid !== 'string' || !byUuid.has(e.parentUuid)) return;
    const list = children.get(e.parentUuid);
    if (list === undefined) children.set(e.parentUuid, [i]);
    else list.push(i);
  });
  const out = new Set<number>();
  const sidechain = (i: number): boolean => (events[i] as JsonObject).isSidechain === true;
  for (const siblings of children.values()) {
    // Every prompt but the last one on the same parent (and the same thread) was rewound away.
    const rewound = [false, true].flatMap((side) =>
      siblings
        .filter((i) => isPrompt(events[i] as JsonObject) && sidechain(i) === side)
        .slice(0, -1),
    );
    for (const start of rewound) {
      const stack = [start];
      while (stack.length > 0) {
        const i = stack.pop()!;
        if (out.has(i)) continue;
        out.add(i);
        const uuid = (events[i] as JsonObject).uuid;
        if (typeof uuid === 'string' && byUuid.get(uuid) === i)
          stack.push(...(children.get(uuid) ?? []));
      }
    }
  }
  return out;
}

/**
 * The assistant group of `messageId` that a later event of that id joins: the last group, or an
 * earlier one when only tool-result events were logged after it.
 */
function openMessage(groups: readonly Group[], messageId: string | undefined): Group | undefined {
  if (messageId === undefined) return undefined;
  for (let k = groups.length - 1; k >= 0; k--) {
    const g = groups[k]!;
    if (g.role === 'assistant') return g.messageId === messageId ? g : undefined;
    if (!g.results) return undefined;
  }
  return undefined;
}

/**
 * The groups of events that become the v1 messages, in file order, and what the read left out
 * (the read's context).
 */
export function threadOf(events: readonly JsonValue[]): {
  groups: Group[];
  context: ClaudeCodeContext;
} {
  const context: ClaudeCodeContext = {
    sidechainEvents: [],
    abandonedEvents: [],
    skippedEvents: [],
    subagentTranscript: false,
  };
  const messageEvents = events.flatMap((e, i) => (isMessageEvent(e) ? [i] : []));
  const main = messageEvents.filter((i) => (events[i] as JsonObject).isSidechain !== true);
  // A sub-agent's own file holds nothing but its sidechain: that is the conversation then.
  context.subagentTranscript = main.length === 0 && messageEvents.length > 0;
  const thread = new Set(context.subagentTranscript ? messageEvents : main);
  const repeated = repeatedEvents(events);
  const abandoned = abandonedEvents(events, repeated);
  const duplicateEvents: number[] = [];

  const groups: Group[] = [];
  events.forEach((e, i) => {
    if (!isMessageEvent(e)) {
      context.skippedEvents.push(i);
      return;
    }
    if (repeated.has(i)) {
      duplicateEvents.push(i);
      return;
    }
    if (!thread.has(i)) {
      context.sidechainEvents.push(i);
      return;
    }
    if (abandoned.has(i)) {
      context.abandonedEvents.push(i);
      return;
    }
    const message = e.message as JsonObject;
    const role = message.role === 'user' || message.role === 'assistant' ? message.role : e.type;
    const messageId = typeof message.id === 'string' ? message.id : undefined;
    // One API message is logged as one event per content block, and the results of its first
    // calls may be logged between its blocks (Claude Code runs a tool while the rest streams).
    // Claude Code sends it as one assistant message followed by the results: so is it read.
    const owner = role === 'assistant' ? openMessage(groups, messageId) : undefined;
    if (owner !== undefined) {
      owner.indices.push(i);
      return;
    }
    const group: Group = { indices: [i], role: role as string };
    if (messageId !== undefined) group.messageId = messageId;
    if (role === 'user' && !isPrompt(e)) group.results = true;
    groups.push(group);
  });
  if (duplicateEvents.length > 0) context.duplicateEvents = duplicateEvents;
  return { groups, context };
}
