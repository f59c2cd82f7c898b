/**
 * Lint agrees with the shared conformance cases (../shared/conformance/cases):
 * linting each input with the default rules gives exactly the pairing,
 * truncation and URL findings that the case's expected report implies, at
 * the right message and part, on the right line and column.
 *
 * Positions are checked against a line map built here, independently of
 * src/model/positions.ts: a small printer re-prints the parsed input in the
 * 2-space layout, recording where each pointer's value starts. The map is
 * trusted only for a file the printer reproduces byte for byte.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintBytes } from '../src/lint/engine.js';
import { SeverityResolver } from '../src/lint/severity.js';
import { describeShared, SHARED } from './helpers/shared.js';

const CASES = path.join(SHARED, 'conformance', 'cases');

/** The rules whose findings the expected reports imply; no other finding of these may appear. */
const IMPLIED_RULES = new Set([
  'dangling-tool-call',
  'orphan-tool-result',
  'result-before-call',
  'duplicate-tool-result',
  'truncated-arguments',
  'unsafe-url',
]);

const DROP_RULE: Record<string, string> = {
  orphan: 'orphan-tool-result',
  'before-call': 'result-before-call',
  duplicate: 'duplicate-tool-result',
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Repair {
  synthesized: { callId: string; name?: string; assistantIndex: number }[];
  dropped: { callId: string; messageIndex: number; partIndex?: number; reason: string }[];
  truncated: {
    callId?: string;
    name?: string;
    messageIndex: number;
    partIndex?: number;
    arguments: string;
  }[];
}

interface Expected {
  error?: boolean;
  report?: {
    repair?: Repair;
    sanitize?: {
      unsafeParts: {
        messageIndex: number;
        partIndex: number;
        contentIndex?: number;
        kind: string;
        scheme: string;
      }[];
      repair: Repair;
    };
    trim?: unknown;
  };
}

// ---------------------------------------------------------------------------
// The independent line map

/** Where a value starts: 1-based line and column (UTF-16 code units). */
interface Place {
  line: number;
  column: number;
}

function escapeToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Prints a JSON value as `JSON.stringify(value, null, 2)` lays it out, plus a
 * final newline, and records where the value at each pointer starts.
 */
function printWithPlaces(value: Json): { text: string; places: Map<string, Place> } {
  const places = new Map<string, Place>();
  let text = '';
  let line = 1;
  let column = 1;
  const write = (s: string): void => {
    for (const ch of s) {
      if (ch === '\n') {
        line++;
        column = 1;
      } else column += ch.length;
    }
    text += s;
  };
  const print = (v: Json, pointer: string, indent: string): void => {
    places.set(pointer, { line, column });
    if (Array.isArray(v)) {
      if (v.length === 0) return write('[]');
      write('[\n');
      v.forEach((item, i) => {
        write(indent + '  ');
        print(item, `${pointer}/${i}`, indent + '  ');
        write(i < v.length - 1 ? ',\n' : '\n');
      });
      return write(indent + ']');
    }
    if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.length === 0) return write('{}');
      write('{\n');
      keys.forEach((k, i) => {
        write(`${indent}  ${JSON.stringify(k)}: `);
        print(v[k]!, `${pointer}/${escapeToken(k)}`, indent + '  ');
        write(i < keys.length - 1 ? ',\n' : '\n');
      });
      return write(indent + '}');
    }
    write(JSON.stringify(v));
  };
  print(value, '', '');
  write('\n');
  return { text, places };
}

// ---------------------------------------------------------------------------
// What a case's expected report implies

/** A finding as compared: rule, message, part and the id it concerns. */
interface Implied {
  ruleId: string;
  messageIndex: number;
  partIndex?: number;
  /** For pairing and truncation: the call id the part must carry. */
  callId?: string;
  /** For unsafe-url inside a tool result's content. */
  contentIndex?: number;
}

function partsOf(input: Json, messageIndex: number): { [key: string]: Json }[] {
  const root = input as { messages?: Json };
  const messages = (Array.isArray(input) ? input : root.messages) as Json[];
  return (messages[messageIndex] as { parts: { [key: string]: Json }[] }).parts;
}

function impliedFindings(expected: Expected, input: Json): Implied[] {
  const report = expected.report;
  const repair = report?.repair ?? report?.sanitize?.repair;
  const out: Implied[] = [];
  for (const s of repair?.synthesized ?? []) {
    // The dangling call is the first call with that id in the assistant message.
    const partIndex = partsOf(input, s.assistantIndex).findIndex(
      (p) => p.type === 'tool-call' && p.id === s.callId,
    );
    expect(partIndex, `call ${s.callId} in message ${s.assistantIndex}`).toBeGreaterThanOrEqual(0);
    out.push({
      ruleId: 'dangling-tool-call',
      messageIndex: s.assistantIndex,
      partIndex,
      callId: s.callId,
    });
  }
  for (const d of repair?.dropped ?? []) {
    const rule = DROP_RULE[d.reason];
    expect(rule, `dropped reason ${d.reason}`).toBeDefined();
    out.push({
      ruleId: rule!,
      messageIndex: d.messageIndex,
      ...(d.partIndex === undefined ? {} : { partIndex: d.partIndex }),
      callId: d.callId,
    });
  }
  for (const t of repair?.truncated ?? []) {
    out.push({
      ruleId: 'truncated-arguments',
      messageIndex: t.messageIndex,
      ...(t.partIndex === undefined ? {} : { partIndex: t.partIndex }),
      ...(t.callId === undefined ? {} : { callId: t.callId }),
    });
  }
  for (const u of report?.sanitize?.unsafeParts ?? []) {
    out.push({
      ruleId: 'unsafe-url',
      messageIndex: u.messageIndex,
      partIndex: u.partIndex,
      ...(u.contentIndex === undefined ? {} : { contentIndex: u.contentIndex }),
    });
  }
  return out;
}

