/**
 * `--from auto`: which format a value is in.
 */
import { SourceError } from '../model/errors.js';
import type { JsonValue } from '../model/json.js';
import { toPointer } from '../model/pointer.js';
import { isObject } from '../model/types.js';
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
  // Name what is missing for the native shape (the most common case); a value with no history
  // list at all gets what every format looks for.
  const problem = nativeProblem(value) ?? 'unrecognized shape';
  const readers = nearMisses(value);
  const hint =
    readers.length === 0
      ? ''
      : `; no format claims it whole, but ${readers.join(', ')} ${readers.length === 1 ? 'reads' : 'read'} it: --from ${readers[0]} lints it as that format`;
  throw new SourceError(
    `not a conversation: ${problem === NO_MESSAGES ? NO_HISTORY : problem}${hint}`,
  );
}

/**
 * The formats whose reader takes `value` although none claims it: a provider's request with a
 * field out of place (a role the format does not have) is refused by its detector, which must not
 * claim another format's files, yet read as that format it is linted for what is wrong. Only for
 * an unversioned value with a history list (a histlint file's problem is its own), and only on
 * this path, where no format claimed the value. Of the readers that take it, those that understood
 * the most of it (the most parts of v1's own types), in detection order.
 */
function nearMisses(value: JsonValue): string[] {
  if (!hasHistoryList(value)) return [];
  const scored: { name: string; known: number }[] = [];
  for (const f of FORMATS) {
    if (f.document !== 'value' || f.name === 'histlint') continue;
    try {
      const { conversation } = f.read(value, { untracked: true });
      // How much of it the reader understood: parts of v1's own types (a kept part's type has a colon).
      const known = conversation.messages.reduce(
        (n, m) => n + m.parts.filter((p) => !p.type.includes(':')).length,
        0,
      );
      if (known > 0) scored.push({ name: f.name, known });
    } catch {
      // Not this format's: its reader refuses it.
    }
  }
  const best = Math.max(0, ...scored.map((s) => s.known));
  return scored.filter((s) => s.known === best).map((s) => s.name);
}

/**
 * True for a list whose first entry looks like a message or item (a string `role` or `type`):
 * bare, or under a history key of an unversioned object. A list of other records (a data file
 * a folder walk met) is no near miss, and is not read again by every format.
 */
function hasHistoryList(value: JsonValue): boolean {
  const looksLikeMessage = (list: JsonValue[]): boolean => {
    const first = list[0];
    return isObject(first) && (typeof first.role === 'string' || typeof first.type === 'string');
  };
  if (Array.isArray(value)) return looksLikeMessage(value);
  if (!isObject(value) || Object.hasOwn(value, 'version')) return false;
  return [...HISTORY_KEYS].some((k) => {
    const list = value[k];
    return Array.isArray(list) && looksLikeMessage(list);
  });
}

const NO_MESSAGES = 'no "messages" array';
const NO_HISTORY =
  'no "messages" array (histlint, anthropic, openai-chat, bedrock, ai-sdk), "contents" (gemini) or "input" (openai-responses)';

/** The keys under which formats keep a history's list of messages, contents or items. */
const HISTORY_KEYS: ReadonlySet<string> = new Set(['messages', 'contents', 'input']);

/** How deep {@link nestedConversation} looks, and how many members of each value it tries. */
const NESTED_DEPTH = 2;
const NESTED_WIDTH = 64;

/**
 * A conversation one or two levels below `value` that a format reads (the format `from` names,
 * or any under `auto`), breadth first: its format and pointer tokens (relative to `value`).
 * Only called for a value that is no conversation, so it costs nothing on the hot path.
 */
export function nestedConversation(
  value: JsonValue,
  from = 'auto',
): { format: ConversationFormat; tokens: string[] } | undefined {
  const named = from === 'auto' ? undefined : formatByName(from);
  if (from !== 'auto' && named === undefined) return undefined;
  const formats = (named === undefined ? FORMATS : [named]).filter((f) => f.document === 'value');
  let level: { value: JsonValue; tokens: string[] }[] = [{ value, tokens: [] }];
  for (let depth = 1; depth <= NESTED_DEPTH; depth++) {
    const next: { value: JsonValue; tokens: string[] }[] = [];
    for (const { value: v, tokens } of level) {
      if (typeof v !== 'object' || v === null) continue;
      const entries: [string, JsonValue][] = Array.isArray(v)
        ? v.slice(0, NESTED_WIDTH).map((c, i) => [String(i), c])
        : Object.entries(v).slice(0, NESTED_WIDTH);
      for (const [key, child] of entries) {
        if (typeof child !== 'object' || child === null) continue;
        // A history list is its value's own: what is wrong with it is the value's problem, so
        // a bare list inside (`/messages`) is no conversation of its own to point at.
        if (!Array.isArray(v) && HISTORY_KEYS.has(key)) continue;
        const at = [...tokens, key];
        const format = formats.find((f) => canRead(f, child));
        if (format !== undefined) return { format, tokens: at };
        next.push({ value: child, tokens: at });
      }
    }
    level = next;
  }
  return undefined;
}

/** True when `format` claims `value` and reads it. */
function canRead(format: ConversationFormat, value: JsonValue): boolean {
  if (!format.detect(value)) return false;
  try {
    format.read(value, { untracked: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * The `not-a-conversation` text for the value at `rootPointer`, which `from` could not read with
 * `problem`: with a conversation found one or two levels down, where it is and the `--pointer`
 * that reads it.
 */
export function notConversationDetail(
  value: JsonValue,
  rootPointer: string,
  from: string | undefined,
  problem: string,
): string {
  const found = nestedConversation(value, from);
  if (found === undefined) return problem;
  const pointer = rootPointer + toPointer(found.tokens);
  const name = found.format.name;
  const what = found.format.target === undefined ? 'conversation' : 'request';
  const article = /^[aeiou]/.test(name) ? 'an' : 'a';
  const lead = from === undefined || from === 'auto' ? 'no conversation here' : problem;
  return `${lead}; found ${article} ${name} ${what} at ${pointer}: try --pointer ${pointer}`;
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
 * options, else by the value of its first line that is JSON (`firstValue()`, undefined for a file
 * without one).
 */
export function eventLogFormat(
  from: string | undefined,
  pointer: readonly unknown[],
  firstValue: () => JsonValue | undefined,
): ConversationFormat | null {
  const decided = eventLogByChoice(from, pointer);
  if (decided !== undefined) return decided;
  const first = firstValue();
  return first === undefined ? null : eventLogOfFirst(first);
}

/**
 * {@link detectFormat} then a read, for the file commands: a value that is no conversation fails
 * with the same text as lint's `not-a-conversation` (naming a conversation found below it).
 */
export function readConversation(
  value: JsonValue,
  from: string | undefined,
  rootPointer: string,
  check?: (format: ConversationFormat) => void,
): { format: ConversationFormat; read: ReturnType<ConversationFormat['read']> } {
  let format: ConversationFormat;
  try {
    format = detectFormat(value, from);
  } catch (e) {
    throw withHint(e, value, rootPointer, from);
  }
  check?.(format);
  try {
    return { format, read: format.read(value) };
  } catch (e) {
    throw withHint(e, value, rootPointer, from);
  }
}

function withHint(e: unknown, value: JsonValue, rootPointer: string, from: string | undefined) {
  if (!(e instanceof SourceError) || e.constructor !== SourceError) return e;
  const detail = notConversationDetail(value, rootPointer, from, e.message);
  if (detail === e.message) return e;
  return new SourceError(
    detail,
    e.line === undefined ? undefined : { line: e.line, column: e.column ?? 1 },
  );
}
