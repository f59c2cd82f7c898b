/**
 * unknown-role: a message whose role is none of v1's four, read from another format (a LangChain
 * `chat` message's own role, an Anthropic message's role the API does not have). The readers keep
 * such a role and the operations pass it through, so lint is where it shows. A histlint file's
 * role is the schema's to check (one rule per problem, SPEC §1).
 */
import { ROLES } from '../model/types.js';
import { defineRule } from './rule.js';

const KNOWN: ReadonlySet<string> = new Set(ROLES);

/** The `unknown-role` rule. */
export default defineRule({
  meta: {
    id: 'unknown-role',
    description: 'A message whose role is none of system, user, assistant, tool.',
    defaultSeverity: 'error',
    fixable: false,
    messages: {
      role: `message role "{role}" is none of ${ROLES.join(', ')}: histlint passes it through as it is, and a provider rejects a role it does not know`,
    },
  },
  message(m, i, subject, ctx) {
    if (subject.format === 'histlint' || KNOWN.has(m.role)) return;
    ctx.report({ messageId: 'role', data: { role: m.role }, messageIndex: i, path: ['role'] });
  },
});
