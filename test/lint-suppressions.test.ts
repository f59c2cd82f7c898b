/**
 * Bulk suppressions (src/lint/suppressions.ts): counting errors per file and rule, applying the
 * counts (all of a rule's errors come back once there are more than recorded), pruning (counts
 * only ever go down), the file's text; then `lint --suppress-all` / `--prune-suppressions` run
 * twice in one temp folder.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../src/lint/engine.js';
import {
  applySuppressions,
  countErrors,
  countSuppressions,
  formatSuppressions,
  parseSuppressions,
  pruneSuppressions,
  suppressAll,
  unusedSuppressions,
} from '../src/lint/suppressions.js';
import { runCli } from './helpers/cli.js';

function finding(ruleId: string, severity: 'error' | 'warn' = 'error'): Finding {
  return { ruleId, severity, message: ruleId, pointer: '', line: 1, column: 1 } as Finding;
}

const orphan = finding('orphan-tool-result');
const empty = finding('empty-message', 'warn');
const dup = finding('duplicate-call-id');

describe('suppression counts', () => {
  it('counts errors by rule, not warnings, keys sorted', () => {
    expect(countErrors([orphan, empty, dup, orphan])).toEqual({
      'duplicate-call-id': 1,
      'orphan-tool-result': 2,
    });
    expect(Object.keys(countErrors([orphan, dup]))).toEqual([
      'duplicate-call-id',
      'orphan-tool-result',
    ]);
    expect(countErrors([orphan, dup], new Set(['duplicate-call-id']))).toEqual({
      'duplicate-call-id': 1,
    });
  });

  it('leaves out files without errors', () => {
    expect(
      countSuppressions([
        { file: 'b.json', findings: [orphan] },
        { file: 'a.json', findings: [empty] },
      ]),
    ).toEqual({ 'b.json': { 'orphan-tool-result': 1 } });
  });
});

describe('applySuppressions', () => {
  it('suppresses errors of a rule up to the recorded count, never warnings', () => {
    const r = applySuppressions([orphan, empty, orphan], {
      'orphan-tool-result': 2,
      'empty-message': 5,
    });
    expect(r.findings).toEqual([empty]);
    expect(r.suppressed).toBe(2);
    expect(r.over).toEqual([]);
  });

  it('reports all of a rule once there are more than recorded', () => {
    const r = applySuppressions([orphan, dup, orphan, orphan], {
      'orphan-tool-result': 2,
      'duplicate-call-id': 1,
    });
    expect(r.findings).toEqual([orphan, orphan, orphan]);
    expect(r.suppressed).toBe(1);
    expect(r.over).toEqual(['orphan-tool-result']);
  });

  it('leaves files and rules not recorded alone', () => {
    expect(applySuppressions([orphan], undefined).findings).toEqual([orphan]);
    expect(applySuppressions([orphan], { 'duplicate-call-id': 3 }).findings).toEqual([orphan]);
  });
});

describe('suppressAll and pruneSuppressions', () => {
  const previous = {
    'a.json': { 'orphan-tool-result': 3, 'duplicate-call-id': 1 },
    'gone.json': { 'orphan-tool-result': 1 },
  };

  it('records the current counts of the files linted and keeps the others', () => {
    expect(
      suppressAll(previous, [{ file: 'a.json', findings: [orphan, orphan, orphan, orphan] }]),
    ).toEqual({
      'a.json': { 'orphan-tool-result': 4 },
      'gone.json': { 'orphan-tool-result': 1 },
    });
    // With rules named, only theirs are replaced.
    expect(
      suppressAll(
        previous,
        [{ file: 'a.json', findings: [orphan] }],
        new Set(['orphan-tool-result']),
      ),
    ).toEqual({
      'a.json': { 'duplicate-call-id': 1, 'orphan-tool-result': 1 },
      'gone.json': { 'orphan-tool-result': 1 },
    });
    expect(suppressAll(previous, [{ file: 'a.json', findings: [empty] }])).toEqual({
      'gone.json': { 'orphan-tool-result': 1 },
    });
  });

  it('lowers counts to what occurs, drops what is gone, never raises', () => {
    expect(pruneSuppressions(previous, [{ file: 'a.json', findings: [orphan, dup, dup] }])).toEqual(
      {
        'a.json': { 'duplicate-call-id': 1, 'orphan-tool-result': 1 },
        'gone.json': { 'orphan-tool-result': 1 },
      },
    );
    expect(pruneSuppressions(previous, [{ file: 'a.json', findings: [] }])).toEqual({
      'gone.json': { 'orphan-tool-result': 1 },
    });
    // A file with no entry gets none.
    expect(pruneSuppressions(previous, [{ file: 'new.json', findings: [orphan] }])).toEqual(
      previous,
    );
  });

  it('counts the entries that record more than occurs', () => {
    expect(
      unusedSuppressions(previous, [{ file: 'a.json', findings: [orphan, orphan, orphan, dup] }]),
    ).toBe(0);
    expect(unusedSuppressions(previous, [{ file: 'a.json', findings: [orphan] }])).toBe(2);
  });
});

describe('the suppressions file', () => {
  it('is sorted two-space JSON and reads back', () => {
    const text = formatSuppressions({ 'b.json': { z: 1, a: 2 }, 'a.json': { x: 1 } });
    expect(text).toBe(
      '{\n  "version": 1,\n  "files": {\n    "a.json": {\n      "x": 1\n    },\n    "b.json": {\n      "a": 2,\n      "z": 1\n    }\n  }\n}\n',
    );
    expect(parseSuppressions(text).files).toEqual({ 'a.json': { x: 1 }, 'b.json': { a: 2, z: 1 } });
  });

  it('says what is wrong with a bad one', () => {
    expect(() => parseSuppressions('{')).toThrow(/^not JSON/);
    expect(() => parseSuppressions('{"version": 2, "files": {}}')).toThrow(/"version": 1/);
    expect(() => parseSuppressions('{"version": 1, "files": {"a.json": {"r": -1}}}')).toThrow(
      'files["a.json"]["r"]: expected a count (an integer >= 0)',
    );
  });
});

const work = mkdtempSync(path.join(tmpdir(), 'histlint-suppressions-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A v1 conversation with one orphan tool result per id in `orphans`. */
function conversation(orphans: string[]): string {
  const messages: unknown[] = [{ role: 'user', parts: [{ type: 'text', text: 'Hi' }] }];
  for (const id of orphans) {
    messages.push({
      role: 'tool',
      parts: [{ type: 'tool-result', callId: id, content: [{ type: 'text', text: 'x' }] }],
    });
  }
  messages.push({ role: 'assistant', parts: [{ type: 'text', text: 'ok' }] });
  return `${JSON.stringify({ version: 1, messages }, null, 2)}\n`;
}

