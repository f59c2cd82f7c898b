/**
 * Helpers of the format adapter suites (test/formats): the shared corpus and
 * the fixtures read as JSON values, copies through text, round trips, the
 * checks every block-turn adapter runs on what it reads and writes, and the
 * one runner of the fixture cases of fixtures/formats/<format>/<case>/.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeHistory } from '../../src/core/normalize.js';
import { analyzePairing } from '../../src/core/pairing.js';
import { detectFormat } from '../../src/formats/detect.js';
import {
  writesAnyConversation,
  type Conversation,
  type ConversationFormat,
  type ReadResult,
  type WriteResult,
} from '../../src/formats/format.js';
import { withMessages } from '../../src/formats/histlint/index.js';
import {
  jsonEqual,
  parseJson,
  stringifyJson,
  type JsonObject,
  type JsonValue,
} from '../../src/model/json.js';
import { parsePointer, valueAt } from '../../src/model/pointer.js';
import { ConversationSchema, EnvelopeSchema } from '../../src/model/schema.js';
import { isObject, type Part } from '../../src/model/types.js';
import { ROOT } from './cli.js';
import { CORPUS } from './shared.js';

/** The corpus folders of the request formats, one a format. */
export const REQUEST_FOLDERS = [
  'anthropic',
  'bedrock-converse',
  'gemini',
  'openai-chat',
  'openai-responses',
] as const;

/** Every corpus folder: the request formats', then the other recorded shapes. */
export const CORPUS_FOLDERS = [
  ...REQUEST_FOLDERS,
  'claude-code-jsonl',
  'openai-agents-runstate',
  'vercel-ai-uimessage-stream',
] as const;

/** The folders of `folders` other than `own`, in their order. */
export function otherFolders(folders: readonly string[], own: string): string[] {
  return folders.filter((f) => f !== own);
}

/** One value of the corpus or the fixtures, and where it came from (for failure messages). */
export interface CorpusRecord {
  where: string;
  value: JsonValue;
}

/** What {@link corpusRecords} returns besides the conversations. */
export interface CorpusOptions {
  /** Each JSONL line whole too, as `<folder>/<file>:<line> (line)`. */
  lines?: boolean;
  /** Each `.json` file whole, and each session log of `claude-code-jsonl` as one array of its lines. */
  documents?: boolean;
}

/**
 * The conversations of a corpus folder, in file order: `/request` of each
 * JSONL line (or its `/traj` or `/messages`); none when the folder is missing.
 */
export function corpusRecords(folder: string, options: CorpusOptions = {}): CorpusRecord[] {
  const dir = path.join(CORPUS, folder);
  if (!existsSync(dir)) return [];
  const out: CorpusRecord[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (file.endsWith('.jsonl')) {
      const events: JsonValue[] = [];
      readFileSync(path.join(dir, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (line.trim() === '') return;
          const record = parseJson(line);
          events.push(record);
          const where = `${folder}/${file}:${i + 1}`;
          const value = isObject(record)
            ? (record.request ?? record.traj ?? record.messages)
            : undefined;
          if (value !== undefined) out.push({ where, value });
          if (options.lines === true) out.push({ where: `${where} (line)`, value: record });
        });
      // Session logs (one event a line) are read as one array.
      if (options.documents === true && folder === 'claude-code-jsonl') {
        out.push({ where: `${folder}/${file}`, value: events });
      }
    } else if (options.documents === true && file.endsWith('.json')) {
      out.push({ where: `${folder}/${file}`, value: readJson(dir, file) });
    }
  }
  return out;
}

/**
 * Every JSON document of a corpus folder as `[where, value]`: each `.json` file whole, each line
 * of a `.jsonl` file (`<folder>/<file>:<line>`); none when the folder is missing.
 */
export function corpusDocuments(folder: string): [string, JsonValue][] {
  const dir = path.join(CORPUS, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((file): [string, JsonValue][] => {
      const text = readFileSync(path.join(dir, file), 'utf8');
      if (file.endsWith('.json')) return [[`${folder}/${file}`, parseJson(text)]];
      if (!file.endsWith('.jsonl')) return [];
      return text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l, i): [string, JsonValue] => [`${folder}/${file}:${i + 1}`, parseJson(l)]);
    });
}

