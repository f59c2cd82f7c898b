/**
 * `--from auto`: which format a value is in.
 */
import { SourceError } from '../model/errors.js';
import type { JsonValue } from '../model/json.js';
import type { ConversationFormat } from './format.js';
import { FORMATS, formatByName } from './index.js';
import { nativeProblem } from './native.js';

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
