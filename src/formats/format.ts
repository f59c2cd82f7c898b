/**
 * The contract every stored format implements: read a JSON value into v1
 * messages, and write v1 messages back as that format's value.
 */
import type { JsonValue } from '../model/json.js';
import type { Message } from '../model/types.js';

/** A conversation read from a format, with what its writer needs to rebuild the original around new messages. */
export interface ReadConversation {
  messages: Message[];
  /** Format-specific state (the envelope, top-level fields) a write keeps. */
  context?: unknown;
}

/** One stored conversation format. */
export interface ConversationFormat {
  /** The name `--from` and `--to` take. */
  name: string;
  /** One line for `--help` and the README. */
  description: string;
  /** A format histlint reads but never writes. */
  readOnly: boolean;
  /** True when `value` looks like this format (used by `--from auto`). */
  detect(value: JsonValue): boolean;
  /** Reads a value; throws `SourceError` when it is not this format. */
  read(value: JsonValue): ReadConversation;
  /** Writes messages as this format, around `context` from a read of the same format when given. */
  write(messages: Message[], context?: unknown): JsonValue;
}
