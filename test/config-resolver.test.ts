/**
 * The per-file config (issue 19, item 4): `ConfigResolver` finds the nearest
 * histlint.config.json at or above a file's folder, up to the working folder;
 * `extends` inherits another config; `lintFiles` takes a per-file resolver.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIG_NAME, ConfigError, ConfigResolver } from '../src/config/load.js';
import { lintFiles } from '../src/lint/files.js';
import { EMPTY_PARTS } from './helpers/lint-fixtures.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'histlint-resolver-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

const rules = (r: Record<string, string>): string => JSON.stringify({ rules: r });

describe('ConfigResolver', () => {
  it('gives each file the nearest config at or above its folder', async () => {
    const root = tree({
      [CONFIG_NAME]: rules({ 'empty-message': 'error' }),
      [`a/${CONFIG_NAME}`]: rules({ 'empty-message': 'off' }),
    });
    const r = new ConfigResolver(root);
    expect((await r.forFile(path.join(root, 'x.json'))).file).toBe(path.join(root, CONFIG_NAME));
    const nested = await r.forFile(path.join(root, 'a', 'b', 'c', 'x.json'));
    expect(nested.file).toBe(path.join(root, 'a', CONFIG_NAME));
    // The nearest wins whole: nothing of the root's is in it.
    expect(nested.config).toEqual({ rules: { 'empty-message': 'off' } });
    // Cached: files of one folder share one object.
    expect(await r.forFile(path.join(root, 'a', 'y.json'))).toBe(
      await r.forFile(path.join(root, 'a', 'z.json')),
    );
  });

  it("a file outside the working folder, and standard input, get the working folder's config", async () => {
    const root = tree({
      [CONFIG_NAME]: rules({ 'empty-message': 'error' }),
      [`work/${CONFIG_NAME}`]: rules({ 'empty-message': 'warn' }),
      [`other/${CONFIG_NAME}`]: rules({ 'empty-message': 'off' }),
    });
    const r = new ConfigResolver(path.join(root, 'work'));
    const own = path.join(root, 'work', CONFIG_NAME);
    expect((await r.forFile(path.join(root, 'other', 'x.json'))).file).toBe(own);
    expect((await r.forFile(undefined)).file).toBe(own);
  });

  it("--config FILE is every file's config", async () => {
    const root = tree({
      'strict.json': rules({ 'empty-message': 'error' }),
      [`a/${CONFIG_NAME}`]: rules({ 'empty-message': 'off' }),
    });
    const r = new ConfigResolver(root, 'strict.json');
    expect((await r.forFile(path.join(root, 'a', 'x.json'))).file).toBe(
      path.join(root, 'strict.json'),
    );
  });
});

describe('extends', () => {
  it('takes the extended settings first, then its own; overrides keep their folder', async () => {
    const root = tree({
      [CONFIG_NAME]: JSON.stringify({
        files: ['**/*.json'],
        target: 'anthropic',
        rules: { 'empty-message': 'error', 'ends-with-user': 'off' },
        overrides: [{ files: ['a/old/**'], rules: { 'empty-message': 'off' } }],
      }),
      [`a/${CONFIG_NAME}`]: JSON.stringify({
        extends: '../histlint.config.json',
        target: 'none',
        rules: { 'ends-with-user': 'warn' },
        overrides: [{ files: ['new/**'], pointer: '/request' }],
      }),
    });
    const loaded = await new ConfigResolver(root).forFile(path.join(root, 'a', 'x.json'));
    expect(loaded.config).toEqual({
      target: 'none',
      rules: { 'empty-message': 'error', 'ends-with-user': 'warn' },
      overrides: [
        { files: ['a/old/**'], rules: { 'empty-message': 'off' } },
        { files: ['new/**'], pointer: '/request' },
      ],
    });
    expect(loaded.overrideDirs).toEqual([root, path.join(root, 'a')]);
    expect(loaded.extended).toEqual([path.join(root, CONFIG_NAME)]);
  });

  it('a cycle is a config error naming the chain', async () => {
    const root = tree({
      [CONFIG_NAME]: JSON.stringify({ extends: 'b.json' }),
      'b.json': JSON.stringify({ extends: CONFIG_NAME }),
    });
    const error = await new ConfigResolver(root).root().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('makes a cycle');
  });

  it('a missing extended file names the key', async () => {
    const root = tree({ [CONFIG_NAME]: JSON.stringify({ extends: 'nope.json' }) });
    const error = await new ConfigResolver(root).root().catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/config\.extends: nope\.json: cannot read config/);
  });
});

describe('lintFiles configFor', () => {
  it('lints each file with the config the resolver gives it', async () => {
    const root = tree({
      [CONFIG_NAME]: rules({ 'empty-message': 'error' }),
      [`soft/${CONFIG_NAME}`]: rules({ 'empty-message': 'off' }),
      'hard.json': EMPTY_PARTS,
      'soft/w.json': EMPTY_PARTS,
    });
    const resolver = new ConfigResolver(root);
    const result = await lintFiles(['.'], {
      cwd: root,
      configFor: (file) => resolver.forFile(file),
      jobs: 1,
    });
    expect(
      result.files.map((f) => [f.file, f.findings.map((x) => `${x.ruleId}:${x.severity}`)]),
    ).toEqual([
      ['hard.json', ['empty-message:error']],
      ['soft/w.json', []],
    ]);
  });
});
