/**
 * The longest JSON text histlint reads: a JSON file or JSONL line is decoded
 * to one string before it is parsed, and V8 strings stop at about 512 MB. One
 * limit and one message for every reader, so a text past it is named with its
 * size instead of failing as something else (the decoder's error once read as
 * "not UTF-8").
 */
import { constants } from 'node:buffer';

/** The longest string this Node can hold, in UTF-16 code units (2^29 - 24 on Node 20). */
const STRING_LIMIT = constants.MAX_STRING_LENGTH;

/** The environment variable that lowers the limit (tests use a few megabytes for 512). */
export const MAX_TEXT_BYTES_ENV = 'HISTLINT_MAX_LINE_BYTES';

let limit = STRING_LIMIT;

/**
 * The most UTF-8 bytes one JSON text may have. Counted in bytes: a text that
 * fits decodes to at most as many UTF-16 units, so it always becomes a string.
 */
export function maxTextBytes(): number {
  return limit;
}

/** Sets the limit (never above what a string holds); `undefined` restores it. */
export function setMaxTextBytes(bytes: number | undefined): void {
  limit =
    bytes === undefined || !(bytes > 0) ? STRING_LIMIT : Math.min(Math.floor(bytes), STRING_LIMIT);
}

/** Applies {@link MAX_TEXT_BYTES_ENV} from an environment, when it holds a positive number. */
export function applyMaxTextBytesEnv(env: Readonly<Record<string, string | undefined>>): void {
  const value = env[MAX_TEXT_BYTES_ENV];
  if (value !== undefined && value !== '') setMaxTextBytes(Number(value));
}

/** True when a text of `bytes` UTF-8 bytes is too long to decode and parse. */
export function isTooLong(bytes: number): boolean {
  return bytes > limit;
}

/** Sizes in MB of 2^20 bytes, as the limit is usually quoted ("512 MB"). */
function megabytes(bytes: number): string {
  const mb = bytes / 2 ** 20;
  return `${mb >= 10 ? Math.round(mb) : mb.toFixed(1)} MB`;
}

function limitClause(): string {
  return `the largest JSON text Node can parse is about ${megabytes(limit)}`;
}

/** A JSONL line over the limit, by its 1-based number in the file and its length. */
export interface LongLine {
  line: number;
  bytes: number;
}

/** How many long lines a message lists by number (the rest are counted). */
const LISTED = 5;

/**
 * The message for JSONL lines over the limit: "line 2 is 550 MB; the largest
 * JSON text Node can parse is about 512 MB", each such line listed.
 */
export function longLinesMessage(lines: readonly LongLine[]): string {
  const listed = lines.slice(0, LISTED).map((l) => `line ${l.line} is ${megabytes(l.bytes)}`);
  const more = lines.length > LISTED ? ` and ${lines.length - LISTED} more lines` : '';
  return `${listed.join(', ')}${more}; ${limitClause()}`;
}

/** The message for a whole JSON file over the limit. */
export function longFileMessage(bytes: number): string {
  return `the file is ${megabytes(bytes)}; ${limitClause()}`;
}
