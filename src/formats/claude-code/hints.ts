/**
 * What the `claude-code` adapter keeps in `providerData["claude-code"]`: each event's own fields
 * on its message (a message merged from several events: `{events: [...]}`), a block's fields v1
 * has no place for on its part (under their own names; a field whose name starts with `$` as
 * `$$name`, see the kit's restOf), and the blocks v1 has no type for as kept parts (see the kit's
 * keptPart). The format is read only: nothing says how to write a value back, so it has no hints.
 */

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'claude-code';

/** The hints, by the v1 object that carries them: none (a read-only format writes nothing back). */
export const HINTS = {} as const;

/** Every hint key of this format (the registry's `hints`): none. */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);
