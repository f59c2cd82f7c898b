/**
 * Claude Code session logs: the events of a session JSONL file as one array
 * (the caller joins the lines), or a `{"loglines": [...]}` export. The
 * conversation is rebuilt from the `message` of the user and assistant events
 * of the main thread; a repair is written back into the session it was read
 * from (a session format: SPEC §5.1). See docs/formats/claude-code.md for which
 * events count, how blocks map, and how a session is written back.
 */
import type { ConversationFormat } from '../format.js';
import { detectClaudeCode } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readClaudeCode } from './read.js';
import { writeClaudeCode } from './write.js';

export type { ClaudeCodeContext } from './thread.js';

/** The Claude Code session log format: read, and written back into the session it was read from. */
export const claudeCodeFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'Claude Code session logs: the events of a session JSONL file, or a {"loglines": [...]} export (repaired in place)',
  readOnly: false,
  session: true,
  target: 'anthropic',
  document: 'event-log',
  hints: HINT_KEYS,
  detect: detectClaudeCode,
  read: readClaudeCode,
  write: writeClaudeCode,
};
