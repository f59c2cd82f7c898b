/**
 * openai-responses/output-after-call: a `function_call_output` comes after
 * its `function_call` in `input` (providers.md §2, "Call → output pairing"
 * and "Orphan output"). Outputs may come anywhere after their call (OpenAI
 * accepts calls and outputs interleaved); a lone output whose call lives on
 * the server (`previous_response_id` or `conversation` set) is read as a kept
 * item and not checked.
 */
import { defineRule } from '../rule.js';
import { turnOrderCheck } from '../targets.js';

/** The `openai-responses/output-after-call` rule. */
export default defineRule({
  meta: {
    id: 'openai-responses/output-after-call',
    description: 'A function call output before its call, or without one.',
    defaultSeverity: 'error',
    fixable: 'normalize',
    target: 'openai-responses',
    messages: {
      before:
        'function call output "{callId}" comes before its function call; OpenAI rejects it: "No tool call found for function call output with call_id {callId}."',
      noCall:
        'function call output "{callId}" has no function call in the input; OpenAI rejects it: "No tool call found for function call output with call_id {callId}."',
    },
  },
  check: turnOrderCheck('openai-responses/output-after-call', 'openai-responses'),
});
