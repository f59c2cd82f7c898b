/**
 * sanitize: strip what a client must not assert in a history that crossed a
 * trust boundary (SPEC §2.2). It narrows what a client can claim; it does
 * not authenticate anyone.
 */
import { setOwn, type JsonObject, type JsonValue } from '../model/json.js';
import type { Message, Part } from '../model/types.js';
import { normalizeMapped, type HistoryRepair, type NormalizeOptions } from './normalize.js';
import { analyzePairing } from './pairing.js';
import {
  contentServerReferenceKind,
  holdsFileId,
  historyCallIds,
  serverReferenceKind,
  withoutServerReferences,
  type ServerReference,
  type ServerReferenceKind,
  type ServerReferencePart,
} from './server-refs.js';
import { unsafeContentScheme, unsafeKeptScheme, unsafeMediaScheme } from './url.js';

/** An image or document part sanitize dropped for its URL scheme. */
export interface UnsafePart {
  /** Input index of the message. */
  messageIndex: number;
  /** Input index of the part in its message. */
  partIndex: number;
  /** Index inside the tool result's `content`, for a drop there. */
  contentIndex?: number;
  /** `image` or `document`, or the type of another part that keeps an unsafe URL in its providerData. */
  kind: string;
  /** The lower-cased scheme as a browser reads it; `""` for a URL without one. */
  scheme: string;
}

/** A system message sanitize dropped. */
export interface DroppedSystemMessage {
  /** Input index of the message. */
  messageIndex: number;
  /** `system`, or `developer` for OpenAI's role (the role as read, trimmed and lower-cased). */
  role: 'system' | 'developer';
}

/** An unanswered call of the last assistant message that `dropUnresolvedCalls` removed. */
export interface DroppedCall {
  callId: string;
  name?: string;
  /** Input index of the assistant message. */
  messageIndex: number;
  /** Input index of the call part in its message. */
  partIndex: number;
}

/** What sanitize removed (`SanitizeReport`, SPEC §5.3). */
export interface SanitizeReport {
  /** How many system messages were dropped. */
  systemPrompts: number;
  /** Each dropped system message, in input order (as many as `systemPrompts`). */
  systemMessages: DroppedSystemMessage[];
  unsafeParts: UnsafePart[];
  /**
   * Input indices of user messages left empty by the URL drops, and of the last assistant message
   * when `dropUnresolvedCalls` left nothing in it; all removed.
   */
  removedMessages: number[];
  /**
   * Input indices of messages whose own providerData kept an unsafe URL (content a writer would
   * put back): their providerData is dropped. Absent when there are none.
   */
  providerDataDropped?: number[];
  /** Calls removed by `dropUnresolvedCalls`, in input order; `[]` without it. */
  droppedCalls: DroppedCall[];
  /**
   * What would make the provider load stored content: the request fields dropped from the
   * conversation's kept data (first), then the parts dropped, in input order; `[]` when none.
   */
  serverReferences: ServerReference[];
  /** The report of the normalize step. */
  repair: HistoryRepair;
}

/** Options of {@link sanitizeHistory}. */
export interface SanitizeOptions extends NormalizeOptions {
  /**
   * Remove the unanswered calls of the last assistant message (and the message when nothing is
   * left in it) instead of synthesizing an "interrupted" result that invites the model to run
   * them. Overrides `leavePending`.
   */
  dropUnresolvedCalls?: boolean;
  /** With `dropUnresolvedCalls`: ids of calls that stay (and get the usual synthesized result). */
  resolved?: readonly string[];
}

/** The result of {@link sanitizeHistory}. */
export interface SanitizeResult {
  messages: Message[];
  report: SanitizeReport;
  changed: boolean;
}

function unsafeEntry(
  messageIndex: number,
  partIndex: number,
  contentIndex: number | undefined,
  kind: string,
  scheme: string,
): UnsafePart {
  const entry: UnsafePart = { messageIndex, partIndex } as UnsafePart;
  if (contentIndex !== undefined) entry.contentIndex = contentIndex;
  entry.kind = kind as UnsafePart['kind'];
  entry.scheme = scheme;
  return entry;
}

interface Filtered {
  kept: Message[];
  keptIndex: number[];
  keptParts: (number[] | undefined)[];
  systemMessages: DroppedSystemMessage[];
  unsafeParts: UnsafePart[];
  serverReferences: ServerReferencePart[];
  removedMessages: number[];
  providerDataDropped: number[];
}

function referenceEntry(
  messageIndex: number,
  partIndex: number,
  contentIndex: number | undefined,
  kind: ServerReferenceKind,
): ServerReferencePart {
  const entry: ServerReferencePart = { messageIndex, partIndex } as ServerReferencePart;
  if (contentIndex !== undefined) entry.contentIndex = contentIndex;
  entry.kind = kind;
  return entry;
}

/**
 * True for a message that speaks with operator authority: a `system` message, or one with
 * OpenAI's `developer` role (not a v1 role, but a provider would read it as the system prompt).
 */
export function isSystemPrompt(m: { role: string }): boolean {
  return systemRole(m) !== null;
}

