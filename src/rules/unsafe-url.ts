/**
 * unsafe-url: an image or document URL whose scheme is not http or https
 * (`file:`, `data:`, `javascript:`, relative), read as a browser reads it.
 * sanitize drops such parts.
 */
import { unsafeKeptScheme, unsafeMedia, type UnsafeMedia } from '../core/url.js';
import { isObject, type Part } from '../model/types.js';
import { defineRule } from './rule.js';

/** The message of an unsafe URL: by where it is and what it holds. */
function messageId(part: Part, found: UnsafeMedia): string {
  if (found.where === 'providerData') return 'kept';
  return typeof part.url !== 'string' ? 'notString' : found.scheme === '' ? 'noScheme' : 'scheme';
}

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
      kept: '{kind} part keeps a URL with the scheme "{scheme}" in its provider data; only http and https are safe',
      keptMessage:
        'message keeps a URL with the scheme "{scheme}" in its provider data; only http and https are safe',
    },
  },
  // A message's own providerData can hold content a writer puts back (with a URL in it).
  message(m, i, _subject, ctx) {
    const scheme = unsafeKeptScheme(m.providerData);
    if (scheme !== null)
      ctx.report({ messageId: 'keptMessage', data: { scheme }, messageIndex: i });
  },
  // Any part may keep a URL the provider fetches in its providerData: every type is visited.
  part(part, i, j, _subject, ctx) {
    const found = unsafeMedia(part);
    if (found !== null) {
      ctx.report({
        messageId: messageId(part, found),
        data: { kind: part.type, scheme: found.scheme },
        messageIndex: i,
        partIndex: j,
        path: found.where === 'url' ? ['url'] : [],
      });
    }
    if (part.type !== 'tool-result' || !Array.isArray(part.content)) return;
    part.content.forEach((item, c) => {
      if (!isObject(item) || typeof item.type !== 'string') return;
      const s = unsafeMedia(item as Part);
      if (s === null) return;
      ctx.report({
        messageId: messageId(item as Part, s),
        data: { kind: item.type, scheme: s.scheme },
        messageIndex: i,
        partIndex: j,
        path: s.where === 'url' ? ['content', c, 'url'] : ['content', c],
      });
    });
  },
});
