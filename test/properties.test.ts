/**
 * Properties of the core operations (SPEC §2) over random v1 histories:
 * idempotency, pairing after normalize, nothing lost, what sanitize removes
 * and keeps, the trim head rule, determinism, write -> read, and newId.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newId, isUuid } from '../src/core/ids.js';
import { analyzePairing, pairsCleanly } from '../src/core/pairing.js';
import { turnOrderProblems } from '../src/core/turn-order.js';
import {
  INTERRUPTED_TEXT,
  normalizeHistory,
  type NormalizeOptions,
} from '../src/core/normalize.js';
import { sanitizeHistory } from '../src/core/sanitize.js';
import { messageTokens, type TokenCounter } from '../src/core/tokens.js';
import { budgetHistory, TrimError, trimHistory, type TrimResult } from '../src/core/trim.js';
import { urlScheme } from '../src/core/url.js';
import { readDocument, serializeDocument } from '../src/formats/kit/document.js';
import { jsonEqual, parseJson, stringifyJson, type JsonValue } from '../src/model/json.js';
import { shapeProblem, type Message, type Part } from '../src/model/types.js';
import {
  conversationArb,
  messagesArb,
  urlArb,
  CALL_IDS,
  EXTRA_KEYS,
} from './helpers/arbitraries.js';

const RUNS = { numRuns: 300 };
const TAG = 'x-test-tag';

/** Marks each message with its input index in an extra field (extra fields survive every operation). */
const tagged = (messages: readonly Message[]): Message[] =>
  messages.map((m, i) => ({ ...m, [TAG]: i }) as Message);

const tagOf = (m: Message): number | undefined =>
  typeof m[TAG] === 'number' ? (m[TAG] as number) : undefined;

