/**
 * gemini/function-name: a function name starts with a letter or an
 * underscore and holds only `[a-zA-Z0-9_.:-]` (providers.md §4, "Function
 * names"; SDK `FunctionDeclaration.name`). The SDK doc allows 128
 * characters, but the API rejects names over 64: "Invalid function name.
 * Must start with a letter or an underscore. ... with a maximum length of
 * 64." (maximhq/bifrost#1979, kaitranntt/ccs#25).
 */
import { defineRule } from '../rule.js';
import { functionNamePatternCheck } from '../targets.js';

const NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

/** The `gemini/function-name` rule. */
export default defineRule({
  meta: {
    id: 'gemini/function-name',
    description:
      'A tool call name that does not start with a letter or _ or has characters outside [a-zA-Z0-9_.:-] or over 64 characters.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'gemini',
    messages: {
      pattern:
        'function name "{name}" must start with a letter or _, use only [a-zA-Z0-9_.:-] and have at most 64 characters; Gemini rejects it: "Invalid function name. Must start with a letter or an underscore. ... with a maximum length of 64."',
    },
  },
  check: functionNamePatternCheck(NAME),
});
