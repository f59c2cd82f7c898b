/**
 * A format that reads or writes through another format's adapter (a Codex CLI rollout's items
 * through `openai-responses`, a Claude Code session's blocks through `anthropic`) keeps its data
 * under its own key: these copy a conversation's kept data from one format's key to the other's
 * (`providerData.<from>` to `providerData.<to>`, kept parts `<from>:<label>` to `<to>:<label>`),
 * every other field as it was.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Message, Part } from '../../model/types.js';
import type { Conversation, Locator, ReadResult } from '../format.js';
import { dropBareHint } from './envelope.js';
import { isPlainObject } from './kept.js';
import { relocateItems, type ItemSource } from './source-map.js';

/** `providerData` with the key `from` renamed `to`, in place of it (the other keys in their order). */
function renamedData(data: JsonValue, from: string, to: string): JsonValue {
  if (!isPlainObject(data) || !Object.hasOwn(data, from)) return data;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(data)) {
    if (k === to) continue;
    out[k === from ? to : k] = v;
  }
  return out;
}

/** An object with its `providerData` renamed (a copy, or the object itself when it has none). */
function renamed<T extends JsonObject>(obj: T, from: string, to: string): T {
  if (!Object.hasOwn(obj, 'providerData')) return { ...obj };
  return { ...obj, providerData: renamedData(obj.providerData!, from, to) };
}

/** Called with each v1 message or part and its copy (a read's provenance follows the copies). */
export type OnCopy = (original: object, copy: object) => void;

function copyPart(part: Part, from: string, to: string, onCopy: OnCopy): Part {
  const copy = renamed(part, from, to);
  if (typeof copy.type === 'string' && copy.type.startsWith(`${from}:`))
    copy.type = `${to}:${copy.type.slice(from.length + 1)}`;
  if (copy.type === 'tool-result' && Array.isArray(copy.content)) {
    copy.content = (copy.content as JsonValue[]).map((c) =>
      isPlainObject(c) ? (copyPart(c as Part, from, to, onCopy) as JsonValue) : c,
    );
  }
  onCopy(part, copy);
  return copy;
}

/**
 * A copy of `part` whose kept data of format `from` is under `to` (a kept part `from:<label>` typed
 * `to:<label>`, a tool result's content parts too): for a format whose records hold parts another
 * format's reader maps (a Gemini CLI message's content, read by the Gemini reader's part mapping).
 */
export function rekeyedPart(part: Part, from: string, to: string): Part {
  return copyPart(part, from, to, () => {});
}

function copyMessage(m: Message, from: string, to: string, onCopy: OnCopy): Message {
  const copy = renamed(m, from, to);
  copy.parts = m.parts.map((p) => copyPart(p, from, to, onCopy));
  onCopy(m, copy);
  return copy;
}

/**
 * A copy of `conversation` whose kept data of format `from` is under `to`, and whose kept parts of
 * `from` are typed `to:<label>`; `onCopy` hears of each message and part copied.
 */
export function rekeyed(
  conversation: Conversation,
  from: string,
  to: string,
  onCopy: OnCopy = () => {},
): Conversation {
  const copy = renamed(conversation, from, to);
  copy.messages = conversation.messages.map((m) => copyMessage(m, from, to, onCopy));
  return copy;
}

/**
 * The read of a format `to` whose conversation is items it holds, gathered and read by format
 * `from`'s bare-array reader (a Codex rollout's, or a run state's, Responses items; an ADK
 * session's Gemini contents): `inner`'s conversation with its kept data under `to` and without
 * the bare-array hint (`to` is never a bare array), and its locator taking item `k`'s pointer
 * `/k/...` to where `sources[k]` says the item is. `onCopy` hears of each message and part copied.
 */
export function readThrough(
  inner: ReadResult,
  from: string,
  to: string,
  sources: readonly ItemSource[],
  onCopy?: OnCopy,
): { conversation: Conversation; locate: Locator } {
  const conversation = dropBareHint(rekeyed(inner.conversation, from, to, onCopy), to);
  return { conversation, locate: relocateItems(inner.locate, sources) };
}