/** The operator role a message speaks with (see {@link isSystemPrompt}), or null. */
function systemRole(m: { role: string }): DroppedSystemMessage['role'] | null {
  // Spelled in any case or with spaces or controls around: some servers take it so.
  const role = m.role
    .replace(/^[\s\u0000-\u001f\u007f-\u009f]+|[\s\u0000-\u001f\u007f-\u009f]+$/g, '')
    .toLowerCase();
  return role === 'system' || role === 'developer' ? role : null;
}

/**
 * Sanitize's own steps (1-3): drop system messages, unsafe media parts and (with `dropSystem`, as
 * only sanitize does) parts that reference stored content, remove user messages left empty.
 */
function filterUntrusted(
  messages: readonly Message[],
  dropSystem: boolean,
  allow?: string,
): Filtered {
  const out: Filtered = {
    kept: [],
    keptIndex: [],
    keptParts: [],
    systemMessages: [],
    unsafeParts: [],
    serverReferences: [],
    removedMessages: [],
    providerDataDropped: [],
  };
  const callIds = dropSystem ? historyCallIds(messages) : undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const role = dropSystem ? systemRole(m) : null;
    if (role !== null) {
      out.systemMessages.push({ messageIndex: i, role });
      continue;
    }
    let parts: Part[] | null = null;
    let partMap: number[] | undefined;
    for (let j = 0; j < m.parts.length; j++) {
      let part = m.parts[j]!;
      const scheme = unsafeMediaScheme(part, allow);
      const reference = scheme === null && dropSystem ? serverReferenceKind(part, callIds) : null;
      if (scheme !== null || reference !== null) {
        if (scheme !== null) out.unsafeParts.push(unsafeEntry(i, j, undefined, part.type, scheme));
        else out.serverReferences.push(referenceEntry(i, j, undefined, reference!));
        if (parts === null) {
          parts = m.parts.slice(0, j);
          partMap = parts.map((_, k) => k);
        }
        continue;
      }
      if (part.type === 'tool-result' && Array.isArray(part.content)) {
        const content = part.content;
        let keptContent: JsonValue[] | null = null;
        for (let c = 0; c < content.length; c++) {
          const item = content[c];
          // A tool result nested in the content counts by every part inside it.
          const itemScheme = isPartLike(item) ? unsafeContentScheme(item, allow) : null;
          const itemReference =
            itemScheme === null && dropSystem ? contentServerReferenceKind(item) : null;
          if (itemScheme !== null) {
            out.unsafeParts.push(unsafeEntry(i, j, c, (item as Part).type, itemScheme));
            if (keptContent === null) keptContent = content.slice(0, c);
          } else if (itemReference !== null) {
            out.serverReferences.push(referenceEntry(i, j, c, itemReference));
            if (keptContent === null) keptContent = content.slice(0, c);
          } else if (keptContent !== null) {
            keptContent.push(item!);
          }
        }
        if (keptContent !== null) {
          part = { ...part, content: keptContent };
          if (parts === null) {
            parts = m.parts.slice(0, j);
            partMap = parts.map((_, k) => k);
          }
        }
      }
      if (parts !== null) {
        parts.push(part);
        partMap!.push(j);
      }
    }
    // A message's own providerData only shapes how it is written; one that keeps an unsafe URL
    // (content a writer would put back) or names an uploaded file (a server-side reference) is
    // dropped.
    const stripped =
      unsafeKeptScheme(m.providerData, allow) !== null ||
      (dropSystem && holdsFileId(m.providerData));
    if (stripped) out.providerDataDropped.push(i);
    const base: Message = stripped ? withoutProviderData(m) : m;
    if (parts === null) {
      out.kept.push(base);
      out.keptParts.push(undefined);
    } else if (parts.length === 0 && m.role === 'user') {
      out.removedMessages.push(i);
      continue;
    } else {
      out.kept.push({ ...base, parts });
      out.keptParts.push(partMap);
    }
    out.keptIndex.push(i);
  }
  return out;
}

/** Drops system messages and non-http(s) media URLs, then normalizes pairing. */
export function sanitizeHistory(
  messages: readonly Message[],
  options: SanitizeOptions = {},
): SanitizeResult {
  const f = filterUntrusted(messages, true);
  const dropCalls = options.dropUnresolvedCalls === true;
  const droppedCalls = dropCalls ? dropUnresolvedCalls(f, options) : [];
  const normalized = normalizeMapped(
    f.kept,
    { messages: f.keptIndex, parts: f.keptParts },
    // The resolved calls left in the last assistant message get their result now, so a second
    // run finds nothing to drop.
    dropCalls ? { ...options, leavePending: false } : options,
  );
  const report: SanitizeReport = {
    systemPrompts: f.systemMessages.length,
    systemMessages: f.systemMessages,
    unsafeParts: f.unsafeParts,
    removedMessages: f.removedMessages,
    ...(f.providerDataDropped.length > 0 ? { providerDataDropped: f.providerDataDropped } : {}),
    droppedCalls,
    serverReferences: f.serverReferences,
    repair: normalized.repair,
  };
  const changed =
    report.systemPrompts > 0 ||
    report.unsafeParts.length > 0 ||
    report.serverReferences.length > 0 ||
    report.removedMessages.length > 0 ||
    f.providerDataDropped.length > 0 ||
    droppedCalls.length > 0 ||
    normalized.changed;
  return { messages: normalized.messages, report, changed };
}

