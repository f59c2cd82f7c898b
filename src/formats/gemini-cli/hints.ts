/**
 * What the `gemini-cli` adapter keeps in `providerData["gemini-cli"]`: each recorded message's own
 * fields (`id`, `timestamp`, `type`, `thoughts`, `tokens`, `model`, …) on its message, a tool
 * call's other fields (`status`, `displayName`, `resultDisplay`, …) on its part, and, on the parts
 * of a content list, what the Gemini reader keeps of them, with that reader's hints (see
 * ../gemini/hints.ts), parts v1 has no type for kept whole. A session is written back into the
 * file it was read from, by identity, so it needs no hints of its own.
 */
import { HINT_KEYS as GEMINI_HINT_KEYS } from '../gemini/hints.js';

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'gemini-cli';

/** Every hint key of this format (the registry's `hints`): those of the Gemini parts it holds. */
export const HINT_KEYS: readonly string[] = GEMINI_HINT_KEYS;

/** The JSONL form's line that rewinds the recording to before a message: a source field, not a hint. */
export const REWIND = '$rewindTo';

/** The JSONL form's line that sets the recording's fields (`messages` among them): a source field. */
export const SET = '$set';