/** The `.json` files below `dir`, recursively (none when it is missing). */
export function jsonFilesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return jsonFilesBelow(full);
    return name.endsWith('.json') ? [full] : [];
  });
}

/** The JSON value of a file (the path given in segments), numbers as written. */
export function readJson(...segments: string[]): JsonValue {
  return parseJson(readFileSync(path.join(...segments), 'utf8'));
}

/** Reads the files of the fixture cases of a format (`fixtures/formats/<format>/`): `(case name, file name) => value`. */
export function fixtureReader(format: string): (name: string, file: string) => JsonValue {
  return (name, file) => readJson(ROOT, 'fixtures', 'formats', format, name, file);
}

/** The `input.json` of every fixtures/core case: v1 conversations, which no provider format may claim. */
export function v1InputFiles(): string[] {
  const dir = path.join(ROOT, 'fixtures', 'core');
  return readdirSync(dir).flatMap((op) =>
    readdirSync(path.join(dir, op))
      .map((c) => path.join(dir, op, c, 'input.json'))
      .filter((file) => existsSync(file)),
  );
}

/** A deep copy through text: what a user stores is the JSON, not the objects. */
export function copy<T extends JsonValue>(v: T): T {
  return parseJson(stringifyJson(v, 0)) as T;
}

/** A value as plain JavaScript (exact numbers become doubles), for `toEqual`. */
export function plain(v: JsonValue): unknown {
  return JSON.parse(stringifyJson(v));
}

/** write(read(x)) with the read's context. */
export function roundTrip(format: ConversationFormat, value: JsonValue): WriteResult {
  const read = format.read(value);
  return format.write(read.conversation, read.context);
}

/** write(read(x)) of a stored v1 file: the conversation through text, without the read's context. */
export function storedRoundTrip(format: ConversationFormat, value: JsonValue): WriteResult {
  return format.write(copy(format.read(value).conversation));
}

/** write(read(x)) with the read's context, the value read and the conversation written both copies through text. */
export function textRoundTrip(format: ConversationFormat, value: JsonValue): WriteResult {
  const read = format.read(copy(value));
  return format.write(copy(read.conversation), read.context);
}

/** Where the round trip `trip` does not give the record back exactly, or (when `lossless`) reports losses. */
export function failedRoundTrips(
  records: readonly CorpusRecord[],
  trip: (value: JsonValue) => WriteResult,
  lossless = true,
): string[] {
  return records
    .filter((rec) => {
      const written = trip(rec.value);
      return !jsonEqual(written.value, rec.value) || (lossless && written.losses.length > 0);
    })
    .map((rec) => rec.where);
}

/** Every v1 field of a part, and the text of each content part of a tool result. */
function allPaths(p: Part): (string | number)[][] {
  const paths: (string | number)[][] = Object.keys(p).map((k) => [k]);
  if (Array.isArray(p.content)) p.content.forEach((_, c) => paths.push(['content', c, 'text']));
  return paths;
}

/** Every v1 message and part of a read, and the `paths` below each part (all its fields by default), found in the source. */
export function expectLocatable(
  value: JsonValue,
  read: ReadResult,
  paths: (part: Part) => (string | number)[][] = allPaths,
): void {
  read.conversation.messages.forEach((m, i) => {
    const at = read.locate(i);
    expect(valueAt(value, parsePointer(at)), `message ${i} at ${at}`).toBeDefined();
    m.parts.forEach((p, j) => {
      const pointer = read.locate(i, j);
      expect(valueAt(value, parsePointer(pointer)), `part ${i}/${j} at ${pointer}`).toBeDefined();
      for (const sub of paths(p)) {
        const deep = read.locate(i, j, sub);
        expect(deep.startsWith(pointer), `${sub.join('/')} of ${i}/${j}`).toBe(true);
        expect(valueAt(value, parsePointer(deep)), `${sub.join('/')} at ${deep}`).toBeDefined();
      }
    });
  });
}

