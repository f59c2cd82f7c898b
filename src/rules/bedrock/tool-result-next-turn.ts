/**
 * bedrock/tool-result-next-turn: the user turn after an assistant turn with
 * `toolUse` blocks holds a `toolResult` for every one of them and no others
 * (providers.md §5, "toolUse → toolResult"). Server-side tools (Nova code
 * interpreter), answered inside the assistant turn, are not v1 calls.
 */
import { defineRule } from '../rule.js';
import { turnOrderCheck } from '../targets.js';

/** The `bedrock/tool-result-next-turn` rule. */
export default defineRule({
  meta: {
    id: 'bedrock/tool-result-next-turn',
    description:
      'A tool call without a result in the next user turn, or a result for no call of the turn before.',
    defaultSeverity: 'error',
    fixable: 'normalize',
    target: 'bedrock',
    messages: {
      missing:
        'tool call "{id}" has no tool result in the next user turn; Bedrock rejects it: "Expected toolResult blocks at messages.N.content for the following Ids: {id}"',
      extra:
        'tool result "{id}" answers no tool call of the assistant turn right before it; Bedrock rejects it: "The number of toolResult blocks at ... exceeds the number of toolUse blocks of previous turn."',
    },
  },
  check: turnOrderCheck('bedrock/tool-result-next-turn', 'bedrock'),
});
