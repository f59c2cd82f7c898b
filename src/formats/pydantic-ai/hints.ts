/**
 * What the `pydantic-ai` adapter keeps in `providerData["pydantic-ai"]`: the source fields v1 has
 * no place for, under their own names (see restOf in ../kit/kept.ts), and its hints, the `$` keys
 * that say how to write a value back.
 */

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'pydantic-ai';

/** The hints, by the v1 object that carries them. */
export const HINTS = {
  /** Message (not assistant): it starts a new `request` although the message before was no response. */
  request: '$request',
  /** Text, image or document part: the first item of a user-prompt whose `content` is a list. */
  list: '$list',
  /** Text, image or document part: a further item of the same list content. */
  item: '$item',
  /** Tool call: `args` was an object (`object`) or `null` (`null`), not a string. */
  args: '$args',
  /** Tool result: `content` was a JSON value other than a string, kept as its JSON text. */
  content: '$content',
  /** Text part of a user message: it was a `retry-prompt` without a tool name. */
  part: '$part',
  /** Image or document part: the media item's `kind` when the default would differ. */
  kind: '$kind',
} as const;

/** Every hint key the adapter writes or reads (the format's `hints`). */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);
