/**
 * openai-chat/function-name: a function name matches `^[a-zA-Z0-9_-]+$` and
 * has at most 64 characters, also inside the history's `tool_calls`
 * (providers.md §1, "Function name"; SDK `FunctionDefinition.name`).
 */
import { defineRule } from '../rule.js';
import { functionNamePatternCheck } from '../targets.js';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The `openai-chat/function-name` rule. */
export default defineRule({
  meta: {
    id: 'openai-chat/function-name',
    description: 'A tool call name that is not 1-64 of the characters a-z, A-Z, 0-9, _ and -.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'openai-chat',
    messages: {
      pattern:
        'function name "{name}" does not match ^[a-zA-Z0-9_-]+$ with at most 64 characters; OpenAI rejects it: "does not match pattern. Expected a string that matches the pattern \'^[a-zA-Z0-9_-]+$\'."',
    },
  },
  check: functionNamePatternCheck(NAME),
});