/** A write with the read's context keeps the request body's key order. */
export function expectKeyOrderKept(
  format: ConversationFormat,
  records: readonly CorpusRecord[],
): void {
  for (const rec of records) {
    const written = roundTrip(format, rec.value).value as JsonObject;
    expect(Object.keys(written), rec.where).toEqual(Object.keys(rec.value as JsonObject));
  }
}

/** Every record reads into a conversation the v1 schema accepts, whose pairing needs no repair. */
export function expectCleanReads(
  format: ConversationFormat,
  records: readonly CorpusRecord[],
): void {
  for (const rec of records) {
    const { conversation } = format.read(rec.value);
    expect(ConversationSchema.safeParse(plain(conversation)).success, rec.where).toBe(true);
    expect(normalizeHistory(conversation.messages).changed, rec.where).toBe(false);
  }
}

/** The cases every format has, which test/formats/contract.test.ts runs its full checks on. */
export const CONTRACT_CASES = ['text', 'tools', 'media', 'kept', 'bare'] as const;

/** The files a case folder may hold. */
export const FIXTURE_FILES = [
  'source.json',
  'v1.json',
  'written.json',
  'stored.json',
  'losses.json',
  'context.json',
] as const;

/**
 * One case of `fixtures/formats/<format>/<case>/` (the layout is described in
 * test/formats/contract.test.ts): a read case has `source.json`, a write case
 * has none and `written.json` instead.
 */
export interface FixtureCase {
  name: string;
  dir: string;
  kind: 'read' | 'write';
  /** `source.json`: the stored value in the format (a read case). */
  source?: JsonValue;
  /** `v1.json`: the v1 conversation it reads as, or the conversation written. */
  v1: Conversation;
  /** `written.json`: what writing `v1` gives (a read case: with the read's context, when not `source`). */
  written?: JsonValue;
  /** `stored.json`: what writing `v1` stored as v1 (no context) gives, when not {@link written} or `source`. */
  stored?: JsonValue;
  /** `losses.json`: the losses of the write, else none. */
  losses: JsonValue[];
  /** `context.json`: the read's context, when the case checks it. */
  context?: JsonValue;
}

/** The fixtures of a format: every case folder of `fixtures/formats/<format>/`, in name order. */
export function fixtureCases(format: string): FixtureCase[] {
  const root = path.join(ROOT, 'fixtures', 'formats', format);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .map((name) => {
      const dir = path.join(root, name);
      const file = (f: string): JsonValue | undefined =>
        existsSync(path.join(dir, f)) ? readJson(dir, f) : undefined;
      const source = file('source.json');
      return {
        name,
        dir,
        kind: source === undefined ? 'write' : 'read',
        source,
        v1: file('v1.json') as unknown as Conversation,
        written: file('written.json'),
        stored: file('stored.json'),
        losses: (file('losses.json') as JsonValue[] | undefined) ?? [],
        context: file('context.json'),
      };
    });
}

/** The cases of a format other than the contract's: the ones its own suite runs. */
export function ownFixtureCases(format: string): FixtureCase[] {
  const contract = new Set<string>(CONTRACT_CASES);
  return fixtureCases(format).filter((c) => !contract.has(c.name));
}

/** What a per-format suite checks on its fixture cases besides {@link describeFixtureCases}'s checks. */
export interface FixtureChecks {
  /** The paths below each part a read case locates in the source (all its fields by default). */
  located?: (part: Part) => (string | number)[][];
  /**
   * Read cases only `--from <format>` reads: detection does not claim them (they mix in a block
   * of another format on purpose), and the runner checks that it does not.
   */
  fromOnly?: readonly string[];
  /** More checks of a read case's read. */
  read?: (read: ReadResult, fixture: FixtureCase) => void;
  /** More checks of the value a write case writes. */
  written?: (value: JsonValue, fixture: FixtureCase) => void;
}

/** The losses of a write as the text of `losses.json` would be (keys in order). */
const lossesText = (losses: unknown): string => stringifyJson(copy(losses as JsonValue));

