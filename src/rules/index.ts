/**
 * The rule registry: every rule, in the order `histlint rules` lists them,
 * and the one place a rule's docs URL is derived from its id.
 */
import danglingToolCall from './dangling-tool-call.js';
import duplicateCallId from './duplicate-call-id.js';
import duplicateKey from './duplicate-key.js';
import duplicateToolResult from './duplicate-tool-result.js';
import emptyMessage from './empty-message.js';
import formatMismatch from './format-mismatch.js';
import endsWithUser from './ends-with-user.js';
import inlineMediaMismatch from './inline-media-mismatch.js';
import invalidId from './invalid-id.js';
import missingCallId from './missing-call-id.js';
import mixedConversationIds from './mixed-conversation-ids.js';
import notAConversation from './not-a-conversation.js';
import orphanToolResult from './orphan-tool-result.js';
import parseError from './parse-error.js';
import resultBeforeCall from './result-before-call.js';
import reusedCallId from './reused-call-id.js';
import type { Rule } from './rule.js';
import schema from './schema.js';
import systemMessage from './system-message.js';
import truncatedArguments from './truncated-arguments.js';
import unknownPartType from './unknown-part-type.js';
import unknownRole from './unknown-role.js';
import unsafeUrl from './unsafe-url.js';
import unversioned from './unversioned.js';
import anthropicEmptyText from './anthropic/empty-text.js';
import anthropicImageMediaType from './anthropic/image-media-type.js';
import anthropicThinkingSignature from './anthropic/thinking-signature.js';
import anthropicToolResultFirst from './anthropic/tool-result-first.js';
import anthropicToolResultNextTurn from './anthropic/tool-result-next-turn.js';
import anthropicToolUseId from './anthropic/tool-use-id.js';
import anthropicTrailingAssistant from './anthropic/trailing-assistant.js';
import bedrockAlternation from './bedrock/alternation.js';
import bedrockBlankText from './bedrock/blank-text.js';
import bedrockDocumentNeedsText from './bedrock/document-needs-text.js';
import bedrockFirstUser from './bedrock/first-user.js';
import bedrockImageFormat from './bedrock/image-format.js';
import bedrockS3Location from './bedrock/s3-location.js';
import bedrockToolResultNextTurn from './bedrock/tool-result-next-turn.js';
import bedrockToolUseId from './bedrock/tool-use-id.js';
import geminiEmptyParts from './gemini/empty-parts.js';
import geminiFunctionName from './gemini/function-name.js';
import geminiFunctionResponseNextTurn from './gemini/function-response-next-turn.js';
import geminiRole from './gemini/role.js';
import geminiStartsWithCall from './gemini/starts-with-call.js';
import geminiThoughtSignature from './gemini/thought-signature.js';
import openaiChatAssistantContent from './openai-chat/assistant-content.js';
import openaiChatAudioInput from './openai-chat/audio-input.js';
import openaiChatFunctionName from './openai-chat/function-name.js';
import openaiChatImageMediaType from './openai-chat/image-media-type.js';
import openaiChatToolCallIdLength from './openai-chat/tool-call-id-length.js';
import openaiChatToolMessageAfterCall from './openai-chat/tool-message-after-call.js';
import openaiChatToolResultTextOnly from './openai-chat/tool-result-text-only.js';
import openaiChatToolResultsAdjacent from './openai-chat/tool-results-adjacent.js';
import openaiResponsesCallIdRequired from './openai-responses/call-id-required.js';
import openaiResponsesFileMediaType from './openai-responses/file-media-type.js';
import openaiResponsesImageMediaType from './openai-responses/image-media-type.js';
import openaiResponsesItemIdPrefix from './openai-responses/item-id-prefix.js';
import openaiResponsesOutputAfterCall from './openai-responses/output-after-call.js';
import openaiResponsesReasoningFollowed from './openai-responses/reasoning-followed.js';

/** Every rule. */
export const RULES: readonly Rule[] = [
  parseError,
  schema,
  unknownPartType,
  unknownRole,
  danglingToolCall,
  orphanToolResult,
  resultBeforeCall,
  duplicateToolResult,
  duplicateCallId,
  reusedCallId,
  missingCallId,
  truncatedArguments,
  unsafeUrl,
  inlineMediaMismatch,
  systemMessage,
  emptyMessage,
  invalidId,
  mixedConversationIds,
  unversioned,
  endsWithUser,
  notAConversation,
  formatMismatch,
  duplicateKey,
  // Provider acceptance rules, on only under their --target, by target.
  openaiChatToolResultsAdjacent,
  openaiChatToolMessageAfterCall,
  openaiChatToolResultTextOnly,
  openaiChatFunctionName,
  openaiChatToolCallIdLength,
  openaiChatImageMediaType,
  openaiChatAssistantContent,
  openaiChatAudioInput,
  openaiResponsesReasoningFollowed,
  openaiResponsesCallIdRequired,
  openaiResponsesOutputAfterCall,
  openaiResponsesItemIdPrefix,
  openaiResponsesImageMediaType,
  openaiResponsesFileMediaType,
  anthropicToolResultNextTurn,
  anthropicToolResultFirst,
  anthropicToolUseId,
  anthropicEmptyText,
  anthropicImageMediaType,
  anthropicTrailingAssistant,
  anthropicThinkingSignature,
  geminiFunctionResponseNextTurn,
  geminiRole,
  geminiStartsWithCall,
  geminiFunctionName,
  geminiEmptyParts,
  geminiThoughtSignature,
  bedrockAlternation,
  bedrockFirstUser,
  bedrockToolResultNextTurn,
  bedrockToolUseId,
  bedrockBlankText,
  bedrockDocumentNeedsText,
  bedrockImageFormat,
  bedrockS3Location,
];

const BY_ID = new Map(RULES.map((r) => [r.meta.id, r]));

/** A rule by id, or undefined. */
export function ruleById(id: string): Rule | undefined {
  return BY_ID.get(id);
}

/** Where the docs of the project live; rule pages are `docs/rules/<id>.md` under it. */
export const DOCS_BASE = 'https://github.com/histlint/histlint/blob/main/docs/rules/';

/** The docs URL of a rule. */
export function ruleDocsUrl(id: string): string {
  return `${DOCS_BASE}${id}.md`;
}
