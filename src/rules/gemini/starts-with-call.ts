/**
 * gemini/starts-with-call: a function call turn must come right after a user
 * turn or a function response turn, so a history cannot start with one
 * (providers.md §4, "Function-call position").
 */
import { defineRule } from '../rule.js';

/** The `gemini/starts-with-call` rule. */
export default defineRule({
  meta: {
    id: 'gemini/starts-with-call',
    description: 'The first content is a model turn with a function call.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'gemini',
    messages: {
      first:
        'the history starts with a model function call; Gemini rejects it: "Please ensure that function call turn comes immediately after a user turn or after a function response turn."',
    },
  },
  check(subject, ctx) {
    const i = subject.messages.findIndex((m) => m.role !== 'system');
    const first = subject.messages[i];
    if (first?.role !== 'assistant') return;
    const j = first.parts.findIndex((p) => p.type === 'tool-call');
    if (j !== -1) ctx.report({ messageId: 'first', messageIndex: i, partIndex: j });
  },
});
