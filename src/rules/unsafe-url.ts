/**
 * unsafe-url: an image or document URL whose scheme is not http or https
 * (`file:`, `data:`, `javascript:`, relative), read as a browser reads it.
 * sanitize drops such parts.
 */
import { unsafeMediaScheme } from '../core/url.js';
import { isObject, type Part } from '../model/types.js';
import { defineRule } from './rule.js';

/** The `unsafe-url` rule. */
export default defineRule({
  meta: {
    id: 'unsafe-url',
    description: 'An image or document URL whose scheme is not http or https.',
    defaultSeverity: 'error',
    fixable: 'unsafe-url',
    messages: {
      scheme: '{kind} URL has the scheme "{scheme}"; only http and https are safe',
      noScheme: '{kind} URL has no scheme (relative URL); only http and https are safe',
      notString: '{kind} URL is not a string; sanitize drops the part',
    },
  },
  partTypes: ['image', 'document', 'tool-result'],
  part(part, i, j, _subject, ctx) {
    const scheme = unsafeMediaScheme(part);
    if (scheme !== null) {
      ctx.report({
        messageId:
          typeof part.url !== 'string' ? 'notString' : scheme === '' ? 'noScheme' : 'scheme',
        data: { kind: part.type, scheme },
        messageIndex: i,
        partIndex: j,
        path: ['url'],
      });
    }
    if (part.type !== 'tool-result' || !Array.isArray(part.content)) return;
    part.content.forEach((item, c) => {
      if (!isObject(item) || typeof item.type !== 'string') return;
      const s = unsafeMediaScheme(item as Part);
      if (s === null) return;
      ctx.report({
        messageId: typeof item.url !== 'string' ? 'notString' : s === '' ? 'noScheme' : 'scheme',
        data: { kind: item.type, scheme: s },
        messageIndex: i,
        partIndex: j,
        path: ['content', c, 'url'],
      });
    });
  },
});
