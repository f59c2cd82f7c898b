/**
 * histlint's own format keeps nothing in `providerData`: a v1 conversation is written back as
 * it is, and the `providerData` of other formats it carries is theirs. So it has no hints; the
 * envelope or bare array it was read from is the read's context, and a bare array stored as v1
 * is stored as the envelope (see write.ts).
 */

/** The format's name (`--from histlint`, `--to histlint`). */
export const FORMAT = 'histlint';

/** The hints, by the v1 object that carries them: none (v1 holds everything itself). */
export const HINTS = {} as const;

/** Every hint key of this format (the registry's `hints`): none. */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);
