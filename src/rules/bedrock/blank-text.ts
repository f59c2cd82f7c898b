/**
 * bedrock/blank-text: every message needs content, and a text block must
 * not be empty, nor the only text of its message be blank (providers.md §5,
 * "Empty content"). A whitespace-only block beside real text is taken.
 */
import { defineRule } from '../rule.js';
import { emptyContentCheck, isBlank } from '../targets.js';

/** The `bedrock/blank-text` rule. */
export default defineRule({
  meta: {
    id: 'bedrock/blank-text',
    description:
      'An empty text part, a message whose only text is blank, or a message with no content.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'bedrock',
    messages: {
      blank:
        'text part is blank; Bedrock rejects it: "The text field in the ContentBlock object at ... is blank."',
      empty:
        '{role} message has no content; Bedrock rejects it: "The content field in the Message object at messages.N is empty."',
    },
  },
  check: emptyContentCheck({
    finalAssistantMayBeEmpty: false,
    blank(subject, i, j) {
      const parts = subject.messages[i]!.parts;
      if (parts[j]!.text === '') return 'blank';
      const realText = parts.some((p) => p.type === 'text' && !isBlank(p.text));
      return realText ? undefined : 'blank';
    },
  }),
});
