/**
 * `histlint lint` from the outside (SPEC §3, §5, §5.2): exit codes, inputs
 * (files, folders, globs, standard input), output (formats, `-o`, `--quiet`),
 * positions in JSON and JSONL, `--pointer`, color precedence, determinism, and
 * never a stack trace. Runs in-process through `main`; a few runs also spawn
 * bin/histlint.js (built by `npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { promises as fsp, existsSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ROOT, runCli, spawnCli, type CliResult, type RunOptions } from './helpers/cli.js';
import { DOCS_BASE } from '../src/rules/index.js';
import {
  CLEAN,
  DANGLING,
  DANGLING_AUTOGEN,
  DANGLING_SESSION,
  EMPTY_PARTS,
  ERROR_AND_WARNING,
  makeTree,
  oneLine,
  parseReport,
  positionAt,
  positionOf,
  removeTrees,
  type JsonReport,
} from './helpers/lint-fixtures.js';

afterAll(removeTrees);
afterEach(() => {
  vi.restoreAllMocks();
});

const STACK = /^ {4}at /m;
const ANSI = /\u001b\[/;

/** Runs histlint in-process; no run may ever print a stack trace. */
async function histlint(argv: string[], options: RunOptions = {}): Promise<CliResult> {
  const result = await runCli(argv, options);
  expect(result.stdout).not.toMatch(STACK);
  expect(result.stderr).not.toMatch(STACK);
  return result;
}

/** Runs `lint --format json ARGS` and parses the report. */
async function lintJson(
  argv: string[],
  options: RunOptions,
): Promise<{ code: number; report: JsonReport; stderr: string }> {
  const r = await histlint(['lint', '--format', 'json', ...argv], options);
  return { code: r.code, report: parseReport(r.stdout), stderr: r.stderr };
}

function filesOf(report: JsonReport): string[] {
  return report.files.map((f) => f.file);
}

function rulesOf(report: JsonReport): Record<string, string[]> {
  return Object.fromEntries(report.files.map((f) => [f.file, f.findings.map((x) => x.ruleId)]));
}

/** Where the part object of `DANGLING`'s tool call starts. */
function danglingPosition(text: string): { line: number; column: number } {
  return positionAt(text, text.lastIndexOf('{', text.indexOf('"tool-call"')));
}

// ---------------------------------------------------------------------------
// Exit codes

