/**
 * The CLI scenarios (STYLE 9): every folder of fixtures/cli/<scenario>/ runs
 * in-process through `main`, and, when its expected.json says `"spawn": true`,
 * also as a spawned bin/histlint.js whose output must equal the in-process run.
 *
 * A scenario folder holds:
 * - `args.json`: the argv array; paths in it are relative to the working folder.
 * - `files/` (optional): copied to a fresh temp folder, which is the working folder.
 *   Git keeps neither `node_modules` nor `.git`, so folders named `_node_modules_`
 *   and `_git_` are copied as `node_modules` and `.git`; files named `_gitignore_` and
 *   `_histlintignore_` are copied as `.gitignore` and `.histlintignore` (a real one in
 *   fixtures/ would ignore the project's own files).
 * - `outside/` (optional): copied beside the working folder, reached as `../outside/...`.
 * - `stdin.txt` (optional): standard input (otherwise it is empty and not a terminal).
 * - `expected.json`: `code` and any of the keys of {@link Expected}.
 * - `stdout.txt` (optional): standard output, exactly (the `stdout` key, kept readable).
 * - `expected-files/` (optional): each file in it must exist in the working folder
 *   after the run with exactly these bytes (the `files` key, kept readable).
 *
 * Every run also checks that no stack trace is printed and no temp file is left behind.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, spawnCli, type CliResult } from './helpers/cli.js';

/** What a scenario expects; every key but `code` is optional. */
interface Expected {
  /** The exit code. */
  code: number;
  /** Also run as a spawned process and compare with the in-process run. */
  spawn?: boolean;
  /** In-process only: standard input is a terminal. */
  stdinIsTTY?: boolean;
  /** Standard output, exactly. */
  stdout?: string;
  /** Standard output parsed as JSON. */
  stdoutJson?: unknown;
  /** Substrings of standard output. */
  stdoutIncludes?: string[];
  /** A regular expression standard output must match. */
  stdoutPattern?: string;
  /** A file of the project (path from its root) standard output must equal byte for byte. */
  stdoutSameAs?: string;
  /** Standard error, exactly. */
  stderr?: string;
  /** Substrings of standard error. */
  stderrIncludes?: string[];
  /** How many non-empty lines standard error has. */
  stderrLines?: number;
  /** Standard error parsed as one JSON report. */
  stderrJson?: unknown;
  /** Path (from the working folder) -> exact content after the run, or null: must not exist. */
  files?: Record<string, string | null>;
  /** Path -> content parsed as JSON. */
  filesJson?: Record<string, unknown>;
  /** Paths whose bytes and modification time must not change. */
  unchanged?: string[];
}

const KEYS = new Set([
  'code',
  'spawn',
  'stdinIsTTY',
  'stdout',
  'stdoutJson',
  'stdoutIncludes',
  'stdoutPattern',
  'stdoutSameAs',
  'stderr',
  'stderrIncludes',
  'stderrLines',
  'stderrJson',
  'files',
  'filesJson',
  'unchanged',
]);

/** In `stderrJson`, `stdoutJson` and `filesJson`, this string matches any non-empty string. */
const ANY_STRING = '<any string>';

/** A stack frame line, as Node prints them. */
const STACK_LINE = /^ {4}at /m;

/** The temp-file names of SPEC §5.1 (`.<name>.histlint-<random>.tmp`). */
const TEMP_FILE = /^\..+\.histlint-.+\.tmp$/;

/** An old time given to every `unchanged` file, so that any rewrite shows in its mtime. */
const OLD_TIME = new Date('2001-02-03T04:05:06Z');

const SCENARIOS = path.join(ROOT, 'fixtures', 'cli');
const names = readdirSync(SCENARIOS)
  .filter((n) => statSync(path.join(SCENARIOS, n)).isDirectory())
  .sort();
const work = realpathSync(mkdtempSync(path.join(tmpdir(), 'histlint-cli-')));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const RENAMES: Record<string, string> = {
  _node_modules_: 'node_modules',
  _git_: '.git',
  _gitignore_: '.gitignore',
  _histlintignore_: '.histlintignore',
};

