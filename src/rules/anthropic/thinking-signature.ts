/**
 * anthropic/thinking-signature: a thinking block goes back to Anthropic
 * only with the signature it was issued with (or as redacted thinking with
 * its data); reasoning stored without either cannot be replayed
 * (providers.md §3, "Thinking replay"; SDK `ThinkingBlockParam`).
 */
import { defineRule } from '../rule.js';

/** The `anthropic/thinking-signature` rule. */
export default defineRule({
  meta: {
    id: 'anthropic/thinking-signature',
    description: 'A reasoning part with neither a signature nor redacted data.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'anthropic',
    messages: {
      unsigned:
        'reasoning part has no signature; Anthropic rejects thinking sent back without one: "thinking.signature: Field required"',
    },
  },
  check(subject, ctx) {
    subject.messages.forEach((m, i) => {
      m.parts.forEach((p, j) => {
        if (p.type !== 'reasoning') return;
        const signed = typeof p.signature === 'string' && p.signature !== '';
        if (signed || typeof p.redacted === 'string') return;
        ctx.report({ messageId: 'unsigned', messageIndex: i, partIndex: j });
      });
    });
  },
});
