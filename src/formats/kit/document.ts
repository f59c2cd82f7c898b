/**
 * Stored documents: bytes to text (strict UTF-8), text to JSON or JSONL
 * units, and back, keeping everything a later write must reproduce (BOM,
 * line ends, untouched JSONL lines byte for byte).
 */
import { SourceError } from '../../model/errors.js';
import { JsonParseError, parseJson, stringifyJson, type JsonValue } from '../../model/json.js';
import { LineIndex } from '../../model/positions.js';
import {
  isTooLong,
  longFileMessage,
  longLinesMessage,
  maxTextBytes,
} from '../../model/text-limit.js';
import {
  eachByteLine,
  eachTextLine,
  LineSplitter,
  firstInvalidUtf8,
  firstTextLine,
  invalidUtf8,
  isBlankLine,
  startsWithUtf16Bom,
  utf16Error,
  utf8BomLength,
  type LineEnd,
} from './units.js';

/** One JSON text of a document: the whole file, or one JSONL line. */
export interface SourceUnit {
  /** 1-based JSONL line number; absent for a JSON file. */
  line?: number;
  /** The unit's text. */
  text: string;
  /** The parsed value, when the text is valid JSON. */
  value?: JsonValue;
  /** Why the text could not be parsed; `line`/`column` are in the file. */
  error?: SourceError;
}

/** One physical line of a JSONL file. */
export interface JsonlLine {
  raw: string;
  eol: string;
  /** Index into `units`, for a line that holds JSON. */
  unit?: number;
  /** The line was too long to read (`raw` is empty): the document cannot be written back. */
  unread?: true;
}

/** A decoded, parsed document. */
export interface SourceDocument {
  kind: 'json' | 'jsonl';
  /** The file started with a UTF-8 byte order mark (kept on write). */
  bom: boolean;
  /** Line end of a JSON file's layout on write. */
  eol: '\n' | '\r\n';
  units: SourceUnit[];
  /** For JSONL: every physical line, blank ones included. */
  lines: JsonlLine[];
}

const DECODER = new TextDecoder('utf-8', { fatal: true });
/** A line's decoder: a BOM that starts a later line is a character of it, kept on write. */
const LINE_DECODER = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes strict UTF-8; a BOM is stripped and reported. Throws {@link SourceError} with the position of a bad byte. */
export function decodeUtf8(bytes: Uint8Array): { text: string; bom: boolean } {
  if (startsWithUtf16Bom(bytes)) throw utf16Error();
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    return { text: DECODER.decode(bytes), bom };
  } catch {
    // Valid bytes that still fail are too many for one string: say so, not "invalid byte".
    if (isTooLong(bytes.length) && firstInvalidUtf8(bytes) === -1)
      throw new SourceError(longFileMessage(bytes.length));
    throw invalidUtf8(bytes, 1);
  }
}

/** Converts a parse error at an offset of `text` into a positioned {@link SourceError}. */
function parseErrorAt(error: JsonParseError, text: string, lineNumber?: number): SourceError {
  const pos = new LineIndex(text).position(error.offset);
  return new SourceError(
    error.message,
    lineNumber === undefined ? pos : { line: lineNumber, column: pos.column },
  );
}

/** Parses one unit's text; returns the unit with a value or an error. */
export function parseUnit(text: string, line?: number): SourceUnit {
  const unit: SourceUnit = { text };
  if (line !== undefined) unit.line = line;
  try {
    unit.value = parseJson(text);
  } catch (e) {
    if (!(e instanceof JsonParseError)) throw e;
    unit.error = parseErrorAt(e, text, line);
  }
  return unit;
}

/** Splits decoded text into a JSON or JSONL document and parses its units. */
export function parseDocument(text: string, bom: boolean, kind: 'json' | 'jsonl'): SourceDocument {
  if (kind === 'json') {
    const eol = /\r\n/.test(text.slice(0, text.indexOf('\n') + 1)) ? '\r\n' : '\n';
    return { kind, bom, eol, units: [parseUnit(text)], lines: [] };
  }
  const units: SourceUnit[] = [];
  const lines: JsonlLine[] = [];
  eachTextLine(text, (raw, eol, number) => {
    const line: JsonlLine = { raw, eol };
    if (!isBlankLine(raw)) {
      line.unit = units.length;
      units.push(parseUnit(raw, number));
    }
    lines.push(line);
  });
  return { kind, bom, eol: '\n', units, lines };
}

