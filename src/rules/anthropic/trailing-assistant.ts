/**
 * anthropic/trailing-assistant: a history that ends with an assistant
 * message asks the model to continue it (a prefill), which models without
 * prefill support reject; a final assistant text must not end with
 * whitespace (providers.md §3, "Roles" and "Empty content"). A stored
 * history usually gets a new user message before it is sent, so this warns;
 * a Claude Code session always does (it is resumed with a new prompt), so it
 * is not reported there.
 */
import { defineRule } from '../rule.js';
import { isBlank, lastNonSystem } from '../targets.js';

/** The `anthropic/trailing-assistant` rule. */
export default defineRule({
  meta: {
    id: 'anthropic/trailing-assistant',
    description: 'The history ends with an assistant message (a prefill).',
    defaultSeverity: 'warn',
    fixable: false,
    target: 'anthropic',
    messages: {
      prefill:
        'the history ends with an assistant message (a prefill); models without prefill support reject it: "This model does not support assistant message prefill. The conversation must end with a user message."',
      whitespace:
        'the final assistant message ends with whitespace; Anthropic rejects it in a prefill: "final assistant content cannot end with trailing whitespace"',
    },
  },
  check(subject, ctx) {
    if (subject.format === 'claude-code') return;
    const i = lastNonSystem(subject.messages);
    const m = subject.messages[i];
    if (m === undefined || m.role !== 'assistant') return;
    const j = m.parts.length - 1;
    const lastPart = m.parts[j];
    // A text of only whitespace there is anthropic/empty-text's error.
    if (
      lastPart?.type === 'text' &&
      typeof lastPart.text === 'string' &&
      /\s$/.test(lastPart.text) &&
      !isBlank(lastPart.text)
    ) {
      ctx.report({ messageId: 'whitespace', messageIndex: i, partIndex: j, path: ['text'] });
      return;
    }
    ctx.report({ messageId: 'prefill', messageIndex: i });
  },
});
