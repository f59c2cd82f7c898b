/**
 * gemini/function-response-next-turn: the `functionResponse` parts answering
 * a function call turn sit in the content right after it, as many as the
 * turn has `functionCall` parts; a response content comes right after a
 * call turn (providers.md §4, "Call/response count" and "Function-call
 * position"). Model contents in a row count as one call turn, as Gemini 3
 * accepted.
 */
import type { Message } from '../../model/types.js';
import { defineRule } from '../rule.js';
import { geminiContents, turnParts, type Turn, type TurnPart } from '../targets.js';

/** The function call parts of a turn, in order. */
function callParts(messages: readonly Message[], turn: Turn): TurnPart[] {
  return turnParts(messages, turn).filter((p) => p.part.type === 'tool-call');
}

/** The number of function response parts of a turn. */
function responseCount(messages: readonly Message[], turn: Turn): number {
  return turnParts(messages, turn).filter((p) => p.part.type === 'tool-result').length;
}

/** The `gemini/function-response-next-turn` rule. */
export default defineRule({
  meta: {
    id: 'gemini/function-response-next-turn',
    description:
      'A function call turn not answered by as many function responses in the next content.',
    defaultSeverity: 'error',
    fixable: false,
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
  check(subject, ctx) {
    const messages = subject.messages;
    const contents = geminiContents(messages);
    // Model contents in a row form one call turn.
    let k = 0;
    while (k < contents.length) {
      const content = contents[k]!;
      if (content.role === 'user') {
        if (responseCount(messages, content) > 0) {
          ctx.report({ messageId: 'orphan', messageIndex: content.messages[0]! });
        }
        k++;
        continue;
      }
      const run: Turn = { role: 'assistant', messages: [] };
      while (k < contents.length && contents[k]!.role === 'assistant')
        run.messages.push(...contents[k++]!.messages);
      const calls = callParts(messages, run);
      const next = contents[k];
      if (calls.length === 0 || next === undefined) {
        // No calls, or the history ends with pending calls (dangling-tool-call's business).
        continue;
      }
      k++;
      const responses = responseCount(messages, next);
      if (responses === 0) {
        ctx.report({
          messageId: 'missing',
          data: { calls: calls.length },
          messageIndex: calls[0]!.messageIndex,
          partIndex: calls[0]!.partIndex,
        });
      } else if (responses !== calls.length) {
        ctx.report({
          messageId: 'count',
          data: { calls: calls.length, responses },
          messageIndex: next.messages[0]!,
        });
      }
    }
  },
});
