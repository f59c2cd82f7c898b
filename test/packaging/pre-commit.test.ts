/**
 * The hooks of .pre-commit-hooks.yaml, set up and run by pre-commit (3.0 or newer; `.ci/run`
 * installs Debian's). The hook repository is a copy of the working tree committed in a temporary
 * folder: pre-commit installs a hook from a commit, and `try-repo` would neither see new files
 * nor keep the environment between runs (it builds a fresh one each time, about a minute here).
 *
 * Without pre-commit the suite is skipped with one line on standard error; with
 * HISTLINT_REQUIRE_SHARED=1 (CI) it fails instead.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeIf } from '../helpers/shared.js';
import {
  ROOT,
  childEnv,
  commitAll,
  copyWorkingTree,
  mustRun,
  removeDir,
  run,
  tempDir,
  type Ran,
} from './helpers.js';

/** Why pre-commit cannot be used here, or undefined when it can. */
function missingPreCommit(): string | undefined {
  const ran = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
  if (ran.error !== undefined || ran.status !== 0) return 'pre-commit not found on PATH';
  const version = /(\d+)\.(\d+)\.\d+/.exec(ran.stdout);
  if (version === null || Number(version[1]) < 3) {
    return `${ran.stdout.trim()} is older than 3.0`;
  }
  return undefined;
}

const CLEAN = JSON.stringify({
  version: 1,
  messages: [
    { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
    { role: 'assistant', parts: [{ type: 'text', text: 'hello' }] },
  ],
});

function hooksSuite(): void {
  let tmp = '';
  let project = '';
  let env: NodeJS.ProcessEnv = {};
  let installed = false;

  /** `pre-commit run` in the user's project, without colors. */
  const preCommit = (...args: string[]): Ran =>
    run('pre-commit', ['run', '--color=never', ...args], { cwd: project, env });

  beforeAll(() => {
    tmp = tempDir('pre-commit');
    const hooksRepo = path.join(tmp, 'histlint');
    project = path.join(tmp, 'project');
    mkdirSync(hooksRepo);
    mkdirSync(project);
    copyWorkingTree(hooksRepo);
    const rev = commitAll(hooksRepo);

    writeFileSync(path.join(project, 'clean.json'), CLEAN);
    writeFileSync(path.join(project, 'clean.jsonl'), `${CLEAN}\n${CLEAN}\n`);
    writeFileSync(path.join(project, 'clean.ndjson'), `${CLEAN}\n`);
    copyFileSync(
      path.join(ROOT, 'fixtures/examples/interrupted-run.json'),
      path.join(project, 'broken.json'),
    );
    writeFileSync(path.join(project, 'notes.js'), 'export {};\n');
    writeFileSync(
      path.join(project, '.pre-commit-config.yaml'),
      [
        'repos:',
        `  - repo: ${JSON.stringify(hooksRepo)}`,
        `    rev: ${rev}`,
        '    hooks:',
        '      - id: histlint-lint',
        '      - id: histlint-normalize-check',
        '',
      ].join('\n'),
    );
    commitAll(project);
    env = childEnv({ PRE_COMMIT_HOME: path.join(tmp, 'cache') });
  });
  afterAll(() => removeDir(tmp));

  it('sets both hooks up: npm install, npm pack and npm install -g on the system node', () => {
    mustRun('pre-commit', ['install-hooks'], { cwd: project, env });
    const cache = path.join(tmp, 'cache');
    const clones = readdirSync(cache).filter((name) => name.startsWith('repo'));
    expect(clones).toHaveLength(1);
    expect(existsSync(path.join(cache, clones[0]!, 'node_env-system/bin/histlint'))).toBe(true);
    installed = true;
  });

  it('passes clean .json, .jsonl and .ndjson histories', (ctx) => {
    if (!installed) ctx.skip('the hooks were not set up');
    const ran = preCommit('--files', 'clean.json', 'clean.jsonl', 'clean.ndjson');
    expect(ran.status, ran.stdout).toBe(0);
    expect(ran.stdout).toMatch(/^histlint lint\.+Passed$/m);
    expect(ran.stdout).toMatch(/^histlint normalize --check\.+Passed$/m);
  });

  it('fails a broken history, with the findings and the repairs it needs', (ctx) => {
    if (!installed) ctx.skip('the hooks were not set up');
    const ran = preCommit('--files', 'clean.json', 'broken.json');
    expect(ran.status).toBe(1);
    expect(ran.stdout).toMatch(/^histlint lint\.+Failed$/m);
    expect(ran.stdout).toMatch(/^histlint normalize --check\.+Failed$/m);
    for (const id of ['dangling-tool-call', 'orphan-tool-result']) expect(ran.stdout).toContain(id);
    expect(ran.stdout).toContain('broken.json: would change');
    // --check lists only what would change, then its summary line.
    expect(ran.stdout).toContain('1 of 2 files would change; run with --write');
  });

  it('fails the whole project when one file is broken, and skips other files', (ctx) => {
    if (!installed) ctx.skip('the hooks were not set up');
    expect(preCommit('--all-files').status).toBe(1);
    const other = preCommit('--files', 'notes.js');
    expect(other.status).toBe(0);
    expect(other.stdout).toMatch(/^histlint lint\.+\(no files to check\)Skipped$/m);
  });
}

describeIf('pre-commit hooks', missingPreCommit(), hooksSuite);
