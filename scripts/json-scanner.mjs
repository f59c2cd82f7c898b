// A byte-level validating JSON scanner (issue 18, item 3): an experiment to measure whether
// validating and picking out the few fields the rules need beats `TextDecoder` + `JSON.parse`.
// It accepts exactly what `JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))`
// accepts; scripts/bench-scanner.mjs checks that before it times anything.
import { Buffer, isUtf8 } from 'node:buffer';

// Byte classes, looked up once per byte in the hot loops.
const WS = new Uint8Array(256);
WS[0x20] = WS[0x09] = WS[0x0a] = WS[0x0d] = 1;
// Inside a string: 0 plain, 1 closing quote, 2 backslash, 3 a raw control char (invalid JSON).
const STR = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STR[c] = 3;
STR[0x22] = 1;
STR[0x5c] = 2;
// After a backslash: 1 a one-letter escape, 2 `u` (four hex digits follow).
const ESC = new Uint8Array(256);
for (const c of '"\\/bfnrt') ESC[c.charCodeAt(0)] = 1;
ESC[0x75] = 2;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

const OK = Object.freeze({ ok: true });

// Set by skipString: whether the string it just passed held an escape (then it must be decoded
// by JSON.parse rather than sliced).
let escaped = false;

// A 32-bit view of the buffer being scanned, for testing four string bytes at once (SWAR), and
// where `b` starts in it. Set by useWords once per document.
let words = new Int32Array(0);
let wordsBuffer = null;
let base = 0;
function useWords(b) {
  base = b.byteOffset;
  if (b.buffer !== wordsBuffer) {
    wordsBuffer = b.buffer;
    words = new Int32Array(b.buffer, 0, b.buffer.byteLength >> 2);
  }
}
const ONES = 0x01010101;
const HIGHS = 0x80808080 | 0;
const SPACES = 0x20202020;
const QUOTES = 0x22222222;
const BACKSLASHES = 0x5c5c5c5c;

/**
 * Skips a string body from `i` (just after the opening quote); returns the index after the
 * closing quote, or `~offset` of the first invalid byte.
 */
function skipString(b, i, n) {
  escaped = false;
  for (;;) {
    // Plain bytes a word at a time: a word with no byte below 0x20, no quote and no backslash is
    // skipped whole; the byte loop below finds which byte stopped it.
    if (n - i >= 16) {
      let a = base + i;
      while ((a & 3) !== 0 && STR[b[i]] === 0) {
        a++;
        i++;
      }
      if ((a & 3) === 0) {
        const last = (base + n - 4) >> 2;
        let w = a >> 2;
        while (w <= last) {
          const x = words[w];
          const q = x ^ QUOTES;
          const e = x ^ BACKSLASHES;
          if ((((x - SPACES) & ~x) | ((q - ONES) & ~q) | ((e - ONES) & ~e)) & HIGHS) break;
          w++;
        }
        i = (w << 2) - base;
      }
    }
    while (i < n && STR[b[i]] === 0) i++;
    if (i >= n) return ~i;
    const k = STR[b[i]];
    if (k === 1) return i + 1;
    if (k === 3) return ~i;
    escaped = true;
    if (i + 1 >= n) return ~(i + 1);
    const e = ESC[b[i + 1]];
    if (e === 1) i += 2;
    else if (e === 2) {
      // A lone surrogate escape (`\ud800`) is valid JSON: JSON.parse keeps it as a lone UTF-16 unit.
      if (i + 5 >= n) return ~n;
      for (let j = i + 2; j < i + 6; j++) if (HEX[b[j]] === 0) return ~j;
      i += 6;
    } else return ~(i + 1);
  }
}

/** Skips an RFC 8259 number from `i`; returns the index after it or `~offset`. */
function skipNumber(b, i, n) {
  if (b[i] === 0x2d) i++;
  if (i >= n) return ~i;
  let c = b[i];
  if (c === 0x30) i++;
  else if (c >= 0x31 && c <= 0x39) {
    i++;
    while (i < n && (c = b[i]) >= 0x30 && c <= 0x39) i++;
  } else return ~i;
  if (i < n && b[i] === 0x2e) {
    i++;
    const start = i;
    while (i < n && (c = b[i]) >= 0x30 && c <= 0x39) i++;
    if (i === start) return ~i;
  }
  if (i < n && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < n && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    const start = i;
    while (i < n && (c = b[i]) >= 0x30 && c <= 0x39) i++;
    if (i === start) return ~i;
  }
  return i;
}

