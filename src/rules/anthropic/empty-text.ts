/**
 * anthropic/empty-text: text blocks must hold non-whitespace text, and every
 * message needs content except an optional final assistant message
 * (providers.md §3, "Empty content").
 */
import { defineRule } from '../rule.js';
import { isBlank } from '../targets.js';

/** The `anthropic/empty-text` rule. */
export default defineRule({
  meta: {
    id: 'anthropic/empty-text',
    description: 'An empty or whitespace-only text part, or a message with no content.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'anthropic',
    messages: {
      blank:
        'text part is empty or only whitespace; Anthropic rejects it: "text content blocks must be non-empty"',
      empty:
        '{role} message has no content; Anthropic rejects it: "all messages must have non-empty content except for the optional final assistant message"',
    },
  },
  check(subject, ctx) {
    const messages = subject.messages;
    let last = messages.length - 1;
    while (last >= 0 && messages[last]!.role === 'system') last--;
    messages.forEach((m, i) => {
      // System messages go to the top-level `system` field, not to `messages`.
      if (m.role === 'system') return;
      if (m.parts.length === 0) {
        if (i === last && m.role === 'assistant') return;
        ctx.report({
          messageId: 'empty',
          data: { role: m.role },
          messageIndex: i,
          path: ['parts'],
        });
        return;
      }
      m.parts.forEach((p, j) => {
        if (p.type === 'text' && isBlank(p.text)) {
          ctx.report({ messageId: 'blank', messageIndex: i, partIndex: j, path: ['text'] });
        }
      });
    });
  },
});