function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const target = path.join(to, RENAMES[entry.name] ?? entry.name);
    if (entry.isDirectory()) copyTree(path.join(from, entry.name), target);
    else copyFileSync(path.join(from, entry.name), target);
  }
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out;
}

/** Turns `<any string>` into a matcher, everywhere in an expected JSON value. */
function withMatchers(value: unknown): unknown {
  if (value === ANY_STRING) return expect.stringMatching(/./);
  if (Array.isArray(value)) return value.map(withMatchers);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withMatchers(v)]));
  }
  return value;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${what} is not JSON:\n${text}`);
  }
}

interface Scenario {
  name: string;
  dir: string;
  args: string[];
  stdin?: string;
  expected: Expected;
  /** The files of `expected-files/`, by path from the working folder. */
  expectedFiles: Map<string, Buffer>;
}

function loadScenario(name: string): Scenario {
  const dir = path.join(SCENARIOS, name);
  const args = JSON.parse(readFileSync(path.join(dir, 'args.json'), 'utf8')) as string[];
  const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;
  const unknown = Object.keys(expected).filter((k) => !KEYS.has(k));
  if (unknown.length > 0) throw new Error(`${name}: unknown expected.json keys ${unknown}`);
  if (expected.spawn === true && expected.stdinIsTTY === true)
    throw new Error(`${name}: a spawned run cannot have a terminal as standard input`);
  const stdinFile = path.join(dir, 'stdin.txt');
  const scenario: Scenario = { name, dir, args, expected, expectedFiles: new Map() };
  if (existsSync(stdinFile)) scenario.stdin = readFileSync(stdinFile, 'utf8');
  const stdoutFile = path.join(dir, 'stdout.txt');
  if (existsSync(stdoutFile)) {
    if (expected.stdout !== undefined) throw new Error(`${name}: both stdout.txt and "stdout"`);
    expected.stdout = readFileSync(stdoutFile, 'utf8');
  }
  const expectedFiles = path.join(dir, 'expected-files');
  if (existsSync(expectedFiles)) {
    for (const file of listFiles(expectedFiles)) {
      const rel = path
        .relative(expectedFiles, file)
        .split(path.sep)
        .map((segment) => RENAMES[segment] ?? segment)
        .join('/');
      if (expected.files?.[rel] !== undefined)
        throw new Error(`${name}: ${rel} is both in expected-files/ and in "files"`);
      scenario.expectedFiles.set(rel, readFileSync(file));
    }
  }
  return scenario;
}

interface Sandbox {
  root: string;
  cwd: string;
  before: Map<string, { bytes: Buffer; mtimeMs: number }>;
}

function setUp(scenario: Scenario, label: string): Sandbox {
  const root = mkdtempSync(path.join(work, `${scenario.name}-${label}-`));
  const cwd = path.join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  const files = path.join(scenario.dir, 'files');
  if (existsSync(files)) copyTree(files, cwd);
  const outside = path.join(scenario.dir, 'outside');
  if (existsSync(outside)) copyTree(outside, path.join(root, 'outside'));
  const before = new Map<string, { bytes: Buffer; mtimeMs: number }>();
  for (const rel of scenario.expected.unchanged ?? []) {
    const file = path.join(cwd, rel);
    utimesSync(file, OLD_TIME, OLD_TIME);
    before.set(rel, { bytes: readFileSync(file), mtimeMs: statSync(file).mtimeMs });
  }
  return { root, cwd, before };
}

function check(result: CliResult, scenario: Scenario, box: Sandbox): void {
  const e = scenario.expected;
  const shown = `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
  expect(result.code, shown).toBe(e.code);

  expect(result.stderr, 'a stack trace on standard error').not.toMatch(STACK_LINE);
  expect(result.stdout, 'a stack trace on standard output').not.toMatch(STACK_LINE);

  if (e.stdout !== undefined) expect(result.stdout).toBe(e.stdout);
  if (e.stdoutJson !== undefined)
    expect(parseJson(result.stdout, 'stdout')).toEqual(withMatchers(e.stdoutJson));
  for (const s of e.stdoutIncludes ?? []) expect(result.stdout).toContain(s);
  if (e.stdoutPattern !== undefined) expect(result.stdout).toMatch(new RegExp(e.stdoutPattern));
  if (e.stdoutSameAs !== undefined)
    expect(result.stdout).toBe(readFileSync(path.join(ROOT, e.stdoutSameAs), 'utf8'));

  if (e.stderr !== undefined) expect(result.stderr).toBe(e.stderr);
  for (const s of e.stderrIncludes ?? []) expect(result.stderr).toContain(s);
  if (e.stderrLines !== undefined)
    expect(
      result.stderr.split('\n').filter((l) => l.trim() !== ''),
      shown,
    ).toHaveLength(e.stderrLines);
  if (e.stderrJson !== undefined)
    expect(parseJson(result.stderr, 'stderr')).toEqual(withMatchers(e.stderrJson));

  for (const [rel, content] of Object.entries(e.files ?? {})) {
    const file = path.join(box.cwd, rel);
    if (content === null) expect(existsSync(file), `${rel} must not exist`).toBe(false);
    else {
      expect(existsSync(file), `${rel} must exist`).toBe(true);
      expect(readFileSync(file, 'utf8'), rel).toBe(content);
    }
  }
  for (const [rel, bytes] of scenario.expectedFiles) {
    const file = path.join(box.cwd, rel);
    expect(existsSync(file), `${rel} must exist`).toBe(true);
    expect(readFileSync(file, 'utf8'), rel).toBe(bytes.toString('utf8'));
    expect(readFileSync(file).equals(bytes), `${rel} must have exactly the expected bytes`).toBe(
      true,
    );
  }
  for (const [rel, value] of Object.entries(e.filesJson ?? {})) {
    const file = path.join(box.cwd, rel);
    expect(existsSync(file), `${rel} must exist`).toBe(true);
    expect(parseJson(readFileSync(file, 'utf8'), rel)).toEqual(withMatchers(value));
  }
  for (const [rel, old] of box.before) {
    const file = path.join(box.cwd, rel);
    expect(existsSync(file), `${rel} must still exist`).toBe(true);
    expect(readFileSync(file).equals(old.bytes), `${rel} must keep its bytes`).toBe(true);
    expect(statSync(file).mtimeMs, `${rel} must not be rewritten`).toBe(old.mtimeMs);
  }

  const temps = listFiles(box.root).filter((f) => TEMP_FILE.test(path.basename(f)));
  expect(temps, 'temp files left behind').toEqual([]);
}

