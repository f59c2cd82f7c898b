/**
 * OpenAI Agents SDK run states (read only): a `RunState` as the Python or the TypeScript SDK
 * serializes it to resume a run (after an interruption for a tool approval, or stored between
 * turns). The conversation is its original input and its generated items' Responses items. See
 * docs/formats/openai-agents.md.
 */
import { ReadOnlyFormatError } from '../../model/errors.js';
import type { ConversationFormat } from '../format.js';
import { detectOpenAIAgents } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readOpenAIAgents } from './read.js';

/** The OpenAI Agents SDK run state format (read only). */
export const openaiAgentsFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'OpenAI Agents SDK run states (read only): a serialized RunState, its original input and generated items',
  readOnly: true,
  target: 'openai-responses',
  document: 'value',
  hints: HINT_KEYS,
  detect: detectOpenAIAgents,
  read: readOpenAIAgents,
  write() {
    // Reached by --check (which writes to compare); the write modes refuse earlier with the same words.
    throw new ReadOnlyFormatError(FORMAT);
  },
};
