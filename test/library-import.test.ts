/**
 * `import { sanitizeHistory, normalizeHistory } from 'histlint'` (the built package entry, as a
 * serverless function loads it) loads none of the heavy code: no SDK, tokenizer, zod, commander
 * or CLI. A child node records every module URL its ES module loader loads (a `load` hook from
 * node:module `register`); for a file of the bundle (dist/bundle/), the source modules whose code
 * it holds are read from esbuild's `// <path>` comments, so code bundled in counts as loaded too.
 * The heavy exports still work when used: they load then.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

/** Packages that must not load with the history operations. */
const HEAVY_PACKAGES = [
  'zod',
  'commander',
  'chalk',
  '@anthropic-ai/sdk',
  'openai',
  '@modelcontextprotocol/sdk',
  'gpt-tokenizer',
];

/** Source folders (tsc's output in dist/) that must not load with the history operations. */
const HEAVY_SOURCES = ['dist/cli/', 'dist/agent/', 'dist/lint/files.js', 'dist/lint/pool.js'];

/**
 * The agent's files that the entry may load: the checks of `createAgent` and `createModel`, the
 * error classes, the history processors. The run loop, the provider clients and the MCP client
 * (every other file of dist/agent/) load on the first run, request or connection.
 */
const AGENT_LIGHT = new Set(
  ['agent.js', 'errors.js', 'history.js', 'providers.js', 'types.js'].map((f) => `dist/agent/${f}`),
);

/**
 * What still loads although it is listed above, and why; an entry goes when its cause is fixed.
 * - chalk: the `stylish` reporter imports it at load (src/reporters/stylish.ts), and `REPORTERS`
 *   is a value the entry exports, so its module is evaluated with the entry.
 */
const STILL_LOADED = new Set(['chalk']);

/** The hook module: appends every URL the loader loads to the file it is given, one a line. */
const HOOKS = `
import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function load(url, context, next) {
  appendFileSync(file, url + '\\n');
  return next(url, context);
}
`;

/** The --import module that registers the hooks, with the record file from the environment. */
const REGISTER = `
import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)}, {
  data: { file: process.env.HISTLINT_LOAD_RECORD },
});
`;

const HISTORY = [
  { role: 'system', parts: [{ type: 'text', text: 'be terse' }] },
  { role: 'user', parts: [{ type: 'text', text: 'weather?' }] },
  { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'weather', arguments: '{}' }] },
];

let tmp = '';

/** Runs `code` (an ES module) in a child node at the project's root; its stdout and the URLs it loaded. */
function runRecorded(code: string, name: string): { stdout: string; urls: string[] } {
  const record = path.join(tmp, `${name}.txt`);
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(REGISTER)}`,
      '--input-type=module',
      '-e',
      code,
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, HISTLINT_LOAD_RECORD: record, NODE_OPTIONS: '' },
    },
  );
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  const urls = existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : [];
  return { stdout: r.stdout, urls };
}

/** The package a node_modules path belongs to (`@scope/name` or `name`). */
function packageOf(file: string): string | undefined {
  const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  return m?.[1];
}

/**
 * What the loaded URLs hold: each package, and each tsc output file (relative to the root),
 * those a bundle file holds included (esbuild starts each module's code with `// <path>`).
 */
function loadedCode(urls: readonly string[]): { packages: Set<string>; sources: Set<string> } {
  const packages = new Set<string>();
  const sources = new Set<string>();
  const add = (file: string): void => {
    const pkg = packageOf(file);
    if (pkg !== undefined) packages.add(pkg);
    else sources.add(file);
  };
  for (const url of urls) {
    if (!url.startsWith('file:')) continue;
    const file = path.relative(ROOT, fileURLToPath(url)).split(path.sep).join('/');
    add(file);
    if (file.startsWith('dist/bundle/')) {
      for (const m of readFileSync(path.join(ROOT, file), 'utf8').matchAll(
        /^\/\/ (\S+\.[cm]?js)$/gm,
      )) {
        add(m[1]!);
      }
    }
  }
  return { packages, sources };
}