/** Skips `true`, `false` or `null` at `i`; returns the index after it or `~offset`. */
function skipLiteral(b, i, n) {
  const c = b[i];
  const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : c === 0x6e ? 'null' : '';
  if (word === '') return ~i;
  for (let j = 1; j < word.length; j++) {
    if (i + j >= n || b[i + j] !== word.charCodeAt(j)) return ~(i + j);
  }
  return i + word.length;
}

// Where the first invalid UTF-8 sequence starts; only run once isUtf8 has said there is one.
function firstBadUtf8(b) {
  const n = b.length;
  let i = 0;
  while (i < n) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let need;
    let min;
    if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= n) return i;
    let cp = c & (0x3f >> need);
    for (let j = 1; j <= need; j++) {
      const d = b[i + j];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return n;
}

// The container stack, reused across calls: 1 object, 2 array (scanJson); a context code with
// the low bit as kind (scanSkeleton). Grown by doubling, so depth is limited only by memory, as
// V8's iterative JSON.parse is.
let stack = new Uint8Array(256);
function grow() {
  const next = new Uint8Array(stack.length * 2);
  next.set(stack);
  stack = next;
}

// The start after a leading BOM, which the strict TextDecoder drops before JSON.parse sees it.
const bodyStart = (b) => (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0);

/** Validates structure from a known-good UTF-8 buffer; returns its length or `~offset`. */
function validate(b) {
  const n = b.length;
  let i = bodyStart(b);
  let depth = 0;
  value: for (;;) {
    while (i < n && WS[b[i]] === 1) i++;
    if (i >= n) return ~i;
    let c = b[i];
    if (c === 0x7b) {
      i++;
      while (i < n && WS[b[i]] === 1) i++;
      if (i < n && b[i] === 0x7d) i++;
      else {
        if (i >= n || b[i] !== 0x22) return ~i;
        i = skipString(b, i + 1, n);
        if (i < 0) return i;
        while (i < n && WS[b[i]] === 1) i++;
        if (i >= n || b[i] !== 0x3a) return ~i;
        i++;
        if (depth === stack.length) grow();
        stack[depth++] = 1;
        continue value;
      }
    } else if (c === 0x5b) {
      i++;
      while (i < n && WS[b[i]] === 1) i++;
      if (i < n && b[i] === 0x5d) i++;
      else {
        if (depth === stack.length) grow();
        stack[depth++] = 2;
        continue value;
      }
    } else if (c === 0x22) {
      i = skipString(b, i + 1, n);
      if (i < 0) return i;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      i = skipNumber(b, i, n);
      if (i < 0) return i;
    } else {
      i = skipLiteral(b, i, n);
      if (i < 0) return i;
    }
    // After a value: a separator, a close, or (at depth 0) only whitespace to the end.
    for (;;) {
      while (i < n && WS[b[i]] === 1) i++;
      if (depth === 0) return i === n ? n : ~i;
      if (i >= n) return ~i;
      c = b[i];
      const top = stack[depth - 1];
      if (c === 0x2c) {
        i++;
        if (top === 1) {
          while (i < n && WS[b[i]] === 1) i++;
          if (i >= n || b[i] !== 0x22) return ~i;
          i = skipString(b, i + 1, n);
          if (i < 0) return i;
          while (i < n && WS[b[i]] === 1) i++;
          if (i >= n || b[i] !== 0x3a) return ~i;
          i++;
        }
        continue value;
      }
      if (c !== (top === 1 ? 0x7d : 0x5d)) return ~i;
      i++;
      depth--;
    }
  }
}

/**
 * Checks that `bytes` is one JSON text, as a strict UTF-8 decode plus JSON.parse would; on
 * failure, `offset` is the byte where it went wrong.
 */
export function scanJson(bytes) {
  if (!isUtf8(bytes)) return { ok: false, offset: firstBadUtf8(bytes) };
  useWords(bytes);
  const r = validate(bytes);
  return r < 0 ? { ok: false, offset: ~r } : OK;
}

