/**
 * Google Agent Development Kit sessions (read only): a `Session` as a session service stores it,
 * its events' contents being Gemini contents. See docs/formats/adk.md.
 */
import { ReadOnlyFormatError } from '../../model/errors.js';
import type { ConversationFormat } from '../format.js';
import { detectAdk } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readAdk } from './read.js';

/** The Google ADK session format (read only). */
export const adkFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'Google ADK sessions (read only): a Session with app_name, user_id and events whose content are Gemini contents',
  readOnly: true,
  target: 'gemini',
  document: 'value',
  hints: HINT_KEYS,
  detect: detectAdk,
  read: readAdk,
  write() {
    // Reached by --check (which writes to compare); the write modes refuse earlier with the same words.
    throw new ReadOnlyFormatError(FORMAT);
  },
};
