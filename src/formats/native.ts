/**
 * histlint's own format, version 1 (SPEC §1): the envelope
 * `{"version": 1, "messages": [...]}` or a bare array of messages.
 */
import { SourceError } from '../model/errors.js';
import { setOwn, type JsonObject, type JsonValue } from '../model/json.js';
import { isObject, shapeProblem, type Message } from '../model/types.js';
import type { Conversation, ConversationFormat, Locator } from './format.js';
import { joinPointer } from './shared.js';

interface NativeContext {
  /** The value read was a bare array. */
  bare: boolean;
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

/**
 * True for `{"messages": [], "system": ...}` without a version: a request of a provider whose
 * system prompt is a field of its own (Anthropic, Bedrock), holding nothing else. Its empty
 * messages fit v1 too, but v1 has no `system` field: the provider formats read it.
 */
function isProviderSystemOnly(value: JsonValue): boolean {
  return (
    isObject(value) &&
    !Object.hasOwn(value, 'version') &&
    Array.isArray(value.messages) &&
    value.messages.length === 0 &&
    (typeof value.system === 'string' || Array.isArray(value.system))
  );
}

/** A locator for messages under `base` (`/messages` in an envelope, the root for a bare array). */
function locatorAt(base: string): Locator {
  return (messageIndex, partIndex, path = []) => {
    if (messageIndex === undefined) return base;
    let p = `${base}/${messageIndex}`;
    if (partIndex !== undefined) p += `/parts/${partIndex}`;
    return joinPointer(p, ...path);
  };
}

const locateBare = locatorAt('');
const locateEnvelope = locatorAt('/messages');
const BARE: NativeContext = { bare: true };
const ENVELOPE: NativeContext = { bare: false };

/** The value detect() last accepted; read() of the same object skips the shape scan. */
let lastDetected: JsonValue | undefined;

/** The v1 format. */
export const nativeFormat: ConversationFormat = {
  name: 'histlint',
  description:
    'histlint\'s own v1 format: {"version": 1, "messages": [...]} or a bare array of messages',
  readOnly: false,
  detect(value) {
    // An object counts only with the version envelope or v1-shaped messages (parts, not content).
    const ok = nativeProblem(value) === null && !isProviderSystemOnly(value);
    if (ok) lastDetected = value;
    return ok;
  },
  read(value) {
    // detect() just checked this very value (the usual order): no second scan.
    const problem = value === lastDetected ? null : nativeProblem(value);
    if (problem !== null) throw new SourceError(`not a conversation: ${problem}`);
    const bare = Array.isArray(value);
    const conversation: Conversation = bare
      ? { version: 1, messages: value as Message[] }
      : (value as Conversation);
    // Shared locators and contexts: reading costs no closure per conversation.
    return bare
      ? { conversation, context: BARE, locate: locateBare }
      : { conversation, context: ENVELOPE, locate: locateEnvelope };
  },
  write(conversation, context) {
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
  },
};

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
