/**
 * The two forms of a rollout, and how each holds a Responses item in a line. A current rollout's
 * `response_item` line holds it as its `payload`, beside the line's `timestamp`; an older
 * rollout's item line is the item itself, with no timestamp. The reader takes the items out of
 * the lines through a form, and the writer puts an added or changed item into a line through the
 * same one: one code path for both forms (see docs/formats/codex-cli.md).
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isLegacyItemLine, isLegacyMetaLine, isResponseItemLine } from './detect.js';

/** How the lines of one form of rollout hold its items. */
export interface RolloutForm {
  /** The older form (`{id, timestamp, instructions}` first, then bare items and state lines). */
  legacy: boolean;
  /**
   * The item line `e` (line `i` of the file) holds as its own, and the item's path in the line;
   * undefined for a line that holds none (meta, state, turn context, event, compaction).
   */
  itemOf(e: JsonValue, i: number): { item: JsonValue; at: readonly string[] } | undefined;
  /** The line of an item a repair added; `timestamp()` is the time to stamp it with, if any. */
  added(item: JsonValue, timestamp: () => JsonValue): JsonValue;
  /** Item line `e` with `item` in place of the item it held, its other fields in their order. */
  changed(e: JsonObject, item: JsonValue): JsonValue;
}

/** The current form: `{timestamp, type: "response_item", payload: <item>}` lines. */
const ROLLOUT: RolloutForm = {
  legacy: false,
  itemOf: (e) => (isResponseItemLine(e) ? { item: e.payload, at: ['payload'] } : undefined),
  added: (item, timestamp) => ({ timestamp: timestamp(), type: 'response_item', payload: item }),
  changed: (e, item) => ({ ...e, payload: item }),
};

/** The older form: each item line after the meta line is the item. */
const LEGACY: RolloutForm = {
  legacy: true,
  itemOf: (e, i) => (i > 0 && isLegacyItemLine(e) ? { item: e, at: [] } : undefined),
  added: (item) => item,
  changed: (_e, item) => item,
};

/** The form of a rollout's lines: the older one when its first line is the older meta line. */
export function formOfLines(lines: readonly JsonValue[]): RolloutForm {
  return isLegacyMetaLine(lines[0]) ? LEGACY : ROLLOUT;
}

/** The form a read recorded in its context (`legacy`). */
export function formNamed(legacy: boolean): RolloutForm {
  return legacy ? LEGACY : ROLLOUT;
}
