/**
 * Runs a function over every conversation of a document (the file, or each
 * JSONL line), at the pointer, through the document's format, and collects
 * the new values a write needs. Shared by the file operations and
 * `lint --fix`.
 */
import {
  serializeDocument,
  serializeEventLog,
  type JsonlLine,
  type SourceDocument,
  type SourceUnit,
  type StreamedLine,
} from './kit/document.js';
import { ReadOnlyFormatError, SessionFormatError, SourceError } from '../model/errors.js';
import type { JsonValue } from '../model/json.js';
import { replaceAt, toPointer, valueAt } from '../model/pointer.js';
import type { Message } from '../model/types.js';
import { eventLogByChoice, eventLogOfFirst, readConversation } from './detect.js';
import type { ConversationFormat, Loss } from './format.js';
import { withMessages } from './histlint/index.js';
import { splitLosses, type Dropped } from './shared.js';

/** What the mapped function returns for one conversation. */
export interface ConversationChange {
  messages: Message[];
  changed: boolean;
  /** The conversation's new kept request data (sanitize's drops), written in place of the read one. */
  providerData?: JsonValue;
}

/** The outcome for one unit (a file, or one JSONL line). */
export interface UnitResult<T> {
  /** The JSONL line, for JSONL. */
  line?: number;
  /** What the function returned. */
  result?: T;
  /** Why the unit could not be processed (a parse error, not a conversation, or what the function threw). */
  error?: unknown;
  /** With `to` and `lossy`: what the target format could not express. */
  losses?: Loss[];
  /** With `to`: the request settings and histlint ids the target format has no place for. */
  dropped?: Dropped[];
  /** Only checked: the conversation is in a read-only format, so its change cannot be written. */
  readOnly?: true;
}

/** Options of {@link mapConversations}. */
export interface MapOptions {
  /** Pointer tokens of the conversation inside each document. */
  pointer: readonly string[];
  /** `--from`. */
  from?: string;
  /** Refuse read-only formats (the caller will write). */
  writing: boolean;
  /**
   * The command, when it does not write sessions (trim): a conversation read from a session format
   * is refused with a {@link SessionFormatError} naming it, when writing.
   */
  refuseSessions?: string;
  /** Write every conversation in this format (convert); default: the format it was read from, and only when changed. */
  to?: ConversationFormat;
  /** With `to`: convert even when the target cannot express everything (the losses are returned). */
  lossy?: boolean;
  /**
   * Every unit is a conversation of its own, whatever it looks like: the caller reads a JSONL
   * file line by line and has decided from its first line that it is no event log.
   */
  perLine?: boolean;
  /**
   * An event log with lines that are not JSON (a session a crash cut off mid-line) is read from
   * its other lines, and written back with those lines as they were (`lint --fix`, which leaves
   * a broken line byte for byte). Without it, such a log is one unit that cannot be read.
   */
  keepBrokenLines?: boolean;
}

/** A conversion refused because the target format cannot express something (SPEC §4 `convert`). */
export class LossError extends Error {
  readonly losses: Loss[];

  constructor(losses: Loss[], to: string, writingBack = false) {
    const first = losses[0]!;
    const where =
      first.messageIndex === undefined
        ? ''
        : ` at message ${first.messageIndex}${first.partIndex === undefined ? '' : ` part ${first.partIndex}`}`;
    const keys =
      first.keys === undefined || first.keys.length === 0 || first.what.includes('"')
        ? ''
        : ` (${first.keys.join(', ')})`;
    const more = losses.length > 1 ? ` (and ${losses.length - 1} more)` : '';
    super(
      writingBack
        ? `not written: writing it back as ${to} would lose ${first.what}${keys}${where}${more}`
        : `${to} cannot express ${first.what}${keys}${where}${more}; use --lossy to convert anyway`,
    );
    this.name = 'LossError';
    this.losses = losses;
  }
}

/**
 * When a JSONL document is one event log (a Claude Code session: one event
 * per line), its format and the events as one array; otherwise null.
 */
export function eventLogIn(
  doc: SourceDocument,
  options: { from?: string; pointer: readonly string[] },
): { format: ConversationFormat; events: JsonValue[] } | null {
  if (doc.kind !== 'jsonl') return null;
  const decided = eventLogByChoice(options.from, options.pointer);
  if (decided === null) return null;
  const values = doc.units.filter((u) => u.value !== undefined).map((u) => u.value!);
  if (values.length === 0) return null;
  const format = decided ?? eventLogOfFirst(values[0]!);
  return format === null ? null : { format, events: values };
}

/**
 * Applies `fn` to each conversation of `doc`. Returns every unit's outcome
 * and the new document value of each unit that changed. Errors other than
 * {@link SourceError} and the ones `isExpected` accepts propagate.
 */
