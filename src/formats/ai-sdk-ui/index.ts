/**
 * Vercel AI SDK `UIMessage[]` (SPEC §4): the messages `useChat` keeps and
 * posts (AI SDK 5/6), read into v1 and written back exactly. The shapes
 * follow the `ai` package's `UIMessage`; docs/formats/ai-sdk-ui.md lists the
 * mapping.
 */
import type { ConversationFormat } from '../format.js';
import { detectAiSdkUi } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readAiSdkUi } from './read.js';
import { writeAiSdkUi } from './write.js';

/** Vercel AI SDK UIMessage arrays (AI SDK 5/6), bare or in a `useChat` request body. */
export const aiSdkUiFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'Vercel AI SDK UIMessage[] (useChat, AI SDK 5/6): text, reasoning, file, tool-<name> and dynamic-tool parts',
  readOnly: false,
  document: 'value',
  hints: HINT_KEYS,
  detect: detectAiSdkUi,
  read: readAiSdkUi,
  write: writeAiSdkUi,
};
