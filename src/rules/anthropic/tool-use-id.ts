/**
 * anthropic/tool-use-id: `tool_use.id` and `tool_result.tool_use_id` match
 * `^[a-zA-Z0-9_-]+$`; ids from other providers (e.g. Kimi's
 * `functions.Bash:0`) must be rewritten in both places (providers.md §3,
 * "Tool ids").
 */
import { defineRule } from '../rule.js';

const ID = /^[a-zA-Z0-9_-]+$/;

/** The `anthropic/tool-use-id` rule. */
export default defineRule({
  meta: {
    id: 'anthropic/tool-use-id',
    description: 'A tool call id or result callId that does not match ^[a-zA-Z0-9_-]+$.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'anthropic',
    messages: {
      pattern:
        '{kind} id "{id}" does not match ^[a-zA-Z0-9_-]+$; Anthropic rejects it: "String should match pattern \'^[a-zA-Z0-9_-]+$\'"',
    },
  },
  check(subject, ctx) {
    subject.messages.forEach((m, i) => {
      m.parts.forEach((p, j) => {
        const field =
          p.type === 'tool-call' ? 'id' : p.type === 'tool-result' ? 'callId' : undefined;
        if (field === undefined) return;
        const id = p[field];
        if (typeof id !== 'string' || ID.test(id)) return;
        ctx.report({
          messageId: 'pattern',
          data: { kind: p.type === 'tool-call' ? 'tool call' : 'tool result', id },
          messageIndex: i,
          partIndex: j,
          path: [field],
        });
      });
    });
  },
});