// --- the skeleton ---------------------------------------------------------------------------

// What the next value is expected to be. G: anything, skipped.
const G = 0;
const W_ROOT = 1; // the document: an envelope object or a bare array of messages
const W_VERSION = 2;
const W_MESSAGES = 3;
const W_MESSAGE = 4;
const W_ROLE = 5;
const W_PARTS = 6;
const W_PART = 7;
const W_FIELD = 8; // a short string field of a part (fieldName says which)
const W_CONTENT = 9; // a tool-result's content array
const W_CPART = 10;
const W_CFIELD = 11;

// Container contexts on the stack (times 2, plus 1 for an array).
const C_GENERIC = 0;
const C_ROOT = 1;
const C_MESSAGES = 2;
const C_MESSAGE = 3;
const C_PARTS = 4;
const C_PART = 5;
const C_CONTENT = 6;
const C_CPART = 7;

const isPartField = (name) =>
  name === 'type' ||
  name === 'id' ||
  name === 'callId' ||
  name === 'name' ||
  name === 'url' ||
  name === 'mediaType' ||
  name === 'arguments';
const isCPartField = (name) =>
  name === 'type' || name === 'name' || name === 'url' || name === 'mediaType';
// Fields whose values repeat across a file (roles, part types, tool names, media types): worth
// interning, which saves a native slice call per value.
const isRepeating = (name) => name === 'type' || name === 'name' || name === 'mediaType';

// A small direct-mapped cache of ASCII strings, keyed by a hash of a few bytes; a hit is checked
// byte by byte, so a collision only costs a miss.
const CACHE_SLOTS = 512;
const cache = new Array(CACHE_SLOTS).fill('');
function intern(b, s, e) {
  const len = e - s;
  if (len === 0) return '';
  if (len > 32) return b.utf8Slice(s, e);
  const slot = (len * 31 + b[s] * 7 + b[e - 1] * 13 + b[s + (len >> 1)]) & (CACHE_SLOTS - 1);
  const hit = cache[slot];
  if (hit.length === len) {
    let k = 0;
    while (k < len && hit.charCodeAt(k) === b[s + k]) k++;
    if (k === len) return hit;
  }
  const text = b.utf8Slice(s, e);
  // Only ASCII is cached: then one char is one byte and the check above is exact.
  if (text.length === len) cache[slot] = text;
  return text;
}

// Names the key at [s, e) when it is one the skeleton reads; '' otherwise. Compares bytes (length
// and first byte pick the candidate), so no key is decoded unless it holds an escape.
function keyName(b, s, e) {
  const c = b[s];
  switch (e - s) {
    case 2:
      return c === 0x69 && b[s + 1] === 0x64 ? 'id' : '';
    case 3:
      return c === 0x75 && b[s + 1] === 0x72 && b[s + 2] === 0x6c ? 'url' : '';
    case 4: {
      const word = c === 0x72 ? 'role' : c === 0x74 ? 'type' : c === 0x6e ? 'name' : '';
      return word !== '' && rest(b, s, word) ? word : '';
    }
    case 5:
      return c === 0x70 && rest(b, s, 'parts') ? 'parts' : '';
    case 6:
      return c === 0x63 && rest(b, s, 'callId') ? 'callId' : '';
    case 7: {
      const word = c === 0x76 ? 'version' : c === 0x63 ? 'content' : '';
      return word !== '' && rest(b, s, word) ? word : '';
    }
    case 8:
      return c === 0x6d && rest(b, s, 'messages') ? 'messages' : '';
    case 9: {
      const word = c === 0x6d ? 'mediaType' : c === 0x61 ? 'arguments' : '';
      return word !== '' && rest(b, s, word) ? word : '';
    }
    default:
      return '';
  }
}
// Whether the bytes after the first match the rest of `word`.
function rest(b, s, word) {
  for (let j = 1; j < word.length; j++) if (b[s + j] !== word.charCodeAt(j)) return false;
  return true;
}

// Set by readKey: what the value after the key is expected to be, and which field it fills.
let keyWant = G;
let keyField = '';

