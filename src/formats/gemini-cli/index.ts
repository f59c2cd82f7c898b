/**
 * Gemini CLI chat recordings: the JSON file (`{sessionId, projectHash, startTime, messages}`) or
 * the JSONL form (a header line, message lines, `$set` lines), read as the Gemini conversation
 * the CLI sends, and repaired in place (a session format, SPEC §5.1). See
 * docs/formats/gemini-cli.md.
 */
import type { ConversationFormat } from '../format.js';
import { detectGeminiCli } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readGeminiCli } from './read.js';
import { writeGeminiCli } from './write.js';

export type { GeminiCliContext } from './read.js';

/** The Gemini CLI recording format: read, and written back into the recording it was read from. */
export const geminiCliFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'Gemini CLI chat recordings: the session JSON file or its JSONL form (repaired in place)',
  readOnly: false,
  session: true,
  target: 'gemini',
  document: 'event-log',
  hints: HINT_KEYS,
  detect: detectGeminiCli,
  read: readGeminiCli,
  write: writeGeminiCli,
};
