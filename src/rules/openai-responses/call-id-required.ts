/**
 * openai-responses/call-id-required: a `function_call` and its
 * `function_call_output` are paired by `call_id`, which both items require
 * (providers.md §2, "Call → output pairing"; SDK `ResponseFunctionToolCall`),
 * and which must not be empty: "Invalid 'input[N].call_id': empty string.
 * Expected a string with minimum length 1, but got an empty string
 * instead." (continuedev/continue#11685, BigPizzaV3/CodexPlusPlus#315).
 */
import { defineRule } from '../rule.js';

/** The `openai-responses/call-id-required` rule. */
export default defineRule({
  meta: {
    id: 'openai-responses/call-id-required',
    description:
      'A tool call without an id or a tool result without a callId, or with an empty one.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'openai-responses',
    messages: {
      call: 'tool call{name} has no id; OpenAI rejects a function_call without call_id: "Missing required parameter: \'input[N].call_id\'."',
      result:
        'tool result{name} has no callId; OpenAI rejects a function_call_output without call_id: "Missing required parameter: \'input[N].call_id\'."',
      emptyCall:
        'tool call{name} has an empty id; OpenAI rejects an empty call_id: "empty string. Expected a string with minimum length 1, but got an empty string instead."',
      emptyResult:
        'tool result{name} has an empty callId; OpenAI rejects an empty call_id: "empty string. Expected a string with minimum length 1, but got an empty string instead."',
    },
  },
  check(subject, ctx) {
    subject.messages.forEach((m, i) => {
      m.parts.forEach((p, j) => {
        const name = typeof p.name === 'string' ? ` (${p.name})` : '';
        const where = { data: { name }, messageIndex: i, partIndex: j };
        if (p.type === 'tool-call') {
          if (typeof p.id !== 'string') ctx.report({ messageId: 'call', ...where });
          else if (p.id === '') ctx.report({ messageId: 'emptyCall', ...where, path: ['id'] });
        } else if (p.type === 'tool-result') {
          if (typeof p.callId !== 'string') ctx.report({ messageId: 'result', ...where });
          else if (p.callId === '')
            ctx.report({ messageId: 'emptyResult', ...where, path: ['callId'] });
        }
      });
    });
  },
});
