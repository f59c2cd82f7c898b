/**
 * openai-responses/reasoning-followed: an OpenAI reasoning item (`rs_…`) must
 * be followed by the item it preceded in the model's output: its
 * `function_call`, a hosted tool call, or its output message with the
 * original `msg_…` id (providers.md §2, "Reasoning items"; corpus record
 * `test_openai_responses_thinking_with_modified_history`).
 */
import { isObject, type Part } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import { defineRule } from '../rule.js';
import { stringField } from '../targets.js';

const FORMAT = 'openai-responses';

/** Why `next` cannot be the item that followed a reasoning item, or null when it can. */
function problem(next: Part | undefined): 'last' | 'plainMessage' | null {
  if (next === undefined) return 'last';
  if (next.type === 'tool-call' || next.type === 'reasoning') return null;
  const pd = providerDataOf(next, FORMAT);
  // A hosted tool call or another item of its own; `$item` marks the content of a message item.
  if (next.type.startsWith(`${FORMAT}:`) && pd?.$item === undefined) return null;
  const header = pd?.$message;
  const id = isObject(header) ? stringField(header, 'id') : undefined;
  return id?.startsWith('msg') === true ? null : 'plainMessage';
}

/** The `openai-responses/reasoning-followed` rule. */
export default defineRule({
  meta: {
    id: 'openai-responses/reasoning-followed',
    description: 'A reasoning item not followed by the item it preceded in the model output.',
    defaultSeverity: 'error',
    fixable: false,
    target: FORMAT,
    messages: {
      last: 'reasoning item "{id}" is the last item of its turn; OpenAI rejects it: "Item \'{id}\' of type \'reasoning\' was provided without its required following item."',
      plainMessage:
        'reasoning item "{id}" is followed by an assistant message without its original "msg_" id; OpenAI rejects it: "Item \'{id}\' of type \'reasoning\' was provided without its required following item."',
    },
  },
  check(subject, ctx) {
    subject.messages.forEach((m, i) => {
      if (m.role !== 'assistant') return;
      m.parts.forEach((p, j) => {
        if (p.type !== 'reasoning') return;
        // Only OpenAI's own items are bound to a following item (DeepSeek's are not).
        const id = stringField(providerDataOf(p, FORMAT), 'id');
        if (id?.startsWith('rs_') !== true) return;
        const why = problem(m.parts[j + 1]);
        if (why !== null)
          ctx.report({ messageId: why, data: { id }, messageIndex: i, partIndex: j });
      });
    });
  },
});