async function runInProcess(scenario: Scenario, label: string): Promise<[CliResult, Sandbox]> {
  const box = setUp(scenario, label);
  const result = await runCli(scenario.args, {
    cwd: box.cwd,
    env: {},
    stdinIsTTY: scenario.expected.stdinIsTTY === true,
    ...(scenario.stdin === undefined ? {} : { stdin: scenario.stdin }),
  });
  return [result, box];
}

/** Output with the sandbox's own folder replaced, so two sandboxes compare. */
function portable(result: CliResult, box: Sandbox): CliResult {
  const strip = (s: string): string => s.split(box.root).join('<root>');
  return { code: result.code, stdout: strip(result.stdout), stderr: strip(result.stderr) };
}

const scenarios = names.map(loadScenario);

describe('cli scenarios', () => {
  it('finds the scenarios', () => {
    expect(scenarios.length).toBeGreaterThan(0);
  });

  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const [result, box] = await runInProcess(scenario, 'in-process');
      check(result, scenario, box);
    });
  }
});

describe('cli scenarios, spawned', () => {
  for (const scenario of scenarios.filter((s) => s.expected.spawn === true)) {
    it(scenario.name, async () => {
      const box = setUp(scenario, 'spawned');
      const result = await spawnCli(scenario.args, {
        cwd: box.cwd,
        env: {},
        ...(scenario.stdin === undefined ? {} : { stdin: scenario.stdin }),
      });
      check(result, scenario, box);

      // The same scenario in-process prints the same; a pattern-checked stdout may differ (ids).
      const [inProcess, inBox] = await runInProcess(scenario, 'compared');
      const a = portable(result, box);
      const b = portable(inProcess, inBox);
      if (scenario.expected.stdoutPattern !== undefined) {
        a.stdout = '';
        b.stdout = '';
      }
      expect(a).toEqual(b);
    });
  }
});
