/**
 * OpenAI Chat Completions `messages` (SPEC §4): a bare messages array or a
 * request body holding `messages`, read into v1 and written back exactly.
 * The shapes follow the `openai` SDK's `ChatCompletionMessageParam` and
 * docs/formats/openai-chat.md lists the mapping.
 */
import type { ConversationFormat } from '../format.js';
import { detectChat } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readChat } from './read.js';
import { writeChat } from './write.js';

/** OpenAI Chat Completions messages, bare or inside a request body. */
export const openaiChatFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'OpenAI Chat Completions: a messages array or a request body with "messages" (system/developer/user/assistant/tool)',
  readOnly: false,
  target: 'openai-chat',
  document: 'value',
  hints: HINT_KEYS,
  detect: detectChat,
  read: readChat,
  write: writeChat,
};