export function mapConversations<T extends ConversationChange>(
  doc: SourceDocument,
  options: MapOptions,
  fn: (messages: Message[], format: ConversationFormat, providerData: JsonValue | undefined) => T,
  isExpected: (e: unknown) => boolean = () => false,
): MappedDocument<T> {
  const units: UnitResult<T>[] = [];
  const values = new Map<number, JsonValue>();
  const log = options.perLine === true ? null : eventLogIn(doc, options);
  const events = log?.events ?? null;
  // An event log is one conversation made of all its lines.
  const sources =
    events === null
      ? doc.units
      : [
          {
            text: '',
            value: events as JsonValue,
            ...(doc.units.find((u) => u.error) && options.keepBrokenLines !== true
              ? { error: brokenLine(doc.units.find((u) => u.error)!.error!, log!.format, options) }
              : {}),
          },
        ];
  sources.forEach((unit, u) => {
    const out: UnitResult<T> = {};
    if (unit.line !== undefined) out.line = unit.line;
    units.push(out);
    if (unit.error !== undefined) {
      out.error = unit.error;
      return;
    }
    try {
      const root = unit.value!;
      const target = valueAt(root, options.pointer);
      if (target === undefined) {
        throw new SourceError(
          `nothing at pointer ${JSON.stringify(toPointer(options.pointer))}`,
          unit.line === undefined ? undefined : { line: unit.line, column: 1 },
        );
      }
      const refuseUnwritable = (f: ConversationFormat): void => {
        if (f.readOnly && options.writing) throw new ReadOnlyFormatError(f.name);
        if (f.session === true && options.writing && options.refuseSessions !== undefined)
          throw new SessionFormatError(f.name, options.refuseSessions);
      };
      let format: ConversationFormat;
      let read: ReturnType<ConversationFormat['read']>;
      if (log === null) {
        // Not a conversation: the same text as lint's, with a conversation found below it.
        ({ format, read } = readConversation(
          target,
          options.from,
          toPointer(options.pointer),
          refuseUnwritable,
        ));
      } else {
        format = log.format;
        refuseUnwritable(format);
        read = format.read(target);
      }
      const result = fn(read.conversation.messages, format, read.conversation.providerData);
      out.result = result;
      const to = options.to ?? format;
      if (format.readOnly && to === format) {
        // Only checked (--check): a read-only format would change, and nothing is written.
        if (result.changed) values.set(u, root);
        out.readOnly = true;
        return;
      }
      // Converting to the format it is already in is no change (formatting is not a change).
      if (result.changed || to !== format) {
        const written = to.write(
          withMessages(read.conversation, result.messages, result.providerData),
          to === format ? read.context : undefined,
        );
        // Written back in its own format, a file must lose nothing: an operation refuses it.
        if (options.to === undefined && written.losses.length > 0)
          throw new LossError(written.losses, to.name, true);
        // Converted, request settings and histlint ids are dropped and reported; content needs --lossy.
        const { losses, dropped } = splitLosses(written.losses);
        if (losses.length > 0) {
          if (!options.lossy) throw new LossError(losses, to.name);
          out.losses = losses;
        }
        if (dropped.length > 0) out.dropped = dropped;
        values.set(u, replaceAt(root, options.pointer, written.value));
      }
    } catch (e) {
      if (!(e instanceof SourceError) && !(e instanceof LossError) && !isExpected(e)) throw e;
      out.error = e;
    }
  });
  // Written in its own format, an event log is written back line by line; converted, it is one value.
  const logLines = log !== null && (options.to === undefined || options.to === log.format);
  return { units, values, eventLog: events !== null, logLines };
}

/**
 * The error of an event log's broken line (a session a crash cut off mid-line), for a command
 * that would write: it says what repairs such a session (`lint --fix` keeps the line as it is).
 */
function brokenLine(
  error: SourceError,
  format: ConversationFormat,
  options: MapOptions,
): SourceError {
  if (!options.writing) return error;
  const at = error.line === undefined ? undefined : { line: error.line, column: error.column ?? 1 };
  return new SourceError(
    `${error.message} (a ${format.name} session is one conversation: histlint lint --fix repairs it and keeps this line as it is)`,
    at,
  );
}

/** The error of the first unit that was read and whose result could not be written back (a refused write), if any. */
export function refusedWrite(mapped: MappedDocument<unknown>): unknown {
  return mapped.units.find((u) => u.result !== undefined && u.error !== undefined)?.error;
}

/** What {@link mapConversations} gives. */
export interface MappedDocument<T> {
  units: UnitResult<T>[];
  /** The new value of each unit that changed (an event log's: at 0, the whole log). */
  values: Map<number, JsonValue>;
  /** The document was one event log, read as one conversation. */
  eventLog: boolean;
  /** That log's new value is its events, to be written back as its lines ({@link serializeEventLog}). */
  logLines: boolean;
}

/**
 * The text of a document after {@link mapConversations}: an event log written back in its own
 * format line by line (unchanged events byte for byte), an event log converted as one JSON
 * document, or the document with its changed units replaced.
 */
export function serializeMapped(doc: SourceDocument, mapped: MappedDocument<unknown>): string {
  const { values } = mapped;
  if (mapped.logLines) {
    // Nothing changed (an output other than the input): the events read, as they were.
    const events =
      values.get(0) ?? doc.units.flatMap((u) => (u.value === undefined ? [] : [u.value]));
    if (!Array.isArray(events)) throw new Error('an event log is written back as its events');
    return serializeEventLog(doc, events);
  }
  if (!mapped.eventLog) return serializeDocument(doc, values);
  const json: SourceDocument = {
    kind: 'json',
    bom: false,
    eol: '\n',
    units: [{ text: '' }],
    lines: [],
  };
  return serializeDocument(json, values);
}

