/**
 * reused-call-id: a call id used again after its earlier call was answered.
 * Pairing in order keeps it right (SPEC §2.1), and OpenAI and Anthropic
 * accept it (GPT-4o agent trajectories and cross-provider replays do it),
 * but tools that pair results with calls by id alone mismatch it.
 */
import { defineRule } from './rule.js';

/** The `reused-call-id` rule. */
export default defineRule({
  meta: {
    id: 'reused-call-id',
    description: 'A tool call id used again after its earlier call was answered.',
    defaultSeverity: 'warn',
    fixable: false,
    messages: {
      reused:
        'tool call id "{id}" was already used by the call in message {firstIndex}, answered in message {answerIndex}; paired in order, but tools that pair by id alone mix them up',
    },
  },
  check(subject, ctx) {
    if (subject.pairsCleanly()) return;
    for (const call of subject.pairing().calls) {
      if (call.idUse !== 'reused') continue;
      const earlier = call.earlier!;
      ctx.report({
        messageId: 'reused',
        data: {
          id: call.id!,
          firstIndex: earlier.position,
          answerIndex: earlier.answer!.position,
        },
        messageIndex: call.position,
        partIndex: call.partIndex,
      });
    }
  },
});
