/**
 * `--from auto`: which format a value is in.
 */
import { SourceError } from '../model/errors.js';
import type { JsonValue } from '../model/json.js';
import type { ConversationFormat } from './format.js';
import { FORMATS, formatByName } from './index.js';
import { nativeProblem } from './histlint/index.js';

/** The format of `value`: the named one, or the first that recognizes it. Throws {@link SourceError} when none does. */
export function detectFormat(value: JsonValue, from = 'auto'): ConversationFormat {
  if (from !== 'auto') {
    const format = formatByName(from);
    if (format === undefined) throw new SourceError(`unknown format "${from}"`);
    return format;
  }
  for (const format of FORMATS) {
    if (format.detect(value)) return format;
  }
  // Name what is missing for the native shape: the most common case.
  throw new SourceError(`not a conversation: ${nativeProblem(value) ?? 'unrecognized shape'}`);
}

/** The formats whose documents are event logs: a JSONL file of one is one conversation. */
const EVENT_LOGS: readonly ConversationFormat[] = FORMATS.filter((f) => f.document === 'event-log');

/**
 * Whether a JSONL file is one event log, as far as the options say: the event-log format; `null`
 * for one conversation per line (a pointer selects values inside each line, or `--from` names a
 * format that is no event log); undefined when the file's first line decides (`--from auto`).
 */
export function eventLogByChoice(
  from: string | undefined,
  pointer: readonly unknown[] = [],
): ConversationFormat | null | undefined {
  if (pointer.length > 0 || EVENT_LOGS.length === 0) return null;
  if (from === undefined || from === 'auto') return undefined;
  return EVENT_LOGS.find((f) => f.name === from) ?? null;
}

/** The event-log format whose event `first` (a JSONL file's first value) is, or null. */
export function eventLogOfFirst(first: JsonValue): ConversationFormat | null {
  return EVENT_LOGS.find((f) => f.detect([first])) ?? null;
}

/**
 * The event-log format a JSONL file is, or null (one conversation per line): decided by the
 * options, else by its first line's text (`firstLine()`, undefined for a file without one).
 */
export function eventLogFormat(
  from: string | undefined,
  pointer: readonly unknown[],
  firstLine: () => string | undefined,
): ConversationFormat | null {
  const decided = eventLogByChoice(from, pointer);
  if (decided !== undefined) return decided;
  const text = firstLine();
  if (text === undefined) return null;
  try {
    return eventLogOfFirst(JSON.parse(text) as JsonValue);
  } catch {
    return null;
  }
}