/** Decides JSON or JSONL for input without a telling name: JSONL when the whole is not one JSON value but its first line is. */
export function guessKind(text: string): 'json' | 'jsonl' {
  try {
    parseJson(text);
    return 'json';
  } catch {
    const lines: string[] = [];
    eachTextLine(text, (raw) => {
      if (raw.trim() !== '') lines.push(raw);
      return lines.length < 2;
    });
    if (lines.length < 2) return 'json';
    try {
      parseJson(lines[0]!);
      return 'jsonl';
    } catch {
      return 'json';
    }
  }
}

/** The document kind a file name implies. */
export function kindFromName(name: string): 'json' | 'jsonl' | undefined {
  // Only the end of the name matters: lower-casing a whole path per file showed in profiles.
  const lower = name.slice(-7).toLowerCase();
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  if (lower.endsWith('.json')) return 'json';
  return undefined;
}

/**
 * JSON or JSONL for an input's bytes, as every command decides it for standard input: the name's
 * extension when it tells (`--stdin-filename x.jsonl`), else {@link guessKind} of the text (for
 * bytes too long to be one string: JSONL when the first line is JSON). {@link readDocument} without
 * a kind decides the same way.
 */
export function inputKind(bytes: Uint8Array, name?: string): 'json' | 'jsonl' {
  const named = name === undefined ? undefined : kindFromName(name);
  if (named !== undefined) return named;
  if (startsWithUtf16Bom(bytes)) return 'json';
  if (isTooLong(bytes.length)) return firstLineIsJson(bytes) ? 'jsonl' : 'json';
  try {
    return guessKind(decodeUtf8(bytes).text);
  } catch {
    // Not UTF-8: read as JSON, whose reader names the bad bytes.
    return 'json';
  }
}

/**
 * Reads bytes into a document. Throws {@link SourceError} for bytes that are
 * not UTF-8, and for a JSON text too long to become a string. Bytes over that
 * limit are read as JSONL line by line, so only a line over it fails (as its
 * own unit); without a kind they are JSONL when their first line is JSON.
 */
export function readDocument(bytes: Uint8Array, kind?: 'json' | 'jsonl'): SourceDocument {
  if (isTooLong(bytes.length)) {
    if (startsWithUtf16Bom(bytes)) throw utf16Error();
    if (kind === 'jsonl' || (kind === undefined && firstLineIsJson(bytes)))
      return readJsonlBytes(bytes);
    throw new SourceError(longFileMessage(bytes.length));
  }
  const { text, bom } = decodeUtf8(bytes);
  return parseDocument(text, bom, kind ?? guessKind(text));
}

/** True when the first non-blank line of the bytes (after a BOM) is a JSON text. */
function firstLineIsJson(bytes: Uint8Array): boolean {
  const text = firstTextLine(bytes, utf8BomLength(bytes), maxTextBytes());
  return text !== undefined && parseUnit(text).error === undefined;
}

/**
 * {@link parseDocument} for JSONL bytes, decoding line by line: the whole is
 * too long for one string. A line over the limit becomes a unit with an error
 * and a line without its text.
 */
function readJsonlBytes(bytes: Uint8Array): SourceDocument {
  const bom = utf8BomLength(bytes);
  const units: SourceUnit[] = [];
  const lines: JsonlLine[] = [];
  eachByteLine(
    bytes,
    (start, end, eol, number) => {
      // A line's length is what stands before its \n, as lint counts it.
      const read = isTooLong(end - start)
        ? unreadLine(number, end - start)
        : readJsonlLine(bytes.subarray(start, end), eol, number);
      const line: JsonlLine = { raw: read.raw, eol };
      if (read.unit !== undefined) {
        line.unit = units.length;
        units.push(read.unit);
      }
      if (read.unread === true) line.unread = true;
      lines.push(line);
    },
    bom,
  );
  return { kind: 'jsonl', bom: bom > 0, eol: '\n', units, lines };
}

/** One JSONL line as read: its text without the line end, and its unit unless it is blank. */
interface ReadLine {
  raw: string;
  unit?: SourceUnit;
  unread?: true;
}

/**
 * Reads one JSONL line's bytes (`piece`: without its `\n`, with a `\r` before it): decoded
 * strictly, a BOM at its start kept, parsed unless blank. Throws {@link SourceError} for bytes
 * that are not UTF-8, with their position in the file.
 */
function readJsonlLine(piece: Uint8Array, eol: LineEnd, number: number): ReadLine {
  // The line as written, but its line end (a BOM at its start too): unchanged, it is written
  // back byte for byte.
  let raw: string;
  try {
    raw = LINE_DECODER.decode(eol === '\r\n' ? piece.subarray(0, piece.length - 1) : piece);
  } catch {
    throw invalidUtf8(piece, number);
  }
  return isBlankLine(raw) ? { raw } : { raw, unit: parseUnit(raw, number) };
}

