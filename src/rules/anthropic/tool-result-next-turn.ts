/**
 * anthropic/tool-result-next-turn: every `tool_use` of an assistant turn is
 * answered by a `tool_result` in the very next user turn, and a
 * `tool_result` answers a `tool_use` of the turn right before it
 * (providers.md §3, "tool_use → tool_result" and "Orphan tool_result").
 * Anthropic merges consecutive turns of one role, so v1 user and tool
 * messages in a row are one user turn.
 */
import { defineRule } from '../rule.js';
import { turnOrderCheck } from '../targets.js';

/** The `anthropic/tool-result-next-turn` rule. */
export default defineRule({
  meta: {
    id: 'anthropic/tool-result-next-turn',
    description:
      'A tool call not answered in the very next user turn, or a result for a call outside the turn before it.',
    defaultSeverity: 'error',
    fixable: 'normalize',
    target: 'anthropic',
    messages: {
      missing:
        'tool call "{id}" has no tool result in the next user turn; Anthropic rejects it: "`tool_use` ids were found without `tool_result` blocks immediately after: {id}"',
      unexpected:
        'tool result "{id}" answers no tool call of the assistant turn right before it; Anthropic rejects it: "unexpected `tool_use_id` found in `tool_result` blocks: {id}"',
    },
  },
  check: turnOrderCheck('anthropic/tool-result-next-turn', 'anthropic'),
});
