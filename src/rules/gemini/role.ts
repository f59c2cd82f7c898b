/**
 * gemini/role: a content's role is `user` or `model` (or absent: `user`)
 * (providers.md §4, "Roles"). The Gemini reader reads any other role as a
 * user turn and keeps the role it found, which this rule checks.
 */
import { sharedHint } from '../../model/provider-data.js';
import { isObject } from '../../model/types.js';
import { defineRule } from '../rule.js';

/** The `gemini/role` rule. */
export default defineRule({
  meta: {
    id: 'gemini/role',
    description: 'A content whose role is neither user nor model.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'gemini',
    messages: {
      role: 'content role "{role}" is neither user nor model; Vertex AI rejects it: "Please use a valid role: user, model."',
    },
  },
  check(subject, ctx) {
    subject.messages.forEach((m, i) => {
      // The role a Gemini content was read with, when it was not the usual one for its turn.
      const found = sharedHint(m, 'gemini', 'role');
      if (found === undefined || found === null || found === 'user' || found === 'model') return;
      const role = typeof found === 'string' ? found : isObject(found) ? 'null' : String(found);
      ctx.report({ messageId: 'role', data: { role }, messageIndex: i });
    });
  },
});