/** A line over the limit: a unit with the error that names it, and no text. */
function unreadLine(number: number, bytes: number): ReadLine {
  const message = longLinesMessage([{ line: number, bytes }]);
  return {
    raw: '',
    unread: true,
    unit: { line: number, text: '', error: new SourceError(message, { line: number, column: 1 }) },
  };
}

/** One line of a JSONL stream, as {@link JsonlReader} reads it. */
export interface StreamedLine {
  /** 1-based line number. */
  number: number;
  /** The line's bytes without its `\n` (a `\r` before it kept); empty for an unread line. Valid only during the call. */
  bytes: Uint8Array;
  eol: LineEnd;
  /** Where the line starts in the stream, in bytes (a BOM counted). */
  offset: number;
  /** The line's unit (its text parsed, or why it could not be read); absent for a blank line. */
  unit?: SourceUnit;
  /** The line was too long to read: a document without it cannot be written. */
  unread?: true;
}

/**
 * Reads JSONL bytes as they arrive, one line at a time, with the answers {@link readDocument}
 * gives for the whole (BOM, line ends, numbers, long lines, positions of bad bytes), holding no
 * more than the line being read. {@link push} and {@link end} throw {@link SourceError} for bytes
 * that are not UTF-8 (the rest is then unread).
 */
export class JsonlReader {
  /** The stream started with a UTF-8 byte order mark (known once the first line is read). */
  bom = false;
  private head: Uint8Array | undefined = new Uint8Array(0);
  private offset = 0;
  private readonly splitter: LineSplitter;

  constructor(onLine: (line: StreamedLine) => void) {
    const lineAt = (bytes: Uint8Array, index: number, ended: boolean): StreamedLine => {
      const offset = this.offset;
      this.offset += bytes.length + (ended ? 1 : 0);
      const eol: LineEnd = !ended
        ? ''
        : bytes.length > 0 && bytes[bytes.length - 1] === 0x0d
          ? '\r\n'
          : '\n';
      return { number: index + 1, bytes, eol, offset };
    };
    this.splitter = new LineSplitter(
      maxTextBytes(),
      (bytes, index, ended) => {
        const line = lineAt(bytes, index, ended);
        const read = readJsonlLine(bytes, line.eol, line.number);
        if (read.unit !== undefined) line.unit = read.unit;
        onLine(line);
      },
      (length, index, ended) => {
        const line = lineAt(new Uint8Array(0), index, ended);
        this.offset += length;
        const read = unreadLine(line.number, length);
        onLine({ ...line, unit: read.unit!, unread: true });
      },
    );
  }

  /** Reads the next chunk of the stream. */
  push(chunk: Uint8Array): void {
    if (this.head === undefined) return this.splitter.push(chunk);
    // The first three bytes decide the byte order mark, however the stream cuts them.
    const head: Uint8Array = Buffer.concat([this.head, chunk]);
    if (head.length < 3) {
      this.head = head;
      return;
    }
    this.start(head);
  }

  private start(head: Uint8Array): void {
    this.head = undefined;
    if (startsWithUtf16Bom(head)) throw utf16Error();
    const bom = utf8BomLength(head);
    this.bom = bom > 0;
    this.offset = bom;
    this.splitter.push(head.subarray(bom));
  }

  /** Ends the stream (its last line, when it has no line end); returns its length in bytes. */
  end(): number {
    if (this.head !== undefined) this.start(this.head);
    this.splitter.end();
    return this.offset;
  }
}

/**
 * Decides, from the first lines of a stream without a telling name, whether it is JSONL that
 * can be read line by line ('jsonl': its first non-blank line is a JSON text and another
 * non-blank line follows, so the whole is no JSON text, and both {@link guessKind} and the
 * reader of long inputs call it JSONL) or must be read whole ('whole': {@link readDocument} then
 * decides, as for any input). Anything unusual in those lines (bytes that are not UTF-8, a line
 * too long, a line blank only to `String.prototype.trim`) is left to the whole reading too.
 */
export class KindProbe {
  /** Undefined until decided. */
  kind: 'jsonl' | 'whole' | undefined;
  private firstSeen = false;
  private readonly splitter = new LineSplitter(
    maxTextBytes(),
    (bytes, index, ended) => this.line(bytes, index, ended),
    () => this.decide(this.firstSeen ? 'jsonl' : 'whole'),
  );

  private decide(kind: 'jsonl' | 'whole'): void {
    this.kind ??= kind;
  }

