/**
 * duplicate-tool-result: a second result for one call. normalize keeps the
 * first (or, with `--duplicates keep-last`, the last).
 */
import { defineRule } from './rule.js';

/** The `duplicate-tool-result` rule. */
export default defineRule({
  meta: {
    id: 'duplicate-tool-result',
    description: 'A second tool result for one call.',
    defaultSeverity: 'error',
    fixable: 'normalize',
    messages: { duplicate: 'call "{id}" already has a result; this one is a duplicate' },
  },
  check(subject, ctx) {
    if (subject.pairsCleanly()) return;
    for (const r of subject.pairing().results) {
      if (r.status !== 'duplicate') continue;
      ctx.report({
        messageId: 'duplicate',
        data: { id: r.callId! },
        messageIndex: r.position,
        partIndex: r.partIndex,
      });
    }
  },
});
