/**
 * orphan-tool-result: a result whose call is absent. Providers reject it
 * ("messages with role 'tool' must be a response to a preceding message with
 * 'tool_calls'").
 */
import { defineRule } from './rule.js';

/** The `orphan-tool-result` rule. */
export default defineRule({
  meta: {
    id: 'orphan-tool-result',
    description: 'A tool result whose call is absent.',
    defaultSeverity: 'error',
    fixable: 'normalize',
    messages: { orphan: 'tool result for call "{id}" has no call with that id' },
  },
  check(subject, ctx) {
    if (subject.pairsCleanly()) return;
    for (const r of subject.pairing().results) {
      if (r.status !== 'orphan') continue;
      ctx.report({
        messageId: 'orphan',
        data: { id: r.callId! },
        messageIndex: r.position,
        partIndex: r.partIndex,
      });
    }
  },
});
