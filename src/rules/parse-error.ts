/**
 * parse-error: the file or JSONL line is not valid JSON (or not UTF-8).
 * The lint engine reports it, with the exact line and column; no other rule
 * runs on that text.
 */
import { defineRule } from './rule.js';

/** The `parse-error` rule. */
export default defineRule({
  meta: {
    id: 'parse-error',
    description: 'The file or JSONL line is not valid JSON.',
    defaultSeverity: 'error',
    fixable: false,
    messages: { invalid: '{detail}' },
  },
  check() {
    // Reported by the engine, which has the text and the parser's position.
  },
});