// Reads a key from `i` (a quote expected) and its colon, inside an object of context `ctx`.
// Returns the index after the colon or `~offset`.
function readKey(b, i, n, ctx) {
  while (i < n && WS[b[i]] === 1) i++;
  if (i >= n || b[i] !== 0x22) return ~i;
  const s = i + 1;
  let j = skipString(b, s, n);
  if (j < 0) return j;
  keyWant = G;
  if (ctx !== C_GENERIC) {
    const name = escaped ? JSON.parse(b.utf8Slice(s - 1, j)) : keyName(b, s, j - 1);
    if (ctx === C_ROOT) {
      if (name === 'version') keyWant = W_VERSION;
      else if (name === 'messages') keyWant = W_MESSAGES;
    } else if (ctx === C_MESSAGE) {
      if (name === 'role') keyWant = W_ROLE;
      else if (name === 'parts') keyWant = W_PARTS;
    } else if (ctx === C_PART) {
      if (name === 'content') keyWant = W_CONTENT;
      else if (isPartField(name)) {
        keyWant = W_FIELD;
        keyField = name;
      }
    } else if (ctx === C_CPART && isCPartField(name)) {
      keyWant = W_CFIELD;
      keyField = name;
    }
  }
  while (j < n && WS[b[j]] === 1) j++;
  if (j >= n || b[j] !== 0x3a) return ~j;
  return j + 1;
}

/**
 * Validates like scanJson and, for a histlint v1 document (envelope or bare array), extracts a
 * skeleton: each message's role and each part's type and short string fields (id, callId, name,
 * url, mediaType, arguments; for tool-result content parts type, name, url, mediaType). Text
 * bodies are skipped, never decoded. `skeleton.irregular` is true when the shape is not the one
 * the fast path reads (a missing role, a non-string type, messages that are not an array...):
 * the caller then takes the full path, which reports the details.
 */
