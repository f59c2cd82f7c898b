/**
 * `--diff` on normalize, sanitize and trim shows exactly what `--write` writes: the patch, applied
 * to the input, gives the bytes `--write` leaves in the file (JSON, JSONL with CRLF and blank
 * lines, a byte order mark, a document read at a pointer). And the `--check`/`--diff` summary line.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyPatch } from 'diff';
import { afterAll, describe, expect, it } from 'vitest';
import { dryRunSummary } from '../src/cli/transform.js';
import { ROOT, runCli } from './helpers/cli.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder holding a copy of a scenario's input file. */
function copyOf(source: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'histlint-diff-'));
  made.push(dir);
  copyFileSync(path.join(ROOT, 'fixtures/cli', source), path.join(dir, path.basename(source)));
  return dir;
}

const CASES: { name: string; source: string; args: string[] }[] = [
  {
    name: 'normalize, one JSON file',
    source: 'normalize-check-finds-changes/files/dangling.json',
    args: ['normalize'],
  },
  {
    name: 'normalize, JSONL with CRLF and blank lines',
    source: 'normalize-jsonl-crlf-and-blank-lines/files/runs.jsonl',
    args: ['normalize'],
  },
  {
    name: 'normalize, a byte order mark',
    source: 'normalize-bom-kept/files/bom.json',
    args: ['normalize'],
  },
  {
    name: 'normalize, a document read at a pointer',
    source: 'normalize-pointer-wrapped-document/files/exchange.json',
    args: ['normalize', '--pointer', '/request'],
  },
  {
    name: 'sanitize',
    source: 'sanitize-human-report-lists-every-drop/files/untrusted.json',
    args: ['sanitize'],
  },
  {
    name: 'trim',
    source: 'trim-mixed-batch/files/long.json',
    args: ['trim', '--max-messages', '2'],
  },
];

describe('--diff shows what --write writes', () => {
  for (const { name, source, args } of CASES) {
    it(name, async () => {
      const file = path.basename(source);
      const before = readFileSync(path.join(ROOT, 'fixtures/cli', source), 'utf8');
      const shown = await runCli([...args, '--diff', file], { cwd: copyOf(source) });
      const writeDir = copyOf(source);
      const written = await runCli([...args, '--write', file], { cwd: writeDir });
      expect(written.code).toBe(0);
      const after = readFileSync(path.join(writeDir, file), 'utf8');
      expect(after).not.toBe(before);
      expect(shown.code).toBe(1);
      expect(shown.stdout.startsWith(`--- a/${file}\n+++ b/${file}\n@@ `)).toBe(true);
      expect(applyPatch(before, shown.stdout)).toBe(after);
    });
  }

  it('prints nothing and exits 0 when --write would leave the file alone', async () => {
    const source = 'normalize-check-finds-changes/files/clean.json';
    const shown = await runCli(['normalize', '--diff', 'clean.json'], { cwd: copyOf(source) });
    expect(shown).toEqual({ code: 0, stdout: '', stderr: '0 of 1 file would change\n' });
  });
});

describe('dryRunSummary', () => {
  it('counts files, with the hint only when something would change', () => {
    expect(dryRunSummary(3, 22, 0)).toBe('3 of 22 files would change; run with --write');
    expect(dryRunSummary(1, 1, 0)).toBe('1 of 1 file would change; run with --write');
    expect(dryRunSummary(0, 22, 0)).toBe('0 of 22 files would change');
    expect(dryRunSummary(1, 3, 2)).toBe('1 of 3 files would change, 2 failed; run with --write');
    expect(dryRunSummary(1, 1, 0, true)).toBe('1 of 1 file would change');
    // A read-only format would change: --write refuses it, so the hint says what works.
    expect(dryRunSummary(1, 1, 0, true, 1)).toBe(
      '1 of 1 file would change; 1 is read only: histlint convert --to histlint, then repair the copy',
    );
    expect(dryRunSummary(3, 3, 0, false, 2)).toBe(
      '3 of 3 files would change; run with --write; 2 are read only: histlint convert --to histlint, then repair the copy',
    );
  });
});
