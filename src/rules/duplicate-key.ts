/**
 * duplicate-key: an object repeats a key; on read the last one wins, so the
 * earlier value is silently lost. Needs a scan `JSON.parse` cannot do, so
 * the engine runs it only when the rule is on.
 */
import { defineRule } from './rule.js';

/** The `duplicate-key` rule. */
export default defineRule({
  meta: {
    id: 'duplicate-key',
    description: 'An object repeats a key (the last one wins on read).',
    defaultSeverity: 'off',
    fixable: false,
    messages: { repeated: 'key "{key}" appears more than once in this object; the last one wins' },
  },
  check() {
    // Reported by the engine from the text.
  },
});
