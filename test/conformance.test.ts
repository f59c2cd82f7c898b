/**
 * The public conformance cases (../shared/conformance/cases) through the
 * command line, exactly as run.py drives them: output equal, report keys equal.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { describeShared, SHARED } from './helpers/shared.js';

const CASES = path.join(SHARED, 'conformance', 'cases');
const work = mkdtempSync(path.join(tmpdir(), 'histlint-conformance-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every key of `expected` is in `actual` with an equal value (what run.py checks). */
function expectSubset(actual: unknown, expected: unknown): void {
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual)).toBe(true);
    expect((actual as unknown[]).length).toBe(expected.length);
    expected.forEach((e, i) => expectSubset((actual as unknown[])[i], e));
  } else if (typeof expected === 'object' && expected !== null) {
    for (const [k, v] of Object.entries(expected)) {
      expect(actual).toHaveProperty([k]);
      expectSubset((actual as Record<string, unknown>)[k], v);
    }
  } else {
    expect(actual).toEqual(expected);
  }
}

describeShared('conformance cases', 'conformance/cases', () => {
  const names = readdirSync(CASES)
    .filter((n) => statSync(path.join(CASES, n)).isDirectory())
    .sort();

  it('finds the cases', () => {
    expect(names.length).toBeGreaterThan(0);
  });

  for (const name of names) {
    it(name, async () => {
      const dir = path.join(CASES, name);
      const [op, ...rest] = readFileSync(path.join(dir, 'op'), 'utf8').trim().split(/\s+/);
      const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as {
        output?: unknown;
        report?: Record<string, unknown>;
        error?: boolean;
      };
      const out = path.join(work, `${name}.out.json`);
      const rep = path.join(work, `${name}.report.json`);
      const args = [op!, path.join(dir, 'input.json'), '-o', out, '--report-file', rep];
      if (op === 'trim') args.push('--max-messages', rest[0]!, ...rest.slice(1));
      const result = await runCli(args);
      if (expected.error) {
        expect(result.code).toBe(1);
        expect(existsSync(out) && statSync(out).size > 0).toBe(false);
        return;
      }
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(expected.output);
      const report = JSON.parse(readFileSync(rep, 'utf8')) as { files: Record<string, unknown>[] };
      const key = { normalize: 'repair', sanitize: 'sanitize', trim: 'trim' }[
        op as 'normalize' | 'sanitize' | 'trim'
      ];
      expectSubset(report.files[0]![key], expected.report![key]);
    });
  }
});
