/**
 * missing-call-id: a call without `id` or a result without `callId`. Such
 * parts cannot be paired, so no repair can check or fix them.
 */
import { defineRule } from './rule.js';

/** The `missing-call-id` rule. */
export default defineRule({
  meta: {
    id: 'missing-call-id',
    description: 'A tool call without an id or a tool result without a callId.',
    defaultSeverity: 'warn',
    fixable: false,
    messages: {
      call: 'tool call{name} has no "id", so its result cannot be paired',
      result: 'tool result{name} has no "callId", so it cannot be paired with its call',
    },
  },
  partTypes: ['tool-call', 'tool-result'],
  part(part, i, j, _subject, ctx) {
    // Only an absent id: an id that is not a string is the schema rule's finding (one rule per problem).
    const type = part.type;
    if (
      type === 'tool-call'
        ? part.id !== undefined
        : type !== 'tool-result' || part.callId !== undefined
    )
      return;
    const name = typeof part.name === 'string' ? ` "${part.name}"` : '';
    ctx.report({
      messageId: type === 'tool-call' ? 'call' : 'result',
      data: { name },
      messageIndex: i,
      partIndex: j,
    });
  },
});
