/**
 * openai-chat/tool-message-after-call: a `tool` message must follow, possibly
 * after sibling tool messages, the assistant message whose `tool_calls` hold
 * its id (providers.md §1, "Orphan tool result").
 */
import { defineRule } from '../rule.js';
import { callsIn } from '../targets.js';

/** The `openai-chat/tool-message-after-call` rule. */
export default defineRule({
  meta: {
    id: 'openai-chat/tool-message-after-call',
    description: 'A tool result not placed right after the assistant message that made its call.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'openai-chat',
    messages: {
      noCall:
        'tool result "{callId}" does not follow an assistant message with tool calls; OpenAI rejects it: "messages with role \'tool\' must be a response to a preceeding message with \'tool_calls\'."',
      notFound:
        "tool result \"{callId}\" answers no call of the assistant message it follows (message {owner}); OpenAI rejects it: \"'tool_call_id' of '{callId}' not found in 'tool_calls' of previous message.\"",
    },
  },
  check(subject, ctx) {
    const messages = subject.messages;
    // The assistant message whose tool messages are being read, and its call ids.
    let owner: { index: number; ids: Set<string> } | undefined;
    messages.forEach((m, i) => {
      if (m.role !== 'tool') {
        const calls = m.role === 'assistant' ? callsIn(messages, [i]) : [];
        owner = calls.length > 0 ? { index: i, ids: new Set(calls.map((c) => c.id)) } : undefined;
        return;
      }
      m.parts.forEach((p, j) => {
        // Results without a callId are missing-call-id's business.
        if (p.type !== 'tool-result' || typeof p.callId !== 'string') return;
        if (owner === undefined) {
          ctx.report({
            messageId: 'noCall',
            data: { callId: p.callId },
            messageIndex: i,
            partIndex: j,
            path: ['callId'],
          });
        } else if (!owner.ids.has(p.callId)) {
          ctx.report({
            messageId: 'notFound',
            data: { callId: p.callId, owner: owner.index },
            messageIndex: i,
            partIndex: j,
            path: ['callId'],
          });
        }
      });
    });
  },
});
