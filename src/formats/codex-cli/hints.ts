/**
 * What the `codex-cli` adapter keeps in `providerData["codex-cli"]`: the response items of a rollout
 * are Responses items, read and written by the `openai-responses` adapter, so its kept data and
 * hints are that adapter's (see ../openai-responses/hints.ts), under this format's own key. The rest
 * of the rollout (session meta, turn contexts, UI events) is not the conversation: the read's
 * context keeps the lines, and a write gives them back as they were.
 */
import { HINT_KEYS as RESPONSES_HINT_KEYS } from '../openai-responses/hints.js';

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'codex-cli';

/** Every hint key of this format (the registry's `hints`): those of the Responses items it holds. */
export const HINT_KEYS: readonly string[] = RESPONSES_HINT_KEYS;
