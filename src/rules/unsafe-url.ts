/**
 * unsafe-url: an image or document URL whose scheme is not http or https
 * (`file:`, `data:`, `javascript:`, relative), read as a browser reads it.
 * sanitize drops such parts. Under Bedrock or Gemini, their own storage
 * schemes (`s3://`, `gs://`) are not reported: lint --fix would drop
 * legitimate media of a trusted transcript.
 */
import {
  PROVIDER_STORAGE_SCHEMES,
  unsafeContentScheme,
  unsafeKeptScheme,
  unsafeMedia,
  type UnsafeMedia,
} from '../core/url.js';
import { isObject, type Part } from '../model/types.js';
import { defineRule, OTHER_PART_TYPES, type LintSubject, type RuleContext } from './rule.js';

/** The message of an unsafe URL: by where it is and what it holds. */
function messageId(part: Part, found: UnsafeMedia): string {
  if (found.where === 'providerData') return 'kept';
  return typeof part.url !== 'string' ? 'notString' : found.scheme === '' ? 'noScheme' : 'scheme';
}

/**
 * The scheme of the checked provider's own storage (`s3` under bedrock, `gs` under gemini): the
 * provider fetches it itself, so it is not reported there (bedrock/s3-location warns instead).
 */
function allowedScheme(subject: LintSubject): string | undefined {
  return subject.target === null ? undefined : PROVIDER_STORAGE_SCHEMES[subject.target];
}

/** The v1 part types the part visitor does not see: the message visitor checks their providerData. */
const UNVISITED = new Set<string>(['text', 'tool-call', 'reasoning']);

/** Reports an unsafe URL of part j of message i. */
function report(part: Part, found: UnsafeMedia, i: number, j: number, ctx: RuleContext): void {
  ctx.report({
    messageId: messageId(part, found),
    data: { kind: part.type, scheme: found.scheme },
    messageIndex: i,
    partIndex: j,
    path: found.where === 'url' ? ['url'] : [],
  });
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
  // A message's own providerData can hold content a writer puts back (with a URL in it), and so
  // can the providerData of a text, tool-call or reasoning part: checked here, in one loop per
  // message, so the common parts cost no visitor call of their own.
  message(m, i, subject, ctx) {
    const allow = allowedScheme(subject);
    const scheme = unsafeKeptScheme(m.providerData, allow);
    if (scheme !== null)
      ctx.report({ messageId: 'keptMessage', data: { scheme }, messageIndex: i });
    const parts = m.parts;
    for (let j = 0; j < parts.length; j++) {
      const part = parts[j]!;
      if (part.providerData === undefined || !UNVISITED.has(part.type)) continue;
      const found = unsafeMedia(part, allow);
      if (found !== null) report(part, found, i, j, ctx);
    }
  },
  // Media, tool results (their content too) and parts only their format knows.
  partTypes: ['image', 'document', 'tool-result', OTHER_PART_TYPES],
  part(part, i, j, subject, ctx) {
    const allow = allowedScheme(subject);
    const found = unsafeMedia(part, allow);
    if (found !== null) report(part, found, i, j, ctx);
    if (part.type !== 'tool-result' || !Array.isArray(part.content)) return;
    part.content.forEach((item, c) => {
      if (!isObject(item) || typeof item.type !== 'string') return;
      // A tool result nested in the content counts by every part inside it (as sanitize drops it).
      const nested = item.type === 'tool-result' ? unsafeContentScheme(item, allow) : null;
      const s =
        unsafeMedia(item as Part, allow) ??
        (nested === null ? null : { scheme: nested, where: 'url' as const });
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
