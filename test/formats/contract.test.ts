/**
 * The format contract (issue 17 item 5): one suite over every format of the registry, driven by
 * the one fixture layout, `fixtures/formats/<format>/<case>/`:
 *
 * - `source.json`: the stored value in that format (for claude-code, the session's events as one
 *   array, which is what its reader takes: the caller joins the JSONL lines; or a
 *   `{"loglines": [...]}` export); a case without one is a write case;
 * - `v1.json`: the v1 conversation the reader gives, or (a write case) the conversation written;
 * - `written.json`: what writing that conversation gives: with the read's context, when it is not
 *   `source.json` itself (optional in a read case); a write case's whole expected value;
 * - `stored.json` (optional): what writing it back from a stored v1 file (no context) gives, when
 *   that is not the same. Only histlint has them: a bare v1 array stored as v1 is the envelope;
 * - `losses.json` (optional, write cases): the losses the write reports, a plain array; none
 *   when it is missing;
 * - `context.json` (optional, read cases): the read's context, when the case checks it
 *   (claude-code: the events left out of the conversation).
 *
 * Every format has the cases `text` (the wrapped / request-body shape, with a model field where
 * the format has one), `tools`, `media`, `kept` (what v1 cannot express, kept in providerData)
 * and `bare` (a bare array): read cases, on which this suite runs its full checks. The other
 * cases of a format are its own: its suite (test/formats/<format>.test.ts) runs them through the
 * one runner of test/helpers/formats.ts (`describeFixtureCases`), besides what is specific to it.
 *
 * For each case: detection, read, write with and without the read's context (the stored-v1
 * path: the conversation through JSON text), the location of every message, part and field,
 * kept parts written back in place, normalize through the format, and the bare or wrapped shape
 * kept.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/formats/detect.js';
import { writesAnyConversation } from '../../src/formats/format.js';
import { FORMATS, formatByName } from '../../src/formats/index.js';
import {
  ConversationSchema,
  normalizeHistory,
  parseJson,
  parsePointer,
  PART_TYPES,
  stringifyJson,
  valueAt,
  type Conversation,
  type ConversationFormat,
  type JsonValue,
  type Part,
  type ReadResult,
} from '../../src/index.js';
import { CONTRACT_CASES, FIXTURE_FILES } from '../helpers/formats.js';

const ROOT = fileURLToPath(new URL('../../fixtures/formats/', import.meta.url));

/** The cases every format has. */
const CASES = CONTRACT_CASES;

/**
 * The formats that have no wrapped shape: a pydantic-ai history is only ever a bare list of
 * model messages (`ModelMessagesTypeAdapter`), so its `text` case is a bare list too.
 */
const BARE_ONLY = new Set(['pydantic-ai']);

/**
 * Formats without the `bare` case, and why: each has one shape only, so there is no wrapped shape
 * to tell from a bare one (its `text` case is that shape too).
 */
const NO_BARE: ReadonlyMap<string, string> = new Map([
  ['codex-cli', 'a rollout is always the array of its lines'],
  ['copilot-cli', 'a session is always the array of its event lines'],
  ['openai-agents', 'a run state is always one object, its items under "generated_items"'],
  ['adk', 'a session is always one object, its events under "events"'],
]);

interface Fixture {
  name: string;
  source: JsonValue;
  v1: Conversation;
  /** What a write of the conversation read gives: `written.json`, else `source.json`. */
  expected: JsonValue;
  /** What a write of it stored as v1 gives: `stored.json`, else {@link expected}. */
  storedExpected: JsonValue;
}

function readJson(file: string): JsonValue {
  return parseJson(readFileSync(file, 'utf8'));
}

/** The contract cases of a format: those of {@link CASES} its folder holds, in name order. */
function fixturesOf(format: string): Fixture[] {
  const dir = `${ROOT}${format}/`;
  return [...CASES]
    .sort()
    .filter((name) => existsSync(`${dir}${name}/source.json`))
    .map((name) => {
      const source = readJson(`${dir}${name}/source.json`);
      const written = `${dir}${name}/written.json`;
      const storedFile = `${dir}${name}/stored.json`;
      const expected = existsSync(written) ? readJson(written) : source;
      return {
        name,
        source,
        v1: readJson(`${dir}${name}/v1.json`) as Conversation,
        expected,
        storedExpected: existsSync(storedFile) ? readJson(storedFile) : expected,
      };
    });
}

/** A value as plain JavaScript (exact numbers as doubles), for `toEqual`. */
const plain = (v: unknown): unknown => JSON.parse(stringifyJson(v as JsonValue));

/** What a user stores: the conversation as JSON text, parsed again (no object identity, no context). */
const stored = (c: Conversation): Conversation =>
  parseJson(stringifyJson(c, 0)) as unknown as Conversation;

/** A written value as compared: the value, and the key order of a request body (kept as read). */
const shape = (v: JsonValue): unknown => ({
  bare: Array.isArray(v),
  keys: v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : null,
  value: plain(v),
});

const V1_TYPES = new Set<string>(PART_TYPES);

