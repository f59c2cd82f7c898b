/**
 * The package as a user gets it: `npm pack` of this checkout (built by `npm run test:packaging`
 * first), installed into an empty project with install scripts refused, then used as a user
 * would: `npx histlint`, an ES module import and a CommonJS require.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROOT,
  actionScript,
  childEnv,
  mustRun,
  removeDir,
  run,
  runActionScript,
  tempDir,
} from './helpers.js';

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

/** What a user's script feeds sanitizeHistory: a system prompt and a local file as an image. */
const HISTORY = [
  { role: 'system', parts: [{ type: 'text', text: 'be terse' }] },
  {
    role: 'user',
    parts: [
      { type: 'text', text: 'what is in it?' },
      { type: 'image', url: 'file:///etc/passwd' },
    ],
  },
  { role: 'assistant', parts: [{ type: 'text', text: 'nothing I can see' }] },
];

const SANITIZED = {
  messages: [
    { role: 'user', parts: [{ type: 'text', text: 'what is in it?' }] },
    { role: 'assistant', parts: [{ type: 'text', text: 'nothing I can see' }] },
  ],
  report: {
    systemPrompts: 1,
    systemMessages: [{ messageIndex: 0, role: 'system' }],
    unsafeParts: [{ messageIndex: 1, partIndex: 1, kind: 'image', scheme: 'file' }],
    removedMessages: [],
    droppedCalls: [],
    serverReferences: [],
    repair: { synthesized: [], dropped: [], truncated: [], moved: [] },
  },
  changed: true,
};

/** Every file under `dir` (relative, `/` separators). */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    );
}

