/**
 * duplicate-call-id: two calls share one id, so their results cannot be
 * told apart (pairing treats them as one call).
 */
import { defineRule } from './rule.js';

/** The `duplicate-call-id` rule. */
export default defineRule({
  meta: {
    id: 'duplicate-call-id',
    description: 'Two tool calls share one id.',
    defaultSeverity: 'error',
    fixable: false,
    messages: {
      duplicate: 'tool call id "{id}" is already used by a call in message {firstIndex}',
    },
  },
  check(subject, ctx) {
    if (subject.pairsCleanly()) return;
    const pairing = subject.pairing();
    for (const call of pairing.calls) {
      if (call.id === undefined) continue;
      const first = pairing.firstCallById.get(call.id)!;
      if (first === call) continue;
      ctx.report({
        messageId: 'duplicate',
        data: { id: call.id, firstIndex: first.position },
        messageIndex: call.position,
        partIndex: call.partIndex,
      });
    }
  },
});
