/**
 * histlint.config.json (SPEC §5.2, STYLE 10 and 11): the generated JSON
 * Schema matches the zod schema, the config is found upward or named with
 * `--config`, every problem is one readable line and exit 2, and each key
 * (`files`, `ignore`, `rules`, `overrides`, `format`, `target`, `from`,
 * `pointer`) does what it says, below `--rule`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIG_NAME, findConfig, loadConfig } from '../src/config/load.js';
import { ConfigSchema, configJsonSchema } from '../src/config/schema.js';
import { RULES } from '../src/rules/index.js';
import { ROOT, runCli, type CliResult, type RunOptions } from './helpers/cli.js';
import {
  CLEAN,
  DANGLING,
  EMPTY_PARTS,
  makeTree,
  parseReport,
  removeTrees,
  type JsonReport,
} from './helpers/lint-fixtures.js';

afterAll(removeTrees);

const SCHEMA_FILE = path.join(ROOT, 'schemas', 'config.v1.schema.json');

/** Runs histlint in-process; no run may ever print a stack trace. */
async function histlint(argv: string[], options: RunOptions = {}): Promise<CliResult> {
  const result = await runCli(argv, options);
  expect(result.stdout).not.toMatch(/^ {4}at /m);
  expect(result.stderr).not.toMatch(/^ {4}at /m);
  return result;
}

/** Runs `lint --format json` and returns the exit code and the parsed report. */
async function lintJson(
  argv: string[],
  cwd: string,
): Promise<{ code: number; report: JsonReport; stderr: string }> {
  const r = await histlint(['lint', '--format', 'json', ...argv], { cwd });
  return { code: r.code, report: parseReport(r.stdout), stderr: r.stderr };
}

/** The rule ids and severities reported, by file. */
function severities(report: JsonReport): Record<string, string[]> {
  return Object.fromEntries(
    report.files.map((f) => [f.file, f.findings.map((x) => `${x.ruleId}:${x.severity}`)]),
  );
}

/** Expects a usage error: exit 2, nothing on stdout, exactly one line on stderr. */
function expectOneLineError(r: CliResult): string {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n')).toBe(true);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr.startsWith('histlint: ')).toBe(true);
  return r.stderr.trimEnd();
}

// ---------------------------------------------------------------------------
// The generated JSON Schema (STYLE 11)

