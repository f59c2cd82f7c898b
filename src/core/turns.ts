/**
 * Provider turns: how a v1 history maps onto the messages a provider
 * receives. The format writers group messages with these functions and the
 * target rules check the same groups, so a history a writer writes as one
 * turn is never two turns to a rule (SPEC §3, providers.md "Wire shapes").
 *
 * A message read from the format being written (`source`) keeps its own
 * turn, so a read writes back one to one; messages an operation added or
 * another format gave join the turn of their key.
 */
import { sharedHint } from '../model/provider-data.js';
import type { Message } from '../model/types.js';

/**
 * How a history is seen by a provider: its target, and whether the history
 * was read from that provider's own format (then each message is one wire
 * message, as stored; otherwise messages group as the format's writer
 * groups them).
 */
export interface ProviderView {
  target: string;
  native: boolean;
}

/** One provider turn: consecutive v1 messages the provider sees as one message. */
export interface Turn {
  /** `user` for user and tool messages (and any other role), `assistant` for assistant ones. */
  role: 'user' | 'assistant';
  /** Indices of the v1 messages in the turn, in order. */
  messages: number[];
}

/** One v1 message as {@link groupTurns} sees it. */
export interface TurnEntry {
  /** The provider turn it may share with its neighbours; undefined never shares. */
  key: string | undefined;
  /** It came from the value read. */
  source: boolean;
}

/**
 * Groups consecutive entries into provider turns: entries with one `key`
 * share a turn, except that two entries from the source never do (so a read
 * writes back 1:1). An added entry joins the source entry after it when it
 * comes first in the run (normalize inserts results directly after the
 * call), otherwise the turn before it.
 */
export function groupTurns(entries: readonly TurnEntry[]): number[][] {
  const groups: number[][] = [];
  let current: number[] | undefined;
  let currentKey: string | undefined;
  let currentHasSource = false;
  entries.forEach((e, i) => {
    const joins =
      current !== undefined &&
      e.key !== undefined &&
      e.key === currentKey &&
      !(e.source && currentHasSource);
    if (joins) {
      current!.push(i);
      currentHasSource ||= e.source;
      return;
    }
    current = [i];
    groups.push(current);
    currentKey = e.key;
    currentHasSource = e.source;
  });
  return groups;
}

/** The provider role of a v1 message: results travel in user turns. */
export function turnRole(message: Message): 'user' | 'assistant' {
  return message.role === 'assistant' ? 'assistant' : 'user';
}

/**
 * The key a format's writer groups a v1 message by (see {@link groupTurns}):
 * OpenAI Chat writes adjacent assistant messages as one (so the tool
 * messages of all their calls follow it); Bedrock Converse merges whatever
 * would break strict alternation; Anthropic writes adjacent tool messages as
 * one user message (the API merges the rest itself).
 */
export function writerTurnKey(target: string, message: Message): string | undefined {
  switch (target) {
    case 'openai-chat':
      return message.role === 'assistant' ? 'assistant' : undefined;
    case 'bedrock':
      return message.role === 'tool' ? 'user' : message.role;
    case 'anthropic':
      return message.role === 'tool' ? 'tool' : undefined;
    default:
      return undefined;
  }
}

/** True for a tool message read from a Gemini content of its own (the reader's `$separate` hint). */
export function isSeparateGeminiContent(m: Message): boolean {
  return sharedHint(m, 'gemini', 'separate') === true;
}

/** Turns from groups of message indices (the role of a group is its first message's). */
function toTurns(
  messages: readonly Message[],
  groups: readonly number[][],
  indices: readonly number[],
): Turn[] {
  return groups.map((g) => {
    const members = g.map((k) => indices[k]!);
    return { role: turnRole(messages[members[0]!]!), messages: members };
  });
}

/**
 * The wire messages of a history as `view` sees them, in order:
 *
 * - `openai-chat`: one per v1 message (system messages included, they are
 *   inline), adjacent assistant messages of another format as one;
 * - `anthropic`: the API merges consecutive turns of one role, so user and
 *   tool messages in a row are one user turn (system messages go to the
 *   top-level `system`);
 * - `bedrock`: Converse merges nothing; a history of another format is
 *   written with consecutive turns of one role merged;
 * - `gemini`: one content per message, tool messages in a row sharing one
 *   (the responses to one call turn), unless read from separate contents;
 * - `openai-responses`: one per message.
 */
export function providerTurns(messages: readonly Message[], view: ProviderView): Turn[] {
  const inline = view.target === 'openai-chat' || view.target === 'openai-responses';
  const indices: number[] = [];
  messages.forEach((m, i) => {
    if (inline || m.role !== 'system') indices.push(i);
  });
  let entries: TurnEntry[];
  switch (view.target) {
    case 'anthropic':
      entries = indices.map((i) => ({ key: turnRole(messages[i]!), source: false }));
      break;
    case 'gemini': {
      // A tool message joins the tool content before it, unless it was a content of its own.
      const turns: Turn[] = [];
      for (const i of indices) {
        const m = messages[i]!;
        const last = turns.at(-1);
        const prev = last === undefined ? undefined : messages[last.messages.at(-1)!]!;
        if (prev?.role === 'tool' && m.role === 'tool' && !isSeparateGeminiContent(m))
          last!.messages.push(i);
        else turns.push({ role: turnRole(m), messages: [i] });
      }
      return turns;
    }
    case 'openai-chat':
    case 'bedrock':
      entries = indices.map((i) => ({
        key: writerTurnKey(view.target, messages[i]!),
        source: view.native,
      }));
      break;
    default:
      entries = indices.map(() => ({ key: undefined, source: false }));
  }
  return toTurns(messages, groupTurns(entries), indices);
}
