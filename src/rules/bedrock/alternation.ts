/**
 * bedrock/alternation: Converse turns strictly alternate between user and
 * assistant, and nothing is merged (providers.md §5, "Roles &
 * alternation"). v1 user and tool messages are user turns; system messages
 * go to the top-level `system`.
 */
import { defineRule } from '../rule.js';
import { bedrockTurns } from '../targets.js';

/** The `bedrock/alternation` rule. */
export default defineRule({
  meta: {
    id: 'bedrock/alternation',
    description: 'Two user turns or two assistant turns in a row.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'bedrock',
    messages: {
      repeated:
        'a second {role} turn in a row (after message {previous}); Bedrock rejects it: "A conversation must alternate between user and assistant roles."',
    },
  },
  check(subject, ctx) {
    const turns = bedrockTurns(subject);
    for (let t = 1; t < turns.length; t++) {
      const turn = turns[t]!;
      const previous = turns[t - 1]!;
      if (turn.role !== previous.role) continue;
      ctx.report({
        messageId: 'repeated',
        data: { role: turn.role, previous: previous.messages.at(-1)! },
        messageIndex: turn.messages[0]!,
      });
    }
  },
});
