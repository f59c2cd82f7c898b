/**
 * The timeline of `histlint show`: each message and part of one
 * conversation, every tool call linked to its result (or marked when it
 * cannot be), as data for `--format json` and as lines for a terminal.
 */
import type { ChalkInstance } from 'chalk';
import { analyzePairing } from '../core/pairing.js';
import { urlScheme } from '../core/url.js';
import type { Finding } from '../lint/engine.js';
import type { JsonValue } from '../model/json.js';
import { isObject, type Message, type Part } from '../model/types.js';
import { displayWidth, label, preview, terminalSafe } from './terminal-text.js';

/** Where a linked part is: its message index and part index. */
export interface PartRef {
  to: number;
  part: number;
}

/**
 * Why a call or result is not paired: `no-result` (a call no result answers),
 * `orphan` (no call has the result's id), `before-call` (the result comes
 * before its call), `duplicate` (another result already answers the call),
 * `unpairable` (a call without `id`, a result without `callId`).
 */
export type PairingMark = 'no-result' | 'orphan' | 'before-call' | 'duplicate' | 'unpairable';

/** One part in the timeline: its kind, the fields that identify it, and its pairing. */
export interface TimelinePart {
  index: number;
  type: string;
  /** A tool call's `id`. */
  id?: string;
  /** A tool call's or tool result's `name`. */
  name?: string;
  /** A tool result's `callId`. */
  callId?: string;
  /** A tool result's `failed` flag, when present. */
  failed?: boolean;
  /** An image's or document's URL scheme, lower-cased (`""` when the URL has none). */
  scheme?: string;
  /** An image's or document's `mediaType`. */
  mediaType?: string;
  /** An image or document that carries inline `data`. */
  inline?: boolean;
  /** A reasoning part with a `signature`. */
  signed?: boolean;
  /** A reasoning part with `redacted` content. */
  redacted?: boolean;
  /** A paired call: its result; a paired result: its call. */
  link?: PartRef;
  /** Why the call or result is not paired. */
  mark?: PairingMark;
  /** For a result marked `before-call` or `duplicate`: the call it names. */
  call?: PartRef;
}

/** One message in the timeline. */
export interface TimelineMessage {
  index: number;
  role: string;
  name?: string;
  runId?: string;
  conversationId?: string;
  parts: TimelinePart[];
}

