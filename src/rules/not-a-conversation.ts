/**
 * not-a-conversation: valid JSON that is not a conversation in any known
 * format. The lint engine reports it when format detection fails.
 */
import { defineRule } from './rule.js';

/** The `not-a-conversation` rule. */
export default defineRule({
  meta: {
    id: 'not-a-conversation',
    description: 'Valid JSON that is not a conversation in any known format.',
    defaultSeverity: 'error',
    fixable: false,
    messages: { unknown: '{detail}' },
  },
  check() {
    // Reported by the engine, which runs format detection.
  },
});