/** The heavy packages and source folders among the loaded code, less those known to load. */
function heavyLoaded(urls: readonly string[]): string[] {
  const { packages, sources } = loadedCode(urls);
  const found = [
    ...HEAVY_PACKAGES.filter((p) => packages.has(p)),
    ...HEAVY_SOURCES.filter((dir) =>
      [...sources].some((s) => s.startsWith(dir) && !AGENT_LIGHT.has(s)),
    ),
  ];
  return found.filter((what) => !STILL_LOADED.has(what));
}

beforeAll(() => {
  if (!existsSync(path.join(ROOT, 'dist/bundle/index.js'))) {
    throw new Error('dist/ is not built: run `npm run build` first (`npm test` does)');
  }
  tmp = mkdtempSync(path.join(tmpdir(), 'histlint-import-'));
});
afterAll(() => {
  if (tmp !== '') rmSync(tmp, { recursive: true, force: true });
});

describe("import { sanitizeHistory, normalizeHistory } from 'histlint'", () => {
  let run: { stdout: string; urls: string[] };
  beforeAll(() => {
    run = runRecorded(
      [
        "const { sanitizeHistory, normalizeHistory } = await import('histlint');",
        `const history = ${JSON.stringify(HISTORY)};`,
        'const s = sanitizeHistory(history);',
        'const n = normalizeHistory(history);',
        'console.log(JSON.stringify({ s: s.messages.length, sp: s.report.systemPrompts, n: n.messages.length }));',
      ].join('\n'),
      'light',
    );
  });

  it('loads the package entry, as package.json exports it', () => {
    const entry = pathToFileURL(path.join(ROOT, 'dist/bundle/index.js')).href;
    expect(run.urls).toContain(entry);
  });

  it('loads no SDK, tokenizer, zod, commander or CLI', () => {
    expect(run.urls.length).toBeGreaterThan(0);
    expect(heavyLoaded(run.urls)).toEqual([]);
  });

  it('works: the system prompt dropped, the dangling call answered', () => {
    // sanitize: user + assistant call + synthesized result; normalize keeps the system prompt.
    expect(JSON.parse(run.stdout)).toEqual({ s: 3, sp: 1, n: 4 });
  });
});

describe('the check of what loads', () => {
  it('sees bundled code and packages that the heavy exports load when used', () => {
    const used = runRecorded(
      [
        "const h = await import('histlint');",
        'let out = "";',
        'const stream = { write: (s) => { out += s; return true; } };',
        "const code = await h.main({ argv: ['--version'], stdin: (async function* () {})(), stdout: stream, stderr: stream, cwd: process.cwd(), env: {} });",
        'console.log(JSON.stringify({ code, out }));',
      ].join('\n'),
      'cli',
    );
    const { packages, sources } = loadedCode(used.urls);
    expect(packages.has('commander')).toBe(true);
    expect([...sources].some((s) => s.startsWith('dist/cli/'))).toBe(true);
    expect(heavyLoaded(used.urls)).toContain('commander');
  });
});

