/**
 * unknown-part-type: a part `type` outside the v1 table (SPEC §1). Writes
 * carry such parts through unchanged; this rule is the only place they are
 * reported.
 */
import { CONTENT_PART_TYPES, isObject, PART_TYPES, UNTYPED_BLOCK } from '../model/types.js';
import { defineRule, OTHER_PART_TYPES } from './rule.js';

const KNOWN = new Set<string>(PART_TYPES);
const UNTYPED = `:${UNTYPED_BLOCK}`;
const CONTENT = new Set<string>(CONTENT_PART_TYPES);

/** True when `type` is `<format>:<block>`, a block of the file's own format (no string built per part). */
function isOwnType(type: string, format: string): boolean {
  return (
    type.length > format.length &&
    type.charCodeAt(format.length) === 0x3a &&
    type.startsWith(format)
  );
}

/** True when `type` is `<format>:invalid`: a block of the file's own format that had no type. */
function isUntyped(type: string, format: string): boolean {
  return (
    type.length === format.length + UNTYPED.length &&
    type.endsWith(UNTYPED) &&
    isOwnType(type, format)
  );
}

/** The `unknown-part-type` rule. */
export default defineRule({
  meta: {
    id: 'unknown-part-type',
    description: 'A part type that is not in the v1 table.',
    defaultSeverity: 'error',
    fixable: false,
    messages: {
      unknown: 'unknown part type "{type}"',
      untyped:
        'content part has no "type"; providers reject it (OpenAI: "Missing required parameter: \'messages[N].content[M].type\'")',
      unknownContent: 'unknown part type "{type}" in tool result content',
    },
  },
  partTypes: ['tool-result', OTHER_PART_TYPES],
  part(part, i, j, subject, ctx) {
    // A block without a type is kept as `<format>:invalid`: no provider takes it back.
    if (isUntyped(part.type, subject.format)) {
      ctx.report({ messageId: 'untyped', messageIndex: i, partIndex: j });
      return;
    }
    // A foreign format's own blocks with no v1 equivalent are carried as `<format>:<type>`: known there.
    if (!KNOWN.has(part.type) && !isOwnType(part.type, subject.format)) {
      ctx.report({
        messageId: 'unknown',
        data: { type: part.type },
        messageIndex: i,
        partIndex: j,
        path: ['type'],
      });
      return;
    }
    if (part.type !== 'tool-result' || !Array.isArray(part.content)) return;
    part.content.forEach((item, c) => {
      if (isObject(item) && typeof item.type === 'string' && isUntyped(item.type, subject.format)) {
        ctx.report({ messageId: 'untyped', messageIndex: i, partIndex: j, path: ['content', c] });
        return;
      }
      // Known non-content types inside content are schema errors, not unknown types.
      if (
        isObject(item) &&
        typeof item.type === 'string' &&
        !CONTENT.has(item.type) &&
        !KNOWN.has(item.type) &&
        !isOwnType(item.type, subject.format)
      ) {
        ctx.report({
          messageId: 'unknownContent',
          data: { type: item.type },
          messageIndex: i,
          partIndex: j,
          path: ['content', c, 'type'],
        });
      }
    });
  },
});
