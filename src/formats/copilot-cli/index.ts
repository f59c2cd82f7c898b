/**
 * GitHub Copilot CLI session event logs (read only): the `{type, data, id, timestamp, parentId}`
 * lines of a session JSONL file (`~/.copilot/session-state/`), read as the main agent's system
 * prompt, user and assistant messages and tool results. See docs/formats/copilot-cli.md.
 */
import { ReadOnlyFormatError } from '../../model/errors.js';
import type { ConversationFormat } from '../format.js';
import { detectCopilotCli } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readCopilotCli } from './read.js';

export type { CopilotCliContext } from './read.js';

/** The Copilot CLI session format (read only). */
export const copilotCliFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'GitHub Copilot CLI session event logs (read only): the {type, data, id, timestamp, parentId} lines of a session JSONL file',
  readOnly: true,
  // No target: Copilot CLI sends one session to several providers' models (Claude, GPT, Gemini)
  // through the Copilot API, so no one provider's acceptance rules are the session's.
  document: 'event-log',
  hints: HINT_KEYS,
  detect: detectCopilotCli,
  read: readCopilotCli,
  write() {
    // Reached by --check (which writes to compare); the write modes refuse earlier with the same words.
    throw new ReadOnlyFormatError(FORMAT);
  },
};
