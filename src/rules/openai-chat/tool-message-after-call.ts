/**
 * openai-chat/tool-message-after-call: a `tool` message must follow, possibly
 * after sibling tool messages, the assistant message whose `tool_calls` hold
 * its id (providers.md §1, "Orphan tool result").
 */
import { defineRule } from '../rule.js';
import { turnOrderCheck } from '../targets.js';

/** The `openai-chat/tool-message-after-call` rule. */
export default defineRule({
  meta: {
    id: 'openai-chat/tool-message-after-call',
    description: 'A tool result not placed right after the assistant message that made its call.',
    defaultSeverity: 'error',
    fixable: 'normalize',
    target: 'openai-chat',
    messages: {
      noCall:
        'tool result "{callId}" does not follow an assistant message with tool calls; OpenAI rejects it: "messages with role \'tool\' must be a response to a preceeding message with \'tool_calls\'."',
      notFound:
        "tool result \"{callId}\" answers no call of the assistant message it follows (message {owner}); OpenAI rejects it: \"'tool_call_id' of '{callId}' not found in 'tool_calls' of previous message.\"",
    },
  },
  check: turnOrderCheck('openai-chat/tool-message-after-call', 'openai-chat'),
});
