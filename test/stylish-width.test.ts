/**
 * The stylish layout within {@link STYLISH_WIDTH} columns: the provider's quoted rejection on an
 * indented line of its own, long messages wrapped (never cut), column padding capped. Checked on
 * synthetic findings and on every finding the rule fixtures (fixtures/rules/) expect.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileResult, Finding } from '../src/lint/engine.js';
import {
  splitProviderQuote,
  STYLISH_WIDTH,
  stylishReporter,
  wrapText,
} from '../src/reporters/stylish.js';
import type { LintResults, ReporterContext } from '../src/reporters/types.js';
import { ROOT } from './helpers/cli.js';

const CONTEXT: ReporterContext = {
  color: false,
  rules: [],
  docsUrl: (id) => `https://example.test/${id}`,
  version: '0.0.0',
};

function results(files: { file: string; findings: Finding[] }[]): LintResults {
  const out: FileResult[] = files.map((f) => ({
    file: f.file,
    findings: f.findings,
    errorCount: f.findings.filter((x) => x.severity === 'error').length,
    warningCount: f.findings.filter((x) => x.severity === 'warn').length,
  }));
  return {
    files: out,
    errorCount: out.reduce((n, f) => n + f.errorCount, 0),
    warningCount: out.reduce((n, f) => n + f.warningCount, 0),
  };
}

function finding(ruleId: string, message: string, line = 1, column = 1): Finding {
  return { ruleId, severity: 'error', message, pointer: '', line, column } as Finding;
}

/** The finding lines of a stylish report (file headers, blank lines and the summary left out). */
function findingLines(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('  ') && !l.startsWith('  error  '))
    .filter((l) => !/^ {2}\d+ problems? potentially fixable/.test(l));
}

/** True when a line over the width holds one word that alone does not fit. */
function forcedByOneWord(line: string): boolean {
  return line
    .trim()
    .split(/\s+/)
    .some((w) => w.length > STYLISH_WIDTH - 40);
}

const QUOTED =
  'tool call "toolu_01" has no tool result in the next user turn; Anthropic rejects it: "`tool_use` ids were found without `tool_result` blocks immediately after: toolu_01"';

describe('splitProviderQuote', () => {
  it('splits off the quoted rejection', () => {
    expect(splitProviderQuote(QUOTED)).toEqual({
      text: 'tool call "toolu_01" has no tool result in the next user turn; Anthropic rejects it',
      quote: '"`tool_use` ids were found without `tool_result` blocks immediately after: toolu_01"',
    });
  });

  it('leaves a message without one whole', () => {
    expect(splitProviderQuote('runId "x" is not a UUID')).toEqual({
      text: 'runId "x" is not a UUID',
    });
  });
});

describe('wrapText', () => {
  it('breaks at spaces and keeps a longer word whole', () => {
    expect(wrapText('aa bb cc', 5)).toEqual(['aa bb', 'cc']);
    expect(wrapText('a ' + 'x'.repeat(10) + ' b', 4)).toEqual(['a', 'x'.repeat(10), 'b']);
  });
});

describe('stylish within 120 columns', () => {
  it('puts the provider quote on an indented line below its finding', () => {
    const out = stylishReporter(
      results([{ file: 'a.json', findings: [finding('anthropic/tool-result-next-turn', QUOTED)] }]),
      CONTEXT,
    );
    const lines = findingLines(out);
    // The message column has 73 columns beside this rule id: the finding wraps under itself, and
    // the quote comes last, two columns further in.
    expect(lines).toEqual([
      `  1:1  error  ${'tool call "toolu_01" has no tool result in the next user turn; Anthropic'.padEnd(73)}  anthropic/tool-result-next-turn`,
      `${' '.repeat(14)}rejects it`,
      `${' '.repeat(16)}"\`tool_use\` ids were found without \`tool_result\` blocks immediately after: toolu_01"`,
    ]);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(STYLISH_WIDTH);
  });

  it('wraps a long message without losing a word, and it does not widen the other rows', () => {
    const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const out = stylishReporter(
      results([
        {
          file: 'a.json',
          findings: [finding('schema', long, 1, 1), finding('empty-message', 'short', 2, 1)],
        },
      ]),
      CONTEXT,
    );
    const lines = findingLines(out);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(STYLISH_WIDTH);
    const words = lines
      .filter((l) => !l.includes('short'))
      .join(' ')
      .split(/\s+/)
      .filter((w) => w.startsWith('word'));
    expect(words).toEqual(long.split(' '));
    // The short row's rule id sits where the long row's does: the column is capped, not stretched.
    const short = lines.find((l) => l.includes('short'))!;
    expect(short.indexOf('empty-message')).toBe(lines[0]!.indexOf('schema'));
    expect(short.length).toBeLessThanOrEqual(STYLISH_WIDTH);
  });

  it('lets only an unbreakable word go past the width, on its own row', () => {
    const token = 'x'.repeat(150);
    const out = stylishReporter(
      results([
        {
          file: 'a.json',
          findings: [finding('schema', `bad value ${token} here`), finding('schema', 'fine', 2)],
        },
      ]),
      CONTEXT,
    );
    const lines = findingLines(out);
    expect(lines.some((l) => l.includes(token))).toBe(true);
    for (const l of lines) if (l.length > STYLISH_WIDTH) expect(l.trim()).toBe(token);
  });

  it('keeps every line of the rule fixtures’ findings within the width', () => {
    const dir = path.join(ROOT, 'fixtures', 'rules');
    const files: { file: string; findings: Finding[] }[] = [];
    const walk = (d: string): void => {
      for (const name of readdirSync(d).sort()) {
        const p = path.join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (name === 'expected.json') {
          const findings = JSON.parse(readFileSync(p, 'utf8')) as Finding[];
          if (Array.isArray(findings) && findings.length > 0)
            files.push({ file: path.relative(ROOT, path.dirname(p)), findings });
        }
      }
    };
    if (existsSync(dir)) walk(dir);
    expect(files.length).toBeGreaterThan(50);
    const quoted = files.flatMap((f) => f.findings).filter((f) => / rejects /.test(f.message));
    expect(quoted.length).toBeGreaterThan(10);
    const out = stylishReporter(results(files), CONTEXT);
    const over = findingLines(out).filter((l) => l.length > STYLISH_WIDTH && !forcedByOneWord(l));
    expect(over).toEqual([]);
  });
});
