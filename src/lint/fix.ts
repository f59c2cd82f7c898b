/**
 * `lint --fix`: the fixes of the enabled fixable rules only, applied to the
 * losslessly read document (SPEC §5.2). Fixes are data: each rule names the
 * core operation that repairs it, and this module runs those operations.
 */
import { isUtf8 } from 'node:buffer';
import { normalizeHistory, type RepairSelection } from '../core/normalize.js';
import { dropSystemMessages, dropUnsafeMedia } from '../core/sanitize.js';
import { TURN_ORDER_RULES } from '../core/turn-order.js';
import { PROVIDER_STORAGE_SCHEMES } from '../core/url.js';
import type { ProviderView } from '../core/turns.js';
import { mapConversations, refusedWrite, serializeMapped } from '../formats/conversations.js';
import { targetFor } from '../formats/format.js';
import { eventLogFormat } from '../formats/detect.js';
import { readDocument } from '../formats/kit/document.js';
import { eachByteLine, firstJsonValue, startsWithUtf16Bom } from '../formats/kit/units.js';
import { ReadOnlyFormatError, SourceError } from '../model/errors.js';
import { isTooLong } from '../model/text-limit.js';
import type { Message } from '../model/types.js';
import type { EnabledRules } from './engine.js';

/** Which fixes run, from the enabled rules. */
export interface FixPlan {
  systemMessages: boolean;
  unsafeUrls: boolean;
  /** The pairing repairs, or null when no pairing rule is on. */
  pairing: RepairSelection | null;
  /** The targets some of whose turn-order rules are on: their results are moved, their turns merged. */
  placement: ReadonlySet<string>;
}

/** The fixes the enabled rules ask for. */
export function planFixes(rules: EnabledRules): FixPlan {
  const placement = new Set<string>();
  for (const [target, ids] of Object.entries(TURN_ORDER_RULES))
    if (ids.some((id) => rules.has(id))) placement.add(target);
  const drop = new Set<'orphan' | 'before-call' | 'duplicate'>();
  if (rules.has('orphan-tool-result')) drop.add('orphan');
  if (rules.has('result-before-call')) drop.add('before-call');
  if (rules.has('duplicate-tool-result')) drop.add('duplicate');
  const synthesize = rules.has('dangling-tool-call');
  return {
    systemMessages: rules.has('system-message'),
    unsafeUrls: rules.has('unsafe-url'),
    pairing: synthesize || drop.size > 0 ? { synthesize, drop } : null,
    placement,
  };
}

/** True when the plan fixes nothing. */
export function isEmptyPlan(plan: FixPlan): boolean {
  return (
    !plan.systemMessages && !plan.unsafeUrls && plan.pairing === null && plan.placement.size === 0
  );
}

/**
 * Applies a plan to one conversation; `view` is the provider it was checked against (results
 * are moved for it when the plan fixes its turn-order rules).
 */
export function applyFixes(
  messages: Message[],
  plan: FixPlan,
  leavePending: boolean,
  view?: ProviderView,
): { messages: Message[]; changed: boolean } {
  let current = messages;
  let changed = false;
  if (plan.systemMessages) {
    const r = dropSystemMessages(current);
    current = r.messages;
    changed ||= r.changed;
  }
  if (plan.unsafeUrls) {
    // Under Bedrock or Gemini, their own storage URLs (s3://, gs://) are theirs to fetch.
    const r = dropUnsafeMedia(
      current,
      view === undefined ? undefined : PROVIDER_STORAGE_SCHEMES[view.target],
    );
    current = r.messages;
    changed ||= r.changed;
  }
  const place = view !== undefined && plan.placement.has(view.target);
  if (plan.pairing !== null || place) {
    const only = plan.pairing ?? { synthesize: false, drop: new Set() };
    const r = normalizeHistory(current, {
      only: { ...only, place },
      leavePending,
      ...(place ? { target: view } : {}),
    });
    current = r.messages;
    changed ||= r.changed;
  }
  return { messages: current, changed };
}

