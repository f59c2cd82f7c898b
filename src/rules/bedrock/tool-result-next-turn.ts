/**
 * bedrock/tool-result-next-turn: the user turn after an assistant turn with
 * `toolUse` blocks holds a `toolResult` for every one of them and no others
 * (providers.md §5, "toolUse → toolResult"). Server-side tools (Nova code
 * interpreter), answered inside the assistant turn, are not v1 calls.
 */
import { defineRule } from '../rule.js';
import { bedrockTurns, callsIn, resultsIn } from '../targets.js';

/** The `bedrock/tool-result-next-turn` rule. */
export default defineRule({
  meta: {
    id: 'bedrock/tool-result-next-turn',
    description:
      'A tool call without a result in the next user turn, or a result for no call of the turn before.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'bedrock',
    messages: {
      missing:
        'tool call "{id}" has no tool result in the next user turn; Bedrock rejects it: "Expected toolResult blocks at messages.N.content for the following Ids: {id}"',
      extra:
        'tool result "{id}" answers no tool call of the assistant turn right before it; Bedrock rejects it: "The number of toolResult blocks at ... exceeds the number of toolUse blocks of previous turn."',
    },
  },
  check(subject, ctx) {
    const messages = subject.messages;
    const turns = bedrockTurns(subject);
    turns.forEach((turn, t) => {
      if (turn.role === 'assistant') {
        const next = turns[t + 1];
        // A history that ends here leaves the calls pending: dangling-tool-call reports them.
        if (next === undefined) return;
        const answered = new Set(
          next.role === 'user' ? resultsIn(messages, next.messages).map((r) => r.id) : [],
        );
        const seen = new Set<string>();
        for (const call of callsIn(messages, turn.messages)) {
          if (answered.has(call.id) || seen.has(call.id)) continue;
          seen.add(call.id);
          ctx.report({
            messageId: 'missing',
            data: { id: call.id },
            messageIndex: call.messageIndex,
            partIndex: call.partIndex,
          });
        }
        return;
      }
      const previous = turns[t - 1];
      const calls = new Set(
        previous?.role === 'assistant' ? callsIn(messages, previous.messages).map((c) => c.id) : [],
      );
      for (const result of resultsIn(messages, turn.messages)) {
        if (calls.has(result.id)) continue;
        ctx.report({
          messageId: 'extra',
          data: { id: result.id },
          messageIndex: result.messageIndex,
          partIndex: result.partIndex,
          path: ['callId'],
        });
      }
    });
  },
});
