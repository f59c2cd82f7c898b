/**
 * Helpers of the format adapter suites (test/formats): the shared corpus and
 * the fixtures read as JSON values, copies through text, round trips, and the
 * checks every block-turn adapter runs on what it reads and writes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { normalizeHistory } from '../../src/core/normalize.js';
import { analyzePairing } from '../../src/core/pairing.js';
import type {
  Conversation,
  ConversationFormat,
  ReadResult,
  WriteResult,
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
import { ConversationSchema } from '../../src/model/schema.js';
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

/** The JSON value of a file (the path given in segments), numbers as written. */
export function readJson(...segments: string[]): JsonValue {
  return parseJson(readFileSync(path.join(...segments), 'utf8'));
}

/** Reads the files of the fixture cases of a format: `(case name, file name) => value`. */
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

/**
 * A read fixture case (`source.json`, `expected.json`): detected, read as
 * expected, written back exactly with and without the read's context, and
 * located.
 */
export function expectReadCase(
  format: ConversationFormat,
  fixture: (name: string, file: string) => JsonValue,
  name: string,
): void {
  const source = fixture(name, 'source.json');
  expect(format.detect(source)).toBe(true);
  const read = format.read(source);
  expect(plain(read.conversation)).toEqual(plain(fixture(name, 'expected.json')));
  const written = format.write(read.conversation, read.context);
  expect(written.losses).toEqual([]);
  expect(jsonEqual(written.value, source)).toBe(true);
  expect(jsonEqual(format.write(copy(read.conversation)).value, source)).toBe(true);
  expectLocatable(source, read);
}

/**
 * A write fixture case (`conversation.json`, `expected.json` with `value` and
 * `losses`): the value and losses expected, a value of the format again;
 * returns the value written.
 */
export function expectWriteCase(
  format: ConversationFormat,
  fixture: (name: string, file: string) => JsonValue,
  name: string,
): JsonValue {
  const conversation = fixture(name, 'conversation.json') as Conversation;
  const expected = fixture(name, 'expected.json') as JsonObject;
  const written = format.write(conversation);
  expect(plain(written.value)).toEqual(plain(expected.value!));
  expect(written.losses).toEqual(plain(expected.losses!));
  expect(format.detect(written.value)).toBe(true);
  return written.value;
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
