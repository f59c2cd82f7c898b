/**
 * AutoGen message lists (read only): autogen-core `LLMMessage`s (`SystemMessage`, `UserMessage`,
 * `AssistantMessage`, `FunctionExecutionResultMessage`), bare or under `messages`, as an AgentChat
 * model context or an agent's saved state stores them. See docs/formats/autogen.md.
 */
import { ReadOnlyFormatError } from '../../model/errors.js';
import type { ConversationFormat } from '../format.js';
import { detectAutoGen } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readAutoGen } from './read.js';

/** The AutoGen message list format (read only). */
export const autogenFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'AutoGen message lists (read only): SystemMessage / UserMessage / AssistantMessage / FunctionExecutionResultMessage, bare or under "messages"',
  readOnly: true,
  target: 'openai-chat',
  document: 'value',
  hints: HINT_KEYS,
  detect: detectAutoGen,
  read: readAutoGen,
  write() {
    // Reached by --check (which writes to compare); the write modes refuse earlier with the same words.
    throw new ReadOnlyFormatError(FORMAT);
  },
};
