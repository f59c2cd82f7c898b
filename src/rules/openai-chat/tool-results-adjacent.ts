/**
 * openai-chat/tool-results-adjacent: every call of an assistant message must
 * be answered by the `tool` messages right after it, before the next message
 * of any other role (providers.md §1, "Call → result pairing").
 */
import { defineRule } from '../rule.js';
import { turnOrderCheck } from '../targets.js';

/** The `openai-chat/tool-results-adjacent` rule. */
export default defineRule({
  meta: {
    id: 'openai-chat/tool-results-adjacent',
    description: 'A tool call not answered by the tool messages right after its assistant message.',
    defaultSeverity: 'error',
    fixable: 'normalize',
    target: 'openai-chat',
    messages: {
      unanswered:
        'tool call "{id}" has no tool message before the {role} message at index {next}; OpenAI rejects it: "An assistant message with \'tool_calls\' must be followed by tool messages responding to each \'tool_call_id\'."',
    },
  },
  check: turnOrderCheck('openai-chat/tool-results-adjacent', 'openai-chat'),
});
