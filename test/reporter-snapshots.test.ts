/**
 * Every reporter against one fixed result set, compared byte for byte with
 * the files committed under fixtures/reporters/. The set has several files,
 * errors and warnings, a clean file, an unreadable file and names and
 * messages with characters each format must escape.
 *
 * A snapshot is never written by a plain run: a missing or different file
 * fails. To regenerate after an intended change, run
 * `UPDATE_SNAPSHOTS=1 npx vitest run test/reporter-snapshots.test.ts` and
 * review the diff (refused when `CI` is set).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileResult, Finding } from '../src/lint/engine.js';
import { REPORTERS } from '../src/reporters/index.js';
import type { LintResults, ReporterContext } from '../src/reporters/types.js';
import type { RuleMeta } from '../src/rules/rule.js';
import { ruleById } from '../src/rules/index.js';
import { ROOT } from './helpers/cli.js';
import { childElements, parseXml } from './helpers/xml.js';

const DIR = path.join(ROOT, 'fixtures', 'reporters');
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';

function finding(f: Omit<Finding, 'pointer' | 'line' | 'column'> & Partial<Finding>): Finding {
  const out = { ruleId: f.ruleId, severity: f.severity, message: f.message } as Finding;
  if (f.messageIndex !== undefined) out.messageIndex = f.messageIndex;
  if (f.partIndex !== undefined) out.partIndex = f.partIndex;
  out.pointer = f.pointer ?? '';
  out.line = f.line ?? 1;
  out.column = f.column ?? 1;
  return out;
}

function file(name: string, findings: Finding[], error?: string): FileResult {
  const out: FileResult = {
    file: name,
    findings,
    errorCount: findings.filter((f) => f.severity === 'error').length,
    warningCount: findings.filter((f) => f.severity === 'warn').length,
  };
  if (error !== undefined) out.error = { message: error };
  return out;
}

/** The fixed result set (findings sorted by line, column, rule id, as the engine gives them). */
function results(): LintResults {
  const files = [
    file('data/a.json', [
      finding({
        ruleId: 'empty-message',
        severity: 'warn',
        message: 'user message has no parts',
        messageIndex: 1,
        pointer: '/messages/1/parts',
        line: 7,
        column: 16,
      }),
      finding({
        ruleId: 'unsafe-url',
        severity: 'error',
        message: 'image URL has the scheme "file"; only http and https are safe',
        messageIndex: 2,
        partIndex: 1,
        pointer: '/messages/2/parts/1/url',
        line: 19,
        column: 18,
      }),
      finding({
        ruleId: 'dangling-tool-call',
        severity: 'error',
        message: 'tool call "c1" (search) has no result after it',
        messageIndex: 3,
        partIndex: 0,
        pointer: '/messages/3/parts/0',
        line: 40,
        column: 9,
      }),
      finding({
        ruleId: 'truncated-arguments',
        severity: 'warn',
        message: 'arguments of tool call "c1" are not a JSON object: "{\\"pa"',
        messageIndex: 3,
        partIndex: 0,
        pointer: '/messages/3/parts/0/arguments',
        line: 44,
        column: 24,
      }),
    ]),
    file('data/clean.json', []),
    file('data/lines.jsonl', [
      finding({
        ruleId: 'parse-error',
        severity: 'error',
        message: 'invalid JSON: Unexpected end of JSON input',
        line: 2,
        column: 31,
      }),
      finding({
        ruleId: 'schema',
        severity: 'error',
        message: 'must have required property "role"',
        messageIndex: 0,
        pointer: '/messages/0/a~1b~0c',
        line: 5,
        column: 27,
      }),
    ]),
    file('data/missing.json', [], 'no such file'),
    file('odd dir/ünï "q" & <x>,y:z%#?.json', [
      finding({
        ruleId: 'schema',
        severity: 'error',
        message:
          'line one\nline two\r\n100% <b>bold</b> & \'apos\' "quote", a:b; tab\there esc\u001b[31m bidi\u202e emoji😀 ]]>',
        messageIndex: 0,
        partIndex: 0,
        pointer: '/messages/0/parts/0',
        line: 3,
        column: 5,
      }),
      finding({
        ruleId: 'invalid-id',
        severity: 'warn',
        message: 'runId "日本語" is not a UUID',
        messageIndex: 0,
        pointer: '/messages/0/runId',
        line: 3,
        column: 40,
      }),
    ]),
  ];
  return {
    files,
    errorCount: files.reduce((n, f) => n + f.errorCount, 0),
    warningCount: files.reduce((n, f) => n + f.warningCount, 0),
  };
}

/** A fixed rule list, so a new rule in the registry does not change the snapshots. */
const RULE_METAS: RuleMeta[] = [
  ['parse-error', 'The file or JSONL line is not valid JSON.', 'error'],
  ['schema', 'A schema violation.', 'error'],
  ['dangling-tool-call', 'A tool call with an id and no result after it.', 'error'],
  ['unsafe-url', 'An image or document URL whose scheme is not http or https.', 'error'],
  ['truncated-arguments', 'Tool-call arguments that are not a JSON object.', 'warn'],
  ['empty-message', 'A message with no parts.', 'warn'],
  ['invalid-id', 'A runId or conversationId that is not a UUID.', 'warn'],
  ['system-message', 'A system message stored in history.', 'off'],
].map(([id, description, defaultSeverity]) => ({
  id: id!,
  description: description!,
  defaultSeverity: defaultSeverity as RuleMeta['defaultSeverity'],
  fixable: false,
  messages: {},
}));

