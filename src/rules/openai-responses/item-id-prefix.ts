/**
 * openai-responses/item-id-prefix: an input item's optional `id` must carry
 * the prefix of its type, `fc` for a function call, `ctc` for a custom tool's
 * call and `msg` for an output message; the correlation id belongs in `call_id` (providers.md §2, "Item id
 * formats").
 */
import { isObject } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import { defineRule } from '../rule.js';

const FORMAT = 'openai-responses';

/** The `openai-responses/item-id-prefix` rule. */
export default defineRule({
  meta: {
    id: 'openai-responses/item-id-prefix',
    description:
      'A function call, custom tool call or output message item id without its type prefix (fc, ctc, msg).',
    defaultSeverity: 'error',
    fixable: false,
    target: FORMAT,
    messages: {
      prefix:
        '{item} item id "{id}" does not begin with "{prefix}"; OpenAI rejects it: "Expected an ID that begins with \'{prefix}\'."',
    },
  },
  check(subject, ctx) {
    subject.messages.forEach((m, i) => {
      m.parts.forEach((p, j) => {
        const pd = providerDataOf(p, FORMAT);
        if (pd === undefined) return;
        let item: string;
        let prefix: string;
        let id: unknown;
        // A client-run hosted call's id has its own type's prefix (`tsc` for tool_search_call).
        if (p.type === 'tool-call' && pd.$custom === true) {
          [item, prefix, id] = ['custom_tool_call', 'ctc', pd.id];
        } else if (p.type === 'tool-call' && pd.$hosted === undefined) {
          [item, prefix, id] = ['function_call', 'fc', pd.id];
        } else if (m.role === 'assistant' && isObject(pd.$message)) {
          [item, prefix, id] = ['message', 'msg', pd.$message.id];
        } else {
          return;
        }
        if (id === undefined || (typeof id === 'string' && id.startsWith(prefix))) return;
        ctx.report({
          messageId: 'prefix',
          data: { item, id: String(id), prefix },
          messageIndex: i,
          partIndex: j,
        });
      });
    });
  },
});
