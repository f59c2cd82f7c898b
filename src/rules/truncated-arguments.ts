/**
 * truncated-arguments: tool-call arguments that are not the text of a JSON
 * object, typically a stream that died mid-arguments. The bytes are
 * evidence and stay; runs send `{"truncated_args": "<text>"}` instead.
 */
import { isObjectJsonText } from '../core/pairing.js';
import { defineRule } from './rule.js';

/** The `truncated-arguments` rule. */
export default defineRule({
  meta: {
    id: 'truncated-arguments',
    description: 'Tool-call arguments that are not the text of a JSON object.',
    defaultSeverity: 'warn',
    fixable: false,
    messages: { truncated: 'arguments of tool call{id} are not a JSON object: {preview}' },
  },
  partTypes: ['tool-call'],
  part(part, i, j, _subject, ctx) {
    if (part.type !== 'tool-call' || typeof part.arguments !== 'string') return;
    if (isObjectJsonText(part.arguments)) return;
    const text = part.arguments;
    const preview =
      text === '' ? 'empty' : JSON.stringify(text.length > 40 ? text.slice(0, 40) + '…' : text);
    const id = typeof part.id === 'string' ? ` "${part.id}"` : '';
    ctx.report({
      messageId: 'truncated',
      data: { id, preview },
      messageIndex: i,
      partIndex: j,
      path: ['arguments'],
    });
  },
});
