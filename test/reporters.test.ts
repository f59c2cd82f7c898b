/**
 * The reporters (STYLE 4): pure `(results, ctx) => string` functions, fed
 * hand-built lint results. json is SPEC §5.3's shape; sarif validates against
 * the official SARIF 2.1.0 schema; github, junit and stylish are checked line
 * by line, with the escaping each format needs.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { FileResult, Finding } from '../src/lint/engine.js';
import { REPORTER_NAMES } from '../src/names.js';
import { REPORTERS } from '../src/reporters/index.js';
import { githubReporter } from '../src/reporters/github.js';
import { jsonReporter } from '../src/reporters/json.js';
import { junitReporter } from '../src/reporters/junit.js';
import { sarifReporter } from '../src/reporters/sarif.js';
import { stylishReporter } from '../src/reporters/stylish.js';
import type { LintResults, ReporterContext } from '../src/reporters/types.js';
import { RULES, ruleDocsUrl } from '../src/rules/index.js';
import { ROOT } from './helpers/cli.js';
import { childElements, isXmlChar, parseXml, textOf, type XmlElement } from './helpers/xml.js';

// ---------------------------------------------------------------------------
// Hand-built results

type FindingInput = Pick<Finding, 'ruleId' | 'severity'> & Partial<Finding>;

function finding(input: FindingInput): Finding {
  const out: Finding = {
    ruleId: input.ruleId,
    severity: input.severity,
    message: input.message ?? `${input.ruleId} happened`,
  } as Finding;
  if (input.messageIndex !== undefined) out.messageIndex = input.messageIndex;
  if (input.partIndex !== undefined) out.partIndex = input.partIndex;
  out.pointer = input.pointer ?? '';
  out.line = input.line ?? 1;
  out.column = input.column ?? 1;
  return out;
}

function fileResult(file: string, findings: Finding[]): FileResult {
  return {
    file,
    findings,
    errorCount: findings.filter((f) => f.severity === 'error').length,
    warningCount: findings.filter((f) => f.severity === 'warn').length,
  };
}

function lintResults(files: FileResult[]): LintResults {
  return {
    files,
    errorCount: files.reduce((n, f) => n + f.errorCount, 0),
    warningCount: files.reduce((n, f) => n + f.warningCount, 0),
  };
}

function context(color = false): ReporterContext {
  return {
    color,
    rules: RULES.map((r) => r.meta),
    docsUrl: ruleDocsUrl,
    version: '9.8.7',
  };
}

const DANGLING = finding({
  ruleId: 'dangling-tool-call',
  severity: 'error',
  message: 'tool call "c1" (search) has no result after it',
  messageIndex: 3,
  partIndex: 0,
  pointer: '/messages/3/parts/0',
  line: 40,
  column: 9,
});
const EMPTY = finding({
  ruleId: 'empty-message',
  severity: 'warn',
  message: 'user message has no parts',
  messageIndex: 1,
  pointer: '/messages/1/parts',
  line: 7,
  column: 16,
});
const PARSE = finding({
  ruleId: 'parse-error',
  severity: 'error',
  message: 'Unexpected end of JSON input',
  pointer: '',
  line: 12,
  column: 3,
});

/** Two files with findings and one clean file. */
function mixed(): LintResults {
  return lintResults([
    fileResult('data/a.json', [EMPTY, DANGLING]),
    fileResult('data/b.jsonl', [PARSE]),
    fileResult('data/clean.json', []),
  ]);
}

/** Many findings of every rule, over many files. */
function many(): LintResults {
  const files: FileResult[] = [];
  for (let k = 0; k < 25; k++) {
    const findings: Finding[] = [];
    RULES.forEach((rule, i) => {
      findings.push(
        finding({
          ruleId: rule.meta.id,
          severity: (k + i) % 3 === 0 ? 'warn' : 'error',
          message: `${rule.meta.id} in file ${k}`,
          messageIndex: i,
          partIndex: i % 2 === 0 ? 0 : undefined,
          pointer: `/messages/${i}`,
          line: i + 1,
          column: k + 1,
        }),
      );
    });
    files.push(fileResult(`many/${String(k).padStart(2, '0')}.json`, findings));
  }
  files.push(fileResult('many/clean.json', []));
  return lintResults(files);
}

