/**
 * openai-chat/tool-results-adjacent: every call of an assistant message must
 * be answered by the `tool` messages right after it, before the next message
 * of any other role (providers.md §1, "Call → result pairing").
 */
import { defineRule } from '../rule.js';
import { callsIn, resultsIn, unansweredCalls } from '../targets.js';

/** The `openai-chat/tool-results-adjacent` rule. */
export default defineRule({
  meta: {
    id: 'openai-chat/tool-results-adjacent',
    description: 'A tool call not answered by the tool messages right after its assistant message.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'openai-chat',
    messages: {
      unanswered:
        'tool call "{id}" has no tool message before the {role} message at index {next}; OpenAI rejects it: "An assistant message with \'tool_calls\' must be followed by tool messages responding to each \'tool_call_id\'."',
    },
  },
  check(subject, ctx) {
    const messages = subject.messages;
    messages.forEach((m, i) => {
      if (m.role !== 'assistant') return;
      const calls = callsIn(messages, [i]);
      if (calls.length === 0) return;
      let next = i + 1;
      const run: number[] = [];
      while (next < messages.length && messages[next]!.role === 'tool') run.push(next++);
      // A history that ends here leaves the calls pending: dangling-tool-call reports them.
      if (next >= messages.length) return;
      const answered = new Set(resultsIn(messages, run).map((r) => r.id));
      for (const call of unansweredCalls(calls, answered)) {
        ctx.report({
          messageId: 'unanswered',
          data: { id: call.id, role: messages[next]!.role, next },
          messageIndex: call.messageIndex,
          partIndex: call.partIndex,
        });
      }
    });
  },
});
