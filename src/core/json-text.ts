/**
 * A JSON syntax check for tool-call arguments: is a string the JSON text of
 * an object? Lint asks this once per tool call in every conversation, so for
 * the usual short arguments it walks the string with `charCodeAt` instead of
 * building values with `JSON.parse`, and allocates nothing. Long texts (file
 * contents, code) go to `JSON.parse`, which scans long strings faster than
 * any loop over `charCodeAt`.
 */

// Character codes used by the JSON grammar (RFC 8259).
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const ZERO = 0x30;
const ONE = 0x31;
const NINE = 0x39;
const COLON = 0x3a;
const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RBRACKET = 0x5d;
const LOWER_B = 0x62;
const LOWER_E = 0x65;
const LOWER_F = 0x66;
const LOWER_N = 0x6e;
const LOWER_R = 0x72;
const LOWER_T = 0x74;
const LOWER_U = 0x75;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
/** OR-ing this into an ASCII letter makes it lower case. */
const LOWER_BIT = 0x20;

// What each open container is; `kinds[d]` holds the kind at depth d.
const ARRAY = 0;
const OBJECT = 1;

/** Texts longer than this are checked with `JSON.parse`. */
const LONG_TEXT = 1024;

/**
 * The kinds of the open containers, shared between calls (the check never
 * calls out to other code, so no two calls use it at once). A short text
 * cannot nest deeper than its length.
 */
const kinds = new Uint8Array(LONG_TEXT);

// The JSON grammar (RFC 8259) of a flat object, whose members hold strings, numbers and literals.
const WS = String.raw`[ \t\n\r]*`;
const STRING = String.raw`"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"`;
const NUMBER = String.raw`-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?`;
const MEMBER = `${STRING}${WS}:${WS}(?:${STRING}|${NUMBER}|true|false|null)${WS}`;
const FLAT_OBJECT = new RegExp(String.raw`^${WS}\{${WS}(?:${MEMBER}(?:,${WS}${MEMBER})*)?\}${WS}$`);

/**
 * True when `text` is the text of a flat JSON object (no nested object or
 * array): most tool-call arguments. A match is always valid JSON (the pattern
 * is the grammar itself); no match only means "not flat, or not valid", for
 * the full check to decide. Each alternative of the pattern starts with a
 * different character, so it cannot backtrack more than linearly.
 */
export function isFlatObjectText(text: string): boolean {
  return FLAT_OBJECT.test(text);
}

/**
 * True when `text` is the JSON text of an object (what tool-call `arguments`
 * must be): exactly when `JSON.parse(text)` succeeds and returns a non-null,
 * non-array object.
 */
export function isObjectJsonText(text: string): boolean {
  if (text.length > LONG_TEXT) return parsesToObject(text);
  // The regular expression runs as native code, about twice as fast as the walk on flat objects.
  return isFlatObjectText(text) || validate(text);
}

/** {@link isObjectJsonText} for long texts. */
function parsesToObject(text: string): boolean {
  // Cheap rejection first: an object's text starts with "{" after whitespace.
  if (text.charCodeAt(skipWhitespace(text, 0)) !== LBRACE) return false;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

/** {@link isObjectJsonText} for short texts, without building anything (an explicit stack, no recursion). */
function validate(text: string): boolean {
  const n = text.length;
  let i = skipWhitespace(text, 0);
  // The top-level value must be an object; the loop below then reads it whole.
  if (i >= n || text.charCodeAt(i) !== LBRACE) return false;
  let depth = 0;

  for (;;) {
    // Read one value starting at (or after whitespace from) `i`.
    i = skipWhitespace(text, i);
    if (i >= n) return false;
    const c = text.charCodeAt(i);
    if (c === LBRACE || c === LBRACKET) {
      kinds[depth++] = c === LBRACE ? OBJECT : ARRAY;
      i = skipWhitespace(text, i + 1);
      if (i < n && text.charCodeAt(i) === (c === LBRACE ? RBRACE : RBRACKET)) {
        depth--; // empty container: a complete value
        i++;
      } else if (c === LBRACE) {
        i = skipKey(text, i);
        if (i < 0) return false;
        continue; // read the member's value
      } else {
        continue; // read the first element
      }
    } else if (c === QUOTE) {
      i = skipString(text, i);
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      i = skipNumber(text, i);
    } else if (c === LOWER_T) {
      i = text.startsWith('true', i) ? i + 4 : -1;
    } else if (c === LOWER_F) {
      i = text.startsWith('false', i) ? i + 5 : -1;
    } else if (c === LOWER_N) {
      i = text.startsWith('null', i) ? i + 4 : -1;
    } else {
      return false;
    }
    if (i < 0) return false;

    // After a complete value: close containers until a "," asks for another.
    for (;;) {
      if (depth === 0) return skipWhitespace(text, i) === n;
      i = skipWhitespace(text, i);
      if (i >= n) return false;
      const d = text.charCodeAt(i);
      const inObject = kinds[depth - 1] === OBJECT;
      if (d === COMMA) {
        i = inObject ? skipKey(text, i + 1) : i + 1;
        if (i < 0) return false;
        break;
      }
      if (d !== (inObject ? RBRACE : RBRACKET)) return false;
      depth--;
      i++;
    }
  }
}

/** Index of the first character at or after `i` that is not JSON whitespace. */
function skipWhitespace(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== LF && c !== CR && c !== TAB) break;
    i++;
  }
  return i;
}

