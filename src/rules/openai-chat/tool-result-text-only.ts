/**
 * openai-chat/tool-result-text-only: a `tool` message carries text only; an
 * image or file returned by a tool must travel in a user message instead
 * (providers.md §1, "Tool message content"; SDK `ChatCompletionToolMessageParam`).
 */
import { defineRule } from '../rule.js';
import { mediaParts } from '../targets.js';

/** The `openai-chat/tool-result-text-only` rule. */
export default defineRule({
  meta: {
    id: 'openai-chat/tool-result-text-only',
    description: 'An image or document inside a tool result; Chat tool messages take text only.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'openai-chat',
    messages: {
      media: '{kind} in a tool result; Chat Completions tool messages take text only',
    },
  },
  check(subject, ctx) {
    for (const ref of mediaParts(subject.messages, true)) {
      if (ref.path.length === 0) continue;
      ctx.report({
        messageId: 'media',
        data: { kind: ref.kind },
        messageIndex: ref.messageIndex,
        partIndex: ref.partIndex,
        path: ref.path,
      });
    }
  },
});
