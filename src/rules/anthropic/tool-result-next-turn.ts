/**
 * anthropic/tool-result-next-turn: every `tool_use` of an assistant turn is
 * answered by a `tool_result` in the very next user turn, and a
 * `tool_result` answers a `tool_use` of the turn right before it
 * (providers.md §3, "tool_use → tool_result" and "Orphan tool_result").
 * Anthropic merges consecutive turns of one role, so v1 user and tool
 * messages in a row are one user turn.
 */
import { defineRule } from '../rule.js';
import { anthropicTurns, callsIn, resultsIn } from '../targets.js';

/** The `anthropic/tool-result-next-turn` rule. */
export default defineRule({
  meta: {
    id: 'anthropic/tool-result-next-turn',
    description:
      'A tool call not answered in the very next user turn, or a result for a call outside the turn before it.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'anthropic',
    messages: {
      missing:
        'tool call "{id}" has no tool result in the next user turn; Anthropic rejects it: "`tool_use` ids were found without `tool_result` blocks immediately after: {id}"',
      unexpected:
        'tool result "{id}" answers no tool call of the assistant turn right before it; Anthropic rejects it: "unexpected `tool_use_id` found in `tool_result` blocks: {id}"',
    },
  },
  check(subject, ctx) {
    const messages = subject.messages;
    const turns = anthropicTurns(messages);
    turns.forEach((turn, t) => {
      if (turn.role === 'assistant') {
        const next = turns[t + 1];
        // A history that ends here leaves the calls pending: dangling-tool-call reports them.
        if (next === undefined) return;
        const answered = new Set(resultsIn(messages, next.messages).map((r) => r.id));
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
        previous === undefined ? [] : callsIn(messages, previous.messages).map((c) => c.id),
      );
      for (const result of resultsIn(messages, turn.messages)) {
        if (calls.has(result.id)) continue;
        ctx.report({
          messageId: 'unexpected',
          data: { id: result.id },
          messageIndex: result.messageIndex,
          partIndex: result.partIndex,
          path: ['callId'],
        });
      }
    });
  },
});
