/**
 * The generic runner of the rule fixtures (STYLE.md item 7): every folder
 * fixtures/rules/<id>/<case>/ holds `input.json` or `input.jsonl`, an
 * optional `options.json` and a hand-written `expected.json`, the exact
 * findings of rule <id>. Every rule runs at its default severity (so a case
 * notices other rules getting in the way), `options.json` adjusts that, and
 * only the findings of the case's rule are compared. A provider rule
 * `<target>/<rule>` has its cases in fixtures/rules/<target>/<rule>/, each
 * with `{"target": "<target>"}` in `options.json`, as `--target` would run it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TARGETS } from '../src/names.js';
import { lintBytes, type Finding, type FindingSeverity } from '../src/lint/engine.js';
import { RULES, ruleById } from '../src/rules/index.js';
import {
  CASE_FILES,
  discoverRuleCases,
  inputFile,
  lintCase,
  OPTION_KEYS,
  readOptions,
} from './helpers/rule-fixtures.js';
import { runCli } from './helpers/cli.js';

function readExpected(dir: string): Finding[] {
  return JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Finding[];
}

/** True when findings are sorted by line, column, then rule id (SPEC §5.3). */
function isSorted(findings: readonly Finding[]): boolean {
  for (let k = 1; k < findings.length; k++) {
    const a = findings[k - 1]!;
    const b = findings[k]!;
    const order =
      a.line - b.line ||
      a.column - b.column ||
      (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0);
    if (order > 0) return false;
  }
  return true;
}

const { cases, strays } = discoverRuleCases();

/** The rules that run without `--target` (provider rules are off then). */
const CORE_RULES = RULES.filter((r) => r.meta.target === undefined);

describe('rule fixtures', () => {
  it('has cases, and no folder that names no rule', () => {
    expect(cases.length).toBeGreaterThan(0);
    expect(strays).toEqual([]);
  });

  for (const c of cases) {
    describe(`${c.ruleId}/${c.name}`, () => {
      it('holds only known files, with valid options', () => {
        const files = readdirSync(c.dir);
        expect(files.filter((f) => !CASE_FILES.has(f))).toEqual([]);
        expect(files).toContain('expected.json');
        inputFile(c.dir);
        const options = readOptions(c.dir);
        expect(Object.keys(options).filter((k) => !OPTION_KEYS.has(k))).toEqual([]);
        for (const [id, severity] of Object.entries(options.rules ?? {})) {
          expect(ruleById(id), `options.json names unknown rule ${id}`).toBeDefined();
          expect(['off', 'warn', 'error']).toContain(severity);
        }
        if (options.target !== undefined) expect(TARGETS).toContain(options.target);
        // A provider rule runs only under its target: each case names it (whatever its format).
        // A core rule's case may name one too (unsafe-url lets a provider's own storage be).
        const ruleTarget = ruleById(c.ruleId)!.meta.target;
        if (ruleTarget !== undefined)
          expect(options.target, 'options.json "target"').toBe(ruleTarget);
      });

      it('is named valid-* (no findings) or invalid-* (findings)', () => {
        const expected = readExpected(c.dir);
        expect(c.name).toMatch(/^(valid|invalid)-[a-z0-9-]+$/);
        if (c.name.startsWith('valid-')) expect(expected).toEqual([]);
        else expect(expected.length).toBeGreaterThan(0);
        // expected.json holds this rule's findings only.
        expect(expected.filter((f) => f.ruleId !== c.ruleId)).toEqual([]);
      });

      it('gives exactly the expected findings of its rule', () => {
        const findings = lintCase(c).filter((f) => f.ruleId === c.ruleId);
        expect(findings).toStrictEqual(readExpected(c.dir));
      });

      it('gives all findings sorted by line, column, then rule id', () => {
        expect(isSorted(lintCase(c))).toBe(true);
      });
    });
  }
});

describe('finding order', () => {
  it('sorts findings of several rules by line, column, then rule id', () => {
    // Two rules report the same message node (empty-message at parts, ends-with-user at
    // the message), and unversioned the root: order must not depend on the rule order.
    const text = [
      '[',
      '  {"role": "user", "parts": [{"type": "text", "text": "hi"}]},',
      '  {"role": "system", "parts": []}',
      ']',
      '',
    ].join('\n');
    const rules = new Map<string, FindingSeverity>(
      CORE_RULES.map((r) => [r.meta.id, 'warn' as FindingSeverity]),
    );
    const findings = lintBytes('a.json', Buffer.from(text), { rules }).findings;
    expect(findings.map((f) => [f.ruleId, f.line, f.column])).toEqual([
      ['unversioned', 1, 1],
      ['ends-with-user', 3, 3],
      ['system-message', 3, 3],
      ['empty-message', 3, 31],
    ]);
    expect(isSorted(findings)).toBe(true);
  });

  it('sorts by column within a line and by line across JSONL lines', () => {
    const text =
      '{"version":1,"messages":[{"role":"assistant","parts":[{"type":"tool-call","id":"a","name":"f","arguments":"x"}]}]}\n' +
      '{"version":1,"messages":[{"role":"user","conversationId":"nope","parts":[]}]}\n';
    const rules = new Map<string, FindingSeverity>(
      CORE_RULES.map((r) => [r.meta.id, 'error' as FindingSeverity]),
    );
    const findings = lintBytes('a.jsonl', Buffer.from(text), { rules }).findings;
    expect(findings.map((f) => [f.line, f.column, f.ruleId])).toEqual([
      [1, 26, 'ends-with-user'],
      [1, 55, 'dangling-tool-call'],
      [1, 107, 'truncated-arguments'],
      [2, 58, 'invalid-id'],
      [2, 73, 'empty-message'],
    ]);
    expect(isSorted(findings)).toBe(true);
  });

  it('keeps that order in the JSON report of `histlint lint`', async () => {
    const files = cases
      .filter((c) => c.name.startsWith('invalid-'))
      .map((c) => path.join(c.dir, inputFile(c.dir)));
    const r = await runCli([
      'lint',
      '--format',
      'json',
      '--rule',
      'duplicate-key=warn',
      '--rule',
      'system-message=warn',
      '--rule',
      'unversioned=warn',
      '--rule',
      'ends-with-user=warn',
      ...files,
    ]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { files: { findings: Finding[] }[] };
    expect(report.files).toHaveLength(files.length);
    for (const f of report.files) expect(isSorted(f.findings)).toBe(true);
  });
});
