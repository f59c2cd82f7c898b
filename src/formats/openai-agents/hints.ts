/**
 * What the `openai-agents` adapter keeps in `providerData.openai-agents`: on the conversation, the
 * run state's other fields (`$schemaVersion`, `current_agent`, `model_responses`, the context, …)
 * under `state`, and each generated item's wrapper (`type`, `agent`, a repeated `output`, …) under
 * `items`, in order; on each message and part, what the Responses reader keeps of its item, with
 * that reader's hints (see ../openai-responses/hints.ts).
 */
import { HINT_KEYS as RESPONSES_HINT_KEYS } from '../openai-responses/hints.js';

/** The format's name, and the `providerData` key its kept data lives under. */
export const FORMAT = 'openai-agents';

/** The run state's version field: a field of the source (kept as `$$schemaVersion`), not a hint. */
export const SCHEMA_VERSION = '$schemaVersion';

/** Every hint key of this format (the registry's `hints`): those of the Responses items it holds. */
export const HINT_KEYS: readonly string[] = RESPONSES_HINT_KEYS;