/**
 * Skips an object member's `"key" :` from `i` (whitespace allowed before
 * both). Returns the index after the colon, or -1.
 */
function skipKey(text: string, i: number): number {
  const n = text.length;
  i = skipWhitespace(text, i);
  if (i >= n || text.charCodeAt(i) !== QUOTE) return -1;
  i = skipString(text, i);
  if (i < 0) return -1;
  i = skipWhitespace(text, i);
  if (i >= n || text.charCodeAt(i) !== COLON) return -1;
  return i + 1;
}

/** Skips the string whose opening quote is at `i`. Returns the index after it, or -1. */
function skipString(text: string, i: number): number {
  const n = text.length;
  i++;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < SPACE) return -1; // raw control characters must be escaped
    if (c !== BACKSLASH) {
      i++;
      continue;
    }
    if (i + 1 >= n) return -1;
    const e = text.charCodeAt(i + 1);
    if (e === LOWER_U) {
      if (i + 5 >= n) return -1;
      if (!isHex(text.charCodeAt(i + 2)) || !isHex(text.charCodeAt(i + 3))) return -1;
      if (!isHex(text.charCodeAt(i + 4)) || !isHex(text.charCodeAt(i + 5))) return -1;
      i += 6;
    } else if (
      e === QUOTE ||
      e === BACKSLASH ||
      e === SLASH ||
      e === LOWER_B ||
      e === LOWER_F ||
      e === LOWER_N ||
      e === LOWER_R ||
      e === LOWER_T
    ) {
      i += 2;
    } else {
      return -1;
    }
  }
  return -1; // unterminated
}

/**
 * Skips the number starting at `i` (a "-" or a digit):
 * `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`. Returns the index after it, or -1.
 * A digit right after a leading 0 is left for the caller to reject.
 */
function skipNumber(text: string, i: number): number {
  const n = text.length;
  if (text.charCodeAt(i) === MINUS) i++;
  if (i >= n) return -1;
  const first = text.charCodeAt(i);
  if (first === ZERO) i++;
  else if (first >= ONE && first <= NINE) i = skipDigits(text, i + 1);
  else return -1;
  if (i < n && text.charCodeAt(i) === DOT) {
    const start = i + 1;
    i = skipDigits(text, start);
    if (i === start) return -1;
  }
  if (i < n && (text.charCodeAt(i) | LOWER_BIT) === LOWER_E) {
    i++;
    if (i < n) {
      const sign = text.charCodeAt(i);
      if (sign === PLUS || sign === MINUS) i++;
    }
    const start = i;
    i = skipDigits(text, start);
    if (i === start) return -1;
  }
  return i;
}

/** Index of the first non-digit at or after `i`. */
function skipDigits(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < ZERO || c > NINE) break;
    i++;
  }
  return i;
}

/** True for the code of 0-9, a-f or A-F. */
function isHex(c: number): boolean {
  if (c >= ZERO && c <= NINE) return true;
  const lower = c | LOWER_BIT;
  return lower >= 0x61 && lower <= LOWER_F;
}
