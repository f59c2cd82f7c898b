/**
 * anthropic/empty-text: text blocks must hold non-whitespace text, and every
 * message needs content except an optional final assistant message
 * (providers.md §3, "Empty content").
 */
import { defineRule } from '../rule.js';
import { emptyContentCheck } from '../targets.js';

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
  check: emptyContentCheck({ finalAssistantMayBeEmpty: true }),
});
