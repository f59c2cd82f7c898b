/**
 * empty-message: a message with no parts. Anthropic, Bedrock and Gemini
 * reject empty messages.
 */
import { defineRule } from './rule.js';

/** The `empty-message` rule. */
export default defineRule({
  meta: {
    id: 'empty-message',
    description: 'A message with no parts.',
    defaultSeverity: 'warn',
    fixable: false,
    messages: { empty: '{role} message has no parts' },
  },
  message(m, i, _subject, ctx) {
    if (m.parts.length === 0)
      ctx.report({ messageId: 'empty', data: { role: m.role }, messageIndex: i, path: ['parts'] });
  },
});
