/**
 * OpenAI Codex CLI rollouts (`~/.codex/sessions/.../rollout-*.jsonl`): the lines of a rollout JSONL
 * file as one array (the caller joins them). The conversation is the Responses items of its
 * `response_item` lines, or of an older rollout's item lines; see docs/formats/codex-cli.md for
 * which lines count and how a repair is written back into the file.
 */
import type { ConversationFormat } from '../format.js';
import { detectCodexCli } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readCodexCli } from './read.js';
import { writeCodexCli } from './write.js';

export type { CodexCliContext } from './read.js';

/** The Codex CLI rollout format. */
export const codexCliFormat: ConversationFormat = {
  name: FORMAT,
  description:
    "OpenAI Codex CLI rollouts: the {timestamp, type, payload} lines of a rollout JSONL file (or an older rollout's bare item lines), written back only to that file",
  // A session format: written only back into the rollout it was read from (SPEC §5.1).
  readOnly: false,
  session: true,
  target: 'openai-responses',
  document: 'event-log',
  hints: HINT_KEYS,
  detect: detectCodexCli,
  read: readCodexCli,
  write: writeCodexCli,
};
