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
 * Keys whose string values a provider fetches as URLs: `url`, `uri`, and names ending so
 * (`image_url`, `file_url`, `fileUri`, `file_uri`).
 */
const URL_KEY = /(?:^|_)(?:url|uri)$|[a-z0-9](?:Url|Uri)$/;

/**
 * Keys whose string values hold inline data or a URL, told apart by a scheme: the AI SDK fetches
 * an `image` or `data` string that has one (`new URL()` reads it), and base64 has no `:`.
 */
const DATA_OR_URL_KEY = /^(?:data|image)$/;

/**
 * The first unsafe scheme among the URLs in kept provider data, or null. An inline `data:` URL
 * there is content, not a fetch, and counts as safe; so does the `allow` scheme (a provider's
 * own storage, see {@link PROVIDER_STORAGE_SCHEMES}).
 */
export function unsafeKeptScheme(data: unknown, allow?: string): string | null {
  // An explicit stack: kept data is scanned to any depth, and deep nesting cannot overflow.
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    const obj = node as Record<string, unknown>;
    const children: unknown[] = [];
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      const fetched =
        typeof v === 'string' &&
        (URL_KEY.test(key) || (DATA_OR_URL_KEY.test(key) && urlScheme(v) !== ''));
      if (!fetched) {
        children.push(v);
        continue;
      }
      const scheme = urlScheme(v as string);
      if (scheme !== 'http' && scheme !== 'https' && scheme !== 'data' && scheme !== allow)
        return scheme;
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return null;
}

/** Where an unsafe media URL is: the part's `url`, or a URL a provider would fetch kept in its provider data. */
export interface UnsafeMedia {
  scheme: string;
  where: 'url' | 'providerData';
}

/**
 * The unsafe URL of a part, or null when it is safe. An `image`/`document` is unsafe by its `url`
 * (no `url`, or a null one, is safe). Any part is unsafe by a URL kept in its provider data: a
 * part read with both inline data and a `file_url`, a part of a type only its format knows
 * (`<format>:<type>`, kept whole), or kept data a writer would put back (a tool result's content);
 * the provider would fetch it.
 */
export function unsafeMedia(
  part: { type: string; url?: unknown; providerData?: unknown },
  allow?: string,
): UnsafeMedia | null {
  const media = part.type === 'image' || part.type === 'document';
  const fields = part as Record<string, unknown>;
  // Text is text: v1's own parts that hold no media have no URL a provider fetches.
  for (const key of NOT_MEDIA.has(part.type) ? [] : MEDIA_FIELDS) {
    let v = fields[key];
    if (v === undefined || v === null) continue;
    // `image_url` is the URL, or (OpenAI's shape) an object holding it.
    if (key === 'image_url' && v !== null && typeof v === 'object' && !Array.isArray(v))
      v = (v as Record<string, unknown>).url;
    if (typeof v !== 'string') {
      // An image or document whose url is no string is unreadable; elsewhere it is no URL.
      if (media && key === 'url') return { scheme: '', where: 'url' };
      continue;
    }
    const scheme = urlScheme(v);
    if (scheme !== 'http' && scheme !== 'https' && scheme !== allow)
      return { scheme, where: 'url' };
  }
  if (part.providerData === undefined) return null;
  const kept = unsafeKeptScheme(part.providerData, allow);
  return kept === null ? null : { scheme: kept, where: 'providerData' };
}

/**
 * The fields of a part, of any type but {@link NOT_MEDIA} (`image`, `document`, or one v1 does
 * not define, like `audio` or `video`), whose string is a URL a provider fetches.
 */
const MEDIA_FIELDS = ['url', 'uri', 'image_url'] as const;

/** The v1 part types that hold no media of their own (a tool result's content is checked apart). */
const NOT_MEDIA: ReadonlySet<string> = new Set(['text', 'reasoning', 'tool-call', 'tool-result']);

/**
 * The unsafe scheme of an item of a tool result's `content`: the item itself, or, for a tool
 * result nested there, any part inside it, at any depth. Null when all are safe.
 */
export function unsafeContentScheme(item: unknown, allow?: string): string | null {
  const stack: unknown[] = [item];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
    const part = node as { type?: unknown; content?: unknown };
    if (typeof part.type !== 'string') continue;
    const found = unsafeMediaScheme(part as { type: string }, allow);
    if (found !== null) return found;
    if (part.type === 'tool-result' && Array.isArray(part.content)) stack.push(...part.content);
  }
  return null;
}

/** The unsafe scheme of a part (see {@link unsafeMedia}), or null when it is safe. */
export function unsafeMediaScheme(
  part: { type: string; url?: unknown; providerData?: unknown },
  allow?: string,
): string | null {
  return unsafeMedia(part, allow)?.scheme ?? null;
}

/**
 * The storage scheme a provider fetches media from itself: Bedrock's `s3://` (an S3 location),
 * Gemini's `gs://` (a Cloud Storage URI on Vertex). Under that provider's target such a URL is
 * the provider's own, not an attack on the host: lint and `lint --fix` let it be. sanitize, whose
 * history comes from a client, still drops it.
 */
export const PROVIDER_STORAGE_SCHEMES: Readonly<Record<string, string>> = {
  bedrock: 's3',
  gemini: 'gs',
};
