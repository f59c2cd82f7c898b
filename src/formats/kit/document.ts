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
  firstInvalidUtf8,
  firstTextLine,
  invalidUtf8,
  isBlankLine,
  startsWithUtf16Bom,
  utf16Error,
  utf8BomLength,
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
      if (isTooLong(end - start)) {
        const message = longLinesMessage([{ line: number, bytes: end - start }]);
        lines.push({ raw: '', eol, unit: units.length, unread: true });
        units.push({
          line: number,
          text: '',
          error: new SourceError(message, { line: number, column: 1 }),
        });
        return;
      }
      // The line as written, but its line end (a BOM at its start too): unchanged, it is written
      // back byte for byte.
      const piece = bytes.subarray(start, eol === '\r\n' ? end - 1 : end);
      let raw: string;
      try {
        raw = LINE_DECODER.decode(piece);
      } catch {
        throw invalidUtf8(bytes.subarray(start, end), number);
      }
      const line: JsonlLine = { raw, eol };
      if (!isBlankLine(raw)) {
        line.unit = units.length;
        units.push(parseUnit(raw, number));
      }
      lines.push(line);
    },
    bom,
  );
  return { kind: 'jsonl', bom: bom > 0, eol: '\n', units, lines };
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
