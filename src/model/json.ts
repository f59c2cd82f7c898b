/**
 * A lossless JSON reader and writer.
 *
 * `JSON.parse` turns `12345678901234567890123` into a different number and
 * `JSON.stringify` recurses until the stack runs out, so the operations read
 * and write through this module instead: numbers keep their source text, the
 * parser and writer are iterative (any nesting depth), `__proto__` is an
 * ordinary own key, and errors carry the exact offset.
 */

/** A JSON number whose text would not survive a round trip through a double. */
export class JsonNumber {
  /** The number exactly as it was written in the source. */
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** The nearest double, for arithmetic. */
  valueOf(): number {
    return Number(this.text);
  }

  /** The source text. */
  toString(): string {
    return this.text;
  }

  /** `JSON.stringify` cannot emit raw text, so it falls back to the double. */
  toJSON(): number {
    return Number(this.text);
  }
}

/** Any JSON value as this module reads it. */
export type JsonValue = null | boolean | number | string | JsonNumber | JsonValue[] | JsonObject;

/** A JSON object as this module reads it. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A JSON syntax error at an offset (UTF-16 code units) of the parsed text. */
export class JsonParseError extends Error {
  /** Offset in the parsed text, in UTF-16 code units. */
  readonly offset: number;

  constructor(message: string, offset: number) {
    super(message);
    this.name = 'JsonParseError';
    this.offset = offset;
  }
}