function context(color: boolean): ReporterContext {
  return {
    color,
    rules: RULE_METAS,
    docsUrl: (id) => `https://example.test/docs/rules/${id}.md`,
    version: '9.8.7',
  };
}

/** The snapshot files: name -> what renders it. */
const SNAPSHOTS: Record<string, () => string> = {
  'expected.stylish.txt': () => REPORTERS.stylish!(results(), context(false)),
  'expected.stylish-color.txt': () => REPORTERS.stylish!(results(), context(true)),
  'expected.json': () => REPORTERS.json!(results(), context(false)),
  'expected.sarif.json': () => REPORTERS.sarif!(results(), context(false)),
  'expected.github.txt': () => REPORTERS.github!(results(), context(false)),
  'expected.junit.xml': () => REPORTERS.junit!(results(), context(false)),
};

function compareWithFile(name: string, actual: string): void {
  const target = path.join(DIR, name);
  if (UPDATE) {
    if (process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false')
      throw new Error('UPDATE_SNAPSHOTS is refused in CI: regenerate locally and commit');
    mkdirSync(DIR, { recursive: true });
    writeFileSync(target, actual);
    return;
  }
  if (!existsSync(target)) {
    throw new Error(
      `missing snapshot fixtures/reporters/${name}: run UPDATE_SNAPSHOTS=1 npx vitest run test/reporter-snapshots.test.ts and review it`,
    );
  }
  // Compared as strings so that a failure shows a readable diff.
  expect(actual, `fixtures/reporters/${name}`).toBe(readFileSync(target, 'utf8'));
}

describe('reporter snapshots (fixtures/reporters/)', () => {
  it('every reporter has a snapshot, and every snapshot file is used', () => {
    const names = Object.keys(SNAPSHOTS);
    for (const reporter of Object.keys(REPORTERS)) {
      expect(
        names.some((n) => n === `expected.${reporter}` || n.startsWith(`expected.${reporter}.`)),
      ).toBe(true);
    }
    if (!UPDATE) expect(readdirSync(DIR).sort()).toEqual([...names].sort());
  });

  it.each(Object.keys(SNAPSHOTS))('%s', (name) => {
    compareWithFile(name, SNAPSHOTS[name]!());
  });

  it('the result set has what the snapshots are meant to cover', () => {
    const r = results();
    expect(r.errorCount).toBeGreaterThan(0);
    expect(r.warningCount).toBeGreaterThan(0);
    expect(r.files.some((f) => f.error !== undefined)).toBe(true);
    expect(r.files.some((f) => f.findings.length === 0 && f.error === undefined)).toBe(true);
    expect(r.files.some((f) => /[^\x20-\x7e]/.test(f.file))).toBe(true);
  });

  it('the plain stylish snapshot is the colored one without its ANSI codes, and has none of its own', () => {
    const plain = SNAPSHOTS['expected.stylish.txt']!();
    const colored = SNAPSHOTS['expected.stylish-color.txt']!();
    expect(plain).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(colored.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain);
  });
});

describe('what the snapshots hold, read back', () => {
  it('json and sarif give back every message and file name exactly', () => {
    const input = results();
    const json = JSON.parse(SNAPSHOTS['expected.json']!()) as {
      files: { file: string; findings: Finding[]; error?: { message: string } }[];
    };
    expect(json.files.map((f) => f.file)).toEqual(input.files.map((f) => f.file));
    // Each finding as given, plus its rule's page and whether --fix would fix it.
    expect(json.files.map((f) => f.findings)).toEqual(
      input.files.map((f) =>
        f.findings.map((x) => ({
          ...x,
          docsUrl: `https://example.test/docs/rules/${x.ruleId}.md`,
          fixable: Boolean(ruleById(x.ruleId)?.meta.fixable),
        })),
      ),
    );
    expect(json.files[3]!.error).toEqual({ message: 'no such file' });
    const sarif = JSON.parse(SNAPSHOTS['expected.sarif.json']!()) as {
      runs: { results: { message: { text: string } }[] }[];
    };
    expect(sarif.runs[0]!.results.map((r) => r.message.text)).toEqual(
      input.files.flatMap((f) => f.findings.map((x) => x.message)),
    );
  });

  it('junit attributes keep line breaks and tabs (as references), dropping only what XML cannot hold', () => {
    const root = parseXml(SNAPSHOTS['expected.junit.xml']!());
    const cases = childElements(root, 'testsuite').flatMap((s) => childElements(s, 'testcase'));
    const odd = cases.find((c) => c.attributes.name!.startsWith('odd dir/'))!;
    expect(odd.attributes.name).toBe(results().files[4]!.file);
    const failure = childElements(odd, 'failure')[0]!;
    expect(failure.attributes.message).toBe(
      results().files[4]!.findings[0]!.message.replace('\u001b', ''),
    );
  });
});