describe('the package a user installs', () => {
  let tmp = '';
  let tarball = '';
  let shipped: string[] = [];
  let app = '';
  const env = childEnv();

  beforeAll(() => {
    if (!existsSync(path.join(ROOT, 'dist/bundle/main.js'))) {
      throw new Error('dist/ is not built: run the suite with `npm run test:packaging`');
    }
    tmp = tempDir('pack');
    app = path.join(tmp, 'app');
    // The suite's script has just built dist/; packing must not build it again.
    const packed = mustRun(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp],
      { cwd: ROOT, env },
    );
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    tarball = path.join(tmp, info!.filename);
    shipped = info!.files.map((f) => f.path).sort();
  });
  afterAll(() => removeDir(tmp));

  it('ships bin, dist without maps, schemas, docs and the top-level documents, nothing else', () => {
    const allowed = [
      /^(package\.json|README\.md|LICENSE|SECURITY\.md|BENCHMARKS\.md)$/,
      /^bin\/histlint\.js$/,
      /^dist\/.+\.(js|d\.ts)$/,
      /^dist\/bundle\/THIRD-PARTY-LICENSES\.txt$/,
      /^schemas\/[\w.-]+\.json$/,
      /^docs\/.+\.md$/,
    ];
    expect(shipped.filter((file) => !allowed.some((re) => re.test(file)))).toEqual([]);
    expect(shipped.filter((file) => /\.map$|\.test\.|(^|\/)__/.test(file))).toEqual([]);

    for (const file of [
      'package.json',
      'README.md',
      'LICENSE',
      'SECURITY.md',
      'BENCHMARKS.md',
      'bin/histlint.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/bundle/main.js',
      'dist/bundle/worker.js',
      'dist/lint/worker.js',
      ...filesUnder('schemas'),
      ...filesUnder('docs'),
    ]) {
      expect(shipped).toContain(file);
    }

    // dist/ outside the bundle is tsc's output, one .js and one .d.ts per source file: a file
    // left there by an older build, whose source is gone, would ship too.
    const compiled = shipped.filter(
      (file) => file.startsWith('dist/') && !/^dist\/bundle\//.test(file),
    );
    const sources = filesUnder('src')
      .filter((file) => file.endsWith('.ts'))
      .map((file) => file.slice('src/'.length, -'.ts'.length));
    const expected = sources.flatMap((name) => [`dist/${name}.js`, `dist/${name}.d.ts`]).sort();
    expect(compiled).toEqual(expected);
  });

  it('installs into an empty project with install scripts refused', () => {
    mkdirSync(app);
    writeFileSync(
      path.join(app, 'package.json'),
      `${JSON.stringify({ name: 'histlint-user', version: '1.0.0', private: true }, null, 2)}\n`,
    );
    mustRun(
      'npm',
      ['install', tarball, '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
      { cwd: app, env },
    );
    const installed = JSON.parse(
      readFileSync(path.join(app, 'node_modules', pkg.name, 'package.json'), 'utf8'),
    ) as { version: string };
    expect(installed.version).toBe(pkg.version);
  });

  // `--no`: never fetch histlint from the registry when the installed one is missing; `--`: the
  // options after it are histlint's, not npx's.
  it('runs npx histlint --version', () => {
    const ran = mustRun('npx', ['--no', '--', 'histlint', '--version'], { cwd: app, env });
    expect(ran.stdout.trim()).toBe(pkg.version);
  });

  it('runs npx histlint lint on an example, on worker threads too', () => {
    copyFileSync(
      path.join(ROOT, 'fixtures/examples/interrupted-run.json'),
      path.join(app, 'interrupted-run.json'),
    );
    writeFileSync(
      path.join(app, 'clean.json'),
      JSON.stringify({ version: 1, messages: SANITIZED.messages }),
    );
    const ran = run(
      'npx',
      ['--no', '--', 'histlint', 'lint', '--jobs', '2', 'interrupted-run.json', 'clean.json'],
      { cwd: app, env },
    );
    expect(ran.status, ran.stderr).toBe(1);
    for (const id of ['dangling-tool-call', 'orphan-tool-result', 'truncated-arguments']) {
      expect(ran.stdout).toContain(id);
    }
    expect(ran.stdout).not.toContain('clean.json');
  });

  it('imports the library from an ES module', () => {
    writeFileSync(
      path.join(app, 'sanitize.mjs'),
      [
        "import { sanitizeHistory } from 'histlint';",
        `const history = ${JSON.stringify(HISTORY)};`,
        'console.log(JSON.stringify(sanitizeHistory(history)));',
        '',
      ].join('\n'),
    );
    const ran = mustRun(process.execPath, ['sanitize.mjs'], { cwd: app, env });
    expect(JSON.parse(ran.stdout)).toEqual(SANITIZED);
    expect(ran.stderr).toBe('');
  });

  it('requires the library from CommonJS', () => {
    writeFileSync(
      path.join(app, 'sanitize.cjs'),
      [
        "const { sanitizeHistory } = require('histlint');",
        `const history = ${JSON.stringify(HISTORY)};`,
        'console.log(JSON.stringify(sanitizeHistory(history)));',
        '',
      ].join('\n'),
    );
    const ran = mustRun(process.execPath, ['sanitize.cjs'], { cwd: app, env });
    expect(JSON.parse(ran.stdout)).toEqual(SANITIZED);
    // Node ≥ 20.19 loads an ES module through require() without a warning.
    expect(ran.stderr).toBe('');
  });

  it("installs through the action's Install step when version names a package", () => {
    // `histlint@file:<tarball>` stands for `histlint@<version>` from the registry.
    const runnerTemp = path.join(tmp, 'runner-temp');
    const githubPath = path.join(tmp, 'github-path');
    mkdirSync(runnerTemp);
    writeFileSync(githubPath, '');
    runActionScript(actionScript('Install histlint'), tmp, {
      HISTLINT_VERSION: `file:${tarball}`,
      GITHUB_PATH: githubPath,
      RUNNER_TEMP: runnerTemp,
      npm_config_prefer_offline: 'true',
    });
    const bin = readFileSync(githubPath, 'utf8').trim();
    const ran = mustRun(path.join(bin, 'histlint'), ['--version'], { cwd: tmp });
    expect(ran.stdout.trim()).toBe(pkg.version);
  });
});
