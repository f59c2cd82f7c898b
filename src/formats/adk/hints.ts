/**
 * What the `adk` adapter keeps in `providerData.adk`: on the conversation, the session's other
 * fields (`id`, `app_name`, `user_id`, `state`, `last_update_time`) under `session`, and each
 * event without its content (`author`, `invocation_id`, `id`, `timestamp`, `actions`, …) under
 * `events`, in order (an event that is not part of the conversation is kept whole there); on each
 * message and part, what the Gemini reader keeps of its content, with that reader's hints (see
 * ../gemini/hints.ts).
 */
import { HINT_KEYS as GEMINI_HINT_KEYS } from '../gemini/hints.js';

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'adk';

/** Every hint key of this format (the registry's `hints`): those of the Gemini contents it holds. */
export const HINT_KEYS: readonly string[] = GEMINI_HINT_KEYS;