export function scanSkeleton(bytes) {
  if (!isUtf8(bytes)) return { ok: false, offset: firstBadUtf8(bytes) };
  const b = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const n = b.length;
  useWords(b);
  const skeleton = { bare: false, version: undefined, messages: [], irregular: false };
  // The objects being filled, and what closeObject checks.
  const st = { skeleton, msg: null, part: null, cpart: null, sawMessages: false, sawParts: false };
  let fieldName = '';
  let i = bodyStart(b);
  let depth = 0;
  let want = W_ROOT;

  value: for (;;) {
    while (i < n && WS[b[i]] === 1) i++;
    if (i >= n) return { ok: false, offset: i };
    let c = b[i];
    // Every path back to `value` sets `want` first.
    const w = want;
    if (c === 0x7b) {
      let ctx = C_GENERIC;
      if (w === W_ROOT) ctx = C_ROOT;
      else if (w === W_MESSAGE) {
        ctx = C_MESSAGE;
        st.msg = { role: undefined, parts: [] };
        st.sawParts = false;
        skeleton.messages.push(st.msg);
      } else if (w === W_PART) {
        ctx = C_PART;
        // Every field preset, so all parts share one shape and the stores below stay monomorphic.
        st.part = {
          type: undefined,
          id: undefined,
          callId: undefined,
          name: undefined,
          url: undefined,
          mediaType: undefined,
          arguments: undefined,
          content: undefined,
        };
        st.msg.parts.push(st.part);
      } else if (w === W_CPART) {
        ctx = C_CPART;
        st.cpart = { type: undefined, name: undefined, url: undefined, mediaType: undefined };
        st.part.content.push(st.cpart);
      } else if (w !== G && w !== W_CONTENT) skeleton.irregular = true;
      i++;
      while (i < n && WS[b[i]] === 1) i++;
      if (i < n && b[i] === 0x7d) {
        i++;
        closeObject(ctx, st);
      } else {
        i = readKey(b, i, n, ctx);
        if (i < 0) return { ok: false, offset: ~i };
        {
          want = keyWant;
          fieldName = keyField;
        }
        if (depth === stack.length) grow();
        stack[depth++] = ctx * 2;
        continue value;
      }
    } else if (c === 0x5b) {
      let ctx = C_GENERIC;
      if (w === W_ROOT) {
        ctx = C_MESSAGES;
        skeleton.bare = true;
        st.sawMessages = true;
      } else if (w === W_MESSAGES) {
        ctx = C_MESSAGES;
        skeleton.messages = [];
        st.sawMessages = true;
      } else if (w === W_PARTS) {
        ctx = C_PARTS;
        st.msg.parts = [];
        st.sawParts = true;
      } else if (w === W_CONTENT) {
        ctx = C_CONTENT;
        st.part.content = [];
      } else if (w !== G) skeleton.irregular = true;
      i++;
      while (i < n && WS[b[i]] === 1) i++;
      if (i < n && b[i] === 0x5d) i++;
      else {
        if (depth === stack.length) grow();
        stack[depth++] = ctx * 2 + 1;
        want = elementWant(ctx);
        continue value;
      }
    } else if (c === 0x22) {
      const s = i + 1;
      i = skipString(b, s, n);
      if (i < 0) return { ok: false, offset: ~i };
      if (w === W_ROLE || w === W_FIELD || w === W_CFIELD) {
        // Validated UTF-8, so a slice decodes as the full path would.
        const text = escaped
          ? JSON.parse(b.utf8Slice(s - 1, i))
          : w === W_ROLE || isRepeating(fieldName)
            ? intern(b, s, i - 1)
            : b.utf8Slice(s, i - 1);
        if (w === W_ROLE) st.msg.role = text;
        else if (w === W_FIELD) setField(st.part, fieldName, text);
        else setField(st.cpart, fieldName, text);
      } else if (w !== G && w !== W_CONTENT) skeleton.irregular = true;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const s = i;
      i = skipNumber(b, i, n);
      if (i < 0) return { ok: false, offset: ~i };
      if (w === W_VERSION) skeleton.version = Number(b.latin1Slice(s, i));
      else if (w !== G && w !== W_CONTENT) skeleton.irregular = true;
    } else {
      i = skipLiteral(b, i, n);
      if (i < 0) return { ok: false, offset: ~i };
      if (w !== G && w !== W_CONTENT) skeleton.irregular = true;
    }
    for (;;) {
      while (i < n && WS[b[i]] === 1) i++;
      if (depth === 0) {
        if (i !== n) return { ok: false, offset: i };
        return { ok: true, skeleton };
      }
      if (i >= n) return { ok: false, offset: i };
      c = b[i];
      const top = stack[depth - 1];
      const isArray = (top & 1) === 1;
      if (c === 0x2c) {
        i++;
        if (isArray) want = elementWant(top >> 1);
        else {
          i = readKey(b, i, n, top >> 1);
          if (i < 0) return { ok: false, offset: ~i };
          {
            want = keyWant;
            fieldName = keyField;
          }
        }
        continue value;
      }
      if (c !== (isArray ? 0x5d : 0x7d)) return { ok: false, offset: i };
      i++;
      depth--;
      if (!isArray) closeObject(top >> 1, st);
    }
  }
}

// A store per name, so each site sees one shape (a keyed store by a variable name would not).
function setField(o, name, text) {
  if (name === 'type') o.type = text;
  else if (name === 'id') o.id = text;
  else if (name === 'callId') o.callId = text;
  else if (name === 'name') o.name = text;
  else if (name === 'url') o.url = text;
  else if (name === 'mediaType') o.mediaType = text;
  else o.arguments = text;
}

// A known object ends: the fields the fast path relies on must have been there.
function closeObject(ctx, st) {
  if (ctx === C_ROOT) {
    if (!st.sawMessages || st.skeleton.version === undefined) st.skeleton.irregular = true;
  } else if (ctx === C_MESSAGE) {
    if (typeof st.msg.role !== 'string' || !st.sawParts) st.skeleton.irregular = true;
  } else if (ctx === C_PART) {
    if (typeof st.part.type !== 'string') st.skeleton.irregular = true;
  } else if (ctx === C_CPART) {
    if (typeof st.cpart.type !== 'string') st.skeleton.irregular = true;
  }
}

function elementWant(ctx) {
  return ctx === C_MESSAGES
    ? W_MESSAGE
    : ctx === C_PARTS
      ? W_PART
      : ctx === C_CONTENT
        ? W_CPART
        : G;
}
