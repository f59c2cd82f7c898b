/**
 * gemini/empty-parts: every content needs at least one part (providers.md
 * §4, "Empty content").
 */
import { defineRule } from '../rule.js';

/** The `gemini/empty-parts` rule. */
export default defineRule({
  meta: {
    id: 'gemini/empty-parts',
    description: 'A message with no parts, which Gemini rejects as a content with empty parts.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'gemini',
    messages: {
      empty: '{role} message has no parts; Gemini rejects it: "contents.parts must not be empty."',
    },
  },
  check(subject, ctx) {
    subject.messages.forEach((m, i) => {
      // System messages become the systemInstruction, not a content.
      if (m.role === 'system' || m.parts.length > 0) return;
      ctx.report({ messageId: 'empty', data: { role: m.role }, messageIndex: i, path: ['parts'] });
    });
  },
});
