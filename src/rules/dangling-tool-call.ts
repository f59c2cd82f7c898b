/**
 * dangling-tool-call: a call with an id and no result after it. Every
 * provider rejects the whole conversation for it (Anthropic: "tool_use ids
 * were found without tool_result blocks immediately after"; OpenAI: "An
 * assistant message with 'tool_calls' must be followed by tool messages").
 */
import { pendingAssistantPosition } from '../core/pairing.js';
import { defineRule } from './rule.js';

/** The `dangling-tool-call` rule. */
export default defineRule({
  meta: {
    id: 'dangling-tool-call',
    description: 'A tool call with an id and no result after it.',
    defaultSeverity: 'error',
    fixable: 'normalize',
    messages: { dangling: 'tool call "{id}"{name} has no result after it' },
  },
  check(subject, ctx) {
    if (subject.pairsCleanly()) return;
    const pending = subject.leavePending ? pendingAssistantPosition(subject.messages) : -1;
    for (const call of subject.pairing().unanswered) {
      if (call.position === pending) continue;
      ctx.report({
        messageId: 'dangling',
        data: { id: call.id!, name: call.name === undefined ? '' : ` (${call.name})` },
        messageIndex: call.position,
        partIndex: call.partIndex,
      });
    }
  },
});