/** How a finding is compared: rule, message, and the call id (or, for unsafe-url, the part). */
function keyOf(ruleId: string, messageIndex: number, ident: string): string {
  return `${ruleId} in message ${messageIndex} on ${ident}`;
}

/** The id a tool-call or tool-result part carries. */
function idOf(part: { [key: string]: Json }): string {
  const id = part.type === 'tool-call' ? part.id : part.callId;
  return typeof id === 'string' ? `id ${id}` : 'no id';
}

// ---------------------------------------------------------------------------

const rules = new SeverityResolver({}, CASES).forFile(undefined);

describe('the line map of this test', () => {
  it('reproduces JSON.stringify(_, null, 2) and places nested values', () => {
    const value: Json = { a: [1, { 'b/c~': 'x', e: [] }], f: {}, g: null };
    const { text, places } = printWithPlaces(value);
    expect(text).toBe(JSON.stringify(value, null, 2) + '\n');
    expect(places.get('')).toEqual({ line: 1, column: 1 });
    expect(places.get('/a/1')).toEqual({ line: 4, column: 5 });
    expect(places.get('/a/1/b~1c~0')).toEqual({ line: 5, column: 15 });
    expect(places.get('/g')).toEqual({ line: 10, column: 8 });
  });
});

describeShared('lint on the conformance cases', 'conformance/cases', () => {
  const names = readdirSync(CASES)
    .filter((n) => !n.startsWith('.'))
    .sort();

  it('finds the cases', () => {
    expect(names.length).toBeGreaterThan(0);
  });

  it.each(names)('%s', (name) => {
    const dir = path.join(CASES, name);
    const bytes = readFileSync(path.join(dir, 'input.json'));
    const text = bytes.toString('utf8');
    const input = JSON.parse(text) as Json;
    const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;

    const { text: reprint, places } = printWithPlaces(input);
    // Only then is the map a map of this file.
    expect(reprint).toBe(text);

    const result = lintBytes('input.json', bytes, { rules });
    const implied = impliedFindings(expected, input);
    const found = result.findings.filter((f) => IMPLIED_RULES.has(f.ruleId));

    // Exactly the implied findings, as a multiset.
    const foundKeys = found
      .map((f) =>
        keyOf(
          f.ruleId,
          f.messageIndex!,
          f.ruleId === 'unsafe-url'
            ? `part ${f.partIndex}`
            : idOf(partsOf(input, f.messageIndex!)[f.partIndex!]!),
        ),
      )
      .sort();
    const impliedKeys = implied
      .map((i) =>
        keyOf(
          i.ruleId,
          i.messageIndex,
          i.ruleId === 'unsafe-url'
            ? `part ${i.partIndex}`
            : i.callId === undefined
              ? 'no id'
              : `id ${i.callId}`,
        ),
      )
      .sort();
    expect(foundKeys).toEqual(impliedKeys);

    for (const f of found) {
      expect(f.messageIndex, `${f.ruleId} has a message index`).toBeDefined();
      expect(f.partIndex, `${f.ruleId} has a part index`).toBeDefined();
      const part = partsOf(input, f.messageIndex!)[f.partIndex!]!;
      // Where the report names the part, it is that part.
      const named = implied.filter(
        (i) =>
          i.ruleId === f.ruleId && i.messageIndex === f.messageIndex && i.partIndex !== undefined,
      );
      if (named.length > 0) expect(named.map((i) => i.partIndex)).toContain(f.partIndex);
      if (f.ruleId === 'dangling-tool-call' || f.ruleId === 'truncated-arguments')
        expect(part.type).toBe('tool-call');
      else if (f.ruleId === 'unsafe-url') {
        const inContent = named.find((i) => i.partIndex === f.partIndex)?.contentIndex;
        if (inContent === undefined) expect(['image', 'document']).toContain(part.type);
        else expect(part.type).toBe('tool-result');
      } else expect(part.type).toBe('tool-result');
      // The position is where the pointer's value starts in the file.
      const place = places.get(f.pointer);
      expect(place, `${f.ruleId} pointer ${f.pointer} is in the file`).toBeDefined();
      expect({ line: f.line, column: f.column }, `${f.ruleId} at ${f.pointer}`).toEqual(place);
      // The pointer is the part's, or lies below it.
      const partPointer = `${Array.isArray(input) ? '' : '/messages'}/${f.messageIndex}/parts/${f.partIndex}`;
      expect(f.pointer === partPointer || f.pointer.startsWith(partPointer + '/')).toBe(true);
    }
    // A duplicate is the later of two results in order, never the kept one.
    for (const f of found.filter((x) => x.ruleId === 'duplicate-tool-result')) {
      const callId = partsOf(input, f.messageIndex!)[f.partIndex!]!.callId;
      const earlier = partsOf(input, f.messageIndex!)
        .slice(0, f.partIndex!)
        .some((p) => p.type === 'tool-result' && p.callId === callId);
      const before = Array.from({ length: f.messageIndex! }, (_, m) => partsOf(input, m)).some(
        (parts) => parts.some((p) => p.type === 'tool-result' && p.callId === callId),
      );
      expect(earlier || before).toBe(true);
    }
  });
});
