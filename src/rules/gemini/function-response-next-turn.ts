/**
 * gemini/function-response-next-turn: the `functionResponse` parts answering
 * a function call turn sit in the content right after it, as many as the
 * turn has `functionCall` parts; a response content comes right after a
 * call turn (providers.md §4, "Call/response count" and "Function-call
 * position"). Model contents in a row count as one call turn, as Gemini 3
 * accepted.
 */
import { defineRule } from '../rule.js';
import { turnOrderCheck } from '../targets.js';

/** The `gemini/function-response-next-turn` rule. */
export default defineRule({
  meta: {
    id: 'gemini/function-response-next-turn',
    description:
      'A function call turn not answered by as many function responses in the next content.',
    defaultSeverity: 'error',
    fixable: 'normalize',
    target: 'gemini',
    messages: {
      missing:
        'the {calls} function call(s) of this turn have no function response in the next content; Gemini rejects it: "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn."',
      count:
        'this content holds {responses} function response(s) for a turn of {calls} function call(s); Gemini rejects it: "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn."',
      orphan:
        'function response content does not come right after a function call turn; Gemini rejects it: "Please ensure that function response turn comes immediately after a function call turn"',
    },
  },
  check: turnOrderCheck('gemini/function-response-next-turn', 'gemini'),
});
