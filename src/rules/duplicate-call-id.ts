/**
 * duplicate-call-id: two calls with one id are unanswered at once (SPEC
 * §2.1), so a result cannot say which of them it answers: calls sharing an
 * id in one message count as one call, and a call that reuses the id of a
 * call still unanswered closes that call without a result.
 */
import { defineRule } from './rule.js';

/** The `duplicate-call-id` rule. */
export default defineRule({
  meta: {
    id: 'duplicate-call-id',
    description: 'Two tool calls with one id are unanswered at once.',
    defaultSeverity: 'error',
    fixable: false,
    messages: {
      sameMessage:
        'tool call id "{id}" is already used by another call of this message (part {firstPart}); both count as one call',
      stillOpen:
        'tool call id "{id}" is already used by the call in message {firstIndex}, which has no result yet; that call is left unanswered',
    },
  },
  check(subject, ctx) {
    if (subject.pairsCleanly()) return;
    for (const call of subject.pairing().calls) {
      if (call.idUse !== 'same-message' && call.idUse !== 'reopened') continue;
      const earlier = call.earlier!;
      ctx.report({
        messageId: call.idUse === 'same-message' ? 'sameMessage' : 'stillOpen',
        data: { id: call.id!, firstIndex: earlier.position, firstPart: earlier.partIndex },
        messageIndex: call.position,
        partIndex: call.partIndex,
      });
    }
  },
});
