/**
 * What the `autogen` adapter keeps in `providerData.autogen`: each message's fields v1 has no
 * place for (`source`, a `thought` that is null, …) on its message, a function call's or result's
 * other fields on its part, the items v1 has no type for (an image, whatever else a list holds) as
 * kept parts, and a body's other fields on the conversation (with the kit's envelope hints).
 */

import { BARE_HINT, KEYS_HINT } from '../kit/envelope.js';

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'autogen';

/** The hints: the kit's envelope ones (a bare list, a body's key order). */
export const HINTS = { bare: BARE_HINT, keys: KEYS_HINT } as const;

/** Every hint key of this format (the registry's `hints`). */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);
