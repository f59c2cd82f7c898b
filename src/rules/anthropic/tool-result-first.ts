/**
 * anthropic/tool-result-first: in a user turn that answers tool calls, the
 * `tool_result` blocks come first, before any text or image; with text
 * first the API reports the calls as unanswered (providers.md §3,
 * "tool_result position"). Consecutive user and tool messages are one turn.
 */
import { defineRule } from '../rule.js';
import { anthropicTurns, turnParts } from '../targets.js';

/** The `anthropic/tool-result-first` rule. */
export default defineRule({
  meta: {
    id: 'anthropic/tool-result-first',
    description: 'A tool result that follows other content in its user turn.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'anthropic',
    messages: {
      notFirst:
        'tool result "{id}" comes after a {before} part in its user turn; Anthropic rejects it: "`tool_use` ids were found without `tool_result` blocks immediately after"',
    },
  },
  check(subject, ctx) {
    const messages = subject.messages;
    for (const turn of anthropicTurns(messages)) {
      if (turn.role !== 'user') continue;
      let before: string | undefined;
      for (const { part, messageIndex, partIndex } of turnParts(messages, turn)) {
        if (part.type !== 'tool-result') {
          before ??= part.type;
          continue;
        }
        if (before === undefined) continue;
        ctx.report({
          messageId: 'notFirst',
          data: { id: typeof part.callId === 'string' ? part.callId : '', before },
          messageIndex,
          partIndex,
        });
        // One finding per turn: moving the other content after the results fixes them all.
        break;
      }
    }
  },
});
