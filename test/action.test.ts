/**
 * The CI integrations at the root: `action.yml` (a composite GitHub Action) and
 * `.pre-commit-hooks.yaml`. Their shape is checked against what GitHub and
 * pre-commit read, and the action's lint steps run here with bash as a runner
 * runs them, with `histlint` on PATH being this checkout's bin. The slow part,
 * setting the hooks up through pre-commit, is in test/packaging.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLES = path.join(ROOT, 'fixtures/examples');
const BIN = path.join(ROOT, 'bin/histlint.js');

const CLEAN = JSON.stringify({
  version: 1,
  messages: [
    { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
    { role: 'assistant', parts: [{ type: 'text', text: 'hello' }] },
  ],
});

interface Input {
  description?: unknown;
  required?: unknown;
  default?: unknown;
}

interface Step {
  name?: unknown;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

interface Action {
  name?: unknown;
  description?: unknown;
  inputs: Record<string, Input>;
  outputs?: Record<string, { description?: unknown; value?: unknown }>;
  runs: { using?: unknown; steps: Step[] };
}

interface Hook {
  id: string;
  name?: unknown;
  entry: string;
  language?: unknown;
  language_version?: unknown;
  files: string;
}

const actionText = readFileSync(path.join(ROOT, 'action.yml'), 'utf8');
const action = parse(actionText) as Action;
const hooks = parse(readFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];

const steps = action.runs.steps;
const stepNamed = (name: string): Step => {
  const step = steps.find((s) => s.name === name);
  if (step === undefined) throw new Error(`action.yml has no step named "${name}"`);
  return step;
};

/** Every `${{ ... }}` expression in a text, without its braces. */
const expressions = (text: string): string[] =>
  [...text.matchAll(/\$\{\{(.*?)\}\}/g)].map((m) => m[1]!.trim());

/** The input names and step outputs that expressions (and `if:` conditions, bare) refer to. */
function references(text: string): { inputs: string[]; outputs: [string, string][] } {
  return {
    inputs: [...text.matchAll(/\binputs\.([\w-]+)/g)].map((m) => m[1]!),
    outputs: [...text.matchAll(/\bsteps\.([\w-]+)\.outputs\.([\w-]+)/g)].map(
      (m) => [m[1]!, m[2]!] as [string, string],
    ),
  };
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
}

let work = '';
let tempRoot = '';
/** `histlint` running this checkout's bin, as the Install step leaves it on PATH. */
let checkout = '';
/** `histlint` writing its arguments, NUL-terminated, to $HISTLINT_ARGV_FILE. */
let recorder = '';
let argvFile = '';

/** A folder holding a `histlint` command: a shell script with this body. */
function shim(name: string, body: string): string {
  const dir = path.join(tempRoot, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'histlint'), `#!/bin/sh\n${body}\n`);
  chmodSync(path.join(dir, 'histlint'), 0o755);
  return dir;
}

beforeAll(() => {
  tempRoot = mkdtempSync(path.join(tmpdir(), 'histlint-action-'));
  checkout = shim('bin', `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"`);
  recorder = shim('recorder', `printf '%s\\0' "$@" > "$HISTLINT_ARGV_FILE"`);
  argvFile = path.join(tempRoot, 'argv');
});
afterAll(() => rmSync(tempRoot, { recursive: true, force: true }));

/**
 * Runs one step's script the way a runner does (`bash --noprofile --norc -eo pipefail`), in
 * `work`, with its `env:` evaluated from the inputs (declared defaults, then `given`) and the
 * outputs of earlier steps. Any other expression in `env:` fails the test: it would need support.
 */
