/**
 * The lint cache (`lint --cache`, `.histlintcache`): for each file last linted clean, a sha256 of
 * its bytes, a hash of the options it was linted with and histlint's version. A later run skips a
 * file whose three still match. Only clean files are recorded: a file with findings is linted
 * again every time, so its findings are always reported.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import type { LintOptions } from './engine.js';

/** The default name of the cache file, in the working folder. */
export const CACHE_FILE = '.histlintcache';

/** What the cache knows of one file linted clean. */
export interface CacheEntry {
  /** sha256 of the file's bytes, hex. */
  sha256: string;
  /** {@link optionsHash} of the options it was linted with. */
  options: string;
  /** The histlint version that linted it. */
  version: string;
  /** The targets its conversations were checked against (the report shows them). */
  targets: (string | null)[];
}

/** Entries by file (POSIX path relative to the working folder). */
export type CacheEntries = Record<string, CacheEntry>;

/** The marker and layout version of a cache file. */
const MARKER = 'histlint-cache';
const LAYOUT = 1;

/** sha256 of some bytes, hex. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The read buffer of {@link hashFile}, allocated once (one per file kept the collector busy). */
let chunk: Buffer | undefined;

/** sha256 of a file's bytes, hex, read in chunks (a big JSONL file is never held whole). */
export function hashFile(absolute: string): string {
  const hash = createHash('sha256');
  const buffer = (chunk ??= Buffer.allocUnsafe(256 * 1024));
  const fd = openSync(absolute, 'r');
  try {
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** {@link optionsHash} by options object. */
const OPTIONS_HASHES = new WeakMap<LintOptions, string>();

/**
 * A hash of everything that decides a file's findings: each rule's severity (rules sorted), the
 * format read, the pointer, JSON or JSONL, leave-pending and the target.
 */
export function optionsHash(options: LintOptions): string {
  // lintFiles hands out one options object per rule set and kind: hash each once.
  const known = OPTIONS_HASHES.get(options);
  if (known !== undefined) return known;
  const rules = [...options.rules.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const key = JSON.stringify({
    rules,
    from: options.from ?? null,
    pointer: options.pointer ?? [],
    kind: options.kind ?? null,
    leavePending: options.leavePending === true,
    target: options.target ?? null,
  });
  const hash = createHash('sha256').update(key).digest('hex');
  OPTIONS_HASHES.set(options, hash);
  return hash;
}

/** True when `entry` was recorded for these bytes, options and version. */
export function isFresh(
  entry: CacheEntry | undefined,
  sha256: string,
  options: string,
  version: string,
): boolean {
  return (
    entry !== undefined &&
    entry.sha256 === sha256 &&
    entry.options === options &&
    entry.version === version
  );
}

/** Reads a cache file's text; null when it is not a histlint cache (corrupt or foreign). */
export function parseCache(text: string): CacheEntries | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value) || value.cache !== MARKER || value.layout !== LAYOUT) return null;
  if (!isRecord(value.files)) return null;
  const entries: CacheEntries = {};
  for (const [file, entry] of Object.entries(value.files)) {
    if (!isEntry(entry)) return null;
    entries[file] = entry;
  }
  return entries;
}

/** The cache file's text: files sorted, one compact entry each. */
export function formatCache(entries: CacheEntries): string {
  const files: CacheEntries = {};
  for (const file of Object.keys(entries).sort()) files[file] = entries[file]!;
  return `${JSON.stringify({ cache: MARKER, layout: LAYOUT, files })}\n`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEntry(value: unknown): value is CacheEntry {
  return (
    isRecord(value) &&
    typeof value.sha256 === 'string' &&
    typeof value.options === 'string' &&
    typeof value.version === 'string' &&
    Array.isArray(value.targets) &&
    value.targets.every((t) => t === null || typeof t === 'string')
  );
}
