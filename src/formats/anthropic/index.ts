/**
 * Anthropic Messages requests: `{model, max_tokens, system?, messages: [{role,
 * content: string | blocks}], tools, ...}`, or a bare `messages` array.
 *
 * One source message becomes one v1 message; a user message that carries
 * `tool_result` blocks becomes a v1 `tool` message. Blocks v1 has no type for
 * (server tools, web search results, MCP, container uploads, ...) become parts
 * of type `anthropic:<block type>` holding the block in providerData, so they
 * survive every operation and write back unchanged.
 */
import type { ConversationFormat } from '../format.js';
import { isAnthropic } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readAnthropic } from './read.js';
import { writeAnthropic } from './write.js';

/** The Anthropic Messages format. */
export const anthropicFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'Anthropic Messages request: {"model", "max_tokens", "system", "messages": [...]} or a bare messages array with Anthropic content blocks',
  readOnly: false,
  target: 'anthropic',
  document: 'value',
  hints: HINT_KEYS,
  detect: isAnthropic,
  read: readAnthropic,
  write: writeAnthropic,
};
