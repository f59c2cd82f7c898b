/**
 * Text from a conversation made safe and measurable for a terminal: control,
 * bidi and line-separator characters are escaped (so a history cannot move
 * the cursor or recolor the screen), and widths are counted in columns.
 */

import { UNSAFE_CHAR as UNSAFE, escapeUnit, terminalSafe } from '../reporters/terminal.js';

export { terminalSafe };

/** A value from the input shown bare when it is plain (`call_1`, `get_weather`), quoted otherwise. */
export function label(text: string): string {
  return /^[\w.:/@+-]+$/u.test(text) ? text : quoted(text);
}

/** A string as a JSON string literal, with terminal-unsafe characters escaped too. */
export function quoted(text: string): string {
  return '"' + escapedUnits(text).join('') + '"';
}

/** The escaped pieces of a string, one per code point, as a JSON string literal would hold them. */
function escapedUnits(text: string): string[] {
  const out: string[] = [];
  for (const ch of text) {
    if (ch === '"') out.push('\\"');
    else if (ch === '\\') out.push('\\\\');
    else if (ch === '\n') out.push('\\n');
    else if (ch === '\r') out.push('\\r');
    else if (ch === '\t') out.push('\\t');
    else if (ch.length === 1 && (UNSAFE.test(ch) || /\p{Cs}/u.test(ch))) out.push(escapeUnit(ch));
    else out.push(ch);
  }
  return out;
}

/** True for code points a terminal draws two columns wide (East Asian wide and fullwidth, most emoji). */
function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x1fa70 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** Columns one code point takes: 0 for combining marks, 2 for wide characters, else 1. */
function codePointWidth(ch: string): number {
  if (/^[\p{Mn}\p{Me}]$/u.test(ch)) return 0;
  return isWide(ch.codePointAt(0)!) ? 2 : 1;
}

/** Columns a terminal-safe string takes. */
export function displayWidth(text: string): number {
  let n = 0;
  for (const ch of text) n += codePointWidth(ch);
  return n;
}

/**
 * A text as a quoted one-line preview: whitespace runs become one space, and
 * the inside of the quotes is cut to at most `width` columns, ending in `…`
 * when cut (an escape sequence is never split).
 */
export function preview(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const pieces = escapedUnits(flat);
  let total = 0;
  for (const p of pieces) total += displayWidth(p);
  if (total <= width) return '"' + pieces.join('') + '"';
  let used = 0;
  let out = '';
  for (const p of pieces) {
    const w = displayWidth(p);
    if (used + w > width - 1) break;
    out += p;
    used += w;
  }
  return '"' + out + '…"';
}