/** The value at a pointer of the source, or undefined when it leads nowhere. */
const at = (value: JsonValue, pointer: string): JsonValue | undefined =>
  valueAt(value, parsePointer(pointer));

/** True when `inner` is `outer` or a pointer below it. */
const within = (inner: string, outer: string): boolean =>
  inner === outer || inner.startsWith(outer === '' ? '/' : `${outer}/`);

/** True when a string somewhere in `value` contains `text`. */
function holdsString(value: JsonValue | undefined, text: string): boolean {
  if (typeof value === 'string') return value.includes(text);
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some((v) => holdsString(v, text));
}

/** The v1 fields whose string value the source string at their pointer must contain. */
const STRING_FIELDS = new Set(['text', 'id', 'callId', 'name', 'url', 'data', 'arguments']);

/**
 * Every location `read.locate` gives for a conversation, checked against the source: each
 * message, part and part field (a tool result's content parts too) points at a node that
 * exists; a field's pointer is its part's node or below it (a format may map a field to the
 * part's own node); a string there holds the v1 value of text, ids, names, urls, data and
 * argument text. Returns the problems found.
 */
function locationProblems(source: JsonValue, read: ReadResult): string[] {
  const problems: string[] = [];
  const check = (where: string, pointer: string, inside: string | undefined): boolean => {
    if (at(source, pointer) === undefined) problems.push(`${where}: ${pointer} is not in source`);
    else if (inside !== undefined && !within(pointer, inside))
      problems.push(`${where}: ${pointer} is not inside ${inside}`);
    else return true;
    return false;
  };
  const checkValue = (where: string, pointer: string, field: string, v: unknown): void => {
    if (!STRING_FIELDS.has(field) || typeof v !== 'string' || v === '') return;
    const found = at(source, pointer);
    if (typeof found === 'string' && !found.includes(v))
      problems.push(
        `${where}: ${pointer} holds ${JSON.stringify(found)}, not ${JSON.stringify(v)}`,
      );
    // Text mapped to a node above the string (a block, a response object) must hold it.
    if (field === 'text' && typeof found !== 'string' && !holdsString(found, v))
      problems.push(`${where}: ${pointer} does not hold the text`);
  };
  const fieldsOf = (p: Part): string[] =>
    Object.keys(p).filter((k) => k !== 'type' && k !== 'providerData');
  read.conversation.messages.forEach((m, i) => {
    check(`message ${i}`, read.locate(i), undefined);
    m.parts.forEach((p, j) => {
      const partAt = read.locate(i, j);
      if (!check(`part ${i}/${j}`, partAt, undefined)) return;
      for (const field of fieldsOf(p)) {
        const where = `part ${i}/${j} ${field}`;
        const pointer = read.locate(i, j, [field]);
        if (check(where, pointer, partAt)) checkValue(where, pointer, field, p[field]);
      }
      if (p.type !== 'tool-result' || !Array.isArray(p.content)) return;
      (p.content as Part[]).forEach((c, k) => {
        const contentAt = read.locate(i, j, ['content', k]);
        if (!check(`part ${i}/${j} content ${k}`, contentAt, partAt)) return;
        for (const field of fieldsOf(c)) {
          const where = `part ${i}/${j} content ${k} ${field}`;
          const pointer = read.locate(i, j, ['content', k, field]);
          if (check(where, pointer, contentAt)) checkValue(where, pointer, field, c[field]);
        }
      });
    });
  });
  return problems;
}

/** The parts of a conversation v1 has no type for, with their indices. */
function keptParts(c: Conversation): { i: number; j: number; part: Part }[] {
  return c.messages.flatMap((m, i) =>
    m.parts.flatMap((part, j) => (V1_TYPES.has(part.type) ? [] : [{ i, j, part }])),
  );
}

