/**
 * The build must not need an install script of a dependency (esbuild has a postinstall): npm
 * may be set to refuse them, and the GitHub Action refuses them on purpose. The action's own
 * Install step runs here on a copy of the working tree, as it runs on a runner when the action
 * is used at a ref: `npm ci --ignore-scripts`, `npm run build`, then a `histlint` on PATH.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROOT,
  actionScript,
  copyWorkingTree,
  mustRun,
  removeDir,
  runActionScript,
  tempDir,
} from './helpers.js';

const install = actionScript('Install histlint');
const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
};

describe('a build with install scripts refused', () => {
  let tmp = '';
  let checkout = '';
  let runnerTemp = '';

  beforeAll(() => {
    tmp = tempDir('no-scripts');
    checkout = path.join(tmp, 'checkout');
    runnerTemp = path.join(tmp, 'runner-temp');
    mkdirSync(checkout);
    mkdirSync(runnerTemp);
    copyWorkingTree(checkout);
  });
  afterAll(() => removeDir(tmp));

  it("is what the action's Install step does for its own ref", () => {
    expect(install).toMatch(/npm ci --ignore-scripts\b/);
    expect(install).toMatch(/npm run build\b/);
  });

  it('installs with npm ci --ignore-scripts, builds dist/ and puts histlint on PATH', () => {
    const githubPath = path.join(tmp, 'github-path');
    writeFileSync(githubPath, '');
    runActionScript(install, tmp, {
      HISTLINT_VERSION: '',
      GITHUB_ACTION_PATH: checkout,
      GITHUB_PATH: githubPath,
      RUNNER_TEMP: runnerTemp,
      // As where npm is set to refuse scripts: `npm run build` still runs, named explicitly.
      npm_config_ignore_scripts: 'true',
      // The packages are in the cache since this checkout's own npm ci.
      npm_config_prefer_offline: 'true',
    });
    for (const file of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/lint/worker.js',
      'dist/bundle/main.js',
      'dist/bundle/worker.js',
      'dist/bundle/THIRD-PARTY-LICENSES.txt',
    ]) {
      expect(existsSync(path.join(checkout, file)), file).toBe(true);
    }
    const bin = readFileSync(githubPath, 'utf8').trim();
    expect(bin).toBe(path.join(runnerTemp, 'histlint-bin'));
    const ran = mustRun(path.join(bin, 'histlint'), ['--version'], { cwd: tmp });
    expect(ran.stdout.trim()).toBe(version);
  });
});
