/**
 * bedrock/alternation: Converse turns alternate between user and assistant
 * and nothing is merged (providers.md §5, "Roles & alternation"); Claude
 * models on Bedrock refuse two turns of one role in a row, Titan took two
 * user turns, so this warns. Turns are grouped as the Bedrock writer groups
 * them (core/turns.ts): a history of another format is written with
 * consecutive turns of one role merged.
 */
import { defineRule } from '../rule.js';
import { turnOrderCheck } from '../targets.js';

/** The `bedrock/alternation` rule. */
export default defineRule({
  meta: {
    id: 'bedrock/alternation',
    description: 'Two user turns or two assistant turns in a row (model-dependent).',
    defaultSeverity: 'warn',
    fixable: 'normalize',
    target: 'bedrock',
    messages: {
      repeated:
        'a second {role} turn in a row (after message {previous}); Claude models on Bedrock reject it (Titan accepted two user turns): "A conversation must alternate between user and assistant roles."',
    },
  },
  check: turnOrderCheck('bedrock/alternation', 'bedrock'),
});
