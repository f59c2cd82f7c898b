/**
 * pydantic-ai `ModelMessage` JSON (`ModelMessagesTypeAdapter.dump_json`): a list of
 * `{kind: "request" | "response", parts: [{part_kind, ...}]}`, read into v1 and written back
 * exactly (ids, signatures, `args` as string or object). pydantic-ai talks to every provider, so
 * no one target is assumed. docs/formats/pydantic-ai.md lists the mapping.
 */
import type { ConversationFormat } from '../format.js';
import { detectPydanticAi } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readPydanticAi } from './read.js';
import { writePydanticAi } from './write.js';

/** pydantic-ai model messages. */
export const pydanticAiFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'pydantic-ai ModelMessage JSON: a list of {"kind": "request" | "response", "parts": [{"part_kind": ...}]}',
  readOnly: false,
  document: 'value',
  hints: HINT_KEYS,
  detect: detectPydanticAi,
  read: readPydanticAi,
  write: writePydanticAi,
};
