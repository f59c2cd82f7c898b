/**
 * Vercel AI SDK `ModelMessage[]` (SPEC §4), v5 and v6 shapes plus the v4
 * tool fields (`args`, `result`): read into v1 and written back exactly.
 * The shapes follow `@ai-sdk/provider-utils` `ModelMessage`;
 * docs/formats/ai-sdk.md lists the mapping.
 */
import type { ConversationFormat } from '../format.js';
import { detectAiSdk } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readAiSdk } from './read.js';
import { writeAiSdk } from './write.js';

/** Vercel AI SDK ModelMessage arrays (v5/v6; v4 tool fields read too). */
export const aiSdkFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'Vercel AI SDK ModelMessage[] (v5/v6): text, image, file, reasoning, tool-call and tool-result parts',
  readOnly: false,
  document: 'value',
  hints: HINT_KEYS,
  detect: detectAiSdk,
  read: readAiSdk,
  write: writeAiSdk,
};
