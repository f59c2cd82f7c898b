/**
 * bedrock/blank-text: every message needs content, and its text blocks must
 * not be blank (providers.md §5, "Empty content").
 */
import { defineRule } from '../rule.js';
import { emptyContentCheck } from '../targets.js';

/** The `bedrock/blank-text` rule. */
export default defineRule({
  meta: {
    id: 'bedrock/blank-text',
    description: 'A blank text part, or a message with no content.',
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
  check: emptyContentCheck({ finalAssistantMayBeEmpty: false }),
});