const optionsArb: fc.Arbitrary<NormalizeOptions> = fc.record(
  {
    duplicates: fc.constantFrom('keep-first' as const, 'keep-last' as const),
    leavePending: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** True when `text` is the JSON text of an object. */
function isObjectText(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

/** The scheme a browser reads (WHATWG URL where it parses; the scheme state otherwise). */
function browserScheme(url: string): string {
  try {
    return new URL(url).protocol.slice(0, -1);
  } catch {
    const cleaned = url
      .replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
      .replace(/[\t\n\r]/g, '');
    const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(cleaned);
    return m === null ? '' : m[1]!.toLowerCase();
  }
}

/** A media part whose `url` a sanitized history must not hold. */
function isUnsafeMedia(p: JsonValue | undefined): boolean {
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return false;
  const part = p as Part;
  // A `url` makes a part of any type media (`audio`, `video`, ...), not only image and document.
  if (typeof part.url !== 'string') return false;
  const scheme = browserScheme(part.url);
  return scheme !== 'http' && scheme !== 'https';
}

interface Ref {
  pos: number;
  part: number;
  id: string;
}

/** Calls and results with string ids, in order. */
function pairingRefs(messages: readonly Message[]): { calls: Ref[]; results: Ref[] } {
  const calls: Ref[] = [];
  const results: Ref[] = [];
  messages.forEach((m, pos) =>
    m.parts.forEach((p, part) => {
      if (p.type === 'tool-call' && typeof p.id === 'string') calls.push({ pos, part, id: p.id });
      if (p.type === 'tool-result' && typeof p.callId === 'string')
        results.push({ pos, part, id: p.callId });
    }),
  );
  return { calls, results };
}

const before = (a: Ref, b: Ref): boolean => a.pos < b.pos || (a.pos === b.pos && a.part < b.part);

/** A call as pairing counts it: the first call of its id in its message, with the span it is open over. */
interface Span {
  call: Ref;
  /** The next such call of the same id, which ends the span (absent: the span runs to the end). */
  next?: Ref;
  /** The results with its id inside the span, in order. */
  results: Ref[];
}

/**
 * SPEC §2.1 stated without a walk, as an oracle for the pairing index: each
 * call (one per id per message) is open from itself to the next call of its
 * id; the results of its id in that span are its answer (the first, or with
 * keep-last the last) and duplicates; a result before every call of its id
 * is before-call when such a call comes later, else an orphan.
 */
function spansOf(messages: readonly Message[]): { spans: Span[]; outside: Ref[] } {
  const { calls, results } = pairingRefs(messages);
  const counted = calls.filter(
    (c, k) => !calls.slice(0, k).some((o) => o.id === c.id && o.pos === c.pos),
  );
  const spans: Span[] = counted.map((call) => ({
    call,
    next: counted.find((o) => o.id === call.id && before(call, o)),
    results: [],
  }));
  const outside: Ref[] = [];
  for (const r of results) {
    const span = spans.find(
      (s) => s.call.id === r.id && before(s.call, r) && (s.next === undefined || before(r, s.next)),
    );
    if (span === undefined) outside.push(r);
    else span.results.push(r);
  }
  return { spans, outside };
}

/** Sorted by message index, then part index (then content index). */
function expectInputOrder(
  list: { messageIndex: number; partIndex: number; contentIndex?: number }[],
): void {
  for (let k = 1; k < list.length; k++) {
    const a = list[k - 1]!;
    const b = list[k]!;
    const order =
      a.messageIndex - b.messageIndex ||
      a.partIndex - b.partIndex ||
      (a.contentIndex ?? -1) - (b.contentIndex ?? -1);
    expect(order).toBeLessThan(0);
  }
}

describe('arbitraries', () => {
  it('produce histories every operation accepts, with every part type, role and pairing case', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(messagesArb(), (messages) => {
        expect(shapeProblem(messages)).toBeNull();
        for (const m of messages) {
          seen.add(`role:${m.role}`);
          for (const p of m.parts) seen.add(`type:${p.type}`);
        }
        const r = normalizeHistory(messages);
        for (const d of r.repair.dropped) seen.add(`drop:${d.reason}`);
        if (r.repair.synthesized.length > 0) seen.add('synthesized');
        if (r.repair.truncated.length > 0) seen.add('truncated');
        for (const c of analyzePairing(messages).calls) if (c.idUse) seen.add(`id:${c.idUse}`);
      }),
      { numRuns: 500 },
    );
    for (const want of [
      'role:system',
      'role:user',
      'role:assistant',
      'role:tool',
      'type:text',
      'type:image',
      'type:document',
      'type:tool-call',
      'type:tool-result',
      'type:reasoning',
      'type:audio',
      'drop:orphan',
      'drop:before-call',
      'drop:duplicate',
      'synthesized',
      'truncated',
      'id:first',
      'id:same-message',
      'id:reopened',
      'id:reused',
    ]) {
      expect(seen.has(want), want).toBe(true);
    }
    expect(CALL_IDS.length).toBeGreaterThan(1);
    expect(EXTRA_KEYS).not.toContain(TAG);
  });
});

describe('normalize', () => {
  it('is idempotent: a second run changes nothing and re-lists only the same truncated calls', () => {
    fc.assert(
      fc.property(messagesArb(), optionsArb, (input, options) => {
        const first = normalizeHistory(tagged(input), options);
        const second = normalizeHistory(first.messages, options);
        expect(second.changed).toBe(false);
        expect(jsonEqual(second.messages, first.messages)).toBe(true);
        expect(second.repair.synthesized).toEqual([]);
        expect(second.repair.dropped).toEqual([]);
        expect(second.repair.truncated).toHaveLength(first.repair.truncated.length);
        second.repair.truncated.forEach((t, k) => {
          const f = first.repair.truncated[k]!;
          // Indices differ (each run reports its own input's), the call is the same one.
          const { messageIndex: _tm, partIndex: _tp, ...tRest } = t;
          const { messageIndex: _fm, partIndex: _fp, ...fRest } = f;
          expect(tRest).toEqual(fRest);
          expect(tagOf(first.messages[t.messageIndex]!)).toBe(f.messageIndex);
          expect(first.messages[t.messageIndex]!.parts[t.partIndex]).toEqual(
            input[f.messageIndex]!.parts[f.partIndex],
          );
        });
      }),
      RUNS,
    );
  });

  it('leaves every call with an id exactly one result in its span, and no result outside one', () => {
    fc.assert(
      fc.property(
        messagesArb(),
        fc.constantFrom('keep-first' as const, 'keep-last' as const),
        (input, duplicates) => {
          const { messages } = normalizeHistory(input, { duplicates });
          const { spans, outside } = spansOf(messages);
          for (const s of spans) expect(s.results, s.call.id).toHaveLength(1);
          expect(outside).toEqual([]);
        },
      ),
      RUNS,
    );
  });

  it('never drops a result that answers a call, and keeps the one the option names', () => {
    fc.assert(
      fc.property(
        messagesArb(),
        fc.constantFrom('keep-first' as const, 'keep-last' as const),
        (input, duplicates) => {
          const { repair } = normalizeHistory(input, { duplicates });
          const dropped = new Set(repair.dropped.map((d) => `${d.messageIndex}/${d.partIndex}`));
          for (const s of spansOf(input).spans) {
            if (s.results.length === 0) continue;
            const kept = duplicates === 'keep-last' ? s.results.at(-1)! : s.results[0]!;
            expect(dropped.has(`${kept.pos}/${kept.part}`)).toBe(false);
          }
        },
      ),
      RUNS,
    );
  });

  it('drops only tool-result parts and emptied tool messages, and changes nothing else', () => {
    fc.assert(
      fc.property(messagesArb(), optionsArb, (raw, options) => {
        const input = tagged(raw);
        const { messages, repair, changed } = normalizeHistory(input, options);
        const dropped = new Map<number, Set<number>>();
        for (const d of repair.dropped) {
          const part = input[d.messageIndex]!.parts[d.partIndex]!;
          expect(part.type).toBe('tool-result');
          expect(part.callId).toBe(d.callId);
          if (!dropped.has(d.messageIndex)) dropped.set(d.messageIndex, new Set());
          dropped.get(d.messageIndex)!.add(d.partIndex);
        }
        const present = new Map<number, Message>();
        let lastTag = -1;
        let synthesizedParts = 0;
        messages.forEach((m, pos) => {
          const tag = tagOf(m);
          if (tag === undefined) {
            // A synthesized message: exactly the SPEC §2.1 shape, right after its assistant message.
            expect(Object.keys(m).sort()).toEqual(['parts', 'role']);
            expect(m.role).toBe('tool');
            expect(pos).toBeGreaterThan(0);
            const owner = tagOf(messages[pos - 1]!);
            for (const p of m.parts) {
              const entry = repair.synthesized[synthesizedParts++]!;
              expect(entry.assistantIndex).toBe(owner);
              const expected: Part = { type: 'tool-result', callId: entry.callId };
              if (entry.name !== undefined) expected.name = entry.name;
              expected.content = [{ type: 'text', text: INTERRUPTED_TEXT }];
              expect(p).toEqual(expected);
              expect(Object.keys(p)).toEqual(Object.keys(expected));
            }
            return;
          }
          expect(tag).toBeGreaterThan(lastTag);
          lastTag = tag;
          present.set(tag, m);
        });
        expect(synthesizedParts).toBe(repair.synthesized.length);
        input.forEach((m, i) => {
          const drop = dropped.get(i) ?? new Set<number>();
          const out = present.get(i);
          if (out === undefined) {
            expect(m.role).toBe('tool');
            expect(m.parts.length).toBeGreaterThan(0);
            expect(drop.size).toBe(m.parts.length);
            return;
          }
          const { parts: outParts, ...outRest } = out;
          const { parts: inParts, ...inRest } = m;
          expect(jsonEqual(outRest, inRest)).toBe(true);
          expect(
            jsonEqual(
              outParts,
              inParts.filter((_, j) => !drop.has(j)),
            ),
          ).toBe(true);
        });
        expect(changed).toBe(repair.dropped.length + repair.synthesized.length > 0);
      }),
      RUNS,
    );
  });

  it("with leavePending, leaves only the trailing assistant message's unanswered calls alone", () => {
    fc.assert(
      fc.property(messagesArb(), (raw) => {
        const input = tagged(raw);
        const full = normalizeHistory(input);
        const pending = normalizeHistory(input, { leavePending: true });
        // Decide on the fully repaired output: its last assistant message, followed only by its own results?
        const out = full.messages;
        let last = out.length - 1;
        while (last >= 0 && out[last]!.role !== 'assistant') last--;
        let holds = last >= 0;
        if (holds) {
          const ids = new Set(
            out[last]!.parts.filter((p) => p.type === 'tool-call' && typeof p.id === 'string').map(
              (p) => p.id,
            ),
          );
          holds =
            ids.size > 0 &&
            out
              .slice(last + 1)
              .every(
                (m) =>
                  m.role === 'tool' &&
                  m.parts.every((p) => p.type === 'tool-result' && ids.has(p.callId as string)),
              );
        }
        const at = holds ? tagOf(out[last]!) : undefined;
        expect(pending.repair.dropped).toEqual(full.repair.dropped);
        expect(pending.repair.truncated).toEqual(full.repair.truncated);
        expect(pending.repair.synthesized).toEqual(
          full.repair.synthesized.filter((s) => s.assistantIndex !== at),
        );
        const expected = out.filter(
          (m, pos) =>
            !(tagOf(m) === undefined && pos > 0 && tagOf(out[pos - 1]!) === at && at !== undefined),
        );
        expect(jsonEqual(pending.messages, expected)).toBe(true);
      }),
      RUNS,
    );
  });

  it('reports in input order, with the right reasons, syntheses and truncated calls', () => {
    fc.assert(
      fc.property(messagesArb(), (input) => {
        const { repair } = normalizeHistory(input);
        const { spans, outside } = spansOf(input);
        const { calls } = pairingRefs(input);

        expectInputOrder(repair.dropped);
        expectInputOrder(repair.truncated);
        for (let k = 1; k < repair.synthesized.length; k++) {
          expect(repair.synthesized[k]!.assistantIndex).toBeGreaterThanOrEqual(
            repair.synthesized[k - 1]!.assistantIndex,
          );
        }

        // Reasons: no call at all, a call only later, or a second result in one span.
        const reasonAt = new Map(
          repair.dropped.map((d) => [`${d.messageIndex}/${d.partIndex}`, d.reason]),
        );
        const reasons = new Map<string, string>();
        for (const r of outside)
          reasons.set(
            `${r.pos}/${r.part}`,
            calls.some((c) => c.id === r.id) ? 'before-call' : 'orphan',
          );
        for (const s of spans)
          for (const r of s.results.slice(1)) reasons.set(`${r.pos}/${r.part}`, 'duplicate');
        expect(reasonAt).toEqual(reasons);
        // Every call with no result in its span, and only those, is synthesized once, in order.
        const unanswered = spans.filter((s) => s.results.length === 0).map((s) => s.call);
        expect(repair.synthesized.map((s) => s.callId)).toEqual(unanswered.map((c) => c.id));
        expect(repair.synthesized.map((s) => s.assistantIndex)).toEqual(
          unanswered.map((c) => c.pos),
        );

        // Truncated: every call whose string arguments are not an object's text, in order.
        const expected: unknown[] = [];
        input.forEach((m, i) =>
          m.parts.forEach((p, j) => {
            if (p.type !== 'tool-call' || typeof p.arguments !== 'string') return;
            if (isObjectText(p.arguments)) return;
            const e: Record<string, unknown> = {};
            if (typeof p.id === 'string') e.callId = p.id;
            if (typeof p.name === 'string') e.name = p.name;
            Object.assign(e, { messageIndex: i, partIndex: j, arguments: p.arguments });
            expected.push(e);
          }),
        );
        expect(repair.truncated).toEqual(expected);
      }),
      RUNS,
    );
  });
});

describe('pairsCleanly', () => {
  /** Nothing for a pairing rule to report, by the full index: the definition pairsCleanly shortcuts. */
  const cleanByIndex = (messages: readonly Message[]): boolean => {
    const p = analyzePairing(messages);
    return (
      p.calls.every((c) => c.idUse === 'first') &&
      p.results.every((r) => r.status === 'answer') &&
      p.unanswered.length === 0
    );
  };

  it('agrees with the full pairing index on every history', () => {
    const seen = { clean: 0, not: 0 };
    fc.assert(
      fc.property(messagesArb(), (messages) => {
        const clean = cleanByIndex(messages);
        seen[clean ? 'clean' : 'not']++;
        expect(pairsCleanly(messages)).toBe(clean);
      }),
      { numRuns: 2000 },
    );
    // Both answers are tested, not only the common one.
    expect(Math.min(seen.clean, seen.not)).toBeGreaterThan(100);
  });

  it('holds after normalize whenever every call has an id', () => {
    fc.assert(
      fc.property(messagesArb(), (messages) => {
        const out = normalizeHistory(messages).messages;
        const allIds = out.every((m) =>
          m.parts.every((p) => p.type !== 'tool-call' || typeof p.id === 'string'),
        );
        if (allIds && cleanByIndex(out)) expect(pairsCleanly(out)).toBe(true);
      }),
      RUNS,
    );
  });

  it('does not look past 64 calls (its search is quadratic), and says so with false', () => {
    const messages: Message[] = [];
    for (let k = 0; k < 65; k++) {
      messages.push({
        role: 'assistant',
        parts: [{ type: 'tool-call', id: `c${k}`, name: 'f', arguments: '{}' }],
      });
      messages.push({
        role: 'tool',
        parts: [{ type: 'tool-result', callId: `c${k}`, name: 'f', content: [] }],
      });
    }
    expect(cleanByIndex(messages)).toBe(true);
    expect(pairsCleanly(messages)).toBe(false);
    expect(pairsCleanly(messages.slice(0, 128))).toBe(true);
  });
});

describe('normalize for a provider target', () => {
  const viewArb = fc.record({
    target: fc.constantFrom('openai-chat', 'openai-responses', 'anthropic', 'gemini', 'bedrock'),
    native: fc.boolean(),
  });
  /** Every result part of a list of messages, as text, in order. */
  const resultsOf = (messages: readonly Message[]): string[] =>
    messages.flatMap((m) =>
      m.parts.filter((p) => p.type === 'tool-result').map((p) => stringifyJson(p, 0)),
    );

  it('drops and synthesizes exactly what plain normalize does, and loses no result', () => {
    fc.assert(
      fc.property(messagesArb(), viewArb, (input, target) => {
        const plain = normalizeHistory(input);
        const placed = normalizeHistory(input, { target });
        expect(placed.repair.dropped).toEqual(plain.repair.dropped);
        expect(placed.repair.synthesized).toEqual(plain.repair.synthesized);
        // The same results, wherever they now stand.
        expect(resultsOf(placed.messages).sort()).toEqual(resultsOf(plain.messages).sort());
        // Bedrock merges synthesized results into their turn without a report entry of their own.
        const silent = target.target === 'bedrock' && target.native;
        if (!silent && placed.repair.moved.length === 0)
          expect(jsonEqual(placed.messages, plain.messages)).toBe(true);
      }),
      RUNS,
    );
  });

  it('changes nothing more than plain normalize when the target rules find nothing', () => {
    fc.assert(
      fc.property(messagesArb(), viewArb, (input, target) => {
        const plain = normalizeHistory(input);
        if (turnOrderProblems(plain.messages, target).length > 0) return;
        const placed = normalizeHistory(input, { target });
        expect(placed.repair.moved).toEqual([]);
        expect(placed.repair.merged).toBeUndefined();
        expect(jsonEqual(placed.messages, plain.messages)).toBe(true);
      }),
      RUNS,
    );
  });

  it('is idempotent: a second run moves and merges nothing', () => {
    fc.assert(
      fc.property(messagesArb(), viewArb, (input, target) => {
        const first = normalizeHistory(input, { target });
        const second = normalizeHistory(first.messages, { target });
        expect(second.changed).toBe(false);
        expect(second.repair.moved).toEqual([]);
        expect(jsonEqual(second.messages, first.messages)).toBe(true);
      }),
      RUNS,
    );
  });

  it('leaves no turn-order problem about a call or result with an id', () => {
    fc.assert(
      fc.property(messagesArb(), viewArb, (input, target) => {
        const { messages } = normalizeHistory(input, { target });
        // Results inside an assistant message (provider-executed) and id-less parts are not moved.
        const movable = messages.every((m) =>
          m.parts.every(
            (p) =>
              (p.type !== 'tool-result' || (m.role === 'tool' && typeof p.callId === 'string')) &&
              (p.type !== 'tool-call' || (m.role === 'assistant' && typeof p.id === 'string')),
          ),
        );
        const shared = analyzePairing(messages).calls.some((c) => c.idUse === 'same-message');
        // Bedrock never merges two messages that both have fields of their own.
        const own = messages.filter((m) =>
          Object.keys(m).some((k) => k !== 'role' && k !== 'parts'),
        );
        if (!movable || shared || (target.target === 'bedrock' && own.length > 1)) return;
        const left = turnOrderProblems(messages, target).filter(
          // A merge is refused for a message with fields of its own; a trailing call is pending.
          (p) => p.ruleId !== 'bedrock/alternation',
        );
        expect(left).toEqual([]);
      }),
      RUNS,
    );
  });

  it('reports each move with the input indices of the result and of its call', () => {
    fc.assert(
      fc.property(messagesArb(), viewArb, (raw, target) => {
        const input = tagged(raw);
        const { messages, repair } = normalizeHistory(input, { target });
        for (const m of repair.moved) {
          const call = input[m.afterIndex]!;
          expect(call.role).toBe('assistant');
          expect(call.parts.some((p) => p.type === 'tool-call' && p.id === m.callId)).toBe(true);
          expect(
            input[m.fromIndex]!.parts.some(
              (p) => p.type === 'tool-result' && p.callId === m.callId,
            ),
          ).toBe(true);
          // It now stands after its call's turn (the assistant messages right after the call may
          // be of that turn), before any other assistant message.
          const at = messages.findIndex((x) => tagOf(x) === m.afterIndex);
          // System messages go to a top-level field, except in OpenAI's formats.
          const inline = target.target.startsWith('openai');
          const ofTurn = (x: Message): boolean =>
            x.role === 'assistant' || (!inline && x.role === 'system');
          let k = at + 1;
          while (k < messages.length && ofTurn(messages[k]!)) k++;
          const holds = (x: Message): boolean =>
            x.parts.some((p) => p.type === 'tool-result' && p.callId === m.callId);
          let found = messages.slice(at + 1, k).some(holds);
          for (; k < messages.length && messages[k]!.role !== 'assistant'; k++)
            if (holds(messages[k]!)) found = true;
          expect(found).toBe(true);
        }
      }),
      RUNS,
    );
  });
});

describe('sanitize', () => {
  it('leaves no system message and no media part with a non-http(s) url', () => {
    fc.assert(
      fc.property(messagesArb(), (input) => {
        const { messages } = sanitizeHistory(input);
        for (const m of messages) {
          expect(m.role).not.toBe('system');
          for (const p of m.parts) {
            expect(isUnsafeMedia(p), JSON.stringify(p)).toBe(false);
            if (p.type === 'tool-result' && Array.isArray(p.content)) {
              for (const item of p.content)
                expect(isUnsafeMedia(item), JSON.stringify(item)).toBe(false);
            }
          }
        }
      }),
      RUNS,
    );
  });

  it('is idempotent: a second run reports nothing but the same truncated calls', () => {
    fc.assert(
      fc.property(messagesArb(), optionsArb, (input, options) => {
        const first = sanitizeHistory(input, options);
        const second = sanitizeHistory(first.messages, options);
        expect(second.changed).toBe(false);
        expect(jsonEqual(second.messages, first.messages)).toBe(true);
        expect(second.report.systemPrompts).toBe(0);
        expect(second.report.unsafeParts).toEqual([]);
        expect(second.report.removedMessages).toEqual([]);
        expect(second.report.repair.synthesized).toEqual([]);
        expect(second.report.repair.dropped).toEqual([]);
        // Indices differ (each run reports its own input's), the calls are the same ones.
        const strip = (t: { messageIndex: number; partIndex: number }): unknown => ({
          ...t,
          messageIndex: 0,
          partIndex: 0,
        });
        expect(second.report.repair.truncated.map(strip)).toEqual(
          first.report.repair.truncated.map(strip),
        );
      }),
      RUNS,
    );
  });

  it('with dropUnresolvedCalls: idempotent, loses no tool result, drops only unresolved trailing calls', () => {
    fc.assert(
      fc.property(
        messagesArb(),
        optionsArb,
        fc.subarray([...CALL_IDS]),
        (raw, options, resolved) => {
          const input = tagged(raw);
          const withFlag = { ...options, dropUnresolvedCalls: true, resolved };
          const first = sanitizeHistory(input, withFlag);
          const second = sanitizeHistory(first.messages, withFlag);
          expect(second.changed).toBe(false);
          expect(jsonEqual(second.messages, first.messages)).toBe(true);
          expect(second.report.droppedCalls).toEqual([]);
          expect(second.report.removedMessages).toEqual([]);
          expect(second.report.repair.synthesized).toEqual([]);
          expect(second.report.repair.dropped).toEqual([]);

          // The flag overrides leavePending: every call left is answered.
          expect(analyzePairing(first.messages).unanswered).toEqual([]);

          // The tool results that survive are those that survive without the flag.
          const plain = sanitizeHistory(input, { ...options, leavePending: false });
          const results = (messages: readonly Message[]): string[] =>
            messages.flatMap((m) =>
              tagOf(m) === undefined
                ? []
                : m.parts
                    .filter((p) => p.type === 'tool-result')
                    .map((p) => `${tagOf(m)} ${stringifyJson(p, 0)}`),
            );
          expect(results(first.messages)).toEqual(results(plain.messages));

          // Each drop is a call of the input's last assistant message, named by no --resolved id,
          // that no result answers (the plain run synthesized one for it).
          const last = input.findLastIndex((m) => m.role === 'assistant');
          const dropped = first.report.droppedCalls;
          expectInputOrder(dropped);
          for (const d of dropped) {
            expect(d.messageIndex).toBe(last);
            const part = input[last]!.parts[d.partIndex]!;
            expect(part.type).toBe('tool-call');
            expect(part.id).toBe(d.callId);
            expect(resolved).not.toContain(d.callId);
            expect(
              plain.report.repair.synthesized.some(
                (s) => s.assistantIndex === last && s.callId === d.callId,
              ),
            ).toBe(true);
          }
          // Nothing dropped: the same result as without the flag.
          if (dropped.length === 0) {
            expect(jsonEqual(first.messages, plain.messages)).toBe(true);
            expect(first.report).toEqual(plain.report);
          }
        },
      ),
      RUNS,
    );
  });

  it('reports every unsafe part with its input indices, kind and lower-cased scheme', () => {
    fc.assert(
      fc.property(messagesArb(), (input) => {
        const { report } = sanitizeHistory(input);
        const expected: unknown[] = [];
        input.forEach((m, i) => {
          if (m.role === 'system') return;
          m.parts.forEach((p, j) => {
            if (isUnsafeMedia(p)) {
              expected.push({
                messageIndex: i,
                partIndex: j,
                kind: p.type,
                scheme: browserScheme(p.url as string),
              });
              return;
            }
            if (p.type === 'tool-result' && Array.isArray(p.content)) {
              p.content.forEach((item, c) => {
                if (!isUnsafeMedia(item)) return;
                const part = item as Part;
                expected.push({
                  messageIndex: i,
                  partIndex: j,
                  contentIndex: c,
                  kind: part.type,
                  scheme: browserScheme(part.url as string),
                });
              });
            }
          });
        });
        expect(report.unsafeParts).toEqual(expected);
        expect(report.systemPrompts).toBe(input.filter((m) => m.role === 'system').length);
      }),
      RUNS,
    );
  });

  it('keeps every tool message itself (only its normalize step may drop one) and rewrites nothing', () => {
    fc.assert(
      fc.property(messagesArb(), (raw) => {
        const input = tagged(raw);
        const { messages, report } = sanitizeHistory(input);
        const unsafeTop = new Set<string>();
        const unsafeContent = new Map<string, Set<number>>();
        for (const u of report.unsafeParts) {
          const key = `${u.messageIndex}/${u.partIndex}`;
          if (u.contentIndex === undefined) unsafeTop.add(key);
          else {
            if (!unsafeContent.has(key)) unsafeContent.set(key, new Set());
            unsafeContent.get(key)!.add(u.contentIndex);
          }
        }
        const repairDropped = new Set(
          report.repair.dropped.map((d) => `${d.messageIndex}/${d.partIndex}`),
        );
        const present = new Map<number, Message>();
        for (const m of messages) {
          const tag = tagOf(m);
          if (tag !== undefined) present.set(tag, m);
        }
        input.forEach((m, i) => {
          const out = present.get(i);
          const keptIdx = m.parts
            .map((_, j) => j)
            .filter((j) => !unsafeTop.has(`${i}/${j}`) && !repairDropped.has(`${i}/${j}`));
          if (out === undefined) {
            if (m.role === 'system') return;
            if (report.removedMessages.includes(i)) {
              expect(m.role).toBe('user');
              expect(m.parts.length).toBeGreaterThan(0);
              expect(m.parts.every((_, j) => unsafeTop.has(`${i}/${j}`))).toBe(true);
              return;
            }
            // Gone otherwise only by the normalize step: a tool message whose remaining parts it all dropped.
            expect(m.role).toBe('tool');
            expect(keptIdx).toEqual([]);
            expect(m.parts.some((_, j) => repairDropped.has(`${i}/${j}`))).toBe(true);
            return;
          }
          expect(report.removedMessages).not.toContain(i);
          const { parts: outParts, ...outRest } = out;
          const { parts: inParts, ...inRest } = m;
          expect(jsonEqual(outRest, inRest)).toBe(true);
          const expectedParts = keptIdx.map((j) => {
            const p = inParts[j]!;
            const drop = unsafeContent.get(`${i}/${j}`);
            if (drop === undefined) return p;
            return { ...p, content: (p.content as JsonValue[]).filter((_, c) => !drop.has(c)) };
          });
          expect(jsonEqual(outParts, expectedParts)).toBe(true);
        });
        for (const r of report.removedMessages) expect(input[r]!.role).toBe('user');
        // The normalize step's report uses input indices too.
        let synthesized = 0;
        messages.forEach((m, pos) => {
          if (tagOf(m) !== undefined) return;
          for (const p of m.parts) {
            const entry = report.repair.synthesized[synthesized++]!;
            expect(p.callId).toBe(entry.callId);
            expect(entry.assistantIndex).toBe(tagOf(messages[pos - 1]!));
          }
        });
        expect(synthesized).toBe(report.repair.synthesized.length);
        for (const t of report.repair.truncated) {
          const part = input[t.messageIndex]!.parts[t.partIndex]!;
          expect(part.type).toBe('tool-call');
          expect(part.arguments).toBe(t.arguments);
        }
        for (const d of report.repair.dropped) {
          const part = input[d.messageIndex]!.parts[d.partIndex]!;
          expect(part.type).toBe('tool-result');
          expect(part.callId).toBe(d.callId);
        }
      }),
      RUNS,
    );
  });

  it('reads URL schemes the way a browser does', () => {
    fc.assert(
      fc.property(fc.oneof(urlArb, fc.string(), fc.webUrl()), (url) => {
        expect(urlScheme(url)).toBe(browserScheme(url));
      }),
      { numRuns: 1000 },
    );
    expect(urlScheme(' \u0000HTTPS://x')).toBe('https');
    expect(urlScheme('ja\tva\nscript:alert(1)')).toBe('javascript');
    expect(urlScheme('//host/x')).toBe('');
    expect(urlScheme('data:,x')).toBe('data');
  });
});

/** The head rule of SPEC §2.3, written out: skip tool messages and assistants with calls unanswered in the window. */
function headFrom(body: readonly Message[], start: number): number {
  for (;;) {
    const m = body[start];
    if (m === undefined) return start;
    if (m.role === 'tool') {
      start++;
      continue;
    }
    if (m.role === 'assistant') {
      // Pairing in order: a call of the head message is answered when its span holds a result.
      const open = spansOf(body.slice(start)).spans.some(
        (s) => s.call.pos === 0 && s.results.length === 0,
      );
      if (open) {
        start++;
        continue;
      }
    }
    return start;
  }
}

const leadingSystem = (messages: readonly Message[], keepSystem: boolean): number => {
  let s = 0;
  while (keepSystem && messages[s]?.role === 'system') s++;
  return s;
};

/** A result, or the TrimError thrown. */
function attempt(f: () => TrimResult): TrimResult | TrimError {
  try {
    return f();
  } catch (e) {
    expect(e).toBeInstanceOf(TrimError);
    return e as TrimError;
  }
}

/** The properties every trim result has (SPEC §2.3). */
function expectTrimmed(
  input: readonly Message[],
  result: TrimResult | TrimError,
  keepSystem: boolean,
  start: number | null,
  again: (m: Message[]) => TrimResult,
): void {
  const system = leadingSystem(input, keepSystem);
  const body = input.slice(system);
  if (start === null) {
    // Nothing to cut: returned unchanged.
    expect(result).not.toBeInstanceOf(TrimError);
    const r = result as TrimResult;
    expect(r.changed).toBe(false);
    expect(jsonEqual(r.messages, input as Message[])).toBe(true);
    expect(r.report).toEqual({ kept: input.length, removed: 0, firstKeptIndex: 0 });
    return;
  }
  const from = headFrom(body, start);
  if (from >= body.length) {
    expect(result).toBeInstanceOf(TrimError);
    return;
  }
  expect(result).not.toBeInstanceOf(TrimError);
  const r = result as TrimResult;
  expect(r.changed).toBe(true);
  expect(jsonEqual(r.messages, [...input.slice(0, system), ...body.slice(from)])).toBe(true);
  // The first kept non-system message (a system message may open the window).
  let first = from;
  while (first < body.length && body[first]!.role === 'system') first++;
  if (first === body.length) first = from;
  expect(r.report.firstKeptIndex).toBe(system + first);
  expect(r.report.kept + r.report.removed).toBe(input.length);
  expect(r.report.kept).toBe(r.messages.length);
  // The window never opens with a message that cannot open a request.
  const window = r.messages.slice(system);
  expect(headFrom(window, 0)).toBe(0);
  expect(window[0]!.role).not.toBe('tool');
  // Idempotent on its own output with the same limit.
  const second = again(r.messages);
  expect(second.changed).toBe(false);
  expect(jsonEqual(second.messages, r.messages)).toBe(true);
}

describe('trim', () => {
  it('by count: keeps the newest N, moves the head past what cannot open a request, is idempotent', () => {
    fc.assert(
      fc.property(
        messagesArb({ maxMessages: 14 }),
        fc.integer({ min: 0, max: 12 }),
        fc.boolean(),
        (input, max, keepSystem) => {
          const result = attempt(() => trimHistory(input, max, { keepSystem }));
          const bodyLength = input.length - leadingSystem(input, keepSystem);
          const start = bodyLength <= max ? null : bodyLength - max;
          expectTrimmed(input, result, keepSystem, start, (m) =>
            trimHistory(m, max, { keepSystem }),
          );
        },
      ),
      RUNS,
    );
  });

  it('by budget: keeps the newest messages that fit, same head rule, is idempotent', () => {
    const countTokens: TokenCounter = (s) => s.length;
    fc.assert(
      fc.property(
        messagesArb({ maxMessages: 14 }),
        fc.integer({ min: 0, max: 600 }),
        fc.boolean(),
        (input, max, keepSystem) => {
          const options = { keepSystem, countTokens };
          const result = attempt(() => budgetHistory(input, max, options));
          const system = leadingSystem(input, keepSystem);
          let start = input.length;
          let total = 0;
          for (let pos = input.length - 1; pos >= system; pos--) {
            const cost = messageTokens(input[pos]!, countTokens);
            if (total + cost > max) break;
            total += cost;
            start = pos;
          }
          expectTrimmed(input, result, keepSystem, start === system ? null : start - system, (m) =>
            budgetHistory(m, max, options),
          );
          if (!(result instanceof TrimError)) {
            const body = result.messages.slice(system);
            const used = body.reduce((n, m) => n + messageTokens(m, countTokens), 0);
            if (result.changed) expect(used).toBeLessThanOrEqual(max);
          }
        },
      ),
      RUNS,
    );
  });

  it('counts tokens as SPEC §2.3 says', () => {
    const count: TokenCounter = (s) => s.length;
    const message = {
      role: 'assistant',
      runId: 'ignored-entirely',
      extra: 'ignored too',
      parts: [
        { type: 'text', text: 'abc' },
        { type: 'reasoning', text: 'de', signature: 'not counted' },
        { type: 'tool-call', id: 'c1', name: 'fn', arguments: '{"a":1}' },
        {
          type: 'tool-result',
          callId: 'c1',
          content: [
            { type: 'text', text: 'xyz' },
            { type: 'text', text: 'w' },
          ],
        },
        { type: 'image', url: 'https://x/y.png' },
        { type: 'document', data: 'AAAA', mediaType: 'application/pdf' },
        { type: 'audio', text: 'unknown parts add nothing' },
      ],
    } as unknown as Message;
    // 4 + 3 + 2 + (2 + 7 + 3) + (4 + 3) + 85 + 85
    expect(messageTokens(message, count)).toBe(4 + 3 + 2 + 12 + 7 + 85 + 85);
  });
});

describe('determinism and purity', () => {
  it('gives deep-equal output and report for the same input, and never mutates it', () => {
    const countTokens: TokenCounter = (s) => s.length;
    fc.assert(
      fc.property(
        messagesArb(),
        optionsArb,
        fc.integer({ min: 0, max: 10 }),
        (input, options, n) => {
          const before = stringifyJson(input, 0);
          const runs: [string, () => unknown][] = [
            ['normalize', () => normalizeHistory(input, options)],
            ['sanitize', () => sanitizeHistory(input, options)],
            ['trim', () => attempt(() => trimHistory(input, n))],
            ['budget', () => attempt(() => budgetHistory(input, n * 20, { countTokens }))],
          ];
          for (const [name, run] of runs) {
            const a = run();
            const b = run();
            if (a instanceof TrimError) {
              expect(b, name).toBeInstanceOf(TrimError);
              expect((b as TrimError).message).toBe(a.message);
              continue;
            }
            const { messages: am, ...ar } = a as { messages: Message[] };
            const { messages: bm, ...br } = b as { messages: Message[] };
            expect(jsonEqual(am, bm), name).toBe(true);
            expect(br, name).toEqual(ar);
          }
          expect(stringifyJson(input, 0)).toBe(before);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('write -> read', () => {
  const encoder = new TextEncoder();

  it('stringifyJson -> parseJson is deep-equal, exact numbers included', () => {
    fc.assert(
      fc.property(conversationArb(), fc.constantFrom(0, 2), (value, indent) => {
        expect(jsonEqual(parseJson(stringifyJson(value, indent)), value)).toBe(true);
      }),
      RUNS,
    );
  });

  it('serializeDocument -> readDocument is deep-equal for JSON (with or without BOM / CRLF)', () => {
    fc.assert(
      fc.property(conversationArb(), fc.boolean(), fc.boolean(), (value, bom, crlf) => {
        const original = (bom ? '\ufeff' : '') + (crlf ? '{\r\n}\r\n' : '{}\n');
        const doc = readDocument(encoder.encode(original), 'json');
        const written = serializeDocument(doc, new Map([[0, value]]));
        const again = readDocument(encoder.encode(written), 'json');
        expect(again.bom).toBe(bom);
        expect(again.units[0]!.error).toBeUndefined();
        expect(jsonEqual(again.units[0]!.value!, value)).toBe(true);
        if (crlf) expect(written.replace(/\r\n/g, '')).not.toContain('\n');
      }),
      { numRuns: 200 },
    );
  });

  it('serializeDocument -> readDocument is deep-equal for JSONL, line by line', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(conversationArb({ maxMessages: 4 }), fc.boolean(), fc.boolean()), {
          minLength: 1,
          maxLength: 5,
        }),
        (rows) => {
          // Each row: a placeholder line (CRLF or LF), sometimes followed by a blank line.
          const original = rows
            .map(([, crlf, blank]) => `{}${crlf ? '\r\n' : '\n'}${blank ? '\n' : ''}`)
            .join('');
          const doc = readDocument(encoder.encode(original), 'jsonl');
          expect(doc.units).toHaveLength(rows.length);
          const values = new Map(rows.map(([v], k) => [k, v] as [number, JsonValue]));
          const again = readDocument(encoder.encode(serializeDocument(doc, values)), 'jsonl');
          expect(again.units.map((u) => u.line)).toEqual(doc.units.map((u) => u.line));
          again.units.forEach((u, k) => {
            expect(u.error).toBeUndefined();
            expect(jsonEqual(u.value!, rows[k]![0])).toBe(true);
          });
          expect(again.lines.map((l) => l.eol)).toEqual(doc.lines.map((l) => l.eol));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('newId', () => {
  const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const timestamp = (id: string): number => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

  it('gives 10,000 strictly increasing valid UUIDv7s stamped with the current time', () => {
    const start = Date.now();
    const ids = Array.from({ length: 10_000 }, () => newId());
    const end = Date.now();
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      expect(id).toMatch(V7);
      expect(isUuid(id)).toBe(true);
      if (k > 0) expect(id > ids[k - 1]!).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(timestamp(ids[0]!)).toBeGreaterThanOrEqual(start);
    // Many ids in one millisecond may borrow a few following milliseconds, never more.
    expect(timestamp(ids[ids.length - 1]!)).toBeLessThanOrEqual(end + 50);
  });

  it('stays strictly increasing when the clock goes backwards or stands still', () => {
    const now = Date.now();
    const a = newId(now);
    const b = newId(now - 60_000);
    const c = newId(0);
    const d = newId(now);
    expect(b > a && c > b && d > c).toBe(true);
    for (const id of [a, b, c, d]) expect(id).toMatch(V7);
    expect(timestamp(b)).toBeGreaterThanOrEqual(timestamp(a));
    const same = Array.from({ length: 2_000 }, () => newId(now));
    for (let k = 1; k < same.length; k++) expect(same[k]! > same[k - 1]!).toBe(true);
  });

  it('is strictly increasing for any sequence of clock readings', () => {
    const base = Date.now();
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -100_000, max: 1_000 }), { maxLength: 50 }),
        (steps) => {
          let last = newId(base);
          for (const s of steps) {
            const id = newId(base + s);
            expect(id).toMatch(V7);
            expect(id > last).toBe(true);
            last = id;
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('gives a valid UUIDv7 for a fractional clock reading (performance.now-style)', () => {
    const now = Date.now() + 5_000;
    const a = newId(now + 0.5);
    const b = newId(now + 1_000.25);
    expect(a).toMatch(V7);
    expect(b).toMatch(V7);
    expect(b > a).toBe(true);
    expect(timestamp(a)).toBe(now);
  });

  it('isUuid accepts the canonical form only', () => {
    expect(isUuid('0190a5b4-7c3e-7def-8abc-0123456789ab')).toBe(true);
    expect(isUuid('0190A5B4-7C3E-7DEF-8ABC-0123456789AB')).toBe(true);
    expect(isUuid('0190a5b47c3e7def8abc0123456789ab')).toBe(false);
    expect(isUuid('{0190a5b4-7c3e-7def-8abc-0123456789ab}')).toBe(false);
    expect(isUuid('')).toBe(false);
  });
});
