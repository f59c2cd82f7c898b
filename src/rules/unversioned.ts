/**
 * unversioned: a bare array without the version envelope. Readable as
 * version 1, but a later reader cannot tell which version it is.
 */
import { defineRule } from './rule.js';

/** The `unversioned` rule. */
export default defineRule({
  meta: {
    id: 'unversioned',
    description: 'A bare array of messages without the version envelope.',
    defaultSeverity: 'off',
    fixable: false,
    messages: { bare: 'bare array of messages; wrap it as {"version": 1, "messages": [...]}' },
  },
  check(subject, ctx) {
    if (subject.format === 'histlint' && subject.shape === 'bare') {
      ctx.report({ messageId: 'bare', pointer: subject.rootPointer });
    }
  },
});
