/**
 * URL schemes as a browser reads them (WHATWG URL): what sanitize and the
 * `unsafe-url` rule check.
 */

const TAB_OR_NEWLINE = /[\t\n\r]/g;
const EDGE_C0_OR_SPACE = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/**
 * The lower-cased scheme a browser would read from `url`, or `""` when it has
 * none (a relative or protocol-relative URL).
 */
export function urlScheme(url: string): string {
  const cleaned = url.replace(EDGE_C0_OR_SPACE, '').replace(TAB_OR_NEWLINE, '');
  const m = SCHEME.exec(cleaned);
  return m === null ? '' : m[1]!.toLowerCase();
}

/** True when a media `url` value is safe to pass on: a string whose scheme is http or https. */
export function isSafeMediaUrl(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  const scheme = urlScheme(url);
  return scheme === 'http' || scheme === 'https';
}

/**
 * The unsafe scheme of a media part (`image`/`document`), or null when the
 * part is safe: no `url` (or a null one), or an http(s) URL.
 */
export function unsafeMediaScheme(part: { type: string; url?: unknown }): string | null {
  if (part.type !== 'image' && part.type !== 'document') return null;
  // A null url is how many serializers write "absent".
  if (part.url === undefined || part.url === null) return null;
  if (typeof part.url !== 'string') return '';
  const scheme = urlScheme(part.url);
  return scheme === 'http' || scheme === 'https' ? null : scheme;
}