/** Options for {@link parseJson}. */
export interface ParseJsonOptions {
  /**
   * Called for every key that repeats an earlier key of the same object (the
   * last one wins), with the key's offset and the pointer of the object.
   */
  onDuplicateKey?: (key: string, offset: number, objectPointer: string) => void;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const STRING_SPECIAL = /["\\\u0000-\u001f]/g;
const QUOTE_OR_BACKSLASH = /["\\]/g;

/** True when `c` is JSON whitespace. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Sets a key as an own data property, so `__proto__` never reaches the prototype. */
export function setOwn(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    obj[key] = value;
  }
}

/** Describes the character at `i` for an error message. */
function describeAt(text: string, i: number): string {
  if (i >= text.length) return 'end of input';
  const cp = text.codePointAt(i) ?? 0;
  if (cp < 0x20 || cp === 0x7f)
    return `character U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return `token '${String.fromCodePoint(cp)}'`;
}

/** Finds the offset of the first invalid escape or control character in a string token. */
function badStringOffset(
  text: string,
  start: number,
  end: number,
): { offset: number; message: string } {
  for (let k = start + 1; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c < 0x20) return { offset: k, message: 'Bad control character in string' };
    if (c === 0x5c) {
      const e = text.charCodeAt(k + 1);
      if (e === 0x75) {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(k + 2, k + 6))) {
          return { offset: k, message: 'Bad Unicode escape in string' };
        }
        k += 5;
      } else if ('"\\/bfnrt'.includes(String.fromCharCode(e))) {
        k += 1;
      } else {
        return { offset: k, message: 'Bad escaped character in string' };
      }
    }
  }
  return { offset: start, message: 'Bad string' };
}

/**
 * Reads the string token that starts at `start` (a quote). Returns the
 * decoded string and the offset just past the closing quote.
 */
function readString(text: string, start: number): [string, number] {
  // One native scan to the first quote, backslash or control character: linear over the file.
  STRING_SPECIAL.lastIndex = start + 1;
  const first = STRING_SPECIAL.exec(text);
  if (first === null) throw new JsonParseError('Unterminated string', start);
  let at = first.index;
  const c = text.charCodeAt(at);
  if (c === 0x22) return [text.slice(start + 1, at), at + 1];
  if (c !== 0x5c) throw new JsonParseError('Bad control character in string', at);
  // Escapes present: find the unescaped closing quote, then let the native parser decode.
  QUOTE_OR_BACKSLASH.lastIndex = at;
  for (;;) {
    const m = QUOTE_OR_BACKSLASH.exec(text);
    if (m === null) throw new JsonParseError('Unterminated string', start);
    at = m.index;
    if (text.charCodeAt(at) === 0x22) break;
    QUOTE_OR_BACKSLASH.lastIndex = at + 2;
  }
  const token = text.slice(start, at + 1);
  try {
    return [JSON.parse(token) as string, at + 1];
  } catch {
    const bad = badStringOffset(text, start, at);
    throw new JsonParseError(bad.message, bad.offset);
  }
}

/** Reads the number token at `start`. */
function readNumber(text: string, start: number): [number | JsonNumber, number] {
  NUMBER.lastIndex = start;
  const m = NUMBER.exec(text);
  if (m === null) throw new JsonParseError(`Unexpected ${describeAt(text, start)}`, start);
  const raw = m[0];
  const n = Number(raw);
  return [String(n) === raw ? n : new JsonNumber(raw), start + raw.length];
}

interface Frame {
  container: JsonValue[] | JsonObject;
  isArray: boolean;
  key: string;
}

/**
 * Parses JSON text without losing number text, without recursion, and
 * with `__proto__` kept as an own key. Throws {@link JsonParseError}.
 */
export function parseJson(text: string, options: ParseJsonOptions = {}): JsonValue {
  const n = text.length;
  const onDup = options.onDuplicateKey;
  const stack: Frame[] = [];
  let i = 0;

  // The pointer of the innermost open container (only built when a duplicate is found).
  const pointerOfTop = (): string => {
    let out = '';
    for (let k = 0; k < stack.length - 1; k++) {
      const f = stack[k]!;
      const token = f.isArray ? String((f.container as JsonValue[]).length) : f.key;
      out += '/' + token.replace(/~/g, '~0').replace(/\//g, '~1');
    }
    return out;
  };
  const skip = (): void => {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
  };
  const readKey = (frame: Frame): void => {
    skip();
    if (text.charCodeAt(i) !== 0x22) {
      throw new JsonParseError(
        i >= n
          ? 'Unexpected end of JSON input'
          : `Expected a property name, found ${describeAt(text, i)}`,
        i,
      );
    }
    const keyStart = i;
    const [key, next] = readString(text, i);
    i = next;
    skip();
    if (text.charCodeAt(i) !== 0x3a) {
      throw new JsonParseError(
        i >= n
          ? 'Unexpected end of JSON input'
          : `Expected ':' after a property name, found ${describeAt(text, i)}`,
        i,
      );
    }
    i++;
    if (onDup !== undefined && Object.prototype.hasOwnProperty.call(frame.container, key)) {
      onDup(key, keyStart, pointerOfTop());
    }
    frame.key = key;
  };

  for (;;) {
    // Read one value.
    skip();
    if (i >= n) throw new JsonParseError('Unexpected end of JSON input', i);
    const c = text.charCodeAt(i);
    let value: JsonValue;
    if (c === 0x7b) {
      i++;
      const obj: JsonObject = {};
      skip();
      if (text.charCodeAt(i) === 0x7d) {
        i++;
        value = obj;
      } else {
        const frame: Frame = { container: obj, isArray: false, key: '' };
        stack.push(frame);
        readKey(frame);
        continue;
      }
    } else if (c === 0x5b) {
      i++;
      const arr: JsonValue[] = [];
      skip();
      if (text.charCodeAt(i) === 0x5d) {
        i++;
        value = arr;
      } else {
        stack.push({ container: arr, isArray: true, key: '' });
        continue;
      }
    } else if (c === 0x22) {
      [value, i] = readString(text, i);
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      [value, i] = readNumber(text, i);
    } else if (text.startsWith('true', i)) {
      value = true;
      i += 4;
    } else if (text.startsWith('false', i)) {
      value = false;
      i += 5;
    } else if (text.startsWith('null', i)) {
      value = null;
      i += 4;
    } else {
      throw new JsonParseError(`Unexpected ${describeAt(text, i)}`, i);
    }

    // Hand the value to its container, closing containers as they end.
    for (;;) {
      const frame = stack[stack.length - 1];
      if (frame === undefined) {
        skip();
        if (i < n) {
          throw new JsonParseError(`Unexpected ${describeAt(text, i)} after the JSON value`, i);
        }
        return value;
      }
      if (frame.isArray) (frame.container as JsonValue[]).push(value);
      else setOwn(frame.container as JsonObject, frame.key, value);
      skip();
      const d = text.charCodeAt(i);
      if (d === 0x2c) {
        i++;
        if (!frame.isArray) readKey(frame);
        break;
      }
      if (d === (frame.isArray ? 0x5d : 0x7d)) {
        i++;
        stack.pop();
        value = frame.container;
        continue;
      }
      throw new JsonParseError(
        i >= n
          ? 'Unexpected end of JSON input'
          : `Expected ',' or '${frame.isArray ? ']' : '}'}', found ${describeAt(text, i)}`,
        i,
      );
    }
  }
}

interface WriteFrame {
  value: JsonValue[] | JsonObject;
  keys: string[] | null;
  index: number;
}

/**
 * Writes a value as JSON without recursion. `indent` 0 gives compact
 * output; otherwise the layout is `JSON.stringify(value, null, indent)`'s.
 * {@link JsonNumber}s are written as their source text.
 */
export function stringifyJson(value: JsonValue, indent = 2): string {
  // For a container without JsonNumbers, JSON.stringify writes the same text several times
  // faster. It recurses, so a value nested deeper than the stack allows takes the writer below.
  if (typeof value === 'object' && value !== null && !(value instanceof JsonNumber)) {
    if (!containsJsonNumber(value)) {
      try {
        return JSON.stringify(value, null, indent);
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
      }
    }
  }
  return writeJson(value, indent);
}

/** True when a JsonNumber is anywhere inside `value` (an iterative walk: any depth). */
function containsJsonNumber(value: JsonValue[] | JsonObject): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (v instanceof JsonNumber) return true;
    if (Array.isArray(v)) {
      for (let k = 0; k < v.length; k++) {
        const x: unknown = v[k];
        if (typeof x === 'object' && x !== null) stack.push(x);
      }
    } else {
      for (const k in v) {
        const x: unknown = (v as Record<string, unknown>)[k];
        if (typeof x === 'object' && x !== null) stack.push(x);
      }
    }
  }
  return false;
}

/** The iterative writer behind {@link stringifyJson}. */
function writeJson(value: JsonValue, indent: number): string {
  const out: string[] = [];
  const pad = indent > 0 ? ' '.repeat(indent) : '';
  const colon = indent > 0 ? ': ' : ':';
  const stack: WriteFrame[] = [];
  const newline = (depth: number): void => {
    if (indent > 0) out.push('\n' + pad.repeat(depth));
  };

  const writeScalar = (v: JsonValue | undefined, inArray: boolean): boolean => {
    if (v === null) out.push('null');
    else if (typeof v === 'string') out.push(JSON.stringify(v));
    else if (typeof v === 'number') out.push(Number.isFinite(v) ? String(v) : 'null');
    else if (typeof v === 'boolean') out.push(v ? 'true' : 'false');
    else if (v instanceof JsonNumber) out.push(v.text);
    else if (v === undefined || typeof v !== 'object') {
      // Values JSON cannot hold: dropped from objects, null in arrays (as JSON.stringify does).
      if (inArray) out.push('null');
      else return false;
    } else return false;
    return true;
  };

  // Opens a container; returns false when it is empty and was written whole.
  const open = (v: JsonValue[] | JsonObject): void => {
    if (Array.isArray(v)) {
      if (v.length === 0) {
        out.push('[]');
        return;
      }
      out.push('[');
      stack.push({ value: v, keys: null, index: 0 });
    } else {
      const keys = Object.keys(v).filter((k) => isWritable(v[k]));
      if (keys.length === 0) {
        out.push('{}');
        return;
      }
      out.push('{');
      stack.push({ value: v, keys, index: 0 });
    }
  };

  const writeValue = (v: JsonValue | undefined, inArray: boolean): void => {
    if (!writeScalar(v, inArray)) open(v as JsonValue[] | JsonObject);
  };

  writeValue(value, true);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const depth = stack.length;
    if (frame.keys === null) {
      const arr = frame.value as JsonValue[];
      if (frame.index >= arr.length) {
        stack.pop();
        newline(depth - 1);
        out.push(']');
        continue;
      }
      if (frame.index > 0) out.push(',');
      newline(depth);
      writeValue(arr[frame.index++], true);
    } else {
      const keys = frame.keys;
      if (frame.index >= keys.length) {
        stack.pop();
        newline(depth - 1);
        out.push('}');
        continue;
      }
      if (frame.index > 0) out.push(',');
      newline(depth);
      const key = keys[frame.index++]!;
      out.push(JSON.stringify(key) + colon);
      writeValue((frame.value as JsonObject)[key], false);
    }
  }
  return out.join('');
}

/** True when a property value is written (JSON.stringify skips undefined and functions). */
function isWritable(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}

/** Deep equality of two JSON values, iterative; {@link JsonNumber}s compare by text. */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  const stack: [JsonValue, JsonValue][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (x instanceof JsonNumber || y instanceof JsonNumber) {
      if (!(x instanceof JsonNumber && y instanceof JsonNumber && x.text === y.text)) return false;
      continue;
    }
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) {
      if (typeof x === 'number' && typeof y === 'number' && Number.isNaN(x) && Number.isNaN(y))
        continue;
      return false;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ya = y as JsonValue[];
      if (x.length !== ya.length) return false;
      for (let k = 0; k < x.length; k++) stack.push([x[k]!, ya[k]!]);
    } else {
      const xo = x as JsonObject;
      const yo = y as JsonObject;
      const xk = Object.keys(xo);
      if (xk.length !== Object.keys(yo).length) return false;
      for (const k of xk) {
        if (!Object.prototype.hasOwnProperty.call(yo, k)) return false;
        stack.push([xo[k]!, yo[k]!]);
      }
    }
  }
  return true;
}