describe('the exports that load on first use still work', () => {
  it('main runs the CLI with a small Io', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const r = runRecorded(
      [
        "const { main } = await import('histlint');",
        'let out = "";',
        'const stream = { write: (s) => { out += s; return true; } };',
        "const code = await main({ argv: ['--version'], stdin: (async function* () {})(), stdout: stream, stderr: stream, cwd: process.cwd(), env: {} });",
        'console.log(JSON.stringify({ code, out }));',
      ].join('\n'),
      'main',
    );
    expect(JSON.parse(r.stdout)).toEqual({ code: 0, out: `${pkg.version}\n` });
  });

  it('lintFiles lints a text and a file, loading the walk and the pool on its first call', () => {
    const file = path.join(tmp, 'dangling.json');
    writeFileSync(file, JSON.stringify({ version: 1, messages: HISTORY }));
    const r = runRecorded(
      [
        "const { lintFiles } = await import('histlint');",
        `const result = await lintFiles([${JSON.stringify(file)}, { path: 'empty.json', text: '{"version":1,"messages":[]}' }], { jobs: 1 });`,
        'console.log(JSON.stringify(result.files.map((f) => [f.file.split("/").pop(), f.findings.map((x) => x.ruleId)])));',
      ].join('\n'),
      'files',
    );
    const files = JSON.parse(r.stdout) as [string, string[]][];
    expect(files.map(([name]) => name)).toEqual(['dangling.json', 'empty.json']);
    expect(files[0]![1]).toContain('dangling-tool-call');
    expect(files[1]![1]).toEqual([]);
    expect(loadedCode(r.urls).sources.has('dist/lint/files.js')).toBe(true);
  });

  it("the zod schemas parse and compose with the caller's zod", () => {
    const r = runRecorded(
      [
        "const h = await import('histlint');",
        "const ok = h.ConversationSchema.safeParse({ version: 1, messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }] }).success;",
        "const bad = h.MessageSchema.safeParse({ role: 'user', parts: [{ type: 'image' }] }).success;",
        "const part = h.PartSchema.parse({ type: 'text', text: 'x' });",
        "const { z } = await import('zod');",
        // A schema of the caller's own zod holding histlint's: the same zod module instance.
        'const list = z.array(h.EnvelopeSchema).safeParse([{ version: 1, messages: [] }]).success;',
        'const isZod = h.ConversationSchema instanceof z.ZodType;',
        'const keys = Object.keys(h.EnvelopeSchema.shape).sort();',
        'console.log(JSON.stringify({ ok, bad, part, list, isZod, keys }));',
      ].join('\n'),
      'schemas',
    );
    expect(JSON.parse(r.stdout)).toEqual({
      ok: true,
      bad: false,
      part: { type: 'text', text: 'x' },
      list: true,
      isZod: true,
      keys: ['messages', 'version'],
    });
  });

  it('the agent exports are there: createAgent builds an agent, errors are its classes', () => {
    const r = runRecorded(
      [
        "const h = await import('histlint');",
        "const model = { provider: 'test', model: 'm', request: async () => { throw new Error('unused'); } };",
        'const agent = h.createAgent({ model });',
        'let error;',
        'try { h.createAgent({ model, maxSteps: 0 }); } catch (e) { error = e; }',
        'console.log(JSON.stringify({ run: typeof agent.run, config: error instanceof h.AgentConfigError, mcp: typeof h.connectMcpServers }));',
      ].join('\n'),
      'agent',
    );
    expect(JSON.parse(r.stdout)).toEqual({ run: 'function', config: true, mcp: 'function' });
  });

  it('an agent run loads the run loop on its first run, and answers', () => {
    const r = runRecorded(
      [
        "const h = await import('histlint');",
        'const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };',
        "const reply = { role: 'assistant', parts: [{ type: 'text', text: 'sunny' }] };",
        "const model = { provider: 'test', model: 'm', request: async () => ({ message: reply, usage }) };",
        "const result = await h.createAgent({ model }).run([], 'weather?');",
        'console.log(JSON.stringify({ text: result.text, requests: result.requests }));',
      ].join('\n'),
      'agent-run',
    );
    expect(JSON.parse(r.stdout)).toEqual({ text: 'sunny', requests: 1 });
    expect(loadedCode(r.urls).sources.has('dist/agent/run.js')).toBe(true);
  });

  it("createModel's client loads the provider's client on its first request", () => {
    const body = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
    const r = runRecorded(
      [
        "const http = await import('node:http');",
        `const server = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end(${JSON.stringify(JSON.stringify(body))}); }); });`,
        "await new Promise((ok) => server.listen(0, '127.0.0.1', ok));",
        "const h = await import('histlint');",
        "const env = { OPENAI_API_KEY: 'sk-test-0123456789', OPENAI_BASE_URL: `http://127.0.0.1:${server.address().port}/v1` };",
        "const model = h.createModel({ provider: 'openai', model: 'm', env, maxRetries: 0 });",
        'const before = [model.provider, model.model];',
        "const answer = await model.request({ instructions: '', tools: [], messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }] });",
        'server.close();',
        'console.log(JSON.stringify({ before, text: answer.message.parts[0].text }));',
      ].join('\n'),
      'model',
    );
    expect(JSON.parse(r.stdout)).toEqual({ before: ['openai', 'm'], text: 'hi' });
    const { sources, packages } = loadedCode(r.urls);
    expect(sources.has('dist/agent/openai.js')).toBe(true);
    expect(packages.has('openai')).toBe(true);
  });
});
