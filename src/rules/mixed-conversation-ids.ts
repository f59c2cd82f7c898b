/**
 * mixed-conversation-ids: more than one `conversationId` in one history,
 * usually two conversations concatenated by mistake.
 */
import { defineRule } from './rule.js';

/** The `mixed-conversation-ids` rule. */
export default defineRule({
  meta: {
    id: 'mixed-conversation-ids',
    description: 'More than one conversationId in one history.',
    defaultSeverity: 'warn',
    fixable: false,
    messages: {
      mixed:
        'conversationId "{id}" differs from "{first}" (message {firstIndex}); one history, one conversation',
    },
  },
  check(subject, ctx) {
    let first: { id: string; index: number } | undefined;
    const seen = new Set<string>();
    subject.messages.forEach((m, i) => {
      const id = m.conversationId;
      if (typeof id !== 'string') return;
      if (first === undefined) {
        first = { id, index: i };
        seen.add(id);
        return;
      }
      // One finding per extra id, where it first appears.
      if (seen.has(id)) return;
      seen.add(id);
      ctx.report({
        messageId: 'mixed',
        data: { id, first: first.id, firstIndex: first.index },
        messageIndex: i,
        path: ['conversationId'],
      });
    });
  },
});
