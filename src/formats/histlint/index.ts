/**
 * histlint's own format, version 1 (SPEC §1): the envelope
 * `{"version": 1, "messages": [...]}` or a bare array of messages.
 */
import type { ConversationFormat } from '../format.js';
import { detectNative } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readNative } from './read.js';
import { writeNative } from './write.js';

export { nativeProblem } from './detect.js';
export { withMessages } from './write.js';

/** The v1 format. */
export const nativeFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'histlint\'s own v1 format: {"version": 1, "messages": [...]} or a bare array of messages',
  readOnly: false,
  document: 'value',
  hints: HINT_KEYS,
  detect: detectNative,
  read: readNative,
  write: writeNative,
};
