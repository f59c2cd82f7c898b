/**
 * anthropic/tool-result-first: in a user turn that answers tool calls, the
 * `tool_result` blocks come first, before any text or image; with text
 * first the API reports the calls as unanswered (providers.md §3,
 * "tool_result position"). Consecutive user and tool messages are one turn.
 */
import { defineRule } from '../rule.js';
import { turnOrderCheck } from '../targets.js';

/** The `anthropic/tool-result-first` rule. */
export default defineRule({
  meta: {
    id: 'anthropic/tool-result-first',
    description: 'A tool result that follows other content in its user turn.',
    defaultSeverity: 'error',
    fixable: 'normalize',
    target: 'anthropic',
    messages: {
      notFirst:
        'tool result "{id}" comes after a {before} part in its user turn; Anthropic rejects it: "`tool_use` ids were found without `tool_result` blocks immediately after"',
    },
  },
  check: turnOrderCheck('anthropic/tool-result-first', 'anthropic'),
});
