/**
 * gemini/function-name: a function name starts with a letter or an
 * underscore, holds only `[a-zA-Z0-9_.:-]` and has at most 128 characters
 * (providers.md §4, "Function names"; SDK `FunctionDeclaration.name`).
 */
import { defineRule } from '../rule.js';

const NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$/;

/** The `gemini/function-name` rule. */
export default defineRule({
  meta: {
    id: 'gemini/function-name',
    description:
      'A tool call name that does not start with a letter or _ or has characters outside [a-zA-Z0-9_.:-] or over 128 characters.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'gemini',
    messages: {
      pattern:
        'function name "{name}" must start with a letter or _, use only [a-zA-Z0-9_.:-] and have at most 128 characters',
    },
  },
  check(subject, ctx) {
    subject.messages.forEach((m, i) => {
      m.parts.forEach((p, j) => {
        if (p.type !== 'tool-call' || typeof p.name !== 'string' || NAME.test(p.name)) return;
        ctx.report({
          messageId: 'pattern',
          data: { name: p.name },
          messageIndex: i,
          partIndex: j,
          path: ['name'],
        });
      });
    });
  },
});
