/**
 * inline-media-mismatch: inline image or document bytes whose signature
 * (PNG, JPEG, GIF, WebP, PDF) contradicts the declared media type. OpenAI
 * rejected a "JPEG" whose bytes were an HTML error page, and providers
 * refuse an image whose bytes are not the format it claims.
 */
import { mediaMismatch } from '../core/media.js';
import { isObject, type Part } from '../model/types.js';
import { defineRule, type RuleContext } from './rule.js';

/** The mismatch of an inline media part, or undefined. */
function mismatch(part: Part): string | undefined {
  if (part.type !== 'image' && part.type !== 'document') return undefined;
  if (typeof part.data !== 'string' || typeof part.mediaType !== 'string') return undefined;
  return mediaMismatch(part.data, part.mediaType);
}

function report(
  p: Part,
  found: string,
  i: number,
  j: number,
  path: (string | number)[],
  ctx: RuleContext,
): void {
  ctx.report({
    messageId: found === 'unknown' ? 'unknown' : 'other',
    data: { kind: p.type, mediaType: p.mediaType as string, found },
    messageIndex: i,
    partIndex: j,
    path,
  });
}

/** The `inline-media-mismatch` rule. */
export default defineRule({
  meta: {
    id: 'inline-media-mismatch',
    description: 'Inline image or document bytes that are not the media type they declare.',
    defaultSeverity: 'error',
    fixable: false,
    messages: {
      other:
        '{kind} declared "{mediaType}" holds {found} bytes; providers reject media that is not the type it declares',
      unknown:
        '{kind} declared "{mediaType}" does not start as {mediaType} does (an error page saved as an image?); providers reject it',
    },
  },
  partTypes: ['image', 'document', 'tool-result'],
  part(part, i, j, _subject, ctx) {
    if (part.type !== 'tool-result') {
      const found = mismatch(part);
      if (found !== undefined) report(part, found, i, j, ['data'], ctx);
      return;
    }
    const content = part.content;
    if (!Array.isArray(content)) return;
    // Every history has results: only media inside them costs more than a type check.
    for (let k = 0; k < content.length; k++) {
      const c = content[k];
      if (!isObject(c) || (c.type !== 'image' && c.type !== 'document')) continue;
      const found = mismatch(c as Part);
      if (found !== undefined) report(c as Part, found, i, j, ['content', k, 'data'], ctx);
    }
  },
});
