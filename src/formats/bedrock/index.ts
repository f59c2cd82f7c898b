/**
 * AWS Bedrock Converse requests: `{modelId?, system?: [{text} | {cachePoint} |
 * {guardContent}], messages: [{role, content: [ContentBlock]}], toolConfig,
 * inferenceConfig, ...}`, or a bare `messages` array. A content block is an
 * object keyed by its kind (`{text}`, `{toolUse: {...}}`, ...), without `type`.
 *
 * One source message becomes one v1 message; a user message that carries
 * `toolResult` blocks becomes a v1 `tool` message. Blocks v1 has no type for
 * (video, guard content, server tool use and its result, ...) become parts of
 * type `bedrock:<kind>` holding the block in providerData. A `cachePoint`
 * travels with the part before it (`cachePoint` in its providerData).
 */
import type { ConversationFormat } from '../format.js';
import { isBedrock } from './detect.js';
import { FORMAT, HINT_KEYS } from './hints.js';
import { readBedrock } from './read.js';
import { writeBedrock } from './write.js';

/** The AWS Bedrock Converse format. */
export const bedrockFormat: ConversationFormat = {
  name: FORMAT,
  description:
    'AWS Bedrock Converse request: {"system": [...], "messages": [{"role", "content": [{"text"}, {"toolUse"}, ...]}], "toolConfig", ...} or a bare messages array',
  readOnly: false,
  target: 'bedrock',
  document: 'value',
  hints: HINT_KEYS,
  detect: isBedrock,
  read: readBedrock,
  write: writeBedrock,
};
