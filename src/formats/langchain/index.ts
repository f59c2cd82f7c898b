/**
 * LangChain message dicts (`messages_to_dict` of langchain_core.messages): a list of
 * `{"type": "human" | "ai" | "tool" | "system" | "chat" | "function", "data": {...}}`, bare or
 * under `messages`, read into v1 and written back exactly. Checked against openai-chat under
 * `--target auto`: LangChain is mostly ChatOpenAI and the providers that speak its API, and a
 * ToolMessage answers a tool call by the rules of Chat Completions. See docs/formats/langchain.md.
 */
import type { ConversationFormat } from '../format.js';
import { detectLangChain } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readLangChain } from './read.js';
import { writeLangChain } from './write.js';

/** LangChain message dicts. */
export const langchainFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'LangChain message dicts (messages_to_dict): a list of {"type": "human" | "ai" | "tool" | ..., "data": {...}}, bare or under "messages"',
  readOnly: false,
  target: 'openai-chat',
  document: 'value',
  hints: HINT_KEYS,
  detect: detectLangChain,
  read: readLangChain,
  write: writeLangChain,
};
