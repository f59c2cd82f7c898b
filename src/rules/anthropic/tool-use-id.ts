/**
 * anthropic/tool-use-id: `tool_use.id` and `tool_result.tool_use_id` match
 * `^[a-zA-Z0-9_-]+$`; ids from other providers (e.g. Kimi's
 * `functions.Bash:0`) must be rewritten in both places (providers.md §3,
 * "Tool ids").
 */
import { defineRule } from '../rule.js';
import { toolIdPatternCheck } from '../targets.js';

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
  check: toolIdPatternCheck(ID),
});
