/**
 * openai-chat/tool-call-id-length: a tool call id longer than 40 characters.
 * OpenAI has rejected those, but the limit could not be reproduced in 2026,
 * so this warns (providers.md §1, "Tool call id").
 */
import { defineRule } from '../rule.js';
import { partFieldCheck } from '../targets.js';

const MAX = 40;

/** The `openai-chat/tool-call-id-length` rule. */
export default defineRule({
  meta: {
    id: 'openai-chat/tool-call-id-length',
    description: 'A tool call id longer than 40 characters.',
    defaultSeverity: 'warn',
    fixable: false,
    target: 'openai-chat',
    messages: {
      long: 'tool call id "{id}" has {length} characters; OpenAI has rejected ids over 40: "string too long. Expected a string with maximum length 40"',
    },
  },
  check: partFieldCheck({
    messageId: 'long',
    field: (p) => (p.type === 'tool-call' ? 'id' : undefined),
    valid: (id) => id.length <= MAX,
    data: (_p, id) => ({ id, length: id.length }),
  }),
});
