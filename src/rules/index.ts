/**
 * The rule registry: every rule, in the order `histlint rules` lists them,
 * and the one place a rule's docs URL is derived from its id.
 */
import danglingToolCall from './dangling-tool-call.js';
import duplicateCallId from './duplicate-call-id.js';
import duplicateKey from './duplicate-key.js';
import duplicateToolResult from './duplicate-tool-result.js';
import emptyMessage from './empty-message.js';
import endsWithUser from './ends-with-user.js';
import invalidId from './invalid-id.js';
import missingCallId from './missing-call-id.js';
import mixedConversationIds from './mixed-conversation-ids.js';
import notAConversation from './not-a-conversation.js';
import orphanToolResult from './orphan-tool-result.js';
import parseError from './parse-error.js';
import resultBeforeCall from './result-before-call.js';
import type { Rule } from './rule.js';
import schema from './schema.js';
import systemMessage from './system-message.js';
import truncatedArguments from './truncated-arguments.js';
import unknownPartType from './unknown-part-type.js';
import unsafeUrl from './unsafe-url.js';
import unversioned from './unversioned.js';

/** Every rule. */
export const RULES: readonly Rule[] = [
  parseError,
  schema,
  unknownPartType,
  danglingToolCall,
  orphanToolResult,
  resultBeforeCall,
  duplicateToolResult,
  duplicateCallId,
  missingCallId,
  truncatedArguments,
  unsafeUrl,
  systemMessage,
  emptyMessage,
  invalidId,
  mixedConversationIds,
  unversioned,
  endsWithUser,
  notAConversation,
  duplicateKey,
];

const BY_ID = new Map(RULES.map((r) => [r.meta.id, r]));

/** A rule by id, or undefined. */
export function ruleById(id: string): Rule | undefined {
  return BY_ID.get(id);
}

/** Where the docs of the project live; rule pages are `docs/rules/<id>.md` under it. */
export const DOCS_BASE = 'https://github.com/histlint/histlint/blob/main/docs/rules/';

/** The docs URL of a rule. */
export function ruleDocsUrl(id: string): string {
  return `${DOCS_BASE}${id}.md`;
}