describe('schemas/config.v1.schema.json', () => {
  it('is what configJsonSchema() generates (run `npm run schemas` when this fails)', () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    const generated = JSON.stringify(configJsonSchema(), null, 2) + '\n';
    const hint =
      'schemas/config.v1.schema.json is out of date with src/config/schema.ts: run `npm run schemas`';
    expect(JSON.parse(committed), hint).toEqual(JSON.parse(generated));
    expect(committed, hint).toBe(generated);
  });

  it('is a draft 2020-12 schema with a versioned $id that ajv compiles strictly', () => {
    const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toMatch(/v1/);
    const ajv = new Ajv2020.default({ allErrors: true, strict: true });
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it('lists every rule id and every key of SPEC §5.2', () => {
    const schema = configJsonSchema() as {
      properties: Record<string, { propertyNames?: { enum?: string[] } }>;
    };
    expect(Object.keys(schema.properties).sort()).toEqual(
      [
        '$schema',
        'extends',
        'files',
        'format',
        'from',
        'ignore',
        'overrides',
        'pointer',
        'rules',
        'target',
      ].sort(),
    );
    expect(schema.properties.rules!.propertyNames!.enum).toEqual(RULES.map((r) => r.meta.id));
  });
});

describe('ajv (the generated schema) and zod (the loader) agree', () => {
  const ajv = new Ajv2020.default({ allErrors: true, strict: true });
  const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as object);
  const configs: [string, string, boolean][] = [
    ['empty', '{}', true],
    ['$schema', '{"$schema": "./node_modules/histlint/schemas/config.v1.schema.json"}', true],
    [
      'everything',
      JSON.stringify({
        files: ['data/**/*.json'],
        ignore: ['data/skip/**'],
        rules: { 'unsafe-url': 'warn', 'system-message': 'error', unversioned: 'off' },
        overrides: [{ files: ['legacy/**'], rules: { 'dangling-tool-call': 'off' } }],
        target: 'anthropic',
        from: 'auto',
        pointer: '/request',
        format: 'sarif',
      }),
      true,
    ],
    ['override with empty rules', '{"overrides": [{"files": ["a"], "rules": {}}]}', true],
    ['unknown rule id', '{"rules": {"nope": "error"}}', false],
    ['bad severity', '{"rules": {"unsafe-url": "loud"}}', false],
    ['numeric severity', '{"rules": {"unsafe-url": 2}}', false],
    ['unknown top-level key', '{"rulez": {}}', false],
    ['files is a string', '{"files": "a.json"}', false],
    ['files holds a number', '{"files": [1]}', false],
    ['rules is an array', '{"rules": []}', false],
    ['override without files', '{"overrides": [{"rules": {}}]}', false],
    ['override with empty files', '{"overrides": [{"files": [], "rules": {}}]}', false],
    [
      'override with an unknown key',
      '{"overrides": [{"files": ["a"], "rules": {}, "x": 1}]}',
      false,
    ],
    ['bad format', '{"format": "xml"}', false],
    ['bad target', '{"target": "openai"}', false],
    ['bad from', '{"from": "nope"}', false],
    ['pointer not a string', '{"pointer": 1}', false],
    ['an array', '[]', false],
    ['null', 'null', false],
    ['rule id "constructor"', '{"rules": {"constructor": "off"}}', false],
    ['rule id "__proto__"', '{"rules": {"__proto__": "error"}}', false],
  ];
  it.each(configs)('%s', (_name, text, valid) => {
    const value = JSON.parse(text) as unknown;
    expect(validate(value), 'ajv').toBe(valid);
    expect(ConfigSchema.safeParse(value).success, 'zod').toBe(valid);
  });
});

// ---------------------------------------------------------------------------
// Finding the config

describe('finding the config', () => {
  it('is found upward from a nested working folder', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({ rules: { 'empty-message': 'error' } }),
      'a/b/c/w.json': EMPTY_PARTS,
    });
    const cwd = path.join(root, 'a', 'b', 'c');
    expect(await findConfig(cwd)).toBe(path.join(root, CONFIG_NAME));
    const { code, report } = await lintJson(['w.json'], cwd);
    expect(severities(report)).toEqual({ 'w.json': ['empty-message:error'] });
    expect(code).toBe(1);
  });

  it('the nearest config wins', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({ rules: { 'empty-message': 'error' } }),
      [`a/${CONFIG_NAME}`]: JSON.stringify({ rules: { 'empty-message': 'off' } }),
      'a/b/w.json': EMPTY_PARTS,
    });
    const { code, report } = await lintJson(['w.json'], path.join(root, 'a', 'b'));
    expect(severities(report)).toEqual({ 'w.json': [] });
    expect(code).toBe(0);
  });

  it('no config anywhere means the defaults', async () => {
    const root = makeTree({ 'w.json': EMPTY_PARTS });
    const loaded = await loadConfig(root);
    // A config may exist above the temp folder only by accident; the defaults apply otherwise.
    if (loaded.file === undefined) {
      expect(loaded.config).toEqual({});
      const { code, report } = await lintJson(['w.json'], root);
      expect(severities(report)).toEqual({ 'w.json': ['empty-message:warn'] });
      expect(code).toBe(0);
    }
  });

  it('--config FILE is used instead of the config found upward', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({ rules: { 'empty-message': 'off' } }),
      'configs/strict.json': JSON.stringify({ rules: { 'empty-message': 'error' } }),
      'w.json': EMPTY_PARTS,
    });
    const long = await lintJson(['--config', 'configs/strict.json', 'w.json'], root);
    expect(severities(long.report)).toEqual({ 'w.json': ['empty-message:error'] });
    expect(long.code).toBe(1);
    const short = await lintJson(['-c', path.join(root, 'configs', 'strict.json'), 'w.json'], root);
    expect(short.report).toEqual(long.report);
    const found = await lintJson(['w.json'], root);
    expect(severities(found.report)).toEqual({ 'w.json': [] });
  });

  it('--config FILE that does not exist is one line and exit 2', async () => {
    const root = makeTree({ 'w.json': EMPTY_PARTS });
    const line = expectOneLineError(
      await histlint(['lint', '--config', 'missing.json', 'w.json'], { cwd: root }),
    );
    expect(line).toContain('missing.json');
  });
});