describe('exit codes', () => {
  it('0 for clean files, with nothing printed by stylish', async () => {
    const cwd = makeTree({ 'a.json': CLEAN, 'b.json': CLEAN });
    expect(await histlint(['lint', 'a.json', 'b.json'], { cwd })).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('0 for warnings only', async () => {
    const cwd = makeTree({ 'w.json': EMPTY_PARTS });
    const r = await histlint(['lint', 'w.json'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('empty-message');
    expect(r.stdout).toContain('(0 errors, 1 warning)');
  });

  it('1 for errors', async () => {
    const cwd = makeTree({ 'd.json': DANGLING, 'c.json': CLEAN });
    const r = await histlint(['lint', 'd.json', 'c.json'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('dangling-tool-call');
  });

  it('1 for warnings over --max-warnings, 0 at the limit', async () => {
    const cwd = makeTree({ 'w1.json': EMPTY_PARTS, 'w2.json': EMPTY_PARTS });
    const over = await histlint(['lint', '--max-warnings', '1', 'w1.json', 'w2.json'], { cwd });
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('too many warnings');
    const at = await histlint(['lint', '--max-warnings', '2', 'w1.json', 'w2.json'], { cwd });
    expect(at.code).toBe(0);
    const zero = await histlint(['lint', '--max-warnings', '0', 'w1.json'], { cwd });
    expect(zero.code).toBe(1);
    // Over the limit with another format too (the report stays machine-readable).
    const json = await lintJson(['--max-warnings', '0', 'w1.json'], { cwd });
    expect(json.code).toBe(1);
    expect(json.report.warningCount).toBe(1);
  });

  it('2 for a --max-warnings that is not a whole number', async () => {
    const cwd = makeTree({ 'w.json': EMPTY_PARTS });
    for (const bad of ['-1', 'x', '1.5']) {
      const r = await histlint(['lint', '--max-warnings', bad, 'w.json'], { cwd });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    }
  });

  it('2 with no patterns and no config files', async () => {
    const cwd = makeTree({ 'a.json': CLEAN });
    const r = await histlint(['lint'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/pattern|files/);
  });

  it('2 for a pattern that matches nothing, unless --no-error-on-unmatched-pattern', async () => {
    const cwd = makeTree({ 'a.json': DANGLING });
    for (const pattern of ['missing.json', 'nothing/**/*.json', '*.jsonl']) {
      const r = await histlint(['lint', 'a.json', pattern], { cwd });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(pattern);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    const allowed = await lintJson(
      ['--no-error-on-unmatched-pattern', 'a.json', 'nothing/**/*.json'],
      {
        cwd,
      },
    );
    expect(allowed.code).toBe(1);
    expect(filesOf(allowed.report)).toEqual(['a.json']);
    const none = await histlint(['lint', '--no-error-on-unmatched-pattern', 'nothing/*.json'], {
      cwd,
    });
    expect(none.code).toBe(0);
  });

  it('2 for an unreadable file, while the other files are still linted and reported', async () => {
    const cwd = makeTree({ 'a.json': DANGLING, 'z.json': EMPTY_PARTS });
    // A symlink to itself cannot be opened, even by root (permissions would not stop root).
    symlinkSync('locked.json', path.join(cwd, 'locked.json'));
    const { code, report, stderr } = await lintJson(['a.json', 'locked.json', 'z.json'], { cwd });
    expect(code).toBe(2);
    expect(rulesOf(report)).toMatchObject({
      'a.json': ['dangling-tool-call'],
      'z.json': ['empty-message'],
    });
    expect(report.errorCount).toBe(1);
    expect(report.warningCount).toBe(1);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toContain('locked.json');
    expect(stderr).toContain('cannot read');
    const stylish = await histlint(['lint', 'a.json', 'locked.json', 'z.json'], { cwd });
    expect(stylish.code).toBe(2);
    expect(stylish.stdout).toContain('a.json');
    expect(stylish.stdout).toContain('z.json');
  });

  it('an unreadable file is listed in the JSON report with "error" (SPEC §5.2)', async () => {
    const cwd = makeTree({ 'a.json': CLEAN });
    symlinkSync('locked.json', path.join(cwd, 'locked.json'));
    const { code, report } = await lintJson(['a.json', 'locked.json'], { cwd });
    expect(code).toBe(2);
    const entry = report.files.find((f) => f.file === 'locked.json');
    expect(entry, 'locked.json is missing from the report').toBeDefined();
    expect(entry!.error?.message).toMatch(/cannot read: too many levels of symbolic links/);
  });

  it.skipIf(process.getuid?.() === 0 || process.platform === 'win32')(
    '2 for a file without read permission (real permissions; skipped as root)',
    async () => {
      const cwd = makeTree({ 'a.json': DANGLING, 'locked.json': CLEAN });
      await fsp.chmod(path.join(cwd, 'locked.json'), 0o000);
      try {
        const { code, report, stderr } = await lintJson(['a.json', 'locked.json'], { cwd });
        expect(code).toBe(2);
        expect(rulesOf(report)).toMatchObject({ 'a.json': ['dangling-tool-call'] });
        expect(stderr).toContain('locked.json');
      } finally {
        await fsp.chmod(path.join(cwd, 'locked.json'), 0o644);
      }
    },
  );

  it.skipIf(process.platform === 'win32')(
    '2 for a fix that cannot be written, and the report says so',
    async (ctx) => {
      const cwd = makeTree({ 'ro/a.json': DANGLING });
      const folder = path.join(cwd, 'ro');
      // A folder nobody may write to: its mode, or for root (whom modes do not stop) the
      // immutable attribute, where the file system has one.
      const asRoot = process.getuid?.() === 0;
      if (!asRoot) await fsp.chmod(folder, 0o555);
      else if (spawnSync('chattr', ['+i', folder]).status !== 0)
        return ctx.skip('running as root where chattr +i is not available');
      try {
        const { code, report } = await lintJson(['--fix', 'ro/a.json'], { cwd });
        expect(code).toBe(2);
        expect(report.files[0]!.error?.message).toMatch(/^cannot write the fix: /);
        expect(rulesOf(report)).toMatchObject({ 'ro/a.json': ['dangling-tool-call'] });
        expect(readFileSync(path.join(folder, 'a.json'), 'utf8')).toBe(DANGLING);
      } finally {
        if (asRoot) spawnSync('chattr', ['-i', folder]);
        else await fsp.chmod(folder, 0o755);
      }
    },
  );

  it('the highest code wins: errors (1) and a usage problem (2) give 2', async () => {
    const cwd = makeTree({ 'd.json': DANGLING });
    const r = await histlint(['lint', 'd.json', 'missing.json'], { cwd });
    expect(r.code).toBe(2);
  });

  it('an unknown format or target is exit 2', async () => {
    const cwd = makeTree({ 'c.json': CLEAN });
    expect((await histlint(['lint', '--format', 'xml', 'c.json'], { cwd })).code).toBe(2);
    expect((await histlint(['lint', '--target', 'openai', 'c.json'], { cwd })).code).toBe(2);
    expect((await histlint(['lint', '--pointer', 'no-slash', 'c.json'], { cwd })).code).toBe(2);
  });
});

// ---------------------------------------------------------------------------
// Output

describe('output', () => {
  it('--quiet drops warnings (and their exit code stays 0)', async () => {
    const cwd = makeTree({ 'both.json': ERROR_AND_WARNING, 'w.json': EMPTY_PARTS });
    const quiet = await lintJson(['--quiet', 'both.json', 'w.json'], { cwd });
    expect(rulesOf(quiet.report)).toEqual({
      'both.json': ['dangling-tool-call'],
      'w.json': [],
    });
    expect(quiet.report.warningCount).toBe(0);
    expect(quiet.report.errorCount).toBe(1);
    expect(quiet.code).toBe(1);
    const stylish = await histlint(['lint', '--quiet', 'w.json'], { cwd });
    expect(stylish).toEqual({ code: 0, stdout: '', stderr: '' });
    const stylishBoth = await histlint(['lint', '--quiet', 'both.json'], { cwd });
    expect(stylishBoth.stdout).not.toContain('empty-message');
    expect(stylishBoth.stdout).toContain('dangling-tool-call');
  });

  it('--format json lists every file, clean ones with findings: []', async () => {
    const cwd = makeTree({ 'a.json': DANGLING, 'b.json': CLEAN, 'c.json': EMPTY_PARTS });
    const { code, report } = await lintJson(['a.json', 'b.json', 'c.json'], { cwd });
    expect(code).toBe(1);
    const pos = danglingPosition(DANGLING);
    expect(report).toStrictEqual({
      files: [
        {
          file: 'a.json',
          target: null,
          findings: [
            {
              ruleId: 'dangling-tool-call',
              severity: 'error',
              message: expect.any(String) as string,
              messageIndex: 1,
              partIndex: 0,
              pointer: '/messages/1/parts/0',
              line: pos.line,
              column: pos.column,
              docsUrl: `${DOCS_BASE}dangling-tool-call.md`,
              fixable: true,
            },
          ],
        },
        { file: 'b.json', target: null, findings: [] },
        {
          file: 'c.json',
          target: null,
          findings: [
            {
              ruleId: 'empty-message',
              severity: 'warn',
              message: expect.any(String) as string,
              messageIndex: 0,
              pointer: '/messages/0/parts',
              ...positionOf(EMPTY_PARTS, '[]'),
              docsUrl: `${DOCS_BASE}empty-message.md`,
              fixable: false,
            },
          ],
        },
      ],
      errorCount: 1,
      warningCount: 1,
    });
  });

  it('findings are sorted by line, column, then rule id', async () => {
    const cwd = makeTree({ 'both.json': ERROR_AND_WARNING });
    const { report } = await lintJson(['--rule', 'ends-with-user=warn', 'both.json'], { cwd });
    const findings = report.files[0]!.findings;
    expect(findings.length).toBeGreaterThanOrEqual(3);
    const sorted = [...findings].sort(
      (a, b) =>
        a.line - b.line ||
        a.column - b.column ||
        (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0),
    );
    expect(findings).toEqual(sorted);
  });

  it('-o/--output-file writes the report to the file and nothing to stdout', async () => {
    const cwd = makeTree({ 'a.json': DANGLING, 'b.json': CLEAN });
    const direct = await histlint(['lint', '--format', 'json', 'a.json', 'b.json'], { cwd });
    for (const flag of ['-o', '--output-file']) {
      const out = `reports/${flag.replace(/-/g, '')}/lint.json`;
      const r = await histlint(['lint', '--format', 'json', flag, out, 'a.json', 'b.json'], {
        cwd,
      });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('');
      expect(readFileSync(path.join(cwd, out), 'utf8')).toBe(direct.stdout);
    }
  });

  it('-o writes the stylish report without color, even to a terminal', async () => {
    const cwd = makeTree({ 'a.json': DANGLING });
    const r = await histlint(['lint', '-o', 'out.txt', 'a.json'], { cwd, stdoutIsTTY: true });
    expect(r.stdout).toBe('');
    const text = readFileSync(path.join(cwd, 'out.txt'), 'utf8');
    expect(text).toContain('dangling-tool-call');
    expect(text).not.toMatch(ANSI);
  });

  it.each(['stylish', 'json', 'sarif', 'github', 'junit'])(
    '--format %s output is byte-identical across two runs',
    async (format) => {
      const files: Record<string, string> = {
        'a.json': DANGLING,
        'b.json': CLEAN,
        'c.json': EMPTY_PARTS,
        'd.json': ERROR_AND_WARNING,
        'e.jsonl': `${oneLine(DANGLING)}\n{broken\n${oneLine(EMPTY_PARTS)}\n`,
        'sub/f.json': '{"not": "a conversation"}',
        'sub/g.json': '{"version": 1, "messages": [',
      };
      const cwd = makeTree(files);
      const first = await histlint(['lint', '--format', format, '.'], { cwd });
      const second = await histlint(['lint', '--format', format, '.'], { cwd });
      expect(first.code).toBe(1);
      expect(second).toEqual(first);
      expect(first.stdout.length).toBeGreaterThan(0);
    },
  );
});

// ---------------------------------------------------------------------------
// Standard input

describe('standard input', () => {
  it('"-" reads standard input, named <stdin>', async () => {
    const cwd = makeTree({});
    const { code, report } = await lintJson(['-'], { cwd, stdin: DANGLING });
    expect(code).toBe(1);
    expect(filesOf(report)).toEqual(['<stdin>']);
    expect(report.files[0]!.findings[0]).toMatchObject({
      ruleId: 'dangling-tool-call',
      ...danglingPosition(DANGLING),
    });
  });

  it('--stdin-filename names it in reports', async () => {
    const cwd = makeTree({});
    const { report } = await lintJson(['--stdin-filename', 'logs/x.json', '-'], {
      cwd,
      stdin: DANGLING,
    });
    expect(filesOf(report)).toEqual(['logs/x.json']);
    const stylish = await histlint(['lint', '--stdin-filename', 'logs/x.json', '-'], {
      cwd,
      stdin: DANGLING,
    });
    expect(stylish.stdout.split('\n')[0]).toBe('logs/x.json');
  });

  it('a .jsonl --stdin-filename reads standard input as JSONL', async () => {
    const cwd = makeTree({});
    const stdin = `${oneLine(CLEAN)}\n\n${oneLine(DANGLING)}\n`;
    const { code, report } = await lintJson(['--stdin-filename', 'x.jsonl', '-'], { cwd, stdin });
    expect(code).toBe(1);
    expect(report.files[0]!.findings.map((f) => [f.ruleId, f.line])).toEqual([
      ['dangling-tool-call', 3],
    ]);
    // Without the name, the bytes decide, as normalize and show decide them: JSONL too.
    const guessed = await lintJson(['-'], { cwd, stdin });
    expect(guessed.report.files[0]!.findings.map((f) => [f.ruleId, f.line])).toEqual([
      ['dangling-tool-call', 3],
    ]);
    // A .json name overrides that: one JSON document, so a parse error.
    const asJson = await lintJson(['--stdin-filename', 'x.json', '-'], { cwd, stdin });
    expect(asJson.report.files[0]!.findings.map((f) => f.ruleId)).toEqual(['parse-error']);
  });

  it('lint never reads standard input implicitly', async () => {
    const cwd = makeTree({ 'c.json': CLEAN });
    const none = await histlint(['lint'], { cwd, stdin: DANGLING });
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    const withFile = await lintJson(['c.json'], { cwd, stdin: DANGLING });
    expect(withFile.code).toBe(0);
    expect(filesOf(withFile.report)).toEqual(['c.json']);
  });

  it('"-" with other patterns is a usage error', async () => {
    const cwd = makeTree({ 'c.json': CLEAN });
    const r = await histlint(['lint', 'c.json', '-'], { cwd, stdin: CLEAN });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------
// Patterns, folders, ignores

describe('patterns', () => {
  const tree = {
    'data/a.json': DANGLING,
    'data/b.jsonl': `${oneLine(CLEAN)}\n`,
    'data/notes.txt': 'not json',
    'data/sub/c.json': CLEAN,
    'data/sub/d.ndjson': `${oneLine(CLEAN)}\n`,
    'data/skip/e.json': DANGLING,
    'data/node_modules/pkg/f.json': DANGLING,
    'data/.git/g.json': DANGLING,
    'node_modules/h.json': DANGLING,
    '.git/i.json': DANGLING,
  };

  it('a glob matches files, never under node_modules or .git', async () => {
    const cwd = makeTree(tree);
    const { report } = await lintJson(['**/*.json'], { cwd });
    expect(filesOf(report)).toEqual(['data/a.json', 'data/skip/e.json', 'data/sub/c.json']);
  });

  it('a glob with a dot-folder wildcard still skips .git and node_modules', async () => {
    const cwd = makeTree(tree);
    const { code, report } = await lintJson(
      [
        '--no-error-on-unmatched-pattern',
        '.git/*.json',
        '**/node_modules/**/*.json',
        'data/.git/**',
      ],
      { cwd },
    );
    expect(code).toBe(0);
    expect(filesOf(report)).toEqual([]);
  });

  it('--ignore skips what a glob matches (repeatable)', async () => {
    const cwd = makeTree(tree);
    const one = await lintJson(['--ignore', 'data/skip/**', 'data/**/*.json'], { cwd });
    expect(filesOf(one.report)).toEqual(['data/a.json', 'data/sub/c.json']);
    const two = await lintJson(
      ['--ignore', 'data/skip/**', '--ignore', '**/a.json', 'data/**/*.json'],
      { cwd },
    );
    expect(filesOf(two.report)).toEqual(['data/sub/c.json']);
  });

  it('a folder argument lints the .json/.jsonl files inside, not node_modules or .git', async () => {
    const cwd = makeTree(tree);
    const { code, report } = await lintJson(['data'], { cwd });
    expect(code).toBe(1);
    const files = filesOf(report);
    expect(files).toEqual(
      expect.arrayContaining(['data/a.json', 'data/b.jsonl', 'data/sub/c.json']),
    );
    for (const f of files) {
      expect(f).toMatch(/\.(json|jsonl|ndjson)$/);
      expect(f).not.toMatch(/(^|\/)(node_modules|\.git)\//);
    }
    expect(files).not.toContain('data/notes.txt');
    const dot = await lintJson(['.'], { cwd });
    for (const f of filesOf(dot.report)) expect(f).not.toMatch(/(^|\/)(node_modules|\.git)\//);
  });

  it('--ignore (relative to the working folder) applies inside a folder argument', async () => {
    const cwd = makeTree(tree);
    const { report } = await lintJson(['--ignore', 'data/skip/**', 'data'], { cwd });
    expect(filesOf(report)).not.toContain('data/skip/e.json');
    expect(filesOf(report)).toContain('data/a.json');
  });

  it('a file is listed once even when several patterns match it', async () => {
    const cwd = makeTree(tree);
    const { report } = await lintJson(['data/a.json', 'data/*.json', 'data'], { cwd });
    const files = filesOf(report);
    expect(files.filter((f) => f === 'data/a.json')).toHaveLength(1);
    // A folder first (its walk is not deduplicated: it cannot list a file twice), then again.
    const again = filesOf((await lintJson(['data', 'data/*.json', 'data'], { cwd })).report);
    expect(again).toEqual([...new Set(again)]);
    expect(again).toContain('data/a.json');
  });

  it('--ignore applies to what a glob matches, not to the glob itself', async () => {
    const cwd = makeTree({ 'd/run1.json': CLEAN, 'd/run10.json': CLEAN, 'd/run22.json': CLEAN });
    const { code, report } = await lintJson(['d/run*.json', '--ignore', 'd/run?.json'], { cwd });
    expect(code).toBe(0);
    expect(filesOf(report)).toEqual(['d/run10.json', 'd/run22.json']);
  });

  it('a named file that is ignored is skipped with a word on standard error; the others run', async () => {
    const cwd = makeTree({
      'a/1.json': DANGLING,
      'a/b/2.json': DANGLING,
      'node_modules/n.json': CLEAN,
    });
    const r = await lintJson(['a/b/2.json', 'a/1.json', 'node_modules/n.json', '--ignore', 'a/b'], {
      cwd,
    });
    expect(r.code).toBe(1);
    expect(filesOf(r.report)).toEqual(['a/1.json']);
    expect(r.stderr).toBe(
      'histlint: a/b/2.json: skipped (it matches an ignore pattern)\n' +
        'histlint: node_modules/n.json: skipped (node_modules and .git are never read)\n',
    );
  });

  it('an ignore pattern naming a folder (with or without a final /) skips what is inside', async () => {
    const cwd = makeTree({ 'a/1.json': CLEAN, 'a/b/2.json': CLEAN, 'a/b/c/3.json': CLEAN });
    for (const pattern of ['a/b', 'a/b/', path.join(cwd, 'a/b')]) {
      const { report } = await lintJson(['a', '--ignore', pattern], { cwd });
      expect(filesOf(report), pattern).toEqual(['a/1.json']);
    }
  });

  it("the config's ignore is relative to its folder, --ignore to the working folder", async () => {
    const root = makeTree({
      'histlint.config.json': JSON.stringify({
        files: ['data/**/*.json'],
        ignore: ['data/tmp/**'],
      }),
      'data/tmp/t.json': CLEAN,
      'data/keep/k.json': CLEAN,
      'data/other/o.json': CLEAN,
    });
    const cwd = path.join(root, 'data');
    const dot = await lintJson(['.'], { cwd });
    expect(filesOf(dot.report)).toEqual(['keep/k.json', 'other/o.json']);
    const fromConfig = await lintJson(['--ignore', 'keep/**'], { cwd });
    expect(filesOf(fromConfig.report).map((f) => path.basename(f))).toEqual(['o.json']);
  });

  it('a folder or glob never yields histlint.config.json (naming it does)', async () => {
    const cwd = makeTree({ 'histlint.config.json': '{}', 'a.json': CLEAN });
    for (const args of [['.'], ['*.json']]) {
      const { code, report } = await lintJson(args, { cwd });
      expect(code).toBe(0);
      expect(filesOf(report)).toEqual(['a.json']);
    }
  });

  it('nothing inside node_modules is read, even from a working folder inside it', async () => {
    const root = makeTree({ 'node_modules/pkg/n.json': DANGLING });
    const cwd = path.join(root, 'node_modules/pkg');
    const r = await histlint(['lint', 'n.json', '--no-error-on-unmatched-pattern'], { cwd });
    expect(r.stderr).toContain('skipped (node_modules and .git are never read)');
    expect(r.code).toBe(0);
  });

  it('paths are shown as given, with / separators (also outside the working folder)', async () => {
    const root = makeTree({ 'outside/x.json': DANGLING, 'work/y.json': CLEAN });
    const cwd = path.join(root, 'work');
    const { report } = await lintJson(['../outside/x.json', './y.json'], { cwd });
    expect(filesOf(report)).toEqual(['../outside/x.json', './y.json']);
  });
});

// ---------------------------------------------------------------------------
// Positions, JSONL, not-a-conversation, --pointer

describe('what is reported where', () => {
  it('JSONL findings carry the JSONL line and the column within it', async () => {
    const lines = [
      oneLine(CLEAN),
      '',
      oneLine(DANGLING),
      '{"version": 1, "messages": [',
      oneLine(EMPTY_PARTS),
    ];
    const cwd = makeTree({ 'log.jsonl': lines.join('\n') + '\n' });
    const { code, report } = await lintJson(['log.jsonl'], { cwd });
    expect(code).toBe(1);
    const findings = report.files[0]!.findings;
    expect(findings.map((f) => [f.ruleId, f.line])).toEqual([
      ['dangling-tool-call', 3],
      ['parse-error', 4],
      ['empty-message', 5],
    ]);
    const dangling = findings.find((f) => f.ruleId === 'dangling-tool-call')!;
    expect(dangling.column).toBe(danglingPosition(lines[2]!).column);
    expect(dangling.pointer).toBe('/messages/1/parts/0');
    const empty = findings.find((f) => f.ruleId === 'empty-message')!;
    expect(empty.column).toBe(positionOf(lines[4]!, '[]').column);
    const parse = findings.find((f) => f.ruleId === 'parse-error')!;
    expect(parse.column).toBe(lines[3]!.length + 1);
  });

  it('CRLF JSONL keeps the same line numbers and columns', async () => {
    const lines = [oneLine(CLEAN), oneLine(DANGLING)];
    const cwd = makeTree({
      'lf.jsonl': lines.join('\n') + '\n',
      'crlf.jsonl': lines.join('\r\n') + '\r\n',
    });
    const { report } = await lintJson(['lf.jsonl', 'crlf.jsonl'], { cwd });
    const [lf, crlf] = report.files;
    expect(crlf!.findings.map((f) => [f.ruleId, f.line, f.column])).toEqual(
      lf!.findings.map((f) => [f.ruleId, f.line, f.column]),
    );
  });

  it('columns count UTF-16 code units', async () => {
    const text = `{"version":1,"messages":[{"role":"user","parts":[{"type":"text","text":"😀é"}]},{"role":"assistant","parts":[]}]}`;
    const cwd = makeTree({ 'u.json': text });
    const { report } = await lintJson(['u.json'], { cwd });
    const empty = report.files[0]!.findings.find((f) => f.ruleId === 'empty-message')!;
    expect(empty.column).toBe(text.lastIndexOf('[]') + 1);
  });

  it.each([
    ['an object without messages', '{"foo": 1}'],
    ['a string', '"just text"'],
    ['a number', '42'],
    ['null', 'null'],
    ['an array of numbers', '[1, 2]'],
  ])('not-a-conversation for valid JSON that is not a conversation: %s', async (_name, text) => {
    const cwd = makeTree({ 'x.json': text });
    const { code, report } = await lintJson(['x.json'], { cwd });
    expect(code).toBe(1);
    expect(report.files[0]!.findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['not-a-conversation', 'error'],
    ]);
  });

  it('parse-error (not not-a-conversation) for invalid JSON, with line and column', async () => {
    const text =
      '{\n  "version": 1,\n  "messages": [\n    {"role": "user",, "parts": []}\n  ]\n}\n';
    const cwd = makeTree({ 'bad.json': text });
    const { code, report } = await lintJson(['bad.json'], { cwd });
    expect(code).toBe(1);
    expect(report.files[0]!.findings).toEqual([
      // The second comma of `"user",,` is where the JSON breaks.
      expect.objectContaining({
        ruleId: 'parse-error',
        severity: 'error',
        line: 4,
        column: positionOf(text, ',,').column + 1,
      }),
    ]);
  });

  it('bytes that are not UTF-8 are a parse-error', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"version":1,"messages":[{"role":"user","parts":[{"type":"text","text":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}]}]}'),
    ]);
    const cwd = makeTree({ 'bin.json': bytes });
    const { code, report } = await lintJson(['bin.json'], { cwd });
    expect(code).toBe(1);
    expect(report.files[0]!.findings.map((f) => f.ruleId)).toEqual(['parse-error']);
  });

  it('a JSONL line that is not UTF-8 is a parse-error of its own; the other lines are still linted, from a file or standard input', async () => {
    const bytes = Buffer.concat([
      Buffer.from(`${oneLine(CLEAN)}\n`),
      Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d, 0x0a]),
      Buffer.from(`${oneLine(DANGLING)}\r\n`),
    ]);
    const cwd = makeTree({ 'mixed.jsonl': bytes });
    const fromFile = await lintJson(['mixed.jsonl'], { cwd });
    const fromStdin = await lintJson(['--stdin-filename', 'mixed.jsonl', '-'], {
      cwd,
      stdin: bytes,
    });
    for (const { code, report } of [fromFile, fromStdin]) {
      expect(code).toBe(1);
      expect(report.files[0]!.findings.map((f) => [f.ruleId, f.line, f.column])).toEqual([
        ['parse-error', 2, 3],
        ['dangling-tool-call', 3, danglingPosition(oneLine(DANGLING)).column],
      ]);
    }
    expect(fromStdin.report.files[0]!.findings).toEqual(fromFile.report.files[0]!.findings);
  });

  it('--pointer /request finds the conversation in wrapped documents (JSON)', async () => {
    const wrapped = JSON.stringify(
      { id: 'req-1', request: JSON.parse(DANGLING) as unknown, response: { status: 200 } },
      null,
      2,
    );
    const cwd = makeTree({ 'w.json': wrapped });
    const { code, report } = await lintJson(['--pointer', '/request', 'w.json'], { cwd });
    expect(code).toBe(1);
    const dangling = report.files[0]!.findings.find((f) => f.ruleId === 'dangling-tool-call')!;
    expect(dangling).toMatchObject({
      pointer: '/request/messages/1/parts/0',
      messageIndex: 1,
      partIndex: 0,
      ...danglingPosition(wrapped),
    });
    // Without the pointer, the wrapper is not a conversation.
    const plain = await lintJson(['w.json'], { cwd });
    expect(plain.report.files[0]!.findings.map((f) => f.ruleId)).toEqual(['not-a-conversation']);
  });

  it('--pointer /request on JSONL applies to each line', async () => {
    const wrap = (c: string): string =>
      JSON.stringify({ request: JSON.parse(c) as unknown, meta: { n: 1 } });
    const lines = [wrap(CLEAN), wrap(DANGLING), JSON.stringify({ other: true })];
    const cwd = makeTree({ 'proxy.jsonl': lines.join('\n') + '\n' });
    const { report } = await lintJson(['--pointer', '/request', 'proxy.jsonl'], { cwd });
    const findings = report.files[0]!.findings;
    expect(findings.map((f) => [f.ruleId, f.line])).toEqual([
      ['dangling-tool-call', 2],
      ['not-a-conversation', 3],
    ]);
    expect(findings[0]!.pointer).toBe('/request/messages/1/parts/0');
    expect(findings[0]!.column).toBe(danglingPosition(lines[1]!).column);
  });

  it('--pointer with escaped tokens (~1 and ~0)', async () => {
    const wrapped = JSON.stringify({ 'a/b': { 'c~d': JSON.parse(DANGLING) as unknown } });
    const cwd = makeTree({ 'w.json': wrapped });
    const { report } = await lintJson(['--pointer', '/a~1b/c~0d', 'w.json'], { cwd });
    expect(report.files[0]!.findings.map((f) => f.pointer)).toContain(
      '/a~1b/c~0d/messages/1/parts/0',
    );
  });
});

// ---------------------------------------------------------------------------
// Color

describe('color', () => {
  const cases: [string, string[], Record<string, string>, boolean, boolean][] = [
    // [name, extra flags, env, stdout is a TTY, colored]
    ['a terminal', [], {}, true, true],
    ['a pipe', [], {}, false, false],
    ['TERM=dumb on a terminal', [], { TERM: 'dumb' }, true, false],
    ['NO_COLOR on a terminal', [], { NO_COLOR: '1' }, true, false],
    ['an empty NO_COLOR is ignored', [], { NO_COLOR: '' }, true, true],
    ['FORCE_COLOR on a pipe', [], { FORCE_COLOR: '1' }, false, true],
    ['FORCE_COLOR=0 on a terminal', [], { FORCE_COLOR: '0' }, true, false],
    ['--color on a pipe', ['--color'], {}, false, true],
    ['--color beats NO_COLOR', ['--color'], { NO_COLOR: '1' }, false, true],
    ['--color beats FORCE_COLOR=0', ['--color'], { FORCE_COLOR: '0' }, false, true],
    ['--no-color on a terminal', ['--no-color'], {}, true, false],
    ['--no-color beats FORCE_COLOR', ['--no-color'], { FORCE_COLOR: '1' }, true, false],
  ];
  it.each(cases)('%s', async (_name, flags, env, stdoutIsTTY, colored) => {
    const cwd = makeTree({ 'd.json': DANGLING });
    const r = await histlint(['lint', ...flags, 'd.json'], { cwd, env, stdoutIsTTY });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('dangling-tool-call');
    if (colored) expect(r.stdout).toMatch(ANSI);
    else expect(r.stdout).not.toMatch(ANSI);
  });

  it('the machine formats never get color', async () => {
    const cwd = makeTree({ 'd.json': DANGLING });
    for (const format of ['json', 'sarif', 'github', 'junit']) {
      const r = await histlint(['lint', '--color', '--format', format, 'd.json'], {
        cwd,
        env: { FORCE_COLOR: '3' },
        stdoutIsTTY: true,
      });
      expect(r.stdout).not.toMatch(ANSI);
    }
  });
});

// ---------------------------------------------------------------------------
// No stack traces, ever

describe('no stack traces', () => {
  const bad: Record<string, string | Uint8Array> = {
    'deep.json': '['.repeat(100_000) + ']'.repeat(100_000),
    'proto.json':
      '{"__proto__": {"polluted": true}, "version": 1, "messages": [{"role": "user", "parts": [{"type": "text", "text": "x", "__proto__": 1}]}]}',
    'bom.json': '\uFEFF' + CLEAN,
    'lone.json':
      '{"version":1,"messages":[{"role":"user","parts":[{"type":"text","text":"\\ud800"}]}]}',
    'dupe.json': '{"version":1,"version":1,"messages":[]}',
    'empty.json': '',
    'ws.jsonl': '\n\n   \n',
    'weird.json':
      '{"version":1,"messages":[{"role":"robot","parts":[{"type":"image","url":"file:///etc/passwd","data":"x"},{"type":"tool-call"},{"type":"tool-result","content":"nope"},{"type":42}]},{"role":"tool","parts":null},17]}',
  };

  it.each(Object.keys(bad))('%s', async (name) => {
    const cwd = makeTree({ [name]: bad[name]! });
    for (const format of ['stylish', 'json', 'sarif', 'github', 'junit']) {
      const r = await histlint(['lint', '--format', format, '--rule', 'duplicate-key=warn', name], {
        cwd,
      });
      expect([0, 1]).toContain(r.code);
      expect(r.stderr).toBe('');
    }
  });

  it('usage errors print no stack either', async () => {
    const cwd = makeTree({ 'c.json': CLEAN });
    for (const argv of [
      ['lint', '--nope'],
      ['lint', '--format'],
      ['lint', '--rule'],
      ['lint', '--config', '.', 'c.json'],
      ['lint', '--pointer', '/x', '--from', 'nope', 'c.json'],
    ]) {
      const r = await histlint(argv, { cwd });
      expect(r.code).toBe(2);
    }
  });
});

// ---------------------------------------------------------------------------
// Spawned (bin/histlint.js, after `npm run build`)

describe('spawned bin/histlint.js', () => {
  const built = existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'));

  it('is built (run `npm run build` first)', () => {
    expect(built, 'dist/ is missing: run `npm run build` before these tests').toBe(true);
  });

  it.runIf(built)('gives the same exit code and output as the in-process run', async () => {
    const cwd = makeTree({
      'a.json': DANGLING,
      'b.json': CLEAN,
      'c.jsonl': `${oneLine(EMPTY_PARTS)}\n`,
    });
    for (const argv of [
      ['lint', '--format', 'json', 'a.json', 'b.json', 'c.jsonl'],
      ['lint', '--format', 'github', '.'],
      ['lint', 'b.json'],
      ['lint', 'missing.json'],
    ]) {
      const spawned = await spawnCli(argv, { cwd });
      const inProcess = await histlint(argv, { cwd });
      expect(spawned).toEqual(inProcess);
      expect(spawned.stderr).not.toMatch(STACK);
    }
  });

  it.runIf(built)('reads standard input with "-" and never without it', async () => {
    const cwd = makeTree({});
    const piped = await spawnCli(['lint', '--format', 'json', '--stdin-filename', 'in.json', '-'], {
      cwd,
      stdin: DANGLING,
    });
    expect(piped.code).toBe(1);
    expect(parseReport(piped.stdout).files.map((f) => f.file)).toEqual(['in.json']);
    const implicit = await spawnCli(['lint'], { cwd, stdin: DANGLING });
    expect(implicit.code).toBe(2);
    expect(implicit.stdout).toBe('');
    expect(implicit.stderr).not.toMatch(STACK);
  });

  it.runIf(built)('NO_COLOR and FORCE_COLOR work in a real process', async () => {
    const cwd = makeTree({ 'd.json': DANGLING });
    const forced = await spawnCli(['lint', 'd.json'], { cwd, env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(ANSI);
    const plain = await spawnCli(['lint', 'd.json'], { cwd });
    expect(plain.stdout).not.toMatch(ANSI);
    const both = await spawnCli(['lint', '--no-color', 'd.json'], {
      cwd,
      env: { FORCE_COLOR: '1' },
    });
    expect(both.stdout).not.toMatch(ANSI);
  });
});

describe('lint audit fixes', () => {
  it('--quiet hides warnings but they still count toward --max-warnings (as in ESLint)', async () => {
    const cwd = makeTree({ 'w.json': EMPTY_PARTS });
    const quiet = await histlint(['lint', 'w.json', '--quiet', '--max-warnings', '0'], { cwd });
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).not.toContain('warning');
    expect((await histlint(['lint', 'w.json', '--quiet'], { cwd })).code).toBe(0);
  });

  it('standard input takes the config overrides of its --stdin-filename', async () => {
    const cwd = makeTree({
      'histlint.config.json': JSON.stringify({
        rules: { 'empty-message': 'error' },
        overrides: [{ files: ['legacy/**'], rules: { 'empty-message': 'off' } }],
      }),
    });
    const legacy = await histlint(['lint', '-', '--stdin-filename', 'legacy/x.json'], {
      cwd,
      stdin: EMPTY_PARTS,
    });
    expect(legacy.code, legacy.stdout).toBe(0);
    const other = await histlint(['lint', '-', '--stdin-filename', 'new/x.json'], {
      cwd,
      stdin: EMPTY_PARTS,
    });
    expect(other.code).toBe(1);
    expect(other.stdout).toContain('empty-message');
  });

  it('an id that is not a string is one schema finding, not also missing-call-id', async () => {
    const text = JSON.stringify({
      version: 1,
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', parts: [{ type: 'tool-call', id: 5, name: 'f', arguments: '{}' }] },
        { role: 'tool', parts: [{ type: 'tool-result', callId: null, content: [] }] },
        { role: 'assistant', parts: [{ type: 'tool-call', name: 'g', arguments: '{}' }] },
      ],
    });
    const cwd = makeTree({ 'a.json': text });
    const { report } = await lintJson(['a.json'], { cwd });
    const found = report.files[0]!.findings.map((f) => `${f.ruleId}@${f.pointer}`);
    expect(found).toEqual([
      'schema@/messages/1/parts/0/id',
      'schema@/messages/2/parts/0/callId',
      'missing-call-id@/messages/3/parts/0',
    ]);
  });

  it('--fix on a read-only format (an AutoGen list) notes it in one line, not fixable, exit 1', async () => {
    const text = DANGLING_AUTOGEN;
    const cwd = makeTree({ 's.json': text });
    const r = await histlint(['lint', 's.json', '--fix'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      's.json: note: not fixed: autogen files are read only (see histlint convert)\n',
    );
    expect(r.stdout).toContain('dangling-tool-call');
    expect(r.stdout).not.toContain('potentially fixable');
    expect(readFileSync(path.join(cwd, 's.json'), 'utf8')).toBe(text);
  });

  it('--fix repairs a Claude Code session in place: the result added as an event, the other lines kept', async () => {
    const text = DANGLING_SESSION;
    const cwd = makeTree({ 's.jsonl': text });
    const r = await histlint(['lint', 's.jsonl', '--fix'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(path.join(cwd, 's.jsonl'), 'utf8').split('\n');
    const before = text.split('\n');
    expect(lines.length).toBe(before.length + 1);
    expect(lines.filter((l) => !before.includes(l))).toHaveLength(1);
    expect(lines.find((l) => !before.includes(l))).toContain('"tool_result"');
  });

  it('a config pointer that is no JSON pointer is a config error naming the key', async () => {
    const cwd = makeTree({ 'histlint.config.json': '{"pointer": "x"}', 'a.json': CLEAN });
    const r = await histlint(['lint', 'a.json'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^histlint: error: .*config\.pointer: must be a JSON pointer/);
  });
});

describe('lint --fix-dry-run and --diff', () => {
  const compact = (text: string): string => JSON.stringify(JSON.parse(text) as unknown);
  const inputs: Record<string, string> = {
    'a.json': DANGLING,
    'crlf.json': DANGLING.replace(/\n/g, '\r\n'),
    'lines.jsonl': `${compact(DANGLING)}\n${compact(CLEAN)}\n${compact(DANGLING)}`,
    'mixed.json': ERROR_AND_WARNING,
  };

  it('the patch of --diff, applied, gives exactly the bytes --fix writes', async () => {
    const names = Object.keys(inputs);
    const dry = makeTree(inputs);
    const diff = await histlint(['lint', ...names, '--diff'], { cwd: dry });
    expect(diff.code).toBe(1);
    for (const name of names) expect(readFileSync(path.join(dry, name), 'utf8')).toBe(inputs[name]);
    const fixed = makeTree(inputs);
    await histlint(['lint', ...names, '--fix'], { cwd: fixed });
    const patches = parsePatch(diff.stdout);
    for (const name of names) {
      const patch = patches.find((p) => p.oldFileName === `a/${name}`);
      const written = readFileSync(path.join(fixed, name), 'utf8');
      if (written === inputs[name]) {
        expect(patch, name).toBeUndefined();
        continue;
      }
      expect(patch, name).toBeDefined();
      expect(applyPatch(inputs[name]!, patch!), name).toBe(written);
    }
  });

  it('--fix-dry-run reports what --fix reports, and writes nothing', async () => {
    const names = Object.keys(inputs);
    const dry = makeTree(inputs);
    const fixed = makeTree(inputs);
    const a = await histlint(['lint', ...names, '--fix-dry-run', '-f', 'json'], { cwd: dry });
    const b = await histlint(['lint', ...names, '--fix', '-f', 'json'], { cwd: fixed });
    expect(a.code).toBe(b.code);
    expect(a.stdout).toBe(b.stdout);
    for (const name of names) expect(readFileSync(path.join(dry, name), 'utf8')).toBe(inputs[name]);
  });

  it('--diff colors the patch only when color is on', async () => {
    const cwd = makeTree({ 'a.json': DANGLING });
    const plain = await histlint(['lint', 'a.json', '--diff', '--no-color'], { cwd });
    expect(plain.stdout).not.toMatch(ANSI);
    const colored = await histlint(['lint', 'a.json', '--diff', '--color'], { cwd });
    expect(colored.stdout).toMatch(ANSI);
    expect(colored.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain.stdout);
  });

  it('standard input and -o are usage errors for them', async () => {
    const cwd = makeTree({ 'a.json': DANGLING });
    const stdin = await histlint(['lint', '-', '--fix-dry-run'], { cwd, stdin: DANGLING });
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toContain('--fix-dry-run cannot fix standard input');
    const out = await histlint(['lint', 'a.json', '--diff', '-o', 'r.txt'], { cwd });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--diff prints a patch on standard output');
    expect(existsSync(path.join(cwd, 'r.txt'))).toBe(false);
  });
});
