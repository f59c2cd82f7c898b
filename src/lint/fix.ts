/**
 * `lint --fix`: the fixes of the enabled fixable rules only, applied to the
 * losslessly read document (SPEC §5.2). Fixes are data: each rule names the
 * core operation that repairs it, and this module runs those operations.
 */
import { normalizeHistory, type RepairSelection } from '../core/normalize.js';
import { dropSystemMessages, dropUnsafeMedia } from '../core/sanitize.js';
import { mapConversations } from '../formats/conversations.js';
import { readDocument, serializeDocument } from '../model/document.js';
import { ReadOnlyFormatError, SourceError } from '../model/errors.js';
import type { Message } from '../model/types.js';
import type { EnabledRules } from './engine.js';

/** Which fixes run, from the enabled rules. */
export interface FixPlan {
  systemMessages: boolean;
  unsafeUrls: boolean;
  /** The pairing repairs, or null when no pairing rule is on. */
  pairing: RepairSelection | null;
}

/** The fixes the enabled rules ask for. */
export function planFixes(rules: EnabledRules): FixPlan {
  const drop = new Set<'orphan' | 'before-call' | 'duplicate'>();
  if (rules.has('orphan-tool-result')) drop.add('orphan');
  if (rules.has('result-before-call')) drop.add('before-call');
  if (rules.has('duplicate-tool-result')) drop.add('duplicate');
  const synthesize = rules.has('dangling-tool-call');
  return {
    systemMessages: rules.has('system-message'),
    unsafeUrls: rules.has('unsafe-url'),
    pairing: synthesize || drop.size > 0 ? { synthesize, drop } : null,
  };
}

/** True when the plan fixes nothing. */
export function isEmptyPlan(plan: FixPlan): boolean {
  return !plan.systemMessages && !plan.unsafeUrls && plan.pairing === null;
}

/** Applies a plan to one conversation. */
export function applyFixes(
  messages: Message[],
  plan: FixPlan,
  leavePending: boolean,
): { messages: Message[]; changed: boolean } {
  let current = messages;
  let changed = false;
  if (plan.systemMessages) {
    const r = dropSystemMessages(current);
    current = r.messages;
    changed ||= r.changed;
  }
  if (plan.unsafeUrls) {
    const r = dropUnsafeMedia(current);
    current = r.messages;
    changed ||= r.changed;
  }
  if (plan.pairing !== null) {
    const r = normalizeHistory(current, { only: plan.pairing, leavePending });
    current = r.messages;
    changed ||= r.changed;
  }
  return { messages: current, changed };
}

/**
 * Fixes a file's bytes. Returns the new text, or null when nothing changed.
 * Units that cannot be read are left as they are (a JSONL line stays byte
 * for byte); foreign read-only formats are not fixed.
 */
export function fixBytes(
  bytes: Uint8Array,
  kind: 'json' | 'jsonl' | undefined,
  plan: FixPlan,
  options: { pointer: readonly string[]; from?: string; leavePending: boolean },
): string | null {
  let doc;
  try {
    doc = readDocument(bytes, kind);
  } catch (e) {
    if (e instanceof SourceError) return null;
    throw e;
  }
  const { units, values } = mapConversations(
    doc,
    {
      pointer: options.pointer,
      writing: true,
      ...(options.from === undefined ? {} : { from: options.from }),
    },
    (messages) => applyFixes(messages, plan, options.leavePending),
  );
  // A read-only format cannot take the fixes: say so, as normalize does (lint already reported the rest).
  const readOnly = units.find((u) => u.error instanceof ReadOnlyFormatError);
  if (readOnly !== undefined) throw readOnly.error;
  return values.size === 0 ? null : serializeDocument(doc, values);
}
