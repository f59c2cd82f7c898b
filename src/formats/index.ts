/**
 * The format registry: every format by name. The detection order is the
 * order of CONVERSATION_FORMATS in src/names.ts: the most distinctive shapes
 * come first; openai-chat, whose plain role/content messages many formats
 * share, is the fallback for ambiguous histories. ai-sdk-ui comes before v1,
 * whose messages look like UIMessages: it claims only a history with
 * something no v1 file has.
 */
import { CONVERSATION_FORMATS, type FormatName } from '../names.js';
import type { ConversationFormat } from './format.js';
import { adkFormat } from './adk/index.js';
import { aiSdkFormat } from './ai-sdk/index.js';
import { aiSdkUiFormat } from './ai-sdk-ui/index.js';
import { autogenFormat } from './autogen/index.js';
import { anthropicFormat } from './anthropic/index.js';
import { bedrockFormat } from './bedrock/index.js';
import { claudeCodeFormat } from './claude-code/index.js';
import { codexCliFormat } from './codex-cli/index.js';
import { copilotCliFormat } from './copilot-cli/index.js';
import { geminiFormat } from './gemini/index.js';
import { geminiCliFormat } from './gemini-cli/index.js';
import { langchainFormat } from './langchain/index.js';
import { nativeFormat } from './histlint/index.js';
import { openaiChatFormat } from './openai-chat/index.js';
import { openaiAgentsFormat } from './openai-agents/index.js';
import { openaiResponsesFormat } from './openai-responses/index.js';
import { pydanticAiFormat } from './pydantic-ai/index.js';

/** Every format by its name (a name of src/names.ts without a format does not compile). */
const FORMAT_BY_NAME: Readonly<Record<FormatName, ConversationFormat>> = {
  'ai-sdk-ui': aiSdkUiFormat,
  histlint: nativeFormat,
  'claude-code': claudeCodeFormat,
  'codex-cli': codexCliFormat,
  'gemini-cli': geminiCliFormat,
  'copilot-cli': copilotCliFormat,
  'openai-agents': openaiAgentsFormat,
  adk: adkFormat,
  autogen: autogenFormat,
  'pydantic-ai': pydanticAiFormat,
  langchain: langchainFormat,
  gemini: geminiFormat,
  'openai-responses': openaiResponsesFormat,
  bedrock: bedrockFormat,
  anthropic: anthropicFormat,
  'ai-sdk': aiSdkFormat,
  'openai-chat': openaiChatFormat,
};

/** Every format, in the order `--from auto` tries them. */
export const FORMATS: readonly ConversationFormat[] = CONVERSATION_FORMATS.map(
  (f) => FORMAT_BY_NAME[f.name],
);

/** A format by name, or undefined. */
export function formatByName(name: string): ConversationFormat | undefined {
  return Object.hasOwn(FORMAT_BY_NAME, name) ? FORMAT_BY_NAME[name as FormatName] : undefined;
}
