/**
 * The project's own fixture family for the core operations (STYLE.md item 7):
 * every folder under fixtures/core/<op>/<case>/ holds `input.json`, an
 * optional `options.json` and a hand-written `expected.json`. Each case runs
 * through the library and through the CLI in-process, is re-run on its own
 * output (idempotency) and has its output checked against the v1 schema.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { normalizeHistory, type HistoryRepair, type TruncatedCall } from '../src/core/normalize.js';
import { sanitizeHistory, type SanitizeReport } from '../src/core/sanitize.js';
import { loadTokenCounter, type TokenCounter, type TokenizerName } from '../src/core/tokens.js';
import { budgetHistory, trimHistory, TrimError } from '../src/core/trim.js';
import { readDocument } from '../src/formats/kit/document.js';
import { parseJson, stringifyJson, type JsonObject, type JsonValue } from '../src/model/json.js';
import type { Message } from '../src/model/types.js';
import { ROOT, runCli } from './helpers/cli.js';

const FIXTURES = path.join(ROOT, 'fixtures', 'core');
const OPS = ['normalize', 'sanitize', 'trim'] as const;
type Op = (typeof OPS)[number];

/** Files a case folder may hold; anything else is a typo that would silently skip a check. */
const CASE_FILES = new Set(['input.json', 'options.json', 'expected.json']);

/** The options each operation accepts in `options.json`. */
const OPTION_KEYS: Record<Op, readonly string[]> = {
  normalize: ['duplicates', 'leavePending', 'target'],
  sanitize: ['duplicates', 'dropUnresolvedCalls', 'resolved'],
  trim: ['maxMessages', 'maxTokens', 'tokenizer', 'keepSystem'],
};

/** The key of each operation's object in a CLI report entry. */
const REPORT_KEY: Record<Op, 'repair' | 'sanitize' | 'trim'> = {
  normalize: 'repair',
  sanitize: 'sanitize',
  trim: 'trim',
};

interface CaseOptions {
  duplicates?: 'keep-first' | 'keep-last';
  leavePending?: boolean;
  /** sanitize `--drop-unresolved-calls`. */
  dropUnresolvedCalls?: boolean;
  /** sanitize `--resolved`: call ids whose unanswered calls stay. */
  resolved?: string[];
  /** normalize `--target`: a v1 input is never the provider's own format (not native). */
  target?: string;
  maxMessages?: number;
  maxTokens?: number;
  tokenizer?: TokenizerName;
  keepSystem?: boolean;
}

type Expected =
  { error: true } | { output: JsonValue; report: JsonObject; changed: boolean; error?: undefined };

interface Outcome {
  messages: Message[];
  report: object;
  changed: boolean;
}

interface Case {
  op: Op;
  name: string;
  dir: string;
}

function discover(): { cases: Case[]; strayOps: string[] } {
  const cases: Case[] = [];
  const strayOps: string[] = [];
  if (!existsSync(FIXTURES)) return { cases, strayOps };
  for (const entry of readdirSync(FIXTURES).sort()) {
    if (!(OPS as readonly string[]).includes(entry)) {
      strayOps.push(entry);
      continue;
    }
    const opDir = path.join(FIXTURES, entry);
    for (const name of readdirSync(opDir).sort()) {
      const dir = path.join(opDir, name);
      if (statSync(dir).isDirectory()) cases.push({ op: entry as Op, name, dir });
      else strayOps.push(`${entry}/${name}`);
    }
  }
  return { cases, strayOps };
}

const { cases, strayOps } = discover();

