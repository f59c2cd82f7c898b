/**
 * What the `copilot-cli` adapter keeps in `providerData["copilot-cli"]`: each event's envelope
 * fields (`id`, `timestamp`, `parentId`) and the fields of its `data` v1 has no place for
 * (`messageId`, `interactionId`, `outputTokens`, the displayed `content` of a user message whose
 * `transformedContent` was read, …), under `data`, on the message (a tool result's on its part),
 * a tool request's other fields on its call, and the attachments v1 has no type for as kept
 * parts. The format is read only: nothing says how to write a value back, so it has no hints.
 */

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'copilot-cli';

/** The hints: none (a read-only format writes nothing back). */
export const HINTS = {} as const;

/** Every hint key of this format (the registry's `hints`): none. */
export const HINT_KEYS: readonly string[] = Object.values(HINTS);
