/**
 * Escaping text for a terminal, shared by the stylish reporter and the
 * commands that print histories: control, bidi and line-separator characters
 * become `\uXXXX`, so a history cannot move the cursor or recolor the screen.
 */

// C0, DEL, C1, zero-width and bidi controls, and the line/paragraph separators.
const UNSAFE_SOURCE =
  '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff]';

/** Matches one terminal-unsafe UTF-16 code unit. */
export const UNSAFE_CHAR = new RegExp(UNSAFE_SOURCE);
const UNSAFE_ALL = new RegExp(UNSAFE_SOURCE, 'g');

/** `\uXXXX` for one UTF-16 code unit. */
export function escapeUnit(ch: string): string {
  return '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0');
}

/** A string with every terminal-unsafe character escaped as `\uXXXX`; lone surrogates too. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE_ALL, escapeUnit).replace(/\p{Cs}/gu, escapeUnit);
}
