/**
 * Units: the bytes of a stored file as the texts histlint parses. One JSON text, or JSONL: one
 * text per line, with `\n` or `\r\n` line ends, a UTF-8 byte order mark before the first, blank
 * lines, and lines whose bytes are not UTF-8 or too long for one string. The engine, the worker
 * tasks, `lint --fix` and the document reader (and so every command that reads one, `show` too)
 * split lines here; cutting a file into ranges for the workers only looks for a line end.
 */
import { SourceError } from '../../model/errors.js';
import type { JsonValue } from '../../model/json.js';

const DECODER = new TextDecoder('utf-8', { fatal: true });

/** A JSONL line end as written: `\n`, `\r\n`, or none (the last line). */
export type LineEnd = '' | '\n' | '\r\n';

/**
 * Calls `visit` for each line of JSONL bytes from offset `from` (the first line numbered
 * `first`): the line is `bytes[start, end)` without its `\n` but with a `\r` before it, `eol`
 * says how it ended; `visit` returning `false` stops. A final line end starts no line. Returns
 * the number of lines visited.
 */
export function eachByteLine(
  bytes: Uint8Array,
  visit: (start: number, end: number, eol: LineEnd, line: number) => boolean | void,
  from = 0,
  first = 1,
): number {
  let line = first;
  for (let start = from; start < bytes.length;) {
    const nl = bytes.indexOf(10, start);
    const end = nl === -1 ? bytes.length : nl;
    const eol: LineEnd = nl === -1 ? '' : end > start && bytes[end - 1] === 0x0d ? '\r\n' : '\n';
    const stop = visit(start, end, eol, line) === false;
    line++;
    if (stop) break;
    start = end + 1;
  }
  return line - first;
}

/**
 * Calls `visit` for each line of a JSONL text: the line without its line end (`\r\n` or `\n`),
 * how it ended, and its 1-based number; `visit` returning `false` stops. A final line end
 * starts no line.
 */
export function eachTextLine(
  text: string,
  visit: (raw: string, eol: LineEnd, line: number) => boolean | void,
): void {
  let start = 0;
  let line = 1;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    let raw = text.slice(start, end);
    let eol: LineEnd = nl === -1 ? '' : '\n';
    if (nl !== -1 && raw.endsWith('\r')) {
      raw = raw.slice(0, -1);
      eol = '\r\n';
    }
    if (visit(raw, eol, line++) === false) return;
    start = end + 1;
  }
}

/** True for a line that holds no JSON text: only spaces, tabs and carriage returns. */
export function isBlankLine(text: string): boolean {
  return /^[ \t\r]*$/.test(text);
}

/**
 * The text of one line's bytes, a final `\r` dropped; `undefined` for a blank line; `null` for
 * bytes that are not UTF-8.
 */
export function lineText(bytes: Uint8Array): string | undefined | null {
  let text: string;
  try {
    text = DECODER.decode(bytes);
  } catch {
    return null;
  }
  if (text.endsWith('\r')) text = text.slice(0, -1);
  return isBlankLine(text) ? undefined : text;
}

/**
 * The value of the first line of `bytes` that is JSON (UTF-8, not blank, and parses), or
 * undefined: what tells a JSONL file that is one event log, as the file commands decide it from
 * the first line they read (a session whose first line a crash or an edit broke is still one).
 */
export function firstJsonValue(bytes: Uint8Array): JsonValue | undefined {
  let first: JsonValue | undefined;
  eachByteLine(bytes, (start, end) => {
    const text = lineText(bytes.subarray(start, end));
    if (typeof text === 'string') first = jsonOrUndefined(text);
    return first === undefined;
  });
  return first;
}