  private line(bytes: Uint8Array, index: number, ended: boolean): void {
    if (this.kind !== undefined) return;
    if (index === 0) {
      if (startsWithUtf16Bom(bytes)) return this.decide('whole');
      bytes = bytes.subarray(utf8BomLength(bytes));
    }
    let text: string;
    try {
      text = LINE_DECODER.decode(bytes);
    } catch {
      return this.decide('whole');
    }
    if (ended && text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') {
      if (!isBlankLine(text) && !this.firstSeen) this.decide('whole');
      return;
    }
    if (this.firstSeen) return this.decide('jsonl');
    this.firstSeen = true;
    if (parseUnit(text).error !== undefined) this.decide('whole');
  }

  /** Looks at the next chunk; returns the decision, if made. */
  push(chunk: Uint8Array): 'jsonl' | 'whole' | undefined {
    if (this.kind === undefined) this.splitter.push(chunk);
    return this.kind;
  }

  /** At the end of the stream: the decision. */
  end(): 'jsonl' | 'whole' {
    if (this.kind === undefined) this.splitter.end();
    this.decide('whole');
    return this.kind!;
  }
}

/**
 * Writes a document back. `values` holds a new value for each unit that
 * changed; other JSONL lines stay byte for byte, a JSON file is laid out
 * with 2-space indent and a final line end.
 */
export function serializeDocument(
  doc: SourceDocument,
  values: ReadonlyMap<number, JsonValue>,
): string {
  const bom = doc.bom ? '\uFEFF' : '';
  if (doc.kind === 'json') {
    const value = values.has(0) ? values.get(0)! : doc.units[0]!.value!;
    const body = stringifyJson(value, 2);
    return bom + (doc.eol === '\n' ? body : body.replace(/\n/g, '\r\n')) + doc.eol;
  }
  const out: string[] = [bom];
  for (const line of doc.lines) {
    // Never write a document without a line it could not read.
    if (line.unread === true) throw doc.units[line.unit!]!.error!;
    const changed = line.unit !== undefined && values.has(line.unit);
    out.push(changed ? stringifyJson(values.get(line.unit!)!, 0) : line.raw, line.eol);
  }
  return out.join('');
}

/**
 * Writes an event log (a session JSONL file, one event a line) back with `events`, the events a
 * session format's writer returns in file order (SPEC §5.1): an event that is the very value read
 * (`===`) is written as its line was, byte for byte; any other is a new line of compact JSON with
 * the file's line end, in the place of the line of an event not written as read (changed, or
 * gone) when one comes next. Blank lines stay between the lines they were between; the lines of
 * events not written are gone.
 */
export function serializeEventLog(doc: SourceDocument, events: readonly JsonValue[]): string {
  // The lines of each value read, in file order (an object is known by itself, not its content).
  const linesOf = new Map<JsonValue, number[]>();
  doc.lines.forEach((line, k) => {
    if (line.unread === true) throw doc.units[line.unit!]!.error!;
    const value = line.unit === undefined ? undefined : doc.units[line.unit]!.value;
    if (value === undefined) return;
    const list = linesOf.get(value);
    if (list === undefined) linesOf.set(value, [k]);
    else list.push(k);
  });
  const eol = doc.lines.find((l) => l.eol !== '')?.eol ?? '\n';
  const out: string[] = [doc.bom ? '\uFEFF' : ''];
  let next = 0;
  // The last line written has no line end (the file's last line had none): one goes before more.
  let open = false;
  const emit = (text: string, end: string): void => {
    if (open) out.push(eol);
    out.push(text, end);
    open = end === '';
  };
  // A line no event was read from (blank, or not JSON: a log read without it) stays where it was.
  const passTo = (end: number): void => {
    for (; next < end; next++) {
      const line = doc.lines[next]!;
      if (line.unit === undefined || doc.units[line.unit]!.value === undefined)
        emit(line.raw, line.eol);
    }
  };
  const written = new Set(events);
  for (const event of events) {
    const list = linesOf.get(event);
    while (list !== undefined && list.length > 0 && list[0]! < next) list.shift();
    const k = list?.shift();
    if (k === undefined) {
      // A new line takes the place of the next event line not written as it was (a changed
      // event, or one gone), after the blank lines before it: they stay between their lines.
      let j = next;
      while (j < doc.lines.length && doc.units[doc.lines[j]!.unit ?? -1]?.value === undefined) j++;
      const value = j < doc.lines.length ? doc.units[doc.lines[j]!.unit!]!.value! : undefined;
      if (value !== undefined && !written.has(value)) {
        passTo(j);
        next = j + 1;
      }
      emit(stringifyJson(event, 0), eol);
      continue;
    }
    passTo(k);
    const line = doc.lines[k]!;
    emit(line.raw, line.eol);
    next = k + 1;
  }
  passTo(doc.lines.length);
  return out.join('');
}