/** What {@link fixBytes} needs besides the plan. */
export interface FixOptions {
  pointer: readonly string[];
  from?: string;
  leavePending: boolean;
  /** `--target` (default `auto`). */
  target?: string;
}

/**
 * Fixes a file's bytes. Returns the new text (bytes, for a JSONL file with
 * lines that are not UTF-8), or null when nothing changed. Units that cannot
 * be read are left as they are (a JSONL line stays byte for byte, whether it
 * is not JSON or not even UTF-8); foreign read-only formats are not fixed.
 */
export function fixBytes(
  bytes: Uint8Array,
  kind: 'json' | 'jsonl' | undefined,
  plan: FixPlan,
  options: FixOptions,
): string | Uint8Array | null {
  // Line by line when the whole is not one string: not UTF-8, or too long for a string.
  if (kind === 'jsonl' && (isTooLong(bytes.length) || !isUtf8(bytes)) && !startsWithUtf16Bom(bytes))
    return fixJsonlLines(bytes, plan, options);
  return fixDocument(bytes, kind, plan, options);
}

/** Fixes the document the bytes hold; null when nothing changed or it cannot be read. */
function fixDocument(
  bytes: Uint8Array,
  kind: 'json' | 'jsonl' | undefined,
  plan: FixPlan,
  options: FixOptions,
): string | null {
  let doc;
  try {
    doc = readDocument(bytes, kind);
  } catch (e) {
    if (e instanceof SourceError) return null;
    throw e;
  }
  const mapped = mapConversations(
    doc,
    {
      pointer: options.pointer,
      writing: true,
      keepBrokenLines: true,
      ...(options.from === undefined ? {} : { from: options.from }),
    },
    (messages, format) => {
      const target = targetFor(options.target, format);
      const view = target === null ? undefined : { target, native: format.name === target };
      return applyFixes(messages, plan, options.leavePending, view);
    },
  );
  // A read-only format cannot take the fixes: say so, as normalize does (lint already reported the rest).
  const readOnly = mapped.units.find((u) => u.error instanceof ReadOnlyFormatError);
  if (readOnly !== undefined) throw readOnly.error;
  // A fix the format cannot hold (a session that has no place for it): the file gets an error.
  const refused = refusedWrite(mapped);
  if (refused !== undefined) throw refused;
  return mapped.values.size === 0 ? null : serializeMapped(doc, mapped);
}

/**
 * Fixes JSONL bytes line by line: a line that is not UTF-8, or too long to read, stays as it is;
 * each other line is fixed on its own.
 */
function fixJsonlLines(bytes: Uint8Array, plan: FixPlan, options: FixOptions): Uint8Array | null {
  // A session is one conversation of all its lines: fixed line by line, each line would be a
  // session of its own (a call's line would get a result its next line already holds).
  const log = eventLogFormat(options.from, options.pointer, () => firstJsonValue(bytes));
  if (log !== null) {
    let bad = 0;
    eachByteLine(bytes, (start, end, _eol, line) => {
      if (isTooLong(end - start) || !isUtf8(bytes.subarray(start, end))) bad = line;
      return bad === 0;
    });
    throw new SourceError(
      `a ${log.name} session is fixed whole, and its line ${bad} is not UTF-8 (or too long to read): it could not be written back as it is, so nothing was fixed`,
    );
  }
  const pieces: Uint8Array[] = [];
  let changed = false;
  eachByteLine(bytes, (start, end, eol) => {
    // The line with its line end: a line fixed on its own is written back with it.
    const line = bytes.subarray(start, eol === '' ? end : end + 1);
    const fixed =
      !isTooLong(end - start) && isUtf8(line) ? fixDocument(line, 'jsonl', plan, options) : null;
    if (fixed !== null) changed = true;
    pieces.push(fixed === null ? line : Buffer.from(fixed));
  });
  return changed ? Buffer.concat(pieces) : null;
}
