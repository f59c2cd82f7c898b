/**
 * invalid-id: a `runId` or `conversationId` that is not a UUID. Identity
 * stamps are UUIDs (v7 when histlint mints them).
 */
import { isUuid } from '../core/ids.js';
import { defineRule, type RuleContext } from './rule.js';

/** The id last found valid: a history repeats its conversationId and runIds message after message. */
let lastValid = '';

function checkId(
  value: unknown,
  field: 'runId' | 'conversationId',
  i: number,
  ctx: RuleContext,
): void {
  // A non-string is a schema error, reported there.
  if (typeof value !== 'string' || value === lastValid) return;
  if (isUuid(value)) {
    lastValid = value;
    return;
  }
  const shown = value.length > 40 ? value.slice(0, 40) + '…' : value;
  ctx.report({
    messageId: 'invalid',
    data: { field, value: shown },
    messageIndex: i,
    path: [field],
  });
}

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
    checkId(m.runId, 'runId', i, ctx);
    checkId(m.conversationId, 'conversationId', i, ctx);
  },
});