describe('lint --suppress-all, then later runs', () => {
  const cwd = mkdtempSync(path.join(work, 'run-'));
  const suppressions = path.join(cwd, 'histlint-suppressions.json');

  it('records the errors and exits 0', async () => {
    writeFileSync(path.join(cwd, 'a.json'), conversation(['c1', 'c2']));
    writeFileSync(path.join(cwd, 'b.json'), conversation([]));
    const r = await runCli(['lint', '--suppress-all', 'a.json', 'b.json'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'histlint: wrote histlint-suppressions.json (2 errors in 1 file)\n' +
        'histlint: 2 errors suppressed by histlint-suppressions.json\n',
    );
    expect(JSON.parse(readFileSync(suppressions, 'utf8'))).toEqual({
      version: 1,
      files: { 'a.json': { 'orphan-tool-result': 2 } },
    });
  });

  it('reports nothing while the counts hold, and a new file as usual', async () => {
    let r = await runCli(['lint', '--format', 'json', 'a.json'], { cwd });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).errorCount).toBe(0);
    writeFileSync(path.join(cwd, 'b.json'), conversation(['c9']));
    r = await runCli(['lint', '--format', 'json', 'a.json', 'b.json'], { cwd });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).errorCount).toBe(1);
  });

  it('reports all of a rule once a file has more than recorded', async () => {
    writeFileSync(path.join(cwd, 'a.json'), conversation(['c1', 'c2', 'c3']));
    const r = await runCli(['lint', '--format', 'json', 'a.json'], { cwd });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).errorCount).toBe(3);
    expect(r.stderr).toBe(
      'a.json: note: 3 orphan-tool-result errors, more than the 2 suppressed: all 3 are reported\n',
    );
  });

  it('prunes what no longer occurs, never raising a count', async () => {
    writeFileSync(path.join(cwd, 'a.json'), conversation(['c1']));
    let r = await runCli(['lint', 'a.json'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('1 suppression in histlint-suppressions.json no longer occurs');
    r = await runCli(['lint', '--prune-suppressions', 'a.json'], { cwd });
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(suppressions, 'utf8')).files).toEqual({
      'a.json': { 'orphan-tool-result': 1 },
    });
    writeFileSync(path.join(cwd, 'a.json'), conversation([]));
    r = await runCli(['lint', '--prune-suppressions', 'a.json'], { cwd });
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(suppressions, 'utf8')).files).toEqual({});
  });

  it('--suppress-rule records only that rule; a bad id or file is a usage error', async () => {
    writeFileSync(path.join(cwd, 'a.json'), conversation(['c1']));
    let r = await runCli(['lint', '--suppress-rule', 'duplicate-call-id', 'a.json'], { cwd });
    expect(r.code).toBe(1);
    expect(JSON.parse(readFileSync(suppressions, 'utf8')).files).toEqual({});
    r = await runCli(['lint', '--suppress-rule', 'orphan-tool-reslt', 'a.json'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean "orphan-tool-result"?');
    r = await runCli(['lint', '--suppress-all', '--prune-suppressions', 'a.json'], { cwd });
    expect(r.code).toBe(2);
    writeFileSync(suppressions, '{"version": 1, "files": []}');
    r = await runCli(['lint', 'a.json'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'histlint: error: histlint-suppressions.json: expected {"version": 1, "files": {...}}\n',
    );
    r = await runCli(['lint', '--suppressions-location', 'none.json', 'a.json'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^histlint: error: cannot read none\.json: /);
  });

  it('--suppressions-location writes elsewhere', async () => {
    writeFileSync(path.join(cwd, 'a.json'), conversation(['c1']));
    const r = await runCli(
      ['lint', '--suppress-all', '--suppressions-location', 'ci/supp.json', 'a.json'],
      { cwd },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(cwd, 'ci', 'supp.json'), 'utf8')).files).toEqual({
      'a.json': { 'orphan-tool-result': 1 },
    });
  });
});
