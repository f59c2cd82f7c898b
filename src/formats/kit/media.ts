/**
 * Media for every format adapter: the one `data:` URL parser, base64 of text, and media types
 * guessed from file names. An adapter never parses a data URL or keeps a media-type table of its
 * own (test/architecture.test.ts checks the first).
 */

/** A base64 `data:` URL taken apart: `data:<mediaType><parameters>;base64,<data>`. */
export interface DataUrl {
  /** The media type as written, without parameters (`image/png`). */
  mediaType: string;
  /** The parameters as written, each with its `;` (`;name=a.png`), or ''. */
  parameters: string;
  /** The base64 payload. */
  data: string;
  /**
   * True when the URL is exactly what {@link toDataUrl} writes for its parts (`data:` and
   * `;base64,` in lower case): only then may an adapter store the parts and write the URL again.
   */
  canonical: boolean;
}

// RFC 2397 with base64: parameters are attribute=value pairs; scheme and marker in any case.
const DATA_URL = /^data:([^;,]+)((?:;[^;,=]+=[^;,]*)*);base64,(.*)$/is;

/** The parts of a base64 `data:` URL, or undefined for anything else. */
export function parseDataUrl(url: string): DataUrl | undefined {
  const m = DATA_URL.exec(url);
  if (m === null) return undefined;
  const mediaType = m[1]!;
  const parameters = m[2]!;
  const marker = 5 + mediaType.length + parameters.length;
  const canonical = url.startsWith('data:') && url.startsWith(';base64,', marker);
  return { mediaType, parameters, data: m[3]!, canonical };
}

/**
 * A data URL an adapter can store as v1 data and media type and write back byte for byte: one
 * {@link toDataUrl} writes, with no parameters; undefined otherwise (it stays a URL).
 */
export function splitDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const parsed = parseDataUrl(url);
  if (parsed === undefined || !parsed.canonical || parsed.parameters !== '') return undefined;
  return { mediaType: parsed.mediaType, data: parsed.data };
}

/** The `data:<mediaType>;base64,<data>` URL of base64 data. */
export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** UTF-8 text as base64, or undefined when the text would not come back identical (lone surrogates). */
export function textToBase64(text: string): string | undefined {
  const bytes = new TextEncoder().encode(text);
  if (new TextDecoder().decode(bytes) !== text) return undefined;
  let binary = '';
  // Chunks keep String.fromCharCode's argument list short.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** The UTF-8 text a base64 string holds, or undefined when it is not base64 of UTF-8 text. */
export function base64ToText(data: string): string | undefined {
  try {
    const binary = atob(data);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    // Only when encoding the text again gives these exact characters.
    return textToBase64(text) === data ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The v1 part type of media of a media type: an image (`image/*`), else a document. */
export function mediaPartType(mediaType: string): 'image' | 'document' {
  return mediaType.startsWith('image/') ? 'image' : 'document';
}

/** Media types by file extension. */
const EXTENSION_TYPES = new Map([
  ['pdf', 'application/pdf'],
  ['txt', 'text/plain'],
  ['md', 'text/markdown'],
  ['csv', 'text/csv'],
  ['html', 'text/html'],
  ['json', 'application/json'],
  ['doc', 'application/msword'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['gif', 'image/gif'],
  ['webp', 'image/webp'],
  ['mp3', 'audio/mpeg'],
  ['wav', 'audio/wav'],
]);

/**
 * A media type for a file known only by name or URL (v1 documents need one; the writers leave a
 * guessed one out): the first of `names` whose extension is known (a URL's query and fragment
 * ignored), else application/octet-stream.
 */
export function guessMediaType(...names: readonly (string | undefined)[]): string {
  for (const name of names) {
    const ext = /\.([A-Za-z0-9]+)$/.exec(name?.split(/[?#]/)[0] ?? '')?.[1]?.toLowerCase();
    const type = ext === undefined ? undefined : EXTENSION_TYPES.get(ext);
    if (type !== undefined) return type;
  }
  return 'application/octet-stream';
}