/**
 * The one runner of the per-format fixture cases: every case of
 * `fixtures/formats/<format>/` but the contract's (test/formats/contract.test.ts runs those).
 *
 * - A read case: detected (by the format and by `--from auto`; not at all, for the cases of
 *   {@link FixtureChecks.fromOnly}), read as `v1.json` (and the context as `context.json`), v1
 *   the schema accepts, every message, part and field located in the source; for a format that
 *   writes, written back with the read's context as `written.json` (else `source.json`) and from
 *   stored v1 (no context) as `stored.json` (else the same), with no losses.
 * - A write case: `v1.json` written as `written.json`, with the losses of `losses.json` (else
 *   none); what is written is detected as the format and reads and writes back the same.
 */
export function describeFixtureCases(format: ConversationFormat, checks: FixtureChecks = {}): void {
  describe(`${format.name} fixture cases`, () => {
    const cases = ownFixtureCases(format.name);

    it('has cases of its own', () => {
      expect(cases.length).toBeGreaterThan(0);
    });

    for (const fx of cases.filter((c) => c.kind === 'read')) {
      it(`${fx.name}: detected, read as v1.json${format.readOnly ? '' : ', written back'}`, () => {
        const source = fx.source!;
        if (checks.fromOnly?.includes(fx.name) === true) {
          expect(format.detect(source), 'read only with --from').toBe(false);
        } else {
          expect(format.detect(source)).toBe(true);
          expect(detectFormat(source).name).toBe(format.name);
        }
        const read = format.read(source);
        expect(stringifyJson(read.conversation)).toBe(stringifyJson(fx.v1));
        if (fx.context !== undefined)
          expect(stringifyJson(read.context as JsonValue)).toBe(stringifyJson(fx.context));
        expect(EnvelopeSchema.safeParse(plain(read.conversation)).success).toBe(true);
        expectLocatable(source, read, checks.located);
        if (!format.readOnly) {
          const expected = fx.written ?? source;
          const written = format.write(read.conversation, read.context);
          expect(written.losses).toEqual([]);
          expect(jsonEqual(written.value, expected), 'written with the read context').toBe(true);
        }
        // A session is written only back into itself: there is no write from stored v1.
        if (writesAnyConversation(format)) {
          const expected = fx.written ?? source;
          const stored = format.write(copy(read.conversation));
          expect(stored.losses).toEqual([]);
          expect(jsonEqual(stored.value, fx.stored ?? expected), 'written from stored v1').toBe(
            true,
          );
        }
        checks.read?.(read, fx);
      });
    }

    for (const fx of cases.filter((c) => c.kind === 'write')) {
      it(`${fx.name}: v1.json written as written.json, with its losses`, () => {
        const written = format.write(fx.v1);
        // Exactly: numbers as written and keys in order.
        expect(stringifyJson(written.value)).toBe(stringifyJson(fx.written!));
        expect(lossesText(written.losses)).toBe(lossesText(fx.losses));
        // What was written is the format again, and reads and writes back the same.
        expect(format.detect(written.value)).toBe(true);
        expect(jsonEqual(roundTrip(format, copy(written.value)).value, written.value)).toBe(true);
        checks.written?.(written.value, fx);
      });
    }
  });
}

/** Every call of a read of `value` is answered. */
export function expectAnswered(format: ConversationFormat, value: JsonValue): void {
  const back = format.read(value);
  expect(analyzePairing(back.conversation.messages).unanswered).toEqual([]);
}

/** read → normalize → write with the read's context: no losses, and the output reads back with nothing left to repair. */
export function normalizeThrough(format: ConversationFormat, value: JsonValue): JsonValue {
  const read = format.read(value);
  const result = normalizeHistory(read.conversation.messages);
  expect(result.changed).toBe(true);
  const written = format.write(withMessages(read.conversation, result.messages), read.context);
  expect(written.losses).toEqual([]);
  const again = format.read(written.value);
  expect(normalizeHistory(again.conversation.messages).changed).toBe(false);
  expect(analyzePairing(again.conversation.messages).unanswered).toEqual([]);
  return written.value;
}
