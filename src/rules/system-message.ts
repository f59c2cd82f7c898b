/**
 * system-message: a system message stored in history. Runs replace history
 * system messages with the current instructions, and a client-supplied one
 * asserts operator authority; off by default.
 */
import { isSystemPrompt } from '../core/sanitize.js';
import { defineRule } from './rule.js';

/** The `system-message` rule. */
export default defineRule({
  meta: {
    id: 'system-message',
    description: 'A system message stored in history (runs replace them).',
    defaultSeverity: 'off',
    fixable: 'system-message',
    messages: {
      system: 'system message stored in history; runs replace it with their instructions',
    },
  },
  message(m, i, _subject, ctx) {
    // A "developer" message (not a v1 role) is a system prompt to a provider too.
    if (isSystemPrompt(m)) ctx.report({ messageId: 'system', messageIndex: i });
  },
});
