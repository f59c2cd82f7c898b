/**
 * bedrock/first-user: the first turn should be a user turn. Claude on
 * Bedrock accepted a history that starts with the assistant, but the
 * alternation error exists for other models, so this warns (providers.md
 * §5, "Roles & alternation").
 */
import { defineRule } from '../rule.js';
import { bedrockTurns } from '../targets.js';

/** The `bedrock/first-user` rule. */
export default defineRule({
  meta: {
    id: 'bedrock/first-user',
    description: 'The first turn is an assistant turn.',
    defaultSeverity: 'warn',
    fixable: false,
    target: 'bedrock',
    messages: {
      first:
        'the history starts with an assistant turn; Bedrock models other than Claude reject it: "A conversation must start with a user message."',
    },
  },
  check(subject, ctx) {
    const first = bedrockTurns(subject)[0];
    if (first?.role === 'assistant')
      ctx.report({ messageId: 'first', messageIndex: first.messages[0]! });
  },
});
