/**
 * The contract every stored format implements: read a JSON value into a v1
 * conversation, and write a v1 conversation back as that format's value.
 *
 * Nothing is lost on the way: what the v1 model has no field for is kept in
 * a `providerData` object, keyed by format name, on the message, the part,
 * or (for request-level fields such as `model` or `tools`) the conversation
 * itself. Writing a conversation back to the format it came from restores
 * them; writing it to another format reports them as losses.
 */
import type { JsonObject, JsonValue } from '../model/json.js';
import type { Message } from '../model/types.js';

/** A conversation in the v1 model: the envelope's fields (`messages`, optional `providerData`, anything else). */
export interface Conversation extends JsonObject {
  messages: Message[];
}

/** Where a v1 message, part, or a path below them came from in the source value (an RFC 6901 pointer, relative to the value read). */
export type Locator = (
  messageIndex?: number,
  partIndex?: number,
  path?: readonly (string | number)[],
) => string;

/** What a format's reader returns. */
export interface ReadResult {
  conversation: Conversation;
  /** State a write of the same format needs to rebuild the original shape (e.g. bare array or envelope). */
  context?: unknown;
  /** Maps v1 indices back to the source value, so lint findings point into the original file. */
  locate: Locator;
}

/** Something the target format cannot express (SPEC §4 `convert`). */
export interface Loss {
  messageIndex?: number;
  partIndex?: number;
  /** What was lost, in a few words (e.g. `reasoning part`, `providerData.anthropic`). */
  what: string;
  /** The source keys lost (e.g. `["cache_control"]` of `providerData.anthropic`), where the loss is of keys. */
  keys?: string[];
  /**
   * Not content: request settings (`model`, `max_tokens`, ...) or histlint's own ids another
   * format has no place for. A conversion drops these without `--lossy` and reports them as
   * dropped (see `splitLosses` in shared.ts).
   */
  dropped?: 'settings' | 'ids';
}

/** What a format's writer returns. */
export interface WriteResult {
  value: JsonValue;
  /** Everything the value does not carry; empty for a lossless write. */
  losses: Loss[];
}

/** One stored conversation format. */
export interface ConversationFormat {
  /** The name `--from` and `--to` take. */
  name: string;
  /** One line for `--help` and the README. */
  description: string;
  /** A format histlint reads but never writes. */
  readOnly: boolean;
  /**
   * An agent CLI's session file (SPEC §5.1): written only back to the file it was read from
   * (`write` needs the read's context and throws a `SourceError` without one), by the repair
   * commands; `convert --to` it and `trim` of it are refused.
   */
  session?: boolean;
  /**
   * The provider whose acceptance rules a history read in this format is checked against under
   * `--target auto` (SPEC §3); absent for formats no one provider receives (v1, the AI SDK).
   */
  target?: string;
  /**
   * What one stored value of this format is: a whole history (`value`), or one event of a log
   * whose lines together are one history (`event-log`: a JSONL file of it is one conversation,
   * not one per line).
   */
  document: 'value' | 'event-log';
  /**
   * Every `$` hint key the adapter writes into its kept data (declared in its `hints.ts`); a test
   * fails when a read writes one not listed.
   */
  hints: readonly string[];
  /** True when `value` looks like this format (used by `--from auto`). */
  detect(value: JsonValue): boolean;
  /** Reads a value; throws `SourceError` when it is not this format. */
  read(value: JsonValue, options?: ReadOptions): ReadResult;
  /** Writes a conversation as this format; `context` comes from a read of the same format, when there was one. */
  write(conversation: Conversation, context?: unknown): WriteResult;
}

/** How a value is read. */
export interface ReadOptions {
  /**
   * Lint's first look at a conversation: the same conversation, without the record of where each
   * node came from (`locate` then names only the document's root) or of which nodes the read made
   * (the context's provenance is empty, so a writer would take the history as another format's).
   * Lint reads again, tracked, only a conversation that has findings to place.
   */
  untracked?: boolean;
}

/** The formats whose `providerData` an object carries, other than `except`. */
export function foreignProviderData(obj: JsonObject, except: string): string[] {
  const pd = obj.providerData;
  if (typeof pd !== 'object' || pd === null || Array.isArray(pd)) return [];
  return Object.keys(pd).filter((k) => k !== except);
}

/**
 * The provider target a conversation read as `format` is checked against:
 * `auto` (the default) takes the format's own provider, `none` none, any
 * other value is that provider.
 */
export function targetFor(choice: string | undefined, format: ConversationFormat): string | null {
  if (choice === undefined || choice === 'auto') return format.target ?? null;
  return choice === 'none' ? null : choice;
}

/**
 * True for a format any v1 conversation can be written in (`convert --to` it): not read only,
 * and no session format (which writes only back into the session it was read from).
 */
export function writesAnyConversation(format: ConversationFormat): boolean {
  return !format.readOnly && format.session !== true;
}
