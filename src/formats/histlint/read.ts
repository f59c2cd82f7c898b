/**
 * Reads v1 (SPEC §1): the value is the conversation already; a bare array of messages gets the
 * envelope. Nothing is copied, and the locators and contexts are shared: reading costs no
 * closure per conversation.
 */
import { SourceError } from '../../model/errors.js';
import type { JsonValue } from '../../model/json.js';
import type { Message } from '../../model/types.js';
import type { Conversation, ReadResult } from '../format.js';
import { identityLocator } from '../kit/source-map.js';
import { readProblem } from './detect.js';

/** What a write of the same format needs: whether the value read was a bare array. */
export interface NativeContext {
  /** The value read was a bare array. */
  bare: boolean;
}

const locateBare = identityLocator('');
const locateEnvelope = identityLocator('/messages');
const BARE: NativeContext = { bare: true };
const ENVELOPE: NativeContext = { bare: false };

/** Reads a v1 envelope or bare array of v1 messages; throws `not a conversation: ...` otherwise. */
export function readNative(value: JsonValue): ReadResult {
  const problem = readProblem(value);
  if (problem !== null) throw new SourceError(`not a conversation: ${problem}`);
  const bare = Array.isArray(value);
  const conversation: Conversation = bare
    ? { version: 1, messages: value as Message[] }
    : (value as Conversation);
  return bare
    ? { conversation, context: BARE, locate: locateBare }
    : { conversation, context: ENVELOPE, locate: locateEnvelope };
}