function str(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

/** The timeline of one conversation, as data. */
export function buildTimeline(messages: readonly Message[]): TimelineMessage[] {
  const pairing = analyzePairing(messages);
  const pairs = new Map<string, Pick<TimelinePart, 'link' | 'mark' | 'call'>>();
  const key = (m: number, p: number): string => `${m}/${p}`;
  const ref = (r: { position: number; partIndex: number }): PartRef => ({
    to: r.position,
    part: r.partIndex,
  });
  for (const r of pairing.results) {
    if (r.status === 'answer') pairs.set(key(r.position, r.partIndex), { link: ref(r.call!) });
    else if (r.status === 'before-call' || r.status === 'duplicate')
      pairs.set(key(r.position, r.partIndex), { mark: r.status, call: ref(r.call!) });
    else pairs.set(key(r.position, r.partIndex), { mark: r.status });
  }
  for (const c of pairing.calls) {
    // Calls sharing an id in one message count as one call (SPEC §2.1): each shows its result.
    const answer = (c.idUse === 'same-message' ? c.earlier! : c).answer;
    pairs.set(
      key(c.position, c.partIndex),
      c.id === undefined
        ? { mark: 'unpairable' }
        : answer === undefined
          ? { mark: 'no-result' }
          : { link: ref(answer) },
    );
  }
  return messages.map((m, i) => {
    const parts: TimelinePart[] = [];
    m.parts.forEach((p, j) => {
      const part: TimelinePart = { index: j, type: p.type };
      if (p.type === 'tool-call') {
        if (typeof p.id === 'string') part.id = p.id;
        if (typeof p.name === 'string') part.name = p.name;
      } else if (p.type === 'tool-result') {
        if (typeof p.callId === 'string') part.callId = p.callId;
        if (typeof p.name === 'string') part.name = p.name;
        if (typeof p.failed === 'boolean') part.failed = p.failed;
      } else if (p.type === 'image' || p.type === 'document') {
        if (typeof p.url === 'string') part.scheme = urlScheme(p.url);
        if (typeof p.mediaType === 'string') part.mediaType = p.mediaType;
        if (typeof p.data === 'string') part.inline = true;
      } else if (p.type === 'reasoning') {
        if (p.signature !== undefined) part.signed = true;
        if (p.redacted !== undefined) part.redacted = true;
      }
      Object.assign(part, pairs.get(key(i, j)));
      parts.push(part);
    });
    // Parts last, so the message's own fields stay in view in a long listing.
    return {
      index: i,
      role: m.role,
      ...(typeof m.name === 'string' ? { name: m.name } : {}),
      ...(typeof m.runId === 'string' ? { runId: m.runId } : {}),
      ...(typeof m.conversationId === 'string' ? { conversationId: m.conversationId } : {}),
      parts,
    };
  });
}

/** How a media item's source reads: its scheme, or inline data. */
function mediaSource(part: Part): string {
  const parts: string[] = [];
  if (typeof part.url === 'string') {
    const scheme = urlScheme(part.url);
    parts.push(scheme === '' ? '(no scheme)' : `${label(scheme)}:`);
  }
  if (typeof part.data === 'string') parts.push(`inline data (${part.data.length} base64 chars)`);
  return parts.length === 0 ? '(no url or data)' : parts.join(' + ');
}

/** The text of a tool result's content, media shown by kind and scheme. */
function contentText(content: JsonValue | undefined): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((c) => {
      if (!isObject(c)) return '';
      if (c.type === 'text' && typeof c.text === 'string') return c.text;
      if (c.type === 'image' || c.type === 'document')
        return `[${c.type} ${mediaSource(c as Part)}]`;
      return `[${str(c.type) || '?'}]`;
    })
    .join(' ');
}

/** A part's line: what comes before the preview, and the text the preview shows (if any). */
function describePart(part: Part): { head: string; text?: string } {
  switch (part.type) {
    case 'text':
      return { head: 'text', text: str(part.text) };
    case 'reasoning': {
      const flags = [
        part.signature !== undefined ? 'signed' : '',
        part.redacted !== undefined ? 'redacted' : '',
      ].filter(Boolean);
      return {
        head: `reasoning${flags.length ? ` (${flags.join(', ')})` : ''}`,
        text: str(part.text),
      };
    }
    case 'tool-call':
      return {
        head: `tool-call ${typeof part.id === 'string' ? label(part.id) : '(no id)'} ${typeof part.name === 'string' ? label(part.name) : '(no name)'}`,
        text: str(part.arguments),
      };
    case 'tool-result':
      return {
        head: `tool-result ${typeof part.callId === 'string' ? label(part.callId) : '(no callId)'}${typeof part.name === 'string' ? ` ${label(part.name)}` : ''}${part.failed === true ? ' failed' : ''}`,
        text: contentText(part.content),
      };
    case 'image':
    case 'document': {
      const media = typeof part.mediaType === 'string' ? `${label(part.mediaType)} ` : '';
      const head = `${part.type} ${media}${mediaSource(part)}`;
      return typeof part.url === 'string' ? { head, text: part.url } : { head };
    }
    default:
      return { head: `${label(part.type)} (unknown part type)` };
  }
}

/** The text of a pairing mark, and whether it is a problem. */
function pairingText(part: TimelinePart): { text: string; bad: boolean } | undefined {
  const call = part.type === 'tool-call';
  if (part.link !== undefined)
    return {
      text: call ? `→ result in #${part.link.to}` : `← call in #${part.link.to}`,
      bad: false,
    };
  switch (part.mark) {
    case 'no-result':
      return { text: '→ no result', bad: true };
    case 'orphan':
      return { text: '← orphan', bad: true };
    case 'before-call':
      return { text: `← before its call (in #${part.call!.to})`, bad: true };
    case 'duplicate':
      return { text: `← duplicate (call in #${part.call!.to})`, bad: true };
    default:
      return undefined;
  }
}

