/**
 * result-before-call: a result placed before its call. No provider accepts
 * it; normalize drops it, which leaves the call to be synthesized.
 */
import { defineRule } from './rule.js';

/** The `result-before-call` rule. */
export default defineRule({
  meta: {
    id: 'result-before-call',
    description: 'A tool result placed before its call.',
    defaultSeverity: 'error',
    fixable: 'normalize',
    messages: { early: 'tool result for call "{id}" comes before the call (message {callIndex})' },
  },
  check(subject, ctx) {
    if (subject.pairsCleanly()) return;
    for (const r of subject.pairing().results) {
      if (r.status !== 'before-call') continue;
      const call = r.call!;
      ctx.report({
        messageId: 'early',
        data: { id: r.callId!, callIndex: call.position },
        messageIndex: r.position,
        partIndex: r.partIndex,
      });
    }
  },
});
