/**
 * ends-with-user: the history ends with neither a user message nor tool
 * results, so `histlint run` over it needs a new prompt. Off by default.
 */
import { defineRule } from './rule.js';

/** The `ends-with-user` rule. */
export default defineRule({
  meta: {
    id: 'ends-with-user',
    description:
      'The history ends with neither a user message nor tool results, so a run over it needs a new prompt.',
    defaultSeverity: 'off',
    fixable: false,
    messages: {
      last: 'the history ends with {article} {role} message; a run over it needs a new prompt',
      empty: 'the history is empty; a run over it needs a prompt',
    },
  },
  check(subject, ctx) {
    const n = subject.messages.length;
    if (n === 0) {
      ctx.report({ messageId: 'empty', pointer: subject.rootPointer });
      return;
    }
    const last = subject.messages[n - 1]!;
    if (last.role === 'user') return;
    if (last.role === 'tool' && last.parts.some((p) => p.type === 'tool-result')) return;
    ctx.report({
      messageId: 'last',
      data: { role: last.role, article: /^[aeiou]/i.test(last.role) ? 'an' : 'a' },
      messageIndex: n - 1,
    });
  },
});
