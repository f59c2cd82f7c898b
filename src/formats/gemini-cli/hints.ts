/**
 * What the `gemini-cli` adapter keeps in `providerData["gemini-cli"]`: each recorded message's own
 * fields (`id`, `timestamp`, `type`, `thoughts`, `tokens`, `model`, …) on its message, a tool
 * call's other fields (`status`, `displayName`, `resultDisplay`, …) on its part, and content
 * parts v1 has no type for as kept parts. A session is written back into the file it was read
 * from, by identity, so it needs no hints.
 */

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'gemini-cli';

/** The hints: none. */
export const HINTS = {} as const;

/** Every hint key of this format (the registry's `hints`): none. */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);

/** The JSONL form's line that rewinds the recording to before a message: a source field, not a hint. */
export const REWIND = '$rewindTo';

/** The JSONL form's line that sets the recording's fields (`messages` among them): a source field. */
export const SET = '$set';
