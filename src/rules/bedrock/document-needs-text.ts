/**
 * bedrock/document-needs-text: a message with a `document` block also needs
 * a text block (providers.md §5, "Empty content"). A document inside a tool
 * result does not.
 */
import { defineRule } from '../rule.js';
import { bedrockTurns, isBlank, turnParts } from '../targets.js';

/** The `bedrock/document-needs-text` rule. */
export default defineRule({
  meta: {
    id: 'bedrock/document-needs-text',
    description: 'A document in a turn that has no text part.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'bedrock',
    messages: {
      alone:
        'document without a text part in its turn; Bedrock rejects it: "A text block must be included when using documents."',
    },
  },
  check(subject, ctx) {
    const messages = subject.messages;
    for (const turn of bedrockTurns(subject)) {
      const parts = turnParts(messages, turn);
      const doc = parts.find((p) => p.part.type === 'document');
      if (doc === undefined) continue;
      if (parts.some((p) => p.part.type === 'text' && !isBlank(p.part.text))) continue;
      ctx.report({ messageId: 'alone', messageIndex: doc.messageIndex, partIndex: doc.partIndex });
    }
  },
});
