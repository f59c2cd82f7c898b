/**
 * openai-responses/call-id-required: a `function_call` and its
 * `function_call_output` are paired by `call_id`, which both items require
 * (providers.md §2, "Call → output pairing"; SDK `ResponseFunctionToolCall`).
 */
import { defineRule } from '../rule.js';

/** The `openai-responses/call-id-required` rule. */
export default defineRule({
  meta: {
    id: 'openai-responses/call-id-required',
    description: 'A tool call without an id or a tool result without a callId.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'openai-responses',
    messages: {
      call: 'tool call{name} has no id; a Responses function_call needs its call_id',
      result: 'tool result{name} has no callId; a Responses function_call_output needs its call_id',
    },
  },
  check(subject, ctx) {
    subject.messages.forEach((m, i) => {
      m.parts.forEach((p, j) => {
        const name = typeof p.name === 'string' ? ` (${p.name})` : '';
        if (p.type === 'tool-call' && typeof p.id !== 'string') {
          ctx.report({ messageId: 'call', data: { name }, messageIndex: i, partIndex: j });
        } else if (p.type === 'tool-result' && typeof p.callId !== 'string') {
          ctx.report({ messageId: 'result', data: { name }, messageIndex: i, partIndex: j });
        }
      });
    });
  },
});
