/**
 * openai-chat/assistant-content: an assistant message whose `content` is
 * null or absent must carry `tool_calls` (providers.md §1, "Empty content";
 * SDK: content is "Required unless `tool_calls` or `function_call` is
 * specified"). Only a Chat Completions message can be stored that way: a
 * write from another format gives an empty string instead.
 */
import { defineRule } from '../rule.js';
import { providerDataOf, sharedHint } from '../../model/provider-data.js';

/** The `openai-chat/assistant-content` rule. */
export default defineRule({
  meta: {
    id: 'openai-chat/assistant-content',
    description: 'An assistant message with null or absent content and no tool calls.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'openai-chat',
    messages: {
      empty:
        'assistant message has {content} content and no tool calls; OpenAI rejects it: "Invalid value for \'content\': expected a string, got null."',
    },
  },
  check(subject, ctx) {
    subject.messages.forEach((m, i) => {
      if (m.role !== 'assistant' || m.parts.some((p) => p.type === 'tool-call')) return;
      const pd = providerDataOf(m, 'openai-chat');
      const shape = sharedHint(m, 'openai-chat', 'content');
      if (shape !== 'null' && shape !== 'absent') return;
      // A replayed audio answer stands in for the content.
      if (pd?.audio !== undefined) return;
      ctx.report({ messageId: 'empty', data: { content: shape }, messageIndex: i });
    });
  },
});
