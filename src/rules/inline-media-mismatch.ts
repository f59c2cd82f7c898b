/**
 * inline-media-mismatch: inline image or document bytes whose signature
 * (PNG, JPEG, GIF, WebP, PDF) contradicts the declared media type. OpenAI
 * rejected a "JPEG" whose bytes were an HTML error page, and providers
 * refuse an image whose bytes are not the format it claims.
 */
import { mediaMismatch } from '../core/media.js';
import { isObject, type Part } from '../model/types.js';
import { defineRule } from './rule.js';

/** The mismatch of an inline media part, or undefined. */
function mismatch(part: Part): string | undefined {
  if (part.type !== 'image' && part.type !== 'document') return undefined;
  if (typeof part.data !== 'string' || typeof part.mediaType !== 'string') return undefined;
  return mediaMismatch(part.data, part.mediaType);
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
    const items: { p: Part; path: (string | number)[] }[] = [{ p: part, path: [] }];
    if (part.type === 'tool-result' && Array.isArray(part.content))
      part.content.forEach((c, k) => {
        if (isObject(c)) items.push({ p: c as Part, path: ['content', k] });
      });
    for (const { p, path } of items) {
      const found = mismatch(p);
      if (found === undefined) continue;
      ctx.report({
        messageId: found === 'unknown' ? 'unknown' : 'other',
        data: { kind: p.type, mediaType: p.mediaType as string, found },
        messageIndex: i,
        partIndex: j,
        path: [...path, 'data'],
      });
    }
  },
});