/** How much of each part's text `renderTimeline` shows. */
export interface TimelineWidth {
  /** Columns of text per part (`--width`). */
  text?: number;
  /** Fit every part line into this many terminal columns (when `text` is not set). */
  columns?: number;
}

/** Columns of text worth giving up the run stamp for. */
const ROOMY_PREVIEW = 12;
/** Fewer columns than this show no text at all (a terminal too narrow for it). */
const MIN_PREVIEW = 4;

/** Renders one conversation as terminal lines: `#index role part`, pairing marks, findings below their part. */
export function renderTimeline(
  messages: readonly Message[],
  findings: readonly Finding[],
  c: ChalkInstance,
  width: TimelineWidth = {},
): string[] {
  const timeline = buildTimeline(messages);
  const byPlace = new Map<string, Finding[]>();
  const placed = new Set<Finding>();
  for (const f of findings) {
    if (f.messageIndex === undefined) continue;
    const k = `${f.messageIndex}/${f.partIndex ?? ''}`;
    const list = byPlace.get(k) ?? [];
    list.push(f);
    byPlace.set(k, list);
  }
  const mark = (f: Finding): string => {
    placed.add(f);
    return `${f.severity === 'error' ? c.red('✖') : c.yellow('⚠')} ${terminalSafe(f.message.replace(/\r?\n/g, ' '))} ${c.dim(`(${f.ruleId}, ${f.line}:${f.column})`)}`;
  };
  const out: string[] = [];
  const indexWidth = String(Math.max(messages.length - 1, 0)).length + 1;
  const pad = ' '.repeat(indexWidth + 13);
  messages.forEach((m, i) => {
    const role = terminalSafe(m.role);
    const headPlain = `${('#' + i).padStart(indexWidth)}  ${role.padEnd(9)}  `;
    const head = `${c.dim(('#' + i).padStart(indexWidth))}  ${c.bold(role.padEnd(9))}  `;
    const stamp = [
      typeof m.name === 'string' ? `name=${label(m.name)}` : '',
      typeof m.runId === 'string' ? `run ${terminalSafe(m.runId.slice(0, 13))}…` : '',
    ]
      .filter(Boolean)
      .join(' ');
    if (m.parts.length === 0)
      out.push(`${head}${c.dim('(no parts)')}${stamp ? c.dim('  ' + stamp) : ''}`);
    m.parts.forEach((p, j) => {
      const { head: what, text } = describePart(p);
      const pairing = pairingText(timeline[i]!.parts[j]!);
      const lead = `${j === 0 ? headPlain : pad}${what}${pairing ? '  ' + pairing.text : ''}`;
      let withStamp = j === 0 && stamp !== '';
      let shown = '';
      if (text !== undefined) {
        let budget = width.text ?? 60;
        if (width.text === undefined && width.columns !== undefined) {
          // The quotes and the space before them are fixed; the text gets what is left.
          const room = (extra: string): number =>
            width.columns! - displayWidth(`${lead} ""${extra}`);
          budget = room(withStamp ? '  ' + stamp : '');
          if (budget < ROOMY_PREVIEW && withStamp) {
            // A narrow terminal gives up the run stamp before the text.
            withStamp = false;
            budget = room('');
          }
        }
        // Too narrow for any useful text: the ids, names and marks are what matter.
        if (width.text !== undefined ? width.text > 0 : budget >= MIN_PREVIEW)
          shown = ' ' + preview(text, budget);
      }
      const linkText =
        pairing === undefined
          ? ''
          : '  ' + (pairing.bad ? c.red(pairing.text) : c.green(pairing.text));
      out.push(
        `${j === 0 ? head : pad}${what}${shown}${linkText}${withStamp ? c.dim('  ' + stamp) : ''}`,
      );
      for (const f of byPlace.get(`${i}/${j}`) ?? []) out.push(`${pad}  ${mark(f)}`);
    });
    for (const f of byPlace.get(`${i}/`) ?? []) out.push(`${pad}  ${mark(f)}`);
  });
  // Findings not tied to a message, or to a part this timeline does not have, come last.
  for (const f of findings) if (!placed.has(f)) out.push(mark(f));
  return out;
}
