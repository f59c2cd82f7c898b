/**
 * Google Gemini `generateContent` requests: `{contents, systemInstruction?,
 * tools, toolConfig, generationConfig, ...}` or a bare `contents` array.
 *
 * One Gemini content is one v1 message (`model` is `assistant`; a user
 * content holding `functionResponse` parts is a `tool` message). Gemini ids
 * are optional: a `functionCall` without `id` gets a synthetic id on read,
 * paired by position with the id-less `functionResponse` of the content
 * right after its turn, and marked with a hint so a write omits it again
 * (see docs/formats/gemini.md).
 */
import type { ConversationFormat } from '../format.js';
import { detectGemini } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readGemini } from './read.js';
import { writeGemini } from './write.js';

export { GEMINI_SKIP_SIGNATURE } from './write.js';

/** The Gemini `generateContent` request format. */
export const geminiFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'Google Gemini generateContent requests: {"contents": [...], "systemInstruction": ...} or a bare contents array',
  readOnly: false,
  target: 'gemini',
  document: 'value',
  hints: HINT_KEYS,
  detect: detectGemini,
  read: readGemini,
  write: writeGemini,
};