const schema = JSON.parse(
  readFileSync(path.join(ROOT, 'schemas', 'conversation.v1.schema.json'), 'utf8'),
) as object;
// Both packages are CommonJS; under NodeNext their classes sit on `.default`.
const ajv = new Ajv2020.default({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateConversation = ajv.compile(schema);

const counters = new Map<TokenizerName, Promise<TokenCounter>>();
function counter(name: TokenizerName): Promise<TokenCounter> {
  let c = counters.get(name);
  if (c === undefined) counters.set(name, (c = loadTokenCounter(name)));
  return c;
}

const work = mkdtempSync(path.join(tmpdir(), 'histlint-core-fixtures-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function readJson(file: string): JsonValue {
  return parseJson(readFileSync(file, 'utf8'));
}

/** The input as the library reads it: the conversation and its messages. */
function readInput(c: Case): { root: JsonValue; messages: Message[] } {
  const doc = readDocument(readFileSync(path.join(c.dir, 'input.json')), 'json');
  const unit = doc.units[0]!;
  if (unit.error !== undefined) throw unit.error;
  const root = unit.value!;
  const messages = Array.isArray(root) ? root : (root as JsonObject).messages;
  if (!Array.isArray(messages)) throw new Error(`${c.op}/${c.name}: input has no messages array`);
  return { root, messages: messages as Message[] };
}

function readOptions(c: Case): CaseOptions {
  const file = path.join(c.dir, 'options.json');
  if (!existsSync(file)) return {};
  const options = readJson(file) as JsonObject;
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS[c.op].includes(key)) throw new Error(`unknown option "${key}" for ${c.op}`);
  }
  if (c.op === 'trim' && (options.maxMessages === undefined) === (options.maxTokens === undefined))
    throw new Error('a trim case needs exactly one of maxMessages and maxTokens');
  return options as CaseOptions;
}

function readExpected(c: Case): Expected {
  const file = path.join(c.dir, 'expected.json');
  if (!existsSync(file)) throw new Error(`${c.op}/${c.name} has no expected.json`);
  const expected = readJson(file) as JsonObject;
  if (expected.error === true) return { error: true };
  for (const key of ['output', 'report', 'changed']) {
    if (!(key in expected)) throw new Error(`${c.op}/${c.name}: expected.json lacks "${key}"`);
  }
  return expected as unknown as Expected;
}

/** Runs the case's operation through the library. */
async function apply(op: Op, messages: Message[], options: CaseOptions): Promise<Outcome> {
  switch (op) {
    case 'normalize': {
      const r = normalizeHistory(messages, {
        ...(options.duplicates === undefined ? {} : { duplicates: options.duplicates }),
        ...(options.leavePending === undefined ? {} : { leavePending: options.leavePending }),
        ...(options.target === undefined
          ? {}
          : { target: { target: options.target, native: false } }),
      });
      return { messages: r.messages, report: r.repair, changed: r.changed };
    }
    case 'sanitize': {
      const r = sanitizeHistory(messages, {
        ...(options.duplicates === undefined ? {} : { duplicates: options.duplicates }),
        ...(options.dropUnresolvedCalls === undefined
          ? {}
          : { dropUnresolvedCalls: options.dropUnresolvedCalls }),
        ...(options.resolved === undefined ? {} : { resolved: options.resolved }),
      });
      return { messages: r.messages, report: r.report, changed: r.changed };
    }
    case 'trim': {
      const keepSystem = options.keepSystem === true;
      const r =
        options.maxMessages !== undefined
          ? trimHistory(messages, options.maxMessages, { keepSystem })
          : budgetHistory(messages, options.maxTokens!, {
              keepSystem,
              countTokens: await counter(options.tokenizer ?? 'o200k_base'),
            });
      return { messages: r.messages, report: r.report, changed: r.changed };
    }
  }
}

/** The conversation as written: the input's envelope (or bare array) around the new messages. */
function wrap(root: JsonValue, messages: Message[]): JsonValue {
  if (Array.isArray(root)) return messages;
  const out: JsonObject = {};
  for (const key of Object.keys(root as JsonObject)) {
    Object.defineProperty(out, key, {
      value: key === 'messages' ? messages : (root as JsonObject)[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The report as JSON carries it (what the CLI writes), so `undefined` keys cannot hide. */
function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** Each truncated call of a second pass is one of the first pass, found again where it now sits. */
function expectSameTruncated(
  again: TruncatedCall[],
  first: TruncatedCall[],
  messages: Message[],
): void {
  const identity = (t: TruncatedCall): unknown => ({
    callId: t.callId,
    name: t.name,
    arguments: t.arguments,
  });
  expect(again.map(identity)).toEqual(first.map(identity));
  for (const t of again) {
    const part = messages[t.messageIndex]?.parts[t.partIndex];
    expect(part?.type).toBe('tool-call');
    expect(part?.arguments).toBe(t.arguments);
  }
}

function expectRepairIdle(again: HistoryRepair, first: HistoryRepair, messages: Message[]): void {
  expect(again.synthesized).toEqual([]);
  expect(again.dropped).toEqual([]);
  expect(again.moved).toEqual([]);
  expect(again.merged).toBeUndefined();
  expectSameTruncated(again.truncated, first.truncated, messages);
}

/** Validates a conversation; returns its errors as `schemaPath message` lines. */
function schemaErrors(value: JsonValue): string[] {
  // Lossless numbers (JsonNumber) become plain JSON numbers for ajv.
  const plain = JSON.parse(stringifyJson(value, 0)) as unknown;
  if (validateConversation(plain)) return [];
  return (validateConversation.errors ?? []).map((e) => `${e.schemaPath} ${e.message ?? ''}`);
}

/** CLI flags for a case's options. */
function cliFlags(options: CaseOptions): string[] {
  const flags: string[] = [];
  if (options.duplicates !== undefined) flags.push('--duplicates', options.duplicates);
  if (options.leavePending === true) flags.push('--leave-pending');
  if (options.dropUnresolvedCalls === true) flags.push('--drop-unresolved-calls');
  if (options.resolved !== undefined) flags.push('--resolved', options.resolved.join(','));
  if (options.target !== undefined) flags.push('--target', options.target);
  if (options.maxMessages !== undefined) flags.push('--max-messages', String(options.maxMessages));
  if (options.maxTokens !== undefined) flags.push('--max-tokens', String(options.maxTokens));
  if (options.tokenizer !== undefined) flags.push('--tokenizer', options.tokenizer);
  if (options.keepSystem === true) flags.push('--keep-system');
  return flags;
}

describe('core fixtures', () => {
  it('finds cases for every operation', () => {
    for (const op of OPS) expect(cases.filter((c) => c.op === op).length).toBeGreaterThan(0);
  });

  it('holds nothing but operation folders of case folders', () => {
    expect(strayOps).toEqual([]);
  });

  for (const c of cases) {
    describe(`${c.op}/${c.name}`, () => {
      it('has an input, an expected result and nothing unknown', () => {
        const files = readdirSync(c.dir).sort();
        expect(files).toContain('input.json');
        expect(files).toContain('expected.json');
        expect(files.filter((f) => !CASE_FILES.has(f))).toEqual([]);
        readOptions(c);
        readExpected(c);
      });

      it('library: output, report and change as expected', async () => {
        const expected = readExpected(c);
        const options = readOptions(c);
        const { root, messages } = readInput(c);
        if (expected.error) {
          await expect(apply(c.op, messages, options)).rejects.toBeInstanceOf(TrimError);
          return;
        }
        const outcome = await apply(c.op, messages, options);
        expect(wrap(root, outcome.messages)).toEqual(expected.output);
        expect(asJson(outcome.report)).toEqual(expected.report);
        expect(outcome.report).toEqual(expected.report);
        expect(outcome.changed).toBe(expected.changed);
      });

      it('library: running again on the output changes nothing', async () => {
        const expected = readExpected(c);
        if (expected.error) return;
        const options = readOptions(c);
        const { messages } = readInput(c);
        const first = await apply(c.op, messages, options);
        const again = await apply(c.op, first.messages, options);
        expect(again.changed).toBe(false);
        expect(again.messages).toEqual(first.messages);
        switch (c.op) {
          case 'normalize':
            expectRepairIdle(
              again.report as HistoryRepair,
              first.report as HistoryRepair,
              first.messages,
            );
            break;
          case 'sanitize': {
            const r = again.report as SanitizeReport;
            expect(r.systemPrompts).toBe(0);
            expect(r.systemMessages).toEqual([]);
            expect(r.unsafeParts).toEqual([]);
            expect(r.removedMessages).toEqual([]);
            expect(r.droppedCalls).toEqual([]);
            expectRepairIdle(r.repair, (first.report as SanitizeReport).repair, first.messages);
            break;
          }
          case 'trim':
            expect(again.report).toEqual({
              kept: first.messages.length,
              removed: 0,
              firstKeptIndex: 0,
            });
            break;
        }
      });

      it('library: the output is valid against the v1 schema', async () => {
        const expected = readExpected(c);
        if (expected.error) return;
        const { root, messages } = readInput(c);
        const outcome = await apply(c.op, messages, readOptions(c));
        const outErrors = schemaErrors(wrap(root, outcome.messages));
        if (outErrors.length === 0) return;
        // Operations pass what they do not understand through; an input that is
        // off-schema on purpose may stay so, but no new kind of problem may appear.
        const inErrors = new Set(schemaErrors(root));
        expect(inErrors.size, 'the output is off-schema but the input is not').toBeGreaterThan(0);
        expect(outErrors.filter((e) => !inErrors.has(e))).toEqual([]);
      });

      it('CLI: writes the expected output and report', async () => {
        const expected = readExpected(c);
        const options = readOptions(c);
        const base = path.join(work, `${c.op}--${c.name}`);
        const out = `${base}.out.json`;
        const rep = `${base}.report.json`;
        const input = path.join(c.dir, 'input.json');
        const result = await runCli([
          c.op,
          input,
          '-o',
          out,
          '--report-file',
          rep,
          ...cliFlags(options),
        ]);
        const report = JSON.parse(readFileSync(rep, 'utf8')) as {
          files: Record<string, unknown>[];
        };
        expect(report.files).toHaveLength(1);
        const entry = report.files[0]!;
        if (expected.error) {
          expect(result.code, result.stderr).toBe(1);
          expect(existsSync(out)).toBe(false);
          expect(entry.error).toEqual(expect.objectContaining({ message: expect.any(String) }));
          expect(entry[REPORT_KEY[c.op]]).toBeUndefined();
          return;
        }
        expect(result.code, result.stderr).toBe(0);
        expect(readJson(out)).toEqual(expected.output);
        expect(entry.file).toBe(input.split(path.sep).join('/'));
        expect(entry.changed).toBe(expected.changed);
        expect(entry[REPORT_KEY[c.op]]).toEqual(expected.report);
      });
    });
  }
});
