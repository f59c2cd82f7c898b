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
    const messages = subject.messages;
    let first: string | undefined;
    let firstIndex = -1;
    // Built only once a second id shows up: most histories have one.
    let seen: Set<string> | undefined;
    for (let i = 0; i < messages.length; i++) {
      const id = messages[i]!.conversationId;
      if (typeof id !== 'string') continue;
      if (first === undefined) {
        first = id;
        firstIndex = i;
        continue;
      }
      if (id === first) continue;
      // One finding per extra id, where it first appears.
      seen ??= new Set();
      if (seen.has(id)) continue;
      seen.add(id);
      ctx.report({
        messageId: 'mixed',
        data: { id, first, firstIndex },
        messageIndex: i,
        path: ['conversationId'],
      });
    }
  },
});