/** The JSON value `text` is, or undefined when it is none. */
export function jsonOrUndefined(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/**
 * The text of the first non-blank line of `bytes` from offset `from` (see {@link lineText}), or
 * undefined when there is none, or when that line is not UTF-8 or longer than `limit` bytes.
 */
export function firstTextLine(bytes: Uint8Array, from = 0, limit = Infinity): string | undefined {
  let first: string | undefined;
  eachByteLine(
    bytes,
    (start, end) => {
      if (end - start > limit) return false;
      const text = lineText(bytes.subarray(start, end));
      if (text === undefined) return true;
      first = text ?? undefined;
      return false;
    },
    from,
  );
  return first;
}

/** Reads up to `length` bytes into `buffer` at `offset`; 0 at the end. */
export type ReadInto = (buffer: Buffer, offset: number, length: number) => number;

/**
 * Reads a stream of JSONL bytes in chunks of `chunk` bytes and calls `onLine` with each line's
 * bytes (without its `\n`) and its 0-based index. A line longer than `limit` goes to `onLong`
 * with its length instead and is never joined, so memory stays bounded. Returns the number of
 * lines and of bytes read.
 */
export function readLines(
  read: ReadInto,
  buffer: Buffer,
  limit: number,
  onLine: (bytes: Uint8Array, index: number) => void,
  onLong: (bytes: number, index: number) => void,
): { lines: number; bytes: number } {
  const splitter = new LineSplitter(limit, onLine, onLong);
  for (;;) {
    const bytesRead = read(buffer, 0, buffer.length);
    if (bytesRead === 0) break;
    // Only this read's bytes: a pipe fills a little of the buffer, the rest is an older read.
    splitter.push(buffer.subarray(0, bytesRead));
  }
  return splitter.end();
}

/**
 * {@link readLines} for bytes that arrive in chunks of any size (a pipe read in order, a file
 * read asynchronously): each {@link push}ed chunk's complete lines go to `onLine` at once (its
 * `ended` is false only for a last line without a line end), the rest waits for the next chunk;
 * {@link end} gives the last line. The bytes passed to `onLine` are valid only during the call.
 */
export class LineSplitter {
  // A line that spans chunks is kept as pieces and joined once at its end: joining at every
  // chunk copied a 256 MB line 256 times over (34 s).
  private pieces: Buffer[] = [];
  private carried = 0;
  private tooLong = false;
  private index = 0;
  private bytes = 0;

  constructor(
    private readonly limit: number,
    private readonly onLine: (bytes: Uint8Array, index: number, ended: boolean) => void,
    private readonly onLong: (bytes: number, index: number, ended: boolean) => void,
  ) {}

  private endLine(last: Uint8Array, ended: boolean): void {
    const length = this.carried + last.length;
    if (this.tooLong || length > this.limit) this.onLong(length, this.index++, ended);
    else
      this.onLine(
        this.pieces.length === 0 ? last : Buffer.concat([...this.pieces, last], length),
        this.index++,
        ended,
      );
    if (this.carried === 0) return;
    this.pieces = [];
    this.carried = 0;
    this.tooLong = false;
  }

  /** Splits the next chunk of the stream. */
  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      if (nl === -1) break;
      this.endLine(chunk.subarray(from, nl), true);
      from = nl + 1;
    }
    if (from < chunk.length) {
      this.carried += chunk.length - from;
      if (this.carried > this.limit) {
        this.tooLong = true;
        this.pieces = [];
      } else if (!this.tooLong) this.pieces.push(Buffer.from(chunk.subarray(from)));
    }
  }

  /** Ends the stream: its last line, when it has no line end; returns the lines and bytes seen. */
  end(): { lines: number; bytes: number } {
    if (this.carried > 0) this.endLine(new Uint8Array(0), false);
    return { lines: this.index, bytes: this.bytes };
  }
}

// ---------------------------------------------------------------------------
// Encodings

/** The length of a UTF-8 byte order mark at the start of `bytes` (3), or 0. */
export function utf8BomLength(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/** True for bytes that start with a UTF-16 byte order mark: not UTF-8 anywhere, not even line by line. */
export function startsWithUtf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/** The one-line error for a file that starts with a UTF-16 byte order mark. */
export function utf16Error(): SourceError {
  return new SourceError(
    'not UTF-8: the file starts with a UTF-16 byte order mark; save it as UTF-8',
    { line: 1, column: 1 },
  );
}

/** Byte offset of the first byte that does not belong to valid UTF-8, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= n) return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/**
 * The positioned error for bytes that are not UTF-8 (`firstLine` is the number of their first
 * line): the line and column of the first bad byte, counted as an editor shows them.
 */
export function invalidUtf8(bytes: Uint8Array, firstLine: number): SourceError {
  const at = firstInvalidUtf8(bytes);
  const offset = at === -1 ? 0 : at;
  let lineStart = 0;
  let line = firstLine;
  for (let k = 0; k < offset; k++) {
    if (bytes[k] === 0x0a) {
      line++;
      lineStart = k + 1;
    }
  }
  const prefix = DECODER.decode(bytes.subarray(lineStart, offset));
  // The decoder drops a leading BOM, so the column counts what an editor shows.
  const column = prefix.length + 1;
  const hex = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
  return new SourceError(`not UTF-8: invalid byte 0x${hex}`, { line, column });
}