/**
 * Sanitizes a conversation read with its kept request data (a conversation's `providerData`):
 * the messages as {@link sanitizeHistory} does, and the request fields that load stored content
 * (`previous_response_id`, ...) dropped from `providerData` and listed first in
 * `serverReferences`. `providerData` is the new value (the one given when nothing was dropped).
 */
export function sanitizeConversation(
  messages: readonly Message[],
  providerData: unknown,
  options: SanitizeOptions = {},
): SanitizeResult & { providerData: unknown } {
  const r = sanitizeHistory(messages, options);
  const request = withoutServerReferences(providerData);
  if (request.dropped.length === 0) return { ...r, providerData };
  const fields: ServerReference[] = request.dropped.map((field) => ({ field }));
  const report = { ...r.report, serverReferences: [...fields, ...r.report.serverReferences] };
  return { messages: r.messages, report, changed: true, providerData: request.providerData };
}

/**
 * Removes from `f` the calls of its last assistant message that no result answers (by the ordered
 * pairing, SPEC §2.1) and that `options.resolved` does not name, and that message when nothing is
 * left in it. Calls sharing one id in the message are one call: all of them go.
 */
function dropUnresolvedCalls(f: Filtered, options: SanitizeOptions): DroppedCall[] {
  let last = f.kept.length - 1;
  while (last >= 0 && f.kept[last]!.role !== 'assistant') last--;
  // The pairing walk covers the whole history: skip it when there is no call to drop.
  if (last === -1 || !f.kept[last]!.parts.some((p) => p.type === 'tool-call')) return [];
  const resolved = new Set(options.resolved ?? []);
  const ids = new Set<string>();
  for (const call of analyzePairing(f.kept, options).unanswered)
    if (call.position === last && !resolved.has(call.id!)) ids.add(call.id!);
  if (ids.size === 0) return [];
  const m = f.kept[last]!;
  const partMap = f.keptParts[last];
  const messageIndex = f.keptIndex[last]!;
  const dropped: DroppedCall[] = [];
  const parts: Part[] = [];
  const keptFrom: number[] = [];
  for (let j = 0; j < m.parts.length; j++) {
    const part = m.parts[j]!;
    const partIndex = partMap?.[j] ?? j;
    if (part.type === 'tool-call' && typeof part.id === 'string' && ids.has(part.id)) {
      const entry: DroppedCall = { callId: part.id } as DroppedCall;
      if (typeof part.name === 'string') entry.name = part.name;
      entry.messageIndex = messageIndex;
      entry.partIndex = partIndex;
      dropped.push(entry);
    } else {
      parts.push(part);
      keptFrom.push(partIndex);
    }
  }
  if (parts.length > 0) {
    f.kept[last] = { ...m, parts };
    f.keptParts[last] = keptFrom;
    return dropped;
  }
  f.kept.splice(last, 1);
  f.keptIndex.splice(last, 1);
  f.keptParts.splice(last, 1);
  // User messages after it may have been removed already: keep the list in input order.
  let at = f.removedMessages.length;
  while (at > 0 && f.removedMessages[at - 1]! > messageIndex) at--;
  f.removedMessages.splice(at, 0, messageIndex);
  return dropped;
}

/**
 * Only the `unsafe-url` fix: drops image/document parts with a non-http(s)
 * URL (also inside tool-result content) and user messages left empty. The
 * `allow` scheme is kept (a provider's own storage, under its target).
 */
export function dropUnsafeMedia(
  messages: readonly Message[],
  allow?: string,
): {
  messages: Message[];
  unsafeParts: UnsafePart[];
  removedMessages: number[];
  changed: boolean;
} {
  const f = filterUntrusted(messages, false, allow);
  const changed = f.unsafeParts.length > 0 || f.providerDataDropped.length > 0;
  return {
    messages: changed ? f.kept : messages.slice(),
    unsafeParts: f.unsafeParts,
    removedMessages: f.removedMessages,
    changed,
  };
}

/** A copy of a message without its providerData (the other fields in their order). */
function withoutProviderData(m: Message): Message {
  const out = {} as Message;
  for (const key of Object.keys(m))
    if (key !== 'providerData')
      setOwn(out as unknown as JsonObject, key, (m as unknown as JsonObject)[key]!);
  return out;
}

/** Only the `system-message` fix: drops every system message. */
export function dropSystemMessages(messages: readonly Message[]): {
  messages: Message[];
  systemPrompts: number;
  changed: boolean;
} {
  const kept = messages.filter((m) => !isSystemPrompt(m));
  return {
    messages: kept,
    systemPrompts: messages.length - kept.length,
    changed: kept.length !== messages.length,
  };
}

function isPartLike(v: JsonValue | undefined): v is Part {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Part).type === 'string'
  );
}
