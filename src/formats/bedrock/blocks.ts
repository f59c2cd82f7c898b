/**
 * The vocabulary of Converse content blocks, which reading, writing and detection share: the
 * kinds a block is keyed by (a Converse block has no `type`: `{text}`, `{toolUse: {...}}`, ...),
 * and the image and document formats of the wire with their media types.
 */
import type { JsonObject } from '../../model/json.js';

/** The keys a Converse content block is keyed by (SDK `ContentBlock` members). */
export const BLOCK_KINDS = new Set([
  'text',
  'image',
  'document',
  'video',
  'audio',
  'toolUse',
  'toolResult',
  'reasoningContent',
  'cachePoint',
  'guardContent',
  'citationsContent',
  'searchResult',
]);

/** The keys a tool result's content block is keyed by. */
export const RESULT_KINDS = new Set([...BLOCK_KINDS, 'json']);

/** The members of a reasoning block. */
export const REASONING_KINDS = new Set(['reasoningText', 'redactedContent']);

/** The keys of a system block (SDK `SystemContentBlock` members). */
export const SYSTEM_KINDS = new Set(['text', 'cachePoint', 'guardContent']);

/** Document formats and their media types (SDK `DocumentFormat`). */
export const DOCUMENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  html: 'text/html',
  txt: 'text/plain',
  md: 'text/markdown',
};

/** Image formats Bedrock takes (SDK `ImageFormat`). */
export const IMAGE_FORMATS = new Set(['gif', 'jpeg', 'png', 'webp']);

/** True for an `s3://` URI, which Bedrock takes as an `s3Location`. */
export function isS3Uri(url: string): boolean {
  return url.toLowerCase().startsWith('s3://');
}

/** The media type of a document format. */
export function documentMediaType(format: string): string {
  return DOCUMENT_TYPES[format] ?? `application/${format}`;
}

/** The document format of a media type. */
export function documentFormat(mediaType: string): string | undefined {
  const bare = mediaType.split(';')[0]!.trim().toLowerCase();
  for (const [format, type] of Object.entries(DOCUMENT_TYPES)) if (type === bare) return format;
  return bare.startsWith('application/') ? bare.slice('application/'.length) : undefined;
}

/** The image format of a media type. */
export function imageFormat(mediaType: string): string {
  const bare = mediaType.split(';')[0]!.trim().toLowerCase();
  const sub = bare.startsWith('image/') ? bare.slice('image/'.length) : bare;
  return sub === 'jpg' ? 'jpeg' : sub;
}

/** The one content-block kind a block is keyed by, or undefined. */
export function kindOf(block: JsonObject, kinds: ReadonlySet<string>): string | undefined {
  const found = Object.keys(block).filter((k) => kinds.has(k));
  return found.length === 1 ? found[0] : undefined;
}