function clean(): LintResults {
  return lintResults([fileResult('ok/one.json', []), fileResult('ok/two.jsonl', [])]);
}

function empty(): LintResults {
  return lintResults([]);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const ANSI = /\u001b\[/;

// ---------------------------------------------------------------------------
// The registry and purity

describe('reporter registry', () => {
  it('has the five formats of SPEC §5.2 by name', () => {
    expect(Object.keys(REPORTERS).sort()).toEqual(['github', 'json', 'junit', 'sarif', 'stylish']);
    expect(Object.keys(REPORTERS)).toEqual([...REPORTER_NAMES]);
    expect(REPORTERS.stylish).toBe(stylishReporter);
    expect(REPORTERS.json).toBe(jsonReporter);
    expect(REPORTERS.sarif).toBe(sarifReporter);
    expect(REPORTERS.github).toBe(githubReporter);
    expect(REPORTERS.junit).toBe(junitReporter);
  });
});

describe.each(REPORTER_NAMES)('%s reporter is pure', (name) => {
  const reporter = REPORTERS[name];
  it.each([
    ['mixed', mixed],
    ['many', many],
    ['clean', clean],
    ['empty', empty],
  ] as const)('same output for the same %s input, and the input is not mutated', (_label, make) => {
    for (const color of [false, true]) {
      const input = make();
      const snapshot = structuredClone(input);
      // A frozen input makes any mutation throw (modules are strict).
      const first = reporter(deepFreeze(input), deepFreeze(context(color)));
      const second = reporter(make(), context(color));
      expect(typeof first).toBe('string');
      expect(second).toBe(first);
      expect(input).toEqual(snapshot);
    }
  });

  it('never writes ANSI codes when color is off', () => {
    for (const make of [mixed, many, clean, empty]) {
      expect(reporter(make(), context(false))).not.toMatch(ANSI);
    }
  });
});

describe.each(REPORTER_NAMES.filter((n) => n !== 'stylish'))(
  '%s reporter ignores color',
  (name) => {
    it('gives the same text with color on and off', () => {
      const reporter = REPORTERS[name];
      expect(reporter(mixed(), context(true))).toBe(reporter(mixed(), context(false)));
    });
  },
);

// ---------------------------------------------------------------------------
// json

describe('json reporter', () => {
  it('writes exactly the SPEC §5.3 shape, clean files with findings: []', () => {
    const parsed = JSON.parse(jsonReporter(mixed(), context())) as Record<string, unknown>;
    expect(parsed).toStrictEqual({
      files: [
        {
          file: 'data/a.json',
          findings: [
            {
              ruleId: 'empty-message',
              severity: 'warn',
              message: 'user message has no parts',
              messageIndex: 1,
              pointer: '/messages/1/parts',
              line: 7,
              column: 16,
              docsUrl: ruleDocsUrl('empty-message'),
              fixable: false,
            },
            {
              ruleId: 'dangling-tool-call',
              severity: 'error',
              message: 'tool call "c1" (search) has no result after it',
              messageIndex: 3,
              partIndex: 0,
              pointer: '/messages/3/parts/0',
              line: 40,
              column: 9,
              docsUrl: ruleDocsUrl('dangling-tool-call'),
              fixable: true,
            },
          ],
        },
        {
          file: 'data/b.jsonl',
          findings: [
            {
              ruleId: 'parse-error',
              severity: 'error',
              message: 'Unexpected end of JSON input',
              pointer: '',
              line: 12,
              column: 3,
              docsUrl: ruleDocsUrl('parse-error'),
              fixable: false,
            },
          ],
        },
        { file: 'data/clean.json', findings: [] },
      ],
      errorCount: 2,
      warningCount: 1,
    });
    expect(Object.keys(parsed)).toEqual(['files', 'errorCount', 'warningCount']);
  });

  it('a finding of a fixable rule in a read-only file is not fixable (json and the stylish count)', () => {
    const results = {
      files: [{ file: 's.jsonl', findings: [DANGLING], errorCount: 1, warningCount: 0 }],
      errorCount: 1,
      warningCount: 0,
    };
    const writable = JSON.parse(jsonReporter(results, context())) as {
      files: { findings: { fixable: boolean }[] }[];
    };
    expect(writable.files[0]!.findings[0]!.fixable).toBe(true);
    expect(stylishReporter(results, context())).toContain('1 problem potentially fixable');
    const readOnly = { ...results, files: [{ ...results.files[0]!, readOnly: 'claude-code' }] };
    const parsed = JSON.parse(jsonReporter(readOnly, context())) as typeof writable;
    expect(parsed.files[0]!.findings[0]!.fixable).toBe(false);
    expect(stylishReporter(readOnly, context())).not.toContain('fixable');
  });

  it('leaves out messageIndex and partIndex where they do not apply', () => {
    const parsed = JSON.parse(jsonReporter(mixed(), context())) as {
      files: { findings: Record<string, unknown>[] }[];
    };
    const parse = parsed.files[1]!.findings[0]!;
    expect('messageIndex' in parse).toBe(false);
    expect('partIndex' in parse).toBe(false);
    const empty0 = parsed.files[0]!.findings[0]!;
    expect('messageIndex' in empty0).toBe(true);
    expect('partIndex' in empty0).toBe(false);
  });

  it('lists every file, with counts, for an all-clean run and for no files', () => {
    expect(JSON.parse(jsonReporter(clean(), context()))).toStrictEqual({
      files: [
        { file: 'ok/one.json', findings: [] },
        { file: 'ok/two.jsonl', findings: [] },
      ],
      errorCount: 0,
      warningCount: 0,
    });
    expect(JSON.parse(jsonReporter(empty(), context()))).toStrictEqual({
      files: [],
      errorCount: 0,
      warningCount: 0,
    });
  });

  it('severity is "error" or "warn", and positions are 1-based numbers', () => {
    const parsed = JSON.parse(jsonReporter(many(), context())) as {
      files: { findings: Finding[] }[];
    };
    const all = parsed.files.flatMap((f) => f.findings);
    expect(all).toHaveLength(25 * RULES.length);
    for (const f of all) {
      expect(['error', 'warn']).toContain(f.severity);
      expect(Number.isInteger(f.line) && f.line >= 1).toBe(true);
      expect(Number.isInteger(f.column) && f.column >= 1).toBe(true);
    }
  });

  it('keeps odd characters of file names and messages exactly', () => {
    const name = 'dir with space/ünï "q" \\ \t.json';
    const message = 'line1\nline2 \u0000 \u2028 "quoted" \uD83D\uDE00';
    const parsed = JSON.parse(
      jsonReporter(
        lintResults([
          fileResult(name, [finding({ ruleId: 'schema', severity: 'error', message })]),
        ]),
        context(),
      ),
    ) as { files: { file: string; findings: Finding[] }[] };
    expect(parsed.files[0]!.file).toBe(name);
    expect(parsed.files[0]!.findings[0]!.message).toBe(message);
  });
});

// ---------------------------------------------------------------------------
// sarif

const sarifSchema = JSON.parse(
  readFileSync(path.join(ROOT, 'test', 'data', 'sarif-2.1.0.json'), 'utf8'),
) as Record<string, unknown>;
// The official schema is not written for ajv's strict mode (e.g. `required` inside `anyOf`).
const ajv = new Ajv2020.default({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateSarif = ajv.compile(sarifSchema);

interface SarifLog {
  $schema: string;
  version: string;
  runs: {
    tool: {
      driver: {
        name: string;
        version: string;
        rules: {
          id: string;
          helpUri: string;
          shortDescription: { text: string };
          defaultConfiguration: { level: string };
        }[];
      };
    };
    artifacts?: { location: { uri: string } }[];
    columnKind?: string;
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: {
        physicalLocation: {
          artifactLocation: { uri: string; index?: number };
          region: { startLine: number; startColumn: number };
        };
      }[];
    }[];
  }[];
}

function sarifOf(results: LintResults, extra: Partial<ReporterContext> = {}): SarifLog {
  const text = sarifReporter(results, { ...context(), ...extra });
  const log = JSON.parse(text) as SarifLog;
  const ok = validateSarif(log);
  if (!ok) {
    throw new Error(
      `SARIF output does not match the 2.1.0 schema:\n${JSON.stringify(validateSarif.errors, null, 2)}`,
    );
  }
  return log;
}

/** Resolves a SARIF artifact URI (relative to an imagined project root) back to a path. */
function resolveArtifact(uri: string): string {
  const url = new URL(uri, 'file:///project/');
  if (url.protocol !== 'file:') return `<${uri} is an absolute URI with scheme ${url.protocol}>`;
  if (url.search !== '' || url.hash !== '') return `<${uri} has a query or fragment>`;
  return fileURLToPath(url);
}

describe('sarif reporter', () => {
  it('an empty run validates against the SARIF 2.1.0 schema', () => {
    const log = sarifOf(empty());
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]!.results).toEqual([]);
  });

  it('an all-clean run validates and has no results', () => {
    const log = sarifOf(clean());
    expect(log.runs[0]!.results).toEqual([]);
  });

  it('a run with many findings validates, one result per finding', () => {
    const input = many();
    const log = sarifOf(input);
    const results = log.runs[0]!.results;
    expect(results).toHaveLength(input.errorCount + input.warningCount);
    const rules = log.runs[0]!.tool.driver.rules;
    for (const r of results) {
      // ruleIndex points at the rule with the same id.
      expect(rules[r.ruleIndex]!.id).toBe(r.ruleId);
    }
  });

  it('maps positions, messages and files', () => {
    const log = sarifOf(mixed());
    const run = log.runs[0]!;
    expect(run.columnKind).toBe('utf16CodeUnits');
    expect(run.tool.driver.name).toBe('histlint');
    expect(run.tool.driver.version).toBe('9.8.7');
    const dangling = run.results.find((r) => r.ruleId === 'dangling-tool-call')!;
    expect(dangling.message.text).toBe('tool call "c1" (search) has no result after it');
    const loc = dangling.locations[0]!.physicalLocation;
    expect(loc.artifactLocation.uri).toBe('data/a.json');
    expect(loc.region).toMatchObject({ startLine: 40, startColumn: 9 });
    const parse = run.results.find((r) => r.ruleId === 'parse-error')!;
    expect(parse.locations[0]!.physicalLocation.artifactLocation.uri).toBe('data/b.jsonl');
    expect(parse.locations[0]!.physicalLocation.region).toMatchObject({
      startLine: 12,
      startColumn: 3,
    });
    // Where artifacts are listed, the index points at the same file.
    if (run.artifacts !== undefined) {
      for (const r of run.results) {
        const al = r.locations[0]!.physicalLocation.artifactLocation;
        if (al.index !== undefined) expect(run.artifacts[al.index]!.location.uri).toBe(al.uri);
      }
    }
  });

  it('maps severities to levels: error -> error, warn -> warning', () => {
    const log = sarifOf(mixed());
    const levels = Object.fromEntries(log.runs[0]!.results.map((r) => [r.ruleId, r.level]));
    expect(levels).toEqual({
      'dangling-tool-call': 'error',
      'empty-message': 'warning',
      'parse-error': 'error',
    });
  });

  it('lists every rule with its helpUri and default level (off -> none)', () => {
    const log = sarifOf(empty());
    const rules = log.runs[0]!.tool.driver.rules;
    expect(rules.map((r) => r.id)).toEqual(RULES.map((r) => r.meta.id));
    const expectedLevel = { error: 'error', warn: 'warning', off: 'none' } as const;
    for (const rule of RULES) {
      const entry = rules.find((r) => r.id === rule.meta.id)!;
      expect(entry.helpUri).toBe(ruleDocsUrl(rule.meta.id));
      expect(() => new URL(entry.helpUri)).not.toThrow();
      expect(entry.shortDescription.text).toBe(rule.meta.description);
      expect(entry.defaultConfiguration.level).toBe(expectedLevel[rule.meta.defaultSeverity]);
    }
    // The table has rules of all three defaults, so all three levels are exercised.
    expect(new Set(rules.map((r) => r.defaultConfiguration.level))).toEqual(
      new Set(['error', 'warning', 'none']),
    );
  });

  it('file names with spaces, unicode and percent signs validate and resolve back', () => {
    const names = [
      'my data/with space.json',
      'données/日本語 ✓.json',
      'emoji/😀.jsonl',
      'pct/100%.json',
    ];
    const log = sarifOf(
      lintResults(
        names.map((n) => fileResult(n, [finding({ ruleId: 'schema', severity: 'error' })])),
      ),
    );
    const uris = log.runs[0]!.results.map(
      (r) => r.locations[0]!.physicalLocation.artifactLocation.uri,
    );
    expect(uris.map(resolveArtifact)).toEqual(names.map((n) => `/project/${n}`));
    for (const uri of uris) expect(uri).not.toMatch(/[\s\u0080-\uFFFF]/);
  });

  it('file names with "#", "?" and ":" are escaped so the URI still names the file', () => {
    const names = ['hash/a#1.json', 'query/what?.json', 'a:b.json'];
    const log = sarifOf(
      lintResults(
        names.map((n) => fileResult(n, [finding({ ruleId: 'schema', severity: 'error' })])),
      ),
    );
    const uris = log.runs[0]!.results.map(
      (r) => r.locations[0]!.physicalLocation.artifactLocation.uri,
    );
    expect(uris.map(resolveArtifact)).toEqual(names.map((n) => `/project/${n}`));
  });

  it('absolute paths become file URIs, and a drive letter is never read as a scheme', () => {
    const names = ['/srv/data/a b.json', 'C:/repo/x.json', 'c:\\x.json', 'rel/y.json'];
    const log = sarifOf(
      lintResults(
        names.map((n) => fileResult(n, [finding({ ruleId: 'schema', severity: 'error' })])),
      ),
      { windows: true },
    );
    const uris = log.runs[0]!.results.map(
      (r) => r.locations[0]!.physicalLocation.artifactLocation.uri,
    );
    expect(uris).toEqual([
      'file:///srv/data/a%20b.json',
      'file:///C:/repo/x.json',
      'file:///c:/x.json',
      'rel/y.json',
    ]);
    for (const uri of uris.slice(0, 3)) expect(new URL(uri).protocol).toBe('file:');
    expect(new URL(uris[0]!).pathname).toBe('/srv/data/a%20b.json');
  });

  it('elsewhere than Windows, a folder named like a drive is a relative path', () => {
    const log = sarifOf(
      lintResults([fileResult('c:/x.json', [finding({ ruleId: 'schema', severity: 'error' })])]),
    );
    const uri = log.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri;
    expect(uri).toBe('c%3A/x.json');
    // Resolved against the working folder, it names ./c:/x.json.
    expect(decodeURIComponent(new URL(uri, 'file:///work/').pathname)).toBe('/work/c:/x.json');
  });

  it('odd characters in messages survive as JSON strings', () => {
    const message = 'quote " backslash \\ newline \n tab \t nul \u0000 emoji 😀';
    const log = sarifOf(
      lintResults([
        fileResult('x.json', [finding({ ruleId: 'schema', severity: 'warn', message })]),
      ]),
    );
    expect(log.runs[0]!.results[0]!.message.text).toBe(message);
  });
});

// ---------------------------------------------------------------------------
// github

describe('github reporter', () => {
  it('writes one exact workflow command per finding, warnings as ::warning', () => {
    expect(githubReporter(mixed(), context()).split('\n')).toEqual([
      '::warning file=data/a.json,line=7,col=16,title=histlint empty-message::user message has no parts (empty-message)',
      '::error file=data/a.json,line=40,col=9,title=histlint dangling-tool-call::tool call "c1" (search) has no result after it (dangling-tool-call)',
      '::error file=data/b.jsonl,line=12,col=3,title=histlint parse-error::Unexpected end of JSON input (parse-error)',
      '',
    ]);
  });

  it('every line has the ::level file=…,line=…,col=…,title=…::message form', () => {
    const lines = githubReporter(many(), context()).trimEnd().split('\n');
    expect(lines).toHaveLength(25 * RULES.length);
    for (const line of lines) {
      expect(line).toMatch(/^::(error|warning) file=[^,:]+,line=\d+,col=\d+,title=[^,:]+::.+$/);
    }
  });

  it('escapes %, CR and LF in messages', () => {
    const out = githubReporter(
      lintResults([
        fileResult('a.json', [
          finding({
            ruleId: 'schema',
            severity: 'error',
            message: '100% broken\r\nsecond line\nthird: a, b',
            line: 2,
            column: 5,
          }),
        ]),
      ]),
      context(),
    );
    expect(out).toBe(
      '::error file=a.json,line=2,col=5,title=histlint schema::100%25 broken%0D%0Asecond line%0Athird: a, b (schema)\n',
    );
  });

  it('escapes %, CR, LF, ":" and "," in properties (file names)', () => {
    const out = githubReporter(
      lintResults([
        fileResult('dir,x/a:b%c\nd\re.json', [finding({ ruleId: 'schema', severity: 'warn' })]),
      ]),
      context(),
    );
    expect(out).toBe(
      '::warning file=dir%2Cx/a%3Ab%25c%0Ad%0De.json,line=1,col=1,title=histlint schema::schema happened (schema)\n',
    );
    expect(out.trimEnd().split('\n')).toHaveLength(1);
  });

  it('writes nothing when there are no findings', () => {
    expect(githubReporter(clean(), context())).toBe('');
    expect(githubReporter(empty(), context())).toBe('');
  });
});

// ---------------------------------------------------------------------------
// junit

function junitOf(results: LintResults): XmlElement {
  const text = junitReporter(results, context());
  expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  return parseXml(text);
}

function testcasesOf(root: XmlElement): XmlElement[] {
  expect(root.name).toBe('testsuites');
  return childElements(root, 'testsuite').flatMap((s) => childElements(s, 'testcase'));
}

describe('junit reporter', () => {
  it('is well-formed XML with one testcase per file and one failure per error', () => {
    const root = junitOf(mixed());
    const cases = testcasesOf(root);
    expect(cases.map((c) => c.attributes.name)).toEqual([
      'data/a.json',
      'data/b.jsonl',
      'data/clean.json',
    ]);
    expect(cases.map((c) => childElements(c, 'failure').length)).toEqual([1, 1, 0]);
    const failure = childElements(cases[0]!, 'failure')[0]!;
    expect(failure.attributes.message).toBe('tool call "c1" (search) has no result after it');
    expect(failure.attributes.type).toBe('dangling-tool-call');
    expect(textOf(failure)).toContain('data/a.json:40:9');
    // Warnings are not failures, but they are shown.
    expect(textOf(cases[0]!)).toContain('user message has no parts');
    // A clean file is a passing test case.
    expect(cases[2]!.children.filter((c) => typeof c !== 'string')).toEqual([]);
  });

  it('a run with many findings: counts in the attributes agree with the test cases', () => {
    const input = many();
    const root = junitOf(input);
    const cases = testcasesOf(root);
    expect(cases).toHaveLength(input.files.length);
    const failureElements = cases.reduce((n, c) => n + childElements(c, 'failure').length, 0);
    expect(failureElements).toBe(input.errorCount);
    const failedCases = cases.filter((c) => childElements(c, 'failure').length > 0).length;
    for (const suite of [root, ...childElements(root, 'testsuite')]) {
      expect(Number(suite.attributes.tests)).toBe(cases.length);
      // JUnit's `failures` counts failed tests (test cases), never more than `tests`.
      expect(Number(suite.attributes.failures)).toBe(failedCases);
    }
  });

  it('escapes XML special characters in file names and messages', () => {
    const file = `a&b<c>"d'e.json`;
    const message = `<script>alert("x")</script> & 'apos' ]]> &amp;`;
    const root = junitOf(
      lintResults([fileResult(file, [finding({ ruleId: 'schema', severity: 'error', message })])]),
    );
    const [testcase] = testcasesOf(root);
    expect(testcase!.attributes.name).toBe(file);
    const failure = childElements(testcase!, 'failure')[0]!;
    expect(failure.attributes.message).toBe(message);
    expect(textOf(failure)).toContain(message);
    expect(textOf(failure)).toContain(file);
  });

  it('removes characters XML 1.0 cannot hold (control characters, lone surrogates, U+FFFE)', () => {
    const message =
      'nul\u0000 bell\u0007 esc\u001b[31m vt\u000b ff\u000c lone\uD800 fffe\uFFFE ok😀';
    const file = 'ctl\u0001name.json';
    const root = junitOf(
      lintResults([
        fileResult(file, [
          finding({ ruleId: 'schema', severity: 'error', message }),
          finding({ ruleId: 'empty-message', severity: 'warn', message }),
        ]),
      ]),
    );
    const [testcase] = testcasesOf(root);
    const failure = childElements(testcase!, 'failure')[0]!;
    const seen = [
      failure.attributes.message!,
      textOf(failure),
      textOf(testcase!),
      testcase!.attributes.name!,
    ];
    for (const s of seen) {
      for (const ch of s) expect(isXmlChar(ch.codePointAt(0)!)).toBe(true);
    }
    expect(failure.attributes.message).toBe('nul bell esc[31m vt ff lone fffe ok😀');
    expect(testcase!.attributes.name).toBe('ctlname.json');
  });

  it('an empty run is a well-formed, empty suite', () => {
    const root = junitOf(empty());
    expect(testcasesOf(root)).toEqual([]);
    expect(root.attributes.tests).toBe('0');
    expect(root.attributes.failures).toBe('0');
  });
});

describe('a file with an error and findings (a --fix that could not be written)', () => {
  const results = (): LintResults => {
    const file: FileResult = {
      ...fileResult('data/a.json', [DANGLING]),
      error: { message: 'cannot write the fix: permission denied' },
    };
    return lintResults([file]);
  };

  it('stylish shows the error, then the findings', () => {
    const lines = stylishReporter(results(), context(false)).split('\n');
    expect(lines[0]).toBe('data/a.json');
    expect(lines[1]!.trim().split(/\s{2,}/)).toEqual([
      'error',
      'cannot write the fix: permission denied',
    ]);
    expect(lines[2]!.trim().split(/\s{2,}/)).toEqual([
      '40:9',
      'error',
      'tool call "c1" (search) has no result after it',
      'dangling-tool-call',
    ]);
  });

  it('junit has the error and a failure per error finding in one test case', () => {
    const [testcase] = testcasesOf(junitOf(results()));
    expect(childElements(testcase!, 'error').map((e) => e.attributes.message)).toEqual([
      'cannot write the fix: permission denied',
    ]);
    expect(childElements(testcase!, 'failure')).toHaveLength(1);
  });

  it('json keeps both, and SARIF reports the run as not successful', () => {
    const json = JSON.parse(jsonReporter(results(), context())) as { files: FileResult[] };
    expect(json.files[0]!.error?.message).toBe('cannot write the fix: permission denied');
    expect(json.files[0]!.findings).toHaveLength(1);
    const sarif = JSON.parse(sarifReporter(results(), context())) as {
      runs: { results: unknown[]; invocations: { executionSuccessful: boolean }[] }[];
    };
    expect(sarif.runs[0]!.results).toHaveLength(1);
    expect(sarif.runs[0]!.invocations[0]!.executionSuccessful).toBe(false);
  });
});

describe('the test XML parser', () => {
  it('refuses what is not well-formed, so the junit checks have teeth', () => {
    expect(() => parseXml('<a>&</a>')).toThrow();
    expect(() => parseXml('<a><b></a>')).toThrow();
    expect(() => parseXml('<a x="<"/>')).toThrow();
    expect(() => parseXml('<a x="1" x="2"/>')).toThrow();
    expect(() => parseXml('<a>\u0001</a>')).toThrow();
    expect(() => parseXml('<a/><b/>')).toThrow();
    expect(() => parseXml('<a>&#0;</a>')).toThrow();
    expect(parseXml('<?xml version="1.0"?>\n<a k="&lt;&#65;">x &amp; y</a>\n')).toEqual({
      name: 'a',
      attributes: { k: '<A' },
      children: ['x & y'],
    });
  });
});

// ---------------------------------------------------------------------------
// stylish

describe('stylish reporter', () => {
  it('groups findings by file, with aligned rows and a summary line', () => {
    const out = stylishReporter(mixed(), context(false));
    const lines = out.split('\n');
    // Each file with findings is a header, its rows, then a blank line.
    const aAt = lines.indexOf('data/a.json');
    const bAt = lines.indexOf('data/b.jsonl');
    expect(aAt).toBe(0);
    expect(bAt).toBeGreaterThan(aAt);
    expect(lines.slice(aAt + 1, bAt - 1).map((l) => l.trim().split(/\s{2,}/))).toEqual([
      ['7:16', 'warning', 'user message has no parts', 'empty-message'],
      ['40:9', 'error', 'tool call "c1" (search) has no result after it', 'dangling-tool-call'],
    ]);
    expect(lines[bAt - 1]).toBe('');
    expect(lines[bAt + 1]!.trim().split(/\s{2,}/)).toEqual([
      '12:3',
      'error',
      'Unexpected end of JSON input',
      'parse-error',
    ]);
    // A clean file has no header.
    expect(out).not.toContain('data/clean.json');
    expect(out).toContain('✖ 3 problems (2 errors, 1 warning)');
    expect(out.endsWith('\n')).toBe(true);
    // Rows of one file are aligned: the rule id starts in the same column.
    const rows = lines.slice(aAt + 1, bAt - 1);
    expect(rows[0]!.indexOf('empty-message')).toBe(rows[1]!.indexOf('dangling-tool-call'));
  });

  it('uses singular words for one problem', () => {
    const out = stylishReporter(lintResults([fileResult('a.json', [DANGLING])]), context(false));
    expect(out).toContain('✖ 1 problem (1 error, 0 warnings)');
    const warnOnly = stylishReporter(lintResults([fileResult('a.json', [EMPTY])]), context(false));
    expect(warnOnly).toContain('✖ 1 problem (0 errors, 1 warning)');
  });

  it('keeps each finding on one line even when its message has line breaks', () => {
    const out = stylishReporter(
      lintResults([
        fileResult('a.json', [
          finding({ ruleId: 'schema', severity: 'error', message: 'a\nb\r\nc' }),
        ]),
      ]),
      context(false),
    );
    expect(out.split('\n')[1]).toMatch(/1:1\s+error\s+a b c\s+schema/);
  });

  it('has no ANSI codes when color is false, and has them when true', () => {
    const plain = stylishReporter(mixed(), context(false));
    const colored = stylishReporter(mixed(), context(true));
    expect(plain).not.toMatch(ANSI);
    expect(colored).toMatch(ANSI);
    // Color changes only the decoration, never the text.
    expect(colored.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain);
  });

  it('writes nothing when there are no findings, even with color on', () => {
    expect(stylishReporter(clean(), context(false))).toBe('');
    expect(stylishReporter(clean(), context(true))).toBe('');
    expect(stylishReporter(empty(), context(true))).toBe('');
  });
});