describe('the contract fixtures', () => {
  it('cover every format with every case', () => {
    const layout = Object.fromEntries(
      FORMATS.map((f) => [f.name, fixturesOf(f.name).map((x) => x.name)]),
    );
    const want = Object.fromEntries(
      FORMATS.map((f) => [
        f.name,
        [...CASES].filter((c) => c !== 'bare' || !NO_BARE.has(f.name)).sort(),
      ]),
    );
    expect(layout).toEqual(want);
    expect(readdirSync(ROOT).sort()).toEqual(FORMATS.map((f) => f.name).sort());
  });

  it('are in the one layout, as is every other case', () => {
    const known = new Set<string>(FIXTURE_FILES);
    const problems: string[] = [];
    for (const format of readdirSync(ROOT).sort()) {
      for (const name of readdirSync(`${ROOT}${format}`).sort()) {
        const where = `${format}/${name}`;
        const files = readdirSync(`${ROOT}${where}`);
        const has = (f: string): boolean => files.includes(f);
        for (const f of files) if (!known.has(f)) problems.push(`${where}: ${f}`);
        if (!has('v1.json')) problems.push(`${where}: no v1.json`);
        if (!has('source.json') && !has('written.json'))
          problems.push(`${where}: neither source.json (read) nor written.json (write)`);
        if (has('source.json') && has('losses.json'))
          problems.push(`${where}: losses.json in a read case`);
        if (!has('source.json') && (has('stored.json') || has('context.json')))
          problems.push(`${where}: stored.json or context.json in a write case`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe.each(FORMATS.map((f) => [f.name, f] as [string, ConversationFormat]))(
  '%s',
  (name, format) => {
    const fixtures = fixturesOf(name);
    const cases = fixtures.map((f) => [f.name, f] as [string, Fixture]);
    // A read-only format writes nothing back; a session format writes only back into the
    // session read (with its context), never from stored v1.
    const writes = !format.readOnly;
    const writesStored = writesAnyConversation(format);

    it('is the registry entry of its name', () => {
      expect(formatByName(name)).toBe(format);
    });

    it.each(cases)('%s: detected, also by --from auto', (_, fx) => {
      expect(format.detect(fx.source)).toBe(true);
      expect(detectFormat(fx.source).name).toBe(name);
    });

    it.each(cases)('%s: reads as v1.json', (_, fx) => {
      expect(plain(format.read(fx.source).conversation)).toEqual(plain(fx.v1));
    });

    it.runIf(writes).each(cases)('%s: written back with the read context, no losses', (_, fx) => {
      const read = format.read(fx.source);
      const written = format.write(read.conversation, read.context);
      expect(written.losses).toEqual([]);
      expect(shape(written.value)).toEqual(shape(fx.expected));
    });

    it.runIf(writesStored).each(cases)(
      '%s: written back from stored v1 (no context), no losses',
      (_, fx) => {
        const written = format.write(stored(format.read(fx.source).conversation));
        expect(written.losses).toEqual([]);
        expect(shape(written.value)).toEqual(shape(fx.storedExpected));
      },
    );

    it.each(cases)('%s: every message, part and field is located in the source', (_, fx) => {
      expect(locationProblems(fx.source, format.read(fx.source))).toEqual([]);
    });

    it.each(cases.filter(([c]) => c === 'kept'))(
      '%s: kept parts are there and written back in place',
      (_, fx) => {
        const read = format.read(fx.source);
        const kept = keptParts(read.conversation);
        expect(kept.length).toBeGreaterThan(0);
        for (const { part } of kept)
          expect(part.type.startsWith(`${name}:`) || name === 'histlint').toBe(true);
        if (!writes) return;
        for (const value of [
          format.write(read.conversation, read.context).value,
          ...(writesStored ? [format.write(stored(read.conversation)).value] : []),
        ]) {
          for (const { i, j } of kept) {
            const pointer = read.locate(i, j);
            expect(plain(at(value, pointer)), `${i}/${j} at ${pointer}`).toEqual(
              plain(at(fx.source, pointer)),
            );
          }
        }
      },
    );

    it.each(cases)('%s: normalize through the format changes nothing, twice', (_, fx) => {
      const read = format.read(fx.source);
      expect(ConversationSchema.safeParse(plain(read.conversation)).success).toBe(true);
      const once = normalizeHistory(read.conversation);
      expect(once.changed).toBe(false);
      expect(plain(once.envelope)).toEqual(plain(read.conversation));
      const twice = normalizeHistory(once.envelope);
      expect(twice.changed).toBe(false);
      expect(plain(twice.envelope)).toEqual(plain(once.envelope));
      if (!writes) return;
      const written = format.write(once.envelope, read.context);
      expect(written.losses).toEqual([]);
      expect(shape(written.value)).toEqual(shape(fx.expected));
    });

    it('text is the wrapped shape and bare the bare one, each kept on every write', () => {
      const byName = new Map(fixtures.map((f) => [f.name, f]));
      const text = byName.get('text')!;
      if (NO_BARE.has(name)) {
        // One shape only: every write keeps the text case's.
        const read = format.read(text.source);
        if (writes)
          expect(Array.isArray(format.write(read.conversation, read.context).value)).toBe(
            Array.isArray(text.source),
          );
        return;
      }
      const bare = byName.get('bare')!;
      expect(Array.isArray(text.source)).toBe(BARE_ONLY.has(name));
      expect(Array.isArray(bare.source)).toBe(true);
      if (!writes) return;
      for (const fx of [text, bare]) {
        const read = format.read(fx.source);
        const shapes = [
          format.write(read.conversation, read.context).value,
          ...(writesStored ? [format.write(stored(read.conversation)).value] : []),
        ].map((v) => (Array.isArray(v) ? 'bare' : 'wrapped'));
        const want = [fx.expected, ...(writesStored ? [fx.storedExpected] : [])].map((v) =>
          Array.isArray(v) ? 'bare' : 'wrapped',
        );
        expect(shapes, fx.name).toEqual(want);
        // Bare stays bare, with the read and without it; only v1's own envelope is the exception.
        expect(want[0], fx.name).toBe(
          fx.name === 'bare' || BARE_ONLY.has(name) ? 'bare' : 'wrapped',
        );
      }
    });
  },
);
