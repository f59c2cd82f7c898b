/**
 * invalid-id: a `runId` or `conversationId` that is not a UUID. Identity
 * stamps are UUIDs (v7 when histlint mints them).
 */
import { isUuid } from '../core/ids.js';
import { defineRule } from './rule.js';

const ID_FIELDS = ['runId', 'conversationId'] as const;

/** The `invalid-id` rule. */
export default defineRule({
  meta: {
    id: 'invalid-id',
    description: 'A runId or conversationId that is not a UUID.',
    defaultSeverity: 'warn',
    fixable: false,
    messages: { invalid: '{field} "{value}" is not a UUID' },
  },
  message(m, i, _subject, ctx) {
    for (const field of ID_FIELDS) {
      const value = m[field];
      // A non-string is a schema error, reported there.
      if (typeof value === 'string' && !isUuid(value)) {
        const shown = value.length > 40 ? value.slice(0, 40) + '…' : value;
        ctx.report({
          messageId: 'invalid',
          data: { field, value: shown },
          messageIndex: i,
          path: [field],
        });
      }
    }
  },
});