function runStep(
  step: Step,
  given: Record<string, string>,
  earlier: Record<string, Record<string, string>> = {},
  bin?: string,
): Run {
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    inputs[name] = String(input.default ?? '');
  }
  Object.assign(inputs, given);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(step.env ?? {})) {
    env[key] = value.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => {
      const e = expression.trim();
      const input = /^inputs\.([\w-]+)$/.exec(e);
      if (input !== null && input[1]! in inputs) return inputs[input[1]!]!;
      const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(e);
      if (output !== null) return earlier[output[1]!]?.[output[2]!] ?? '';
      throw new Error(`the test cannot evaluate \${{ ${e} }}`);
    });
  }
  const script = path.join(tempRoot, 'step.sh');
  const outputFile = path.join(tempRoot, 'github-output');
  writeFileSync(script, step.run ?? '');
  writeFileSync(outputFile, '');
  const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    cwd: work,
    encoding: 'utf8',
    env: {
      ...process.env,
      ...env,
      PATH: `${bin ?? checkout}${path.delimiter}${process.env.PATH ?? ''}`,
      GITHUB_OUTPUT: outputFile,
      HISTLINT_ARGV_FILE: argvFile,
      FORCE_COLOR: '0',
    },
  });
  const outputs: Record<string, string> = {};
  for (const line of readFileSync(outputFile, 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) outputs[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr, outputs };
}

/** The rule ids of the results in a SARIF file. */
function sarifRuleIds(file: string): string[] {
  const log = JSON.parse(readFileSync(file, 'utf8')) as {
    version: string;
    runs: { results: { ruleId: string }[] }[];
  };
  expect(log.version).toBe('2.1.0');
  return log.runs.flatMap((run) => run.results.map((r) => r.ruleId));
}

