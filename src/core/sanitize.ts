/**
 * sanitize: strip what a client must not assert in a history that crossed a
 * trust boundary (SPEC §2.2). It narrows what a client can claim; it does
 * not authenticate anyone.
 */
import { setOwn, type JsonObject, type JsonValue } from '../model/json.js';
import type { Message, Part } from '../model/types.js';
import { normalizeMapped, type HistoryRepair, type NormalizeOptions } from './normalize.js';
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

/** What sanitize removed (`SanitizeReport`, SPEC §5.3). */
export interface SanitizeReport {
  /** How many system messages were dropped. */
  systemPrompts: number;
  unsafeParts: UnsafePart[];
  /** Input indices of user messages left empty by the URL drops, and removed. */
  removedMessages: number[];
  /**
   * Input indices of messages whose own providerData kept an unsafe URL (content a writer would
   * put back): their providerData is dropped. Absent when there are none.
   */
  providerDataDropped?: number[];
  /** The report of the normalize step. */
  repair: HistoryRepair;
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
  systemPrompts: number;
  unsafeParts: UnsafePart[];
  removedMessages: number[];
  providerDataDropped: number[];
}

/**
 * True for a message that speaks with operator authority: a `system` message, or one with
 * OpenAI's `developer` role (not a v1 role, but a provider would read it as the system prompt).
 */
export function isSystemPrompt(m: { role: string }): boolean {
  // Spelled in any case or with spaces or controls around: some servers take it so.
  const role = m.role
    .replace(/^[\s\u0000-\u001f\u007f-\u009f]+|[\s\u0000-\u001f\u007f-\u009f]+$/g, '')
    .toLowerCase();
  return role === 'system' || role === 'developer';
}

/** Sanitize's own steps (1-3): drop system messages and unsafe media parts, remove user messages left empty. */
function filterUntrusted(
  messages: readonly Message[],
  dropSystem: boolean,
  allow?: string,
): Filtered {
  const out: Filtered = {
    kept: [],
    keptIndex: [],
    keptParts: [],
    systemPrompts: 0,
    unsafeParts: [],
    removedMessages: [],
    providerDataDropped: [],
  };
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (dropSystem && isSystemPrompt(m)) {
      out.systemPrompts++;
      continue;
    }
    let parts: Part[] | null = null;
    let partMap: number[] | undefined;
    for (let j = 0; j < m.parts.length; j++) {
      let part = m.parts[j]!;
      const scheme = unsafeMediaScheme(part, allow);
      if (scheme !== null) {
        out.unsafeParts.push(unsafeEntry(i, j, undefined, part.type, scheme));
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
          if (itemScheme !== null) {
            out.unsafeParts.push(unsafeEntry(i, j, c, (item as Part).type, itemScheme));
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
    // (content a writer would put back) is dropped.
    const stripped = unsafeKeptScheme(m.providerData, allow) !== null;
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
  options: NormalizeOptions = {},
): SanitizeResult {
  const f = filterUntrusted(messages, true);
  const normalized = normalizeMapped(
    f.kept,
    { messages: f.keptIndex, parts: f.keptParts },
    options,
  );
  const report: SanitizeReport = {
    systemPrompts: f.systemPrompts,
    unsafeParts: f.unsafeParts,
    removedMessages: f.removedMessages,
    ...(f.providerDataDropped.length > 0 ? { providerDataDropped: f.providerDataDropped } : {}),
    repair: normalized.repair,
  };
  const changed =
    report.systemPrompts > 0 ||
    report.unsafeParts.length > 0 ||
    report.removedMessages.length > 0 ||
    f.providerDataDropped.length > 0 ||
    normalized.changed;
  return { messages: normalized.messages, report, changed };
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