/** What a {@link ConversationStream} gives its reader. */
export interface StreamHandlers {
  /** A file of one conversation per line: each line (blank ones too), in order, as it is read. */
  line(line: StreamedLine): void;
  /**
   * An event log, at its end: the document {@link mapConversations} reads as that one
   * conversation (its units without their text, unless `keepLines`: then with its lines, as
   * {@link readDocument} gives them), and with `keepBytes` the file's bytes, unless a line was too
   * long to read (then they are not all known).
   */
  log(doc: SourceDocument, bytes?: Buffer): void;
}

/**
 * Reads the lines of a JSONL stream (from a {@link JsonlReader}) as {@link mapConversations}
 * reads the whole document: an event log when the options or the first line that holds a value
 * say so (its lines are then held, as values, until the end), else one conversation per line,
 * each handed on as it comes. The lines before that first value (blank or unreadable) wait for
 * the decision.
 */
export class ConversationStream {
  private mode: 'undecided' | 'lines' | 'log';
  private format: ConversationFormat | null | undefined;
  private waiting: StreamedLine[] = [];
  private units: SourceUnit[] = [];
  private lines: JsonlLine[] = [];
  private bytes: Buffer[] = [];
  private unread = false;

  constructor(
    private readonly options: {
      from?: string;
      pointer: readonly string[];
      keepBytes?: boolean;
      /** An event log's lines are kept (text and line end), for {@link serializeEventLog}. */
      keepLines?: boolean;
    },
    private readonly handlers: StreamHandlers,
  ) {
    this.format = eventLogByChoice(options.from, options.pointer);
    this.mode = this.format === null ? 'lines' : 'undecided';
  }

  /** Reads the next line. */
  push(line: StreamedLine): void {
    if (this.mode === 'lines') return this.handlers.line(line);
    if (this.mode === 'undecided') {
      if (line.unit?.value === undefined) {
        // Held past this call: a blank line's bytes are written back; an unreadable line's are not needed.
        this.waiting.push({
          ...line,
          bytes: Buffer.from(line.unit === undefined ? line.bytes : []),
        });
        if (this.options.keepBytes === true) this.keep(line);
        return;
      }
      const format = this.format ?? eventLogOfFirst(line.unit.value);
      if (format === null) {
        this.mode = 'lines';
        for (const waiting of this.waiting.splice(0)) this.handlers.line(waiting);
        this.bytes = [];
        return this.handlers.line(line);
      }
      this.format = format;
      this.mode = 'log';
      for (const waiting of this.waiting.splice(0)) this.hold(waiting);
    }
    if (this.options.keepBytes === true) this.keep(line);
    this.hold(line);
  }

  /** Holds a line of an event log: its value, and with `keepLines` its text and line end. */
  private hold(line: StreamedLine): void {
    const unit = line.unit;
    const lines = this.options.keepLines === true;
    if (lines) {
      const kept: JsonlLine = {
        raw: unit === undefined ? blankText(line) : unit.text,
        eol: line.eol,
      };
      if (unit !== undefined) kept.unit = this.units.length;
      if (line.unread === true) kept.unread = true;
      this.lines.push(kept);
    }
    if (unit === undefined) return;
    // The conversation is its values: each line's text is let go, unless it may be written back.
    const held: SourceUnit = { text: lines ? unit.text : '' };
    if (unit.line !== undefined) held.line = unit.line;
    if (unit.value !== undefined) held.value = unit.value;
    if (unit.error !== undefined) held.error = unit.error;
    this.units.push(held);
  }

  private keep(line: StreamedLine): void {
    if (line.unread === true) this.unread = true;
    if (this.unread) return;
    this.bytes.push(Buffer.from(line.bytes));
    if (line.eol !== '') this.bytes.push(NEWLINE);
  }

  /** Ends the stream; `bom`: it started with a byte order mark. */
  end(bom: boolean): void {
    if (this.mode === 'log') {
      const doc: SourceDocument = {
        kind: 'jsonl',
        bom,
        eol: '\n',
        units: this.units,
        lines: this.lines,
      };
      this.units = [];
      this.lines = [];
      const bytes =
        this.options.keepBytes === true && !this.unread
          ? Buffer.concat(bom ? [BOM, ...this.bytes] : this.bytes)
          : undefined;
      this.bytes = [];
      return this.handlers.log(doc, bytes);
    }
    // No line held a value: one conversation per line, none of them readable.
    this.mode = 'lines';
    for (const waiting of this.waiting.splice(0)) this.handlers.line(waiting);
  }
}

/** A blank line's text (its bytes, without a `\r` before its `\n`). */
function blankText(line: StreamedLine): string {
  const bytes = line.eol === '\r\n' ? line.bytes.subarray(0, line.bytes.length - 1) : line.bytes;
  return Buffer.from(bytes).toString('utf8');
}

const NEWLINE = Buffer.from('\n');
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