describe('action.yml', () => {
  it('is a composite action whose inputs each have a description and a string default', () => {
    expect(typeof action.name).toBe('string');
    expect(typeof action.description).toBe('string');
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs).sort()).toEqual(
      ['args', 'config', 'format', 'patterns', 'sarif-file', 'target', 'upload', 'version'].sort(),
    );
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(typeof input.description, name).toBe('string');
      expect(typeof input.default, name).toBe('string');
      expect(input.required ?? false, name).toBe(false);
    }
    expect(action.inputs.format!.default).toBe('sarif');
    expect(action.inputs.patterns!.default).toBe('');
    expect(action.inputs.target!.default).toBe('auto');
    for (const [name, output] of Object.entries(action.outputs ?? {})) {
      expect(typeof output.description, name).toBe('string');
      expect(typeof output.value, name).toBe('string');
    }
  });

  it('names every step; run steps name their shell, uses steps pin a major version', () => {
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) {
      expect(typeof step.name).toBe('string');
      const label = String(step.name);
      expect(step.run === undefined, label).not.toBe(step.uses === undefined);
      if (step.run !== undefined) expect(step.shell, label).toBe('bash');
      if (step.uses !== undefined) expect(step.uses, label).toMatch(/^[\w.-]+\/[\w./-]+@v\d+$/);
    }
    expect(steps.map((s) => s.uses).filter(Boolean)).toEqual([
      'actions/setup-node@v4',
      'github/codeql-action/upload-sarif@v3',
    ]);
  });

  it('refers only to the inputs, steps and step outputs it declares', () => {
    const { inputs, outputs } = references(actionText);
    expect(inputs.length).toBeGreaterThan(0);
    for (const name of inputs) expect(Object.keys(action.inputs)).toContain(name);
    const ids = new Map(steps.filter((s) => s.id !== undefined).map((s) => [s.id!, s]));
    for (const [id, output] of outputs) {
      expect([...ids.keys()]).toContain(id);
      // A step output exists only if the step's script writes it.
      expect(ids.get(id)!.run).toContain(`echo "${output}=`);
    }
    for (const e of expressions(actionText)) {
      expect(e).toMatch(/^(inputs|steps)\.[\w.-]+$/);
    }
  });

  it('keeps expressions out of shell scripts: inputs reach them as environment variables', () => {
    for (const step of steps) {
      if (step.run !== undefined) expect(expressions(step.run), String(step.name)).toEqual([]);
    }
  });

  describe('its lint steps, run here as a runner runs them', () => {
    const lint = stepNamed('Lint');
    const annotate = stepNamed('Annotate');
    const finish = stepNamed("Exit with histlint's code");
    let round = 0;

    beforeEach(() => {
      round += 1;
      work = path.join(tempRoot, `work-${round}`);
      mkdirSync(work);
      for (const name of readdirSync(EXAMPLES)) {
        copyFileSync(path.join(EXAMPLES, name), path.join(work, name));
      }
      mkdirSync(path.join(work, 'good'));
      writeFileSync(path.join(work, 'good/clean.json'), CLEAN);
      writeFileSync(path.join(work, 'good/more.jsonl'), `${CLEAN}\n${CLEAN}\n`);
    });

    it('writes the SARIF report although lint fails, records exit code 1, then fails', () => {
      const ran = runStep(lint, { patterns: '.' });
      expect(ran.status, ran.stderr).toBe(0);
      expect(ran.outputs['exit-code']).toBe('1');
      expect(ran.outputs['report-file']).toBe('histlint.sarif');
      const ids = sarifRuleIds(path.join(work, 'histlint.sarif'));
      expect(ids).toContain('dangling-tool-call');
      expect(ids).toContain('orphan-tool-result');

      const annotated = runStep(annotate, { patterns: '.' });
      expect(annotated.status, annotated.stderr).toBe(0);
      expect(annotated.stdout).toMatch(
        /^::error file=interrupted-run\.json,line=\d+,col=\d+,title=histlint dangling-tool-call::/m,
      );

      const finished = runStep(finish, {}, { lint: ran.outputs });
      expect(finished.status).toBe(1);
    });

    it('hands histlint one argument per word of patterns and args, globs unexpanded', () => {
      const argv = (given: Record<string, string>): string[] => {
        const ran = runStep(lint, given, {}, recorder);
        expect(ran.outputs['exit-code'], ran.stderr).toBe('0');
        return readFileSync(argvFile, 'utf8').split('\0').slice(0, -1);
      };
      // No patterns: the config's "files".
      expect(argv({})).toEqual(
        'lint --target auto --format sarif --output-file histlint.sarif --'.split(' '),
      );
      expect(argv({ patterns: '.' })).toEqual(
        'lint --target auto --format sarif --output-file histlint.sarif -- .'.split(' '),
      );
      expect(
        argv({
          patterns: ' good/*.json\n\tlogs/**/*.jsonl  \n',
          args: '--rule  system-message=off\n--quiet',
          config: 'ci/histlint config.json',
          format: 'github',
          target: 'anthropic',
        }),
      ).toEqual([
        ...['lint', '--target', 'anthropic', '--config', 'ci/histlint config.json'],
        ...['--format', 'github', '--rule', 'system-message=off', '--quiet'],
        ...['--', 'good/*.json', 'logs/**/*.jsonl'],
      ]);
    });

    it('lints the files of several patterns on several lines', () => {
      const ran = runStep(lint, { patterns: 'good/clean.json\n  good/*.jsonl\n' });
      expect(ran.outputs['exit-code'], ran.stderr).toBe('0');
      expect(sarifRuleIds(path.join(work, 'histlint.sarif'))).toEqual([]);
      expect(runStep(finish, {}, { lint: ran.outputs }).status).toBe(0);
    });

    it('passes config, target, args and sarif-file on to histlint lint', () => {
      writeFileSync(
        path.join(work, 'quiet.json'),
        JSON.stringify({ rules: { 'dangling-tool-call': 'off', 'orphan-tool-result': 'off' } }),
      );
      const inputs = { patterns: 'interrupted-run.json', config: 'quiet.json', target: 'none' };
      const warned = runStep(lint, { ...inputs, 'sarif-file': 'out/report.sarif' });
      // The folder of the report file is histlint's to create, as for -o anywhere.
      expect(warned.outputs['exit-code'], warned.stderr).toBe('0');
      expect(sarifRuleIds(path.join(work, 'out/report.sarif'))).toEqual(['truncated-arguments']);
      const strict = runStep(lint, { ...inputs, args: '--max-warnings 0  --quiet' });
      expect(strict.outputs['exit-code']).toBe('1');
    });

    it('with format github prints annotations and writes no report', () => {
      const ran = runStep(lint, { patterns: '.', format: 'github' });
      expect(ran.outputs['exit-code']).toBe('1');
      expect(ran.outputs['report-file']).toBeUndefined();
      expect(ran.stdout).toMatch(/^::error file=openai-tool-after-user\.json,/m);
      expect(existsSync(path.join(work, 'histlint.sarif'))).toBe(false);
    });

    it('does not leave an earlier report in place when this run writes none', () => {
      writeFileSync(path.join(work, 'histlint.sarif'), '{}');
      const ran = runStep(lint, { patterns: 'missing.json' });
      expect(ran.outputs['exit-code']).toBe('2');
      expect(ran.outputs['report-file']).toBeUndefined();
      expect(existsSync(path.join(work, 'histlint.sarif'))).toBe(false);
    });

    it('never runs input text as shell', () => {
      const ran = runStep(lint, {
        patterns: '$(touch pwned-1) `touch pwned-2`; touch pwned-3',
        args: '$(touch pwned-4)',
        config: '"; touch pwned-5; "',
      });
      expect(ran.status).toBe(0);
      expect(ran.outputs['exit-code']).toBe('2');
      expect(readdirSync(work).filter((name) => name.startsWith('pwned'))).toEqual([]);
    });
  });
});

