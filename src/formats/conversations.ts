/**
 * Runs a function over every conversation of a document (the file, or each
 * JSONL line), at the pointer, through the document's format, and collects
 * the new values a write needs. Shared by the file operations and
 * `lint --fix`.
 */
import type { SourceDocument } from '../model/document.js';
import { SourceError } from '../model/errors.js';
import type { JsonValue } from '../model/json.js';
import { replaceAt, toPointer, valueAt } from '../model/pointer.js';
import type { Message } from '../model/types.js';
import { detectFormat } from './detect.js';
import type { ConversationFormat } from './format.js';
import { withMessages } from './native.js';

/** What the mapped function returns for one conversation. */
export interface ConversationChange {
  messages: Message[];
  changed: boolean;
}

/** The outcome for one unit (a file, or one JSONL line). */
export interface UnitResult<T> {
  /** The JSONL line, for JSONL. */
  line?: number;
  /** What the function returned. */
  result?: T;
  /** Why the unit could not be processed (a parse error, not a conversation, or what the function threw). */
  error?: unknown;
}

/** Options of {@link mapConversations}. */
export interface MapOptions {
  /** Pointer tokens of the conversation inside each document. */
  pointer: readonly string[];
  /** `--from`. */
  from?: string;
  /** Refuse read-only formats (the caller will write). */
  writing: boolean;
}

/**
 * Applies `fn` to each conversation of `doc`. Returns every unit's outcome
 * and the new document value of each unit that changed. Errors other than
 * {@link SourceError} and the ones `isExpected` accepts propagate.
 */
export function mapConversations<T extends ConversationChange>(
  doc: SourceDocument,
  options: MapOptions,
  fn: (messages: Message[], format: ConversationFormat) => T,
  isExpected: (e: unknown) => boolean = () => false,
): { units: UnitResult<T>[]; values: Map<number, JsonValue> } {
  const units: UnitResult<T>[] = [];
  const values = new Map<number, JsonValue>();
  doc.units.forEach((unit, u) => {
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
          `nothing at pointer "${toPointer(options.pointer)}"`,
          unit.line === undefined ? undefined : { line: unit.line, column: 1 },
        );
      }
      const format = detectFormat(target, options.from);
      if (format.readOnly && options.writing) {
        throw new SourceError(
          `the ${format.name} format is read only; use "histlint convert --to histlint" first`,
        );
      }
      const read = format.read(target);
      const result = fn(read.conversation.messages, format);
      out.result = result;
      if (result.changed) {
        const written = format.write(
          withMessages(read.conversation, result.messages),
          read.context,
        );
        values.set(u, replaceAt(root, options.pointer, written.value));
      }
    } catch (e) {
      if (!(e instanceof SourceError) && !isExpected(e)) throw e;
      out.error = e;
    }
  });
  return { units, values };
}