// ---------------------------------------------------------------------------
// Readable errors

describe('an invalid config is one readable line and exit 2', () => {
  const cases: [string, string, (string | RegExp)[]][] = [
    [
      'bad severity',
      '{"rules": {"unsafe-url": "loud"}}',
      ['config.rules["unsafe-url"]: expected one of off|warn|error'],
    ],
    [
      'numeric severity (ESLint habit)',
      '{"rules": {"unsafe-url": 2}}',
      ['config.rules["unsafe-url"]: expected one of off|warn|error'],
    ],
    [
      'bad severity in an override',
      '{"overrides": [{"files": ["x/**"], "rules": {"empty-message": "on"}}]}',
      ['config.overrides[0].rules["empty-message"]: expected one of off|warn|error'],
    ],
    [
      'unknown rule id',
      '{"rules": {"no-such-rule": "error"}}',
      [/config\.rules(\["no-such-rule"\]|\.no-such-rule)/, /dangling-tool-call|histlint rules/],
    ],
    [
      'unknown top-level key',
      '{"rulez": {}}',
      [
        'config.rulez',
        // The accepted keys are named.
        'files',
        'ignore',
        'rules',
        'overrides',
        'target',
        'format',
      ],
    ],
    ['files is a string', '{"files": "a.json"}', ['config.files: expected array']],
    ['ignore holds a number', '{"ignore": [1]}', ['config.ignore[0]: expected string']],
    ['rules is an array', '{"rules": []}', ['config.rules: expected object']],
    [
      'override with empty files',
      '{"overrides": [{"files": [], "rules": {}}]}',
      ['config.overrides[0].files'],
    ],
    [
      'bad format',
      '{"format": "xml"}',
      ['config.format: expected one of stylish|json|sarif|github|junit'],
    ],
    [
      'bad target',
      '{"target": "openai"}',
      [
        'config.target: expected one of auto|none|openai-chat|openai-responses|anthropic|gemini|bedrock',
      ],
    ],
    ['an array', '[]', ['config: expected object']],
    [
      'invalid JSON (trailing comma) with line:column',
      '{\n  "rules": {\n    "empty-message": "error",\n  }\n}\n',
      [`${CONFIG_NAME}:4:3`, 'invalid JSON'],
    ],
    ['invalid JSON (empty file)', '', [`${CONFIG_NAME}:1:1`, 'invalid JSON']],
    [
      'invalid JSON (a comment)',
      '{\n  // no comments in JSON\n  "rules": {}\n}',
      [`${CONFIG_NAME}:2:3`, 'invalid JSON'],
    ],
  ];
  it.each(cases)('%s', async (_name, text, expected) => {
    const root = makeTree({ [CONFIG_NAME]: text, 'w.json': CLEAN });
    const line = expectOneLineError(await histlint(['lint', 'w.json'], { cwd: root }));
    expect(line).toContain(CONFIG_NAME);
    for (const e of expected) {
      if (typeof e === 'string') expect(line).toContain(e);
      else expect(line).toMatch(e);
    }
  });

  it('the same errors through --config, naming that file', async () => {
    const root = makeTree({
      'cfg/bad.json': '{"rules": {"unsafe-url": "loud"}}',
      'w.json': CLEAN,
    });
    const line = expectOneLineError(
      await histlint(['lint', '--config', 'cfg/bad.json', 'w.json'], { cwd: root }),
    );
    expect(line).toContain('cfg/bad.json');
    expect(line).toContain('config.rules["unsafe-url"]: expected one of off|warn|error');
  });

  it('several problems make one line each, every one naming the file', async () => {
    const root = makeTree({
      [CONFIG_NAME]: '{"rules": {"unsafe-url": "loud"}, "format": "xml", "extra": true}',
      'w.json': CLEAN,
    });
    const r = await histlint(['lint', 'w.json'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines)
      expect(line).toMatch(new RegExp(`^histlint: .*${CONFIG_NAME}: config\\.`));
    expect(r.stderr).toContain('config.rules["unsafe-url"]');
    expect(r.stderr).toContain('config.format');
    expect(r.stderr).toContain('config.extra');
  });

  it('a mistyped rule id or key gets a "did you mean"', async () => {
    const root = makeTree({
      [CONFIG_NAME]:
        '{"rules": {"dangling-tool-cal": "error"}, "overrides": [{"files": ["a/**"], "rule": {}}]}',
      'w.json': CLEAN,
    });
    const r = await histlint(['lint', 'w.json'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${CONFIG_NAME}: config.rules["dangling-tool-cal"]: unknown rule; did you mean "dangling-tool-call"?`,
    );
    expect(r.stderr).toContain('config.overrides[0].rule: unknown key');
    expect(r.stderr).toContain('did you mean "rules"?');
  });

  it('a config with a BOM is read', async () => {
    const root = makeTree({
      [CONFIG_NAME]: '\uFEFF{"rules": {"empty-message": "error"}}',
      'w.json': EMPTY_PARTS,
    });
    const { report } = await lintJson(['w.json'], root);
    expect(severities(report)).toEqual({ 'w.json': ['empty-message:error'] });
  });
});

// ---------------------------------------------------------------------------
// What each key does

describe('config keys', () => {
  it('`files` are linted when no pattern is given (relative to the config folder)', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({ files: ['data/**/*.json'] }),
      'data/a.json': DANGLING,
      'data/sub/b.json': CLEAN,
      'other/c.json': DANGLING,
    });
    const { code, report } = await lintJson([], root);
    expect(report.files.map((f) => f.file)).toEqual(['data/a.json', 'data/sub/b.json']);
    expect(code).toBe(1);
    // From a nested folder the same files are linted.
    const nested = await lintJson([], path.join(root, 'other'));
    expect(nested.report.files.map((f) => path.basename(f.file)).sort()).toEqual([
      'a.json',
      'b.json',
    ]);
  });

  it('patterns on the command line replace `files`', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({ files: ['data/**/*.json'] }),
      'data/a.json': DANGLING,
      'other/c.json': CLEAN,
    });
    const { code, report } = await lintJson(['other/c.json'], root);
    expect(report.files.map((f) => f.file)).toEqual(['other/c.json']);
    expect(code).toBe(0);
  });

  it('`files` that match nothing are exit 2', async () => {
    const root = makeTree({ [CONFIG_NAME]: JSON.stringify({ files: ['data/**/*.json'] }) });
    const line = expectOneLineError(await histlint(['lint'], { cwd: root }));
    expect(line).toContain('data/**/*.json');
  });

  it('an empty `files` with no pattern is a usage error', async () => {
    const root = makeTree({ [CONFIG_NAME]: JSON.stringify({ files: [] }), 'a.json': CLEAN });
    expectOneLineError(await histlint(['lint'], { cwd: root }));
  });

  it('`ignore` skips files matched by `files` and by command-line globs', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({ files: ['data/**/*.json'], ignore: ['data/skip/**'] }),
      'data/keep/a.json': CLEAN,
      'data/skip/b.json': DANGLING,
    });
    const fromConfig = await lintJson([], root);
    expect(fromConfig.report.files.map((f) => f.file)).toEqual(['data/keep/a.json']);
    expect(fromConfig.code).toBe(0);
    const fromGlob = await lintJson(['data/**/*.json'], root);
    expect(fromGlob.report.files.map((f) => f.file)).toEqual(['data/keep/a.json']);
    expect(fromGlob.code).toBe(0);
  });

  it('`ignore` applies inside a folder argument too', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({ ignore: ['data/skip/**'] }),
      'data/keep/a.json': CLEAN,
      'data/skip/b.json': DANGLING,
    });
    const { code, report } = await lintJson(['data'], root);
    expect(report.files.map((f) => f.file)).toEqual(['data/keep/a.json']);
    expect(code).toBe(0);
  });

  it('`rules` set severities', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({
        rules: { 'dangling-tool-call': 'warn', 'empty-message': 'off', 'ends-with-user': 'error' },
      }),
      'd.json': DANGLING,
      'w.json': EMPTY_PARTS,
    });
    const { code, report } = await lintJson(['d.json', 'w.json'], root);
    expect(severities(report)).toEqual({
      // DANGLING ends with the assistant's call, so `ends-with-user` reports it too.
      'd.json': ['ends-with-user:error', 'dangling-tool-call:warn'],
      'w.json': ['ends-with-user:error'],
    });
    expect(code).toBe(1);
  });

  it('`overrides` apply per path (a rule off for legacy/**)', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({
        overrides: [{ files: ['legacy/**'], rules: { 'dangling-tool-call': 'off' } }],
      }),
      'legacy/old.json': DANGLING,
      'legacy/deep/older.json': DANGLING,
      'current/new.json': DANGLING,
    });
    const { code, report } = await lintJson(['legacy', 'current'], root);
    expect(severities(report)).toEqual({
      'legacy/deep/older.json': [],
      'legacy/old.json': [],
      'current/new.json': ['dangling-tool-call:error'],
    });
    expect(code).toBe(1);
  });

  it('`overrides` paths are relative to the config folder, not the working folder', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({
        overrides: [{ files: ['legacy/**'], rules: { 'dangling-tool-call': 'off' } }],
      }),
      'legacy/old.json': DANGLING,
    });
    const { code, report } = await lintJson(['old.json'], path.join(root, 'legacy'));
    expect(severities(report)).toEqual({ 'old.json': [] });
    expect(code).toBe(0);
  });

  it('`overrides` beat `rules`, and a later override beats an earlier one', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({
        rules: { 'empty-message': 'off' },
        overrides: [
          { files: ['**/*.json'], rules: { 'empty-message': 'error' } },
          { files: ['soft/**'], rules: { 'empty-message': 'warn' } },
        ],
      }),
      'hard/w.json': EMPTY_PARTS,
      'soft/w.json': EMPTY_PARTS,
    });
    const { report } = await lintJson(['hard/w.json', 'soft/w.json'], root);
    expect(severities(report)).toEqual({
      'hard/w.json': ['empty-message:error'],
      'soft/w.json': ['empty-message:warn'],
    });
  });

  it('`format` from the config is the default, and --format beats it', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({ format: 'json' }),
      'd.json': DANGLING,
    });
    const fromConfig = await histlint(['lint', 'd.json'], { cwd: root });
    expect(fromConfig.code).toBe(1);
    expect(parseReport(fromConfig.stdout).files.map((f) => f.file)).toEqual(['d.json']);
    const flag = await histlint(['lint', '--format', 'github', 'd.json'], { cwd: root });
    expect(flag.stdout).toMatch(/^::error file=d\.json,/);
  });

  it.each(['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'bedrock'])(
    '`target` %s is accepted',
    async (target) => {
      const root = makeTree({ [CONFIG_NAME]: JSON.stringify({ target }), 'c.json': CLEAN });
      const r = await histlint(['lint', 'c.json'], { cwd: root });
      expect(r.stderr).toBe('');
      expect([0, 1]).toContain(r.code);
    },
  );

  it('`from` and `pointer` are used', async () => {
    const wrapped = JSON.stringify({ request: JSON.parse(DANGLING) as unknown }, null, 2);
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({ from: 'auto', pointer: '/request' }),
      'w.json': wrapped,
    });
    const { code, report } = await lintJson(['w.json'], root);
    expect(report.files[0]!.findings.map((f) => [f.ruleId, f.pointer])).toEqual([
      ['dangling-tool-call', '/request/messages/1/parts/0'],
    ]);
    expect(code).toBe(1);
  });

  it('`$schema` is accepted', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({
        $schema: './node_modules/histlint/schemas/config.v1.schema.json',
      }),
      'c.json': CLEAN,
    });
    const r = await histlint(['lint', 'c.json'], { cwd: root });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

// ---------------------------------------------------------------------------
// --rule

describe('--rule', () => {
  it('beats the config, its overrides and the defaults', async () => {
    const root = makeTree({
      [CONFIG_NAME]: JSON.stringify({
        rules: { 'empty-message': 'off', 'dangling-tool-call': 'error' },
        overrides: [{ files: ['x/**'], rules: { 'empty-message': 'error' } }],
      }),
      'x/w.json': EMPTY_PARTS,
      'x/d.json': DANGLING,
    });
    const { code, report } = await lintJson(
      ['--rule', 'empty-message=warn', '--rule', 'dangling-tool-call=off', 'x/d.json', 'x/w.json'],
      root,
    );
    expect(severities(report)).toEqual({
      'x/d.json': [],
      'x/w.json': ['empty-message:warn'],
    });
    expect(code).toBe(0);
  });

  it('the last --rule for one id wins', async () => {
    const root = makeTree({ 'w.json': EMPTY_PARTS });
    const { report } = await lintJson(
      ['--rule', 'empty-message=off', '--rule', 'empty-message=error', 'w.json'],
      root,
    );
    expect(severities(report)).toEqual({ 'w.json': ['empty-message:error'] });
  });

  it.each([
    ['unknown id', 'no-such-rule=error', 'no-such-rule'],
    ['bad severity', 'empty-message=loud', 'off|warn|error'],
    ['no severity', 'empty-message', 'off|warn|error'],
    ['no id', '=error', 'off|warn|error'],
    ['severity out of range', 'empty-message=3', 'off|warn|error'],
    ['colon and equals', 'empty-message:=warn', 'off|warn|error'],
  ])('an invalid --rule (%s) is exit 2 with one line', async (_name, value, mention) => {
    const root = makeTree({ 'w.json': EMPTY_PARTS });
    const line = expectOneLineError(
      await histlint(['lint', '--rule', value, 'w.json'], { cwd: root }),
    );
    expect(line).toContain(mention);
  });
});

describe('the config\'s "pointer" and "from" in every command that reads conversations', () => {
  // One repository-wide setting: lint, show, stats, normalize, sanitize, trim and convert alike.
  const wrapped = JSON.stringify({ request: JSON.parse(DANGLING) as unknown });
  const tree = (): string =>
    makeTree({
      [CONFIG_NAME]: JSON.stringify({ pointer: '/request', from: 'histlint' }),
      'w.json': wrapped,
    });

  it.each([
    [['normalize', 'w.json', '--check'], 1],
    [['sanitize', 'w.json', '--check'], 1],
    [['trim', 'w.json', '--max-messages', '1', '--check'], 1],
    [['convert', 'w.json', '--to', 'openai-chat', '--check'], 1],
    [['stats', 'w.json', '--format', 'json'], 0],
    [['show', 'w.json'], 0],
    [['lint', 'w.json'], 1],
  ])('%j finds the conversation at the config pointer', async (argv, code) => {
    const cwd = tree();
    const r = await histlint(argv, { cwd });
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).not.toContain('not a conversation');
  });

  it('--pointer on the command line wins over the config', async () => {
    const cwd = tree();
    const r = await histlint(['normalize', 'w.json', '--pointer', '', '--check'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('w.json: error: not a conversation');
  });

  it('--config names the file, and an invalid one is a one-line usage error', async () => {
    const cwd = makeTree({ 'c.json': '{"pointer": 3}', 'w.json': wrapped });
    expectOneLineError(await histlint(['normalize', 'w.json', '--config', 'c.json'], { cwd }));
    expectOneLineError(await histlint(['stats', 'w.json', '--config', 'c.json'], { cwd }));
  });
});
