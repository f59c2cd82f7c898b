/**
 * gemini/thought-signature: Gemini 3 requires the `thoughtSignature` it
 * returned on the first function call of every model step of the current
 * turn (the steps since the last user message holding text); older turns
 * are not checked (providers.md §4, "Thought signatures"). Earlier models
 * accept calls without one, so this warns. It checks histories read from
 * Gemini; a conversion from another format adds the documented placeholder.
 */
import { defineRule } from '../rule.js';
import { providerDataOf } from '../../model/provider-data.js';

/** The `gemini/thought-signature` rule. */
export default defineRule({
  meta: {
    id: 'gemini/thought-signature',
    description: 'A function call of the current turn without its thought signature.',
    defaultSeverity: 'warn',
    fixable: false,
    target: 'gemini',
    messages: {
      missing:
        'function call "{name}" of the current turn has no thoughtSignature; Gemini 3 models reject it: "Function call is missing a thought_signature in functionCall parts."',
    },
  },
  check(subject, ctx) {
    const messages = subject.messages;
    const fromGemini =
      subject.format === 'gemini' ||
      messages.some(
        (m) =>
          providerDataOf(m, 'gemini') !== undefined ||
          m.parts.some((p) => providerDataOf(p, 'gemini') !== undefined),
      );
    if (!fromGemini) return;
    let start = 0;
    messages.forEach((m, i) => {
      if (m.role === 'user' && m.parts.some((p) => p.type === 'text')) start = i + 1;
    });
    for (let i = start; i < messages.length; i++) {
      const m = messages[i]!;
      if (m.role !== 'assistant') continue;
      // Parallel calls carry one signature, on the first call of the step.
      const j = m.parts.findIndex((p) => p.type === 'tool-call');
      if (j === -1) continue;
      const call = m.parts[j]!;
      const pd = providerDataOf(call, 'gemini');
      const signature = pd?.thoughtSignature ?? pd?.thought_signature;
      if (typeof signature === 'string' && signature !== '') continue;
      ctx.report({
        messageId: 'missing',
        data: { name: typeof call.name === 'string' ? call.name : '' },
        messageIndex: i,
        partIndex: j,
      });
    }
  },
});
