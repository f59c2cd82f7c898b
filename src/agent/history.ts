/**
 * What a run does to a history before sending it: the history processors
 * (SPEC §2.3 as a run option), truncated arguments in their wire form
 * (SPEC §4), whether a prompt is needed, and which id a history donates.
 */
import { isObjectJsonText } from '../core/pairing.js';
import { isSystemPrompt } from '../core/sanitize.js';
import { budgetHistory, trimHistory } from '../core/trim.js';
import type { TokenCounter } from '../core/tokens.js';
import { argumentsToObject } from '../formats/shared.js';
import { stringifyJson } from '../model/json.js';
import type { Message, Part } from '../model/types.js';
import type { HistoryProcessor } from './types.js';

/** A history processor that keeps the newest `maxMessages` messages (SPEC §2.3 head rule); throws `TrimError` when nothing is left. */
export function limitHistoryMessages(maxMessages: number): HistoryProcessor {
  return (messages) => trimHistory(messages, maxMessages).messages;
}

/** A history processor that keeps the newest messages fitting `maxTokens` (SPEC §2.3); throws `TrimError` when nothing is left. */
export function limitHistoryTokens(maxTokens: number, countTokens: TokenCounter): HistoryProcessor {
  return (messages) => budgetHistory(messages, maxTokens, { countTokens }).messages;
}

/**
 * The messages as they go on the wire: a tool call whose arguments are not
 * the text of a JSON object carries `{"truncated_args": "<the text>"}` instead,
 * as JSON text, which the provider writers send as text (OpenAI) or as an
 * object (Anthropic). The stored history keeps its bytes.
 */
export function wireArguments(messages: readonly Message[]): Message[] {
  return messages.map((m) => {
    if (!m.parts.some(isTruncatedCall)) return m;
    const parts = m.parts.map((p): Part => {
      if (!isTruncatedCall(p)) return p;
      const text = typeof p.arguments === 'string' ? p.arguments : '';
      return { ...p, arguments: stringifyJson(argumentsToObject(text), 0) };
    });
    return { ...m, parts };
  });
}

function isTruncatedCall(p: Part): boolean {
  return (
    p.type === 'tool-call' && !(typeof p.arguments === 'string' && isObjectJsonText(p.arguments))
  );
}

/**
 * True when a history can be continued without a new prompt: it ends with a user message or tool
 * results, system prompts aside (they are not sent).
 */
export function canContinue(messages: readonly Message[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (isSystemPrompt(m)) continue;
    return m.role === 'user' || m.role === 'tool';
  }
  return false;
}

/** The `conversationId` of the newest message that carries one, if any. */
export function donatedConversationId(messages: readonly Message[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const id = messages[i]!.conversationId;
    if (typeof id === 'string' && id !== '') return id;
  }
  return undefined;
}
