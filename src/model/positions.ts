/**
 * Source positions: from a JSON pointer to the line and column of the node
 * it names in the original text. Only files with findings pay for this, so
 * the scan is separate from parsing and skips every subtree no requested
 * pointer enters.
 */
import { escapePointerToken } from './pointer.js';

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

/** Offset just past the value starting at `i` (no validation: the text already parsed). */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return skipString(text, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    let k = i;
    while (k < text.length) {
      const d = text.charCodeAt(k);
      if (d === 0x22) {
        k = skipString(text, k);
        continue;
      }
      if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) return k + 1;
      }
      k++;
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

/**
 * Finds the offset of the value each pointer names. A pointer that names
 * nothing resolves to its deepest existing ancestor. For a repeated key the
 * last occurrence is used, as on read.
 */
export function locatePointers(text: string, pointers: readonly string[]): Map<string, number> {
  const prefixes = new Set<string>();
  for (const p of pointers) {
    let q = p;
    for (;;) {
      prefixes.add(q);
      if (q === '') break;
      q = q.slice(0, q.lastIndexOf('/'));
    }
  }
  // Every requested pointer and ancestor that exists, with its offset.
  const reached = new Map<string, number>();

  // Visits the value at offset `start` whose pointer is `pointer`, descending only where asked.
  const visit = (start: number, pointer: string): void => {
    const todo: [number, string][] = [[start, pointer]];
    while (todo.length > 0) {
      const [at, ptr] = todo.pop()!;
      reached.set(ptr, at);
      const c = text.charCodeAt(at);
      if (c !== 0x7b && c !== 0x5b) continue;
      let k = at + 1;
      let index = 0;
      // For repeated keys the last one wins, so remember matches and descend after the scan.
      const children = new Map<string, number>();
      for (;;) {
        while (k < text.length && isSpace(text.charCodeAt(k))) k++;
        const d = text.charCodeAt(k);
        if (d === 0x7d || d === 0x5d || k >= text.length) break;
        if (d === 0x2c) {
          k++;
          continue;
        }
        let childPtr: string;
        if (c === 0x7b) {
          const keyEnd = skipString(text, k);
          const key = decodeKey(text.slice(k, keyEnd));
          k = keyEnd;
          while (k < text.length && (isSpace(text.charCodeAt(k)) || text.charCodeAt(k) === 0x3a))
            k++;
          childPtr = ptr + '/' + escapePointerToken(key);
        } else {
          childPtr = ptr + '/' + index++;
        }
        if (prefixes.has(childPtr)) children.set(childPtr, k);
        k = skipValue(text, k);
      }
      for (const [p, off] of children) todo.push([off, p]);
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
