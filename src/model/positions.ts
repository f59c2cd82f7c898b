/**
 * Source positions: from a JSON pointer to the line and column of the node
 * it names in the original text. Only files with findings pay for this, so
 * the scan is separate from parsing and skips every subtree no requested
 * pointer enters.
 */
import { escapePointerToken, unescapePointerToken } from './pointer.js';

/** A 1-based line and column; columns count UTF-16 code units (SARIF's default). */
export interface SourcePosition {
  line: number;
  column: number;
}

/** Maps offsets of a text to lines and columns. */
export class LineIndex {
  private readonly starts: number[];

  constructor(text: string) {
    const starts = [0];
    let k = text.indexOf('\n');
    while (k !== -1) {
      starts.push(k + 1);
      k = text.indexOf('\n', k + 1);
    }
    this.starts = starts;
  }

  /** The 1-based position of an offset. */
  position(offset: number): SourcePosition {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Offset just past the string token starting at `i`. */
function skipString(text: string, i: number): number {
  let k = i + 1;
  for (;;) {
    const q = text.indexOf('"', k);
    if (q === -1) return text.length;
    let backslashes = 0;
    for (let b = q - 1; b > i && text.charCodeAt(b) === 0x5c; b--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    k = q + 1;
  }
}

/** What a character is to {@link skipValue}, by code (ASCII; every other code is OTHER). */
const OTHER = 0;
const QUOTE = 1;
const OPEN = 2;
const CLOSE = 3;
const STRUCTURE = new Uint8Array(0x80);
STRUCTURE[0x22] = QUOTE;
STRUCTURE[0x7b] = OPEN;
STRUCTURE[0x5b] = OPEN;
STRUCTURE[0x7d] = CLOSE;
STRUCTURE[0x5d] = CLOSE;

/** Offset just past the value starting at `i` (no validation: the text already parsed). */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return skipString(text, i);
  if (c === 0x7b || c === 0x5b) {
    // Most characters are neither quotes nor brackets: one table load tells (measured about a
    // third faster than comparing each character four times, on pretty-printed v1 files).
    const n = text.length;
    let depth = 0;
    let k = i;
    while (k < n) {
      const d = text.charCodeAt(k);
      const kind = d < 0x80 ? STRUCTURE[d]! : OTHER;
      if (kind === OTHER) {
        k++;
      } else if (kind === QUOTE) {
        k = skipString(text, k);
      } else if (kind === OPEN) {
        depth++;
        k++;
      } else {
        depth--;
        k++;
        if (depth === 0) return k;
      }
    }
    return k;
  }
  let k = i;
  while (k < text.length) {
    const d = text.charCodeAt(k);
    if (d === 0x2c || d === 0x7d || d === 0x5d || isSpace(d)) break;
    k++;
  }
  return k;
}

function decodeKey(token: string): string {
  if (!token.includes('\\')) return token.slice(1, -1);
  try {
    return JSON.parse(token) as string;
  } catch {
    return token.slice(1, -1);
  }
}

/** What a container's scan looks for: the keys (decoded) or indices of its children that pointers enter. */
interface Wanted {
  keys: Set<string>;
  indices: Set<number>;
}

/** The key token starting at `k` (its quote) and ending before `end`, decoded; JSON.parse only when it holds an escape. */
function keyAt(text: string, k: number, end: number): string {
  for (let i = k + 1; i < end - 1; i++) {
    if (text.charCodeAt(i) === 0x5c) return decodeKey(text.slice(k, end));
  }
  return text.slice(k + 1, end - 1);
}

/**
 * Finds the offset of the value each pointer names. A pointer that names
 * nothing resolves to its deepest existing ancestor. For a repeated key the
 * last occurrence is used, as on read.
 *
 * One pass: a container some pointer enters is scanned where it stands, its
 * wanted children visited in place and the rest skipped, so a conversation's
 * text is read once however deep the findings sit.
 */
export function locatePointers(text: string, pointers: readonly string[]): Map<string, number> {
  // For each pointer and ancestor, which children of it the scan must enter.
  const wanted = new Map<string, Wanted>();
  for (const p of pointers) {
    let q = p;
    while (q !== '') {
      const cut = q.lastIndexOf('/');
      const parent = q.slice(0, cut);
      let w = wanted.get(parent);
      if (w === undefined) wanted.set(parent, (w = { keys: new Set(), indices: new Set() }));
      const token = unescapePointerToken(q.slice(cut + 1));
      w.keys.add(token);
      if (/^(0|[1-9][0-9]*)$/.test(token)) w.indices.add(Number(token));
      q = parent;
    }
  }
  // Every requested pointer and ancestor that exists, with its offset.
  const reached = new Map<string, number>();

  /** Visits the value at `at` named `pointer`; returns the offset just past it. */
  const visit = (at: number, pointer: string): number => {
    reached.set(pointer, at);
    const c = text.charCodeAt(at);
    const want = wanted.get(pointer);
    if (want === undefined || (c !== 0x7b && c !== 0x5b)) return skipValue(text, at);
    let k = at + 1;
    let index = 0;
    for (;;) {
      while (k < text.length && isSpace(text.charCodeAt(k))) k++;
      const d = text.charCodeAt(k);
      if (k >= text.length) return k;
      if (d === 0x7d || d === 0x5d) return k + 1;
      if (d === 0x2c) {
        k++;
        continue;
      }
      let child: string | undefined;
      if (c === 0x7b) {
        const keyEnd = skipString(text, k);
        const key = keyAt(text, k, keyEnd);
        k = keyEnd;
        while (k < text.length && (isSpace(text.charCodeAt(k)) || text.charCodeAt(k) === 0x3a)) k++;
        if (want.keys.has(key)) child = pointer + '/' + escapePointerToken(key);
      } else if (want.indices.has(index++)) {
        child = pointer + '/' + (index - 1);
      }
      if (child === undefined) {
        k = skipValue(text, k);
        continue;
      }
      // A repeated key: the reader keeps the last value, so what the earlier one held is forgotten.
      if (reached.has(child)) {
        for (const p of [...reached.keys()]) if (p.startsWith(child + '/')) reached.delete(p);
      }
      k = visit(k, child);
    }
  };

  let k = 0;
  while (k < text.length && isSpace(text.charCodeAt(k))) k++;
  visit(k, '');
  // A pointer that names nothing falls back to its deepest existing ancestor.
  const found = new Map<string, number>();
  for (const p of pointers) {
    let q = p;
    while (q !== '' && !reached.has(q)) q = q.slice(0, q.lastIndexOf('/'));
    found.set(p, reached.get(q) ?? k);
  }
  return found;
}
