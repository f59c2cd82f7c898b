/**
 * Writes v1: a conversation read as v1 goes back exactly as it was (a bare array as one, with
 * the read's context); any other gets the envelope, version first. A bare array stored as v1 is
 * stored as the envelope (`{"version": 1, "messages": [...]}`, what its read gives): that is the
 * conversation, so written again without the read's context it stays the envelope.
 */
import { setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/types.js';
import type { Conversation, WriteResult } from '../format.js';
import type { NativeContext } from './read.js';

/** Writes a v1 conversation: bare when read from a bare array, else the envelope. */
export function writeNative(conversation: Conversation, context?: unknown): WriteResult {
  const ctx = context as NativeContext | undefined;
  if (ctx?.bare === true) return { value: conversation.messages, losses: [] };
  // Read as v1: written back exactly as it was, envelope fields and all.
  if (ctx !== undefined || Object.hasOwn(conversation, 'version')) {
    return { value: conversation, losses: [] };
  }
  // A conversation from another format gets the envelope, version first.
  const out: JsonObject = { version: 1 };
  for (const key of Object.keys(conversation)) setOwn(out, key, conversation[key]!);
  return { value: out, losses: [] };
}

/**
 * A copy of a conversation with other messages (and, when given, other kept `providerData`); every
 * other field and the key order stay.
 */
export function withMessages(
  conversation: Conversation,
  messages: Message[],
  providerData?: JsonValue,
): Conversation {
  const out = {} as Conversation;
  for (const key of Object.keys(conversation)) {
    const keep = key !== 'messages' && (key !== 'providerData' || providerData === undefined);
    setOwn(out, key, keep ? conversation[key]! : key === 'messages' ? messages : providerData!);
  }
  if (!Object.hasOwn(out, 'messages')) out.messages = messages;
  if (providerData !== undefined && !Object.hasOwn(out, 'providerData'))
    out.providerData = providerData;
  return out;
}