describe('.pre-commit-hooks.yaml', () => {
  it('declares histlint-lint and histlint-normalize-check as node hooks on the system node', () => {
    expect(hooks.map((h) => h.id)).toEqual(['histlint-lint', 'histlint-normalize-check']);
    const entries = Object.fromEntries(hooks.map((h) => [h.id, h.entry]));
    expect(entries).toEqual({
      'histlint-lint': 'histlint lint',
      'histlint-normalize-check': 'histlint normalize --check',
    });
    const { bin } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    for (const hook of hooks) {
      expect(typeof hook.name).toBe('string');
      expect(hook.language).toBe('node');
      // No node download of pre-commit's own: the npm registry is all a set-up needs.
      expect(hook.language_version).toBe('system');
      expect(Object.keys(bin)).toContain(hook.entry.split(' ')[0]);
    }
  });

  it('takes .json, .jsonl and .ndjson files only', () => {
    for (const hook of hooks) {
      // pre-commit searches with Python's re.search; this pattern means the same in JavaScript.
      const files = new RegExp(hook.files);
      for (const name of ['a.json', 'logs/b.jsonl', 'c.ndjson']) expect(name).toMatch(files);
      for (const name of ['a.js', 'a.json5', 'a.jsonc', 'json', 'a.json.bak', 'a.yaml']) {
        expect(name).not.toMatch(files);
      }
    }
  });

  it('runs entries that take several file names, as pre-commit passes them', () => {
    const dir = mkdtempSync(path.join(tempRoot, 'hooks-'));
    writeFileSync(path.join(dir, 'clean.json'), CLEAN);
    writeFileSync(path.join(dir, 'clean.ndjson'), `${CLEAN}\n`);
    copyFileSync(path.join(EXAMPLES, 'interrupted-run.json'), path.join(dir, 'broken.json'));
    for (const hook of hooks) {
      const args = [...hook.entry.split(' ').slice(1)];
      const status = (files: string[]): number | null =>
        spawnSync(process.execPath, [BIN, ...args, ...files], { cwd: dir, encoding: 'utf8' })
          .status;
      expect(status(['clean.json', 'clean.ndjson']), hook.id).toBe(0);
      expect(status(['clean.json', 'broken.json', 'clean.ndjson']), hook.id).toBe(1);
    }
  });
});
