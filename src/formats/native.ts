/**
 * histlint's own format, version 1 (SPEC §1): the envelope
 * `{"version": 1, "messages": [...]}` or a bare array of messages.
 */
import { SourceError } from '../model/errors.js';
import type { JsonObject, JsonValue } from '../model/json.js';
import { isObject, shapeProblem, type Message } from '../model/types.js';
import type { ConversationFormat } from './format.js';

interface NativeContext {
  /** The envelope read, or null for a bare array. */
  envelope: JsonObject | null;
}

function messagesOf(value: JsonValue): JsonValue | undefined {
  if (Array.isArray(value)) return value;
  if (isObject(value)) return value.messages;
  return undefined;
}

/** Why `value` is not a v1 conversation, or null when it has the basic shape. */
export function nativeProblem(value: JsonValue): string | null {
  const messages = messagesOf(value);
  if (messages === undefined) {
    return Array.isArray(value) || isObject(value)
      ? 'no "messages" array'
      : `a JSON ${value === null ? 'null' : typeof value} is not a conversation`;
  }
  return shapeProblem(messages);
}

/** The v1 format. */
export const nativeFormat: ConversationFormat = {
  name: 'histlint',
  description:
    'histlint\'s own v1 format: {"version": 1, "messages": [...]} or a bare array of messages',
  readOnly: false,
  detect(value) {
    return nativeProblem(value) === null;
  },
  read(value) {
    const problem = nativeProblem(value);
    if (problem !== null) throw new SourceError(`not a conversation: ${problem}`);
    const context: NativeContext = {
      envelope: Array.isArray(value) ? null : (value as JsonObject),
    };
    return { messages: messagesOf(value) as Message[], context };
  },
  write(messages, context) {
    const envelope = (context as NativeContext | undefined)?.envelope;
    if (envelope === null) return messages;
    if (envelope === undefined) return { version: 1, messages };
    // Keep the envelope's other fields and their order; only the messages change.
    const out: JsonObject = {};
    for (const key of Object.keys(envelope)) {
      Object.defineProperty(out, key, {
        value: key === 'messages' ? messages : envelope[key],
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return out;
  },
};
