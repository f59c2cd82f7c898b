/**
 * What inline media bytes are, by their first bytes (their signature): the
 * `inline-media-mismatch` rule compares it with the declared media type.
 * Only the types every provider takes are known: PNG, JPEG, GIF, WebP, PDF.
 */

/** The media types whose signature is known, with a test of the first bytes. */
const SIGNATURES: readonly { type: string; matches: (b: Uint8Array) => boolean }[] = [
  {
    type: 'image/png',
    matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { type: 'image/jpeg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { type: 'image/gif', matches: (b) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a') },
  { type: 'image/webp', matches: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP') },
  { type: 'application/pdf', matches: (b) => ascii(b, 0, '%PDF-') },
];

/** Media types spelled more than one way, by the spelling the signatures use. */
const ALIASES: Readonly<Record<string, string>> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
};

function startsWith(b: Uint8Array, bytes: readonly number[]): boolean {
  return bytes.every((x, k) => b[k] === x);
}

function ascii(b: Uint8Array, at: number, text: string): boolean {
  for (let k = 0; k < text.length; k++) if (b[at + k] !== text.charCodeAt(k)) return false;
  return true;
}

/** The first bytes base64 `data` holds (at most 12), or undefined when it does not start as base64. */
function firstBytes(data: string): Uint8Array | undefined {
  const head = data.slice(0, 16);
  if (head.length < 16 || !/^[A-Za-z0-9+/]{16}$/.test(head)) return undefined;
  const binary = atob(head);
  const out = new Uint8Array(binary.length);
  for (let k = 0; k < binary.length; k++) out[k] = binary.charCodeAt(k);
  return out;
}

/** A declared media type, lower-cased, without parameters, spelled as the signatures spell it. */
export function canonicalMediaType(mediaType: string): string {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  return ALIASES[type] ?? type;
}

/**
 * What inline base64 `data` declared as `mediaType` really is, when that
 * contradicts the declaration: the type its signature names (`image/png`),
 * `unknown` when it has no known signature although the declared type has
 * one (an HTML error page saved as a "JPEG"), and undefined when the bytes
 * fit, the declared type has no known signature, or there are too few bytes
 * to tell.
 */
export function mediaMismatch(data: string, mediaType: string): string | undefined {
  const declared = canonicalMediaType(mediaType);
  const expected = SIGNATURES.find((s) => s.type === declared);
  if (expected === undefined) return undefined;
  const bytes = firstBytes(data);
  if (bytes === undefined || expected.matches(bytes)) return undefined;
  return SIGNATURES.find((s) => s.matches(bytes))?.type ?? 'unknown';
}
