/**
 * What the packaging suites share: commands run with their output kept, an
 * environment without the variables of the `npm run` that started vitest, a
 * copy of the working tree as a repository of one commit, and the steps of
 * action.yml run as a runner runs them.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The project's root folder. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A finished command: its exit status and what it printed. */
export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment for npm, git and pre-commit in a temporary folder. `npm run` exports the
 * invoking package's name, scripts and folder (`npm_package_*`, `npm_config_local_prefix`), which
 * an npm started elsewhere would take for its own; git hooks export `GIT_DIR` and the like.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_(package|lifecycle)_|npm_command$|npm_config_local_prefix$|INIT_CWD$)/.test(key)) {
      continue;
    }
    if (/^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|PREFIX)$/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}

/** Runs a command to its end. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Ran {
  const ran = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? childEnv(),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (ran.error !== undefined) throw ran.error;
  return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

/** Runs a command and throws, with everything it printed, unless it exits with 0. */
export function mustRun(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Ran {
  const ran = run(command, args, options);
  if (ran.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${options.cwd}) exited with ${ran.status}\n` +
        `--- stdout\n${ran.stdout}\n--- stderr\n${ran.stderr}`,
    );
  }
  return ran;
}

/** A new empty folder under the system's temporary folder. */
export function tempDir(name: string): string {
  return mkdtempSync(path.join(tmpdir(), `histlint-${name}-`));
}

/** Removes a folder made by tempDir. */
export function removeDir(dir: string): void {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
}

const GIT_IDENTITY = [
  '-c',
  'user.name=histlint tests',
  '-c',
  'user.email=tests@histlint.invalid',
  '-c',
  'commit.gpgsign=false',
];

/** Makes `dir` a git repository whose one commit holds every file in it; returns the commit. */
export function commitAll(dir: string): string {
  const env = childEnv();
  mustRun('git', ['-c', 'init.defaultBranch=main', 'init', '-q'], { cwd: dir, env });
  mustRun('git', ['add', '-A'], { cwd: dir, env });
  mustRun('git', [...GIT_IDENTITY, 'commit', '-q', '-m', 'snapshot'], { cwd: dir, env });
  return mustRun('git', ['rev-parse', 'HEAD'], { cwd: dir, env }).stdout.trim();
}

/**
 * Copies the working tree into `dest`: what `git add -A` would commit (tracked files as they
 * are now, new files that .gitignore does not exclude), so uncommitted work is tested too and
 * nothing built or installed (dist/, node_modules/) comes along.
 */
export function copyWorkingTree(dest: string): void {
  const listed = mustRun('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
  }).stdout;
  for (const file of listed.split('\0')) {
    // A tracked file deleted in the working tree is still listed.
    if (file === '' || !existsSync(path.join(ROOT, file))) continue;
    mkdirSync(path.dirname(path.join(dest, file)), { recursive: true });
    copyFileSync(path.join(ROOT, file), path.join(dest, file));
  }
}

/** The script of the action.yml step with this name. */
export function actionScript(name: string): string {
  const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
    runs: { steps: { name?: string; run?: string }[] };
  };
  const script = action.runs.steps.find((step) => step.name === name)?.run;
  if (script === undefined) throw new Error(`action.yml has no run step named "${name}"`);
  return script;
}

/**
 * Runs an action.yml step's script in `dir` as a runner does (`bash --noprofile --norc -eo
 * pipefail`), with `env` added: the step's inputs and the runner's variables it reads.
 */
export function runActionScript(script: string, dir: string, env: Record<string, string>): Ran {
  const file = path.join(dir, 'step.sh');
  writeFileSync(file, script);
  return mustRun('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], {
    cwd: dir,
    env: childEnv(env),
  });
}
