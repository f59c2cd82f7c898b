/**
 * The format registry: every format by name, in detection order. The most
 * distinctive shapes come first; openai-chat, whose plain role/content
 * messages many formats share, is the fallback for ambiguous histories.
 * ai-sdk-ui comes before v1, whose messages look like UIMessages: it claims
 * only a history with something no v1 file has.
 */
import type { ConversationFormat } from './format.js';
import { aiSdkFormat } from './ai-sdk.js';
import { aiSdkUiFormat } from './ai-sdk-ui/index.js';
import { anthropicFormat } from './anthropic.js';
import { bedrockFormat } from './bedrock.js';
import { claudeCodeFormat } from './claude-code.js';
import { geminiFormat } from './gemini.js';
import { nativeFormat } from './native.js';
import { openaiChatFormat } from './openai-chat.js';
import { openaiResponsesFormat } from './openai-responses.js';

/** Every format, in the order `--from auto` tries them. */
export const FORMATS: readonly ConversationFormat[] = [
  aiSdkUiFormat,
  nativeFormat,
  claudeCodeFormat,
  geminiFormat,
  openaiResponsesFormat,
  bedrockFormat,
  anthropicFormat,
  aiSdkFormat,
  openaiChatFormat,
];

/** The names `--from` accepts. */
export const FROM_NAMES: readonly string[] = ['auto', ...FORMATS.map((f) => f.name)];

/** The names `--to` accepts. */
export const TO_NAMES: readonly string[] = FORMATS.filter((f) => !f.readOnly).map((f) => f.name);

/** A format by name, or undefined. */
export function formatByName(name: string): ConversationFormat | undefined {
  return FORMATS.find((f) => f.name === name);
}
