/**
 * Claude Code session logs (read only): the events of a session JSONL file
 * as one array (the caller joins the lines), or a `{"loglines": [...]}`
 * export. The conversation is rebuilt from the `message` of the user and
 * assistant events of the main thread; see docs/formats/claude-code.md for
 * which events count and how blocks map.
 */
import { ReadOnlyFormatError } from '../../model/errors.js';
import type { ConversationFormat } from '../format.js';
import { detectClaudeCode } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readClaudeCode } from './read.js';

export type { ClaudeCodeContext } from './thread.js';

/** The Claude Code session log format (read only). */
export const claudeCodeFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'Claude Code session logs (read only): the events of a session JSONL file, or a {"loglines": [...]} export',
  readOnly: true,
  target: 'anthropic',
  document: 'event-log',
  hints: HINT_KEYS,
  detect: detectClaudeCode,
  read: readClaudeCode,
  write() {
    // Reached by --check (which writes to compare); the write modes refuse earlier with the same words.
    throw new ReadOnlyFormatError(FORMAT);
  },
};
