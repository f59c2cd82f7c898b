/**
 * OpenAI Responses API input (SPEC §4): a request body `{model, instructions?, input:
 * [...items], tools, ...}` or a bare array of input items, read into v1 and written back
 * exactly. read.ts has the mapping of items to v1 messages.
 */
import type { ConversationFormat } from '../format.js';
import { detectResponses } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readResponses } from './read.js';
import { writeResponses } from './write.js';

/** The OpenAI Responses API format (`instructions` + `input` items). */
export const openaiResponsesFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'OpenAI Responses API: a request body {model, instructions?, input: [...items]} or a bare array of input items',
  readOnly: false,
  target: 'openai-responses',
  document: 'value',
  hints: HINT_KEYS,
  detect: detectResponses,
  read: readResponses,
  write: writeResponses,
};
