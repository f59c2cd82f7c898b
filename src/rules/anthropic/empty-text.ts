/**
 * anthropic/empty-text: text blocks must not be empty, and every message
 * needs content except an optional final assistant message (providers.md
 * §3, "Empty content"). Whitespace-only text is taken, except as the last
 * block of a final assistant message (a prefill must not end with
 * whitespace); a Claude Code session's last turn is never sent as one.
 */
import { defineRule } from '../rule.js';
import { emptyContentCheck, lastNonSystem } from '../targets.js';

/** The `anthropic/empty-text` rule. */
export default defineRule({
  meta: {
    id: 'anthropic/empty-text',
    description:
      'An empty text part, a whitespace-only one ending a final assistant message, or a message with no content.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'anthropic',
    messages: {
      blank: 'text part is empty; Anthropic rejects it: "text content blocks must be non-empty"',
      prefill:
        'the final assistant message ends with a text part of only whitespace; Anthropic rejects it: "final assistant content cannot end with trailing whitespace"',
      empty:
        '{role} message has no content; Anthropic rejects it: "all messages must have non-empty content except for the optional final assistant message"',
    },
  },
  check: emptyContentCheck({
    finalAssistantMayBeEmpty: true,
    blank(subject, i, j) {
      const m = subject.messages[i]!;
      if (m.parts[j]!.text === '') return 'blank';
      const prefill =
        subject.format !== 'claude-code' &&
        m.role === 'assistant' &&
        i === lastNonSystem(subject.messages) &&
        j === m.parts.length - 1;
      return prefill ? 'prefill' : undefined;
    },
  }),
});
