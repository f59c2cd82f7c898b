// The CLI and the library as shipped: tsc's output in dist/ bundled into dist/bundle/ for
// start-up (the library's types stay tsc's, dist/index.d.ts). Node loads one ESM module per
// file, and a lint run would load about 130 of them, in the main thread and again in every
// worker thread; `import { sanitizeHistory } from 'histlint'` about 190 (for a serverless
// cold start). The bundle makes them a handful. Entry points: main.js (bin/histlint.js),
// worker.js (the lint pool's threads) and index.js (package.json `exports`); one build, so the
// library's lazily loaded CLI is main.js's own code and a class is one object for both. Code
// only some uses need (agent runs, convert, the tokenizer) stays in chunks loaded on demand.
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = `${root}dist/bundle`;
// The packages every command loads at start-up are bundled in: each would otherwise cost its own
// module resolution (package.json lookups, exports maps) and, for CommonJS, a source scan for its
// exports (--version: about 10 ms less). The rest stay external, loaded only by the commands
// that use them (the agent's SDKs, the tokenizer, zod, fast-glob, ajv's runtime helpers). A folder
// walk reads ignore files (ignore), error messages suggest names (fastest-levenshtein) and lint
// prints patches (diff) in every file command, so those are bundled too.
const BUNDLED = ['commander', 'chalk', 'picomatch', 'ignore', 'diff', 'fastest-levenshtein'];
const { dependencies } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const external = Object.keys(dependencies).filter((name) => !BUNDLED.includes(name));
/**
 * chalk imports `node:process` as an ES module, and node builds that module's exports by reading
 * every property of `process`, `stdin` included: standard input was opened (about 3 ms) by every
 * command. Bundled code gets the global `process` object instead, which is the same object.
 */
const processGlobal = {
  name: 'process-global',
  setup(b) {
    // Only ES imports: a require() (commander's) gets the object itself already.
    b.onResolve({ filter: /^(node:)?process$/ }, (args) =>
      args.kind === 'import-statement' ? { path: 'process', namespace: 'global' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'global' }, () => ({
      contents: 'export default globalThis.process;',
      loader: 'js',
    }));
  },
};
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: 'dist/cli/main.js', worker: 'dist/lint/worker.js', index: 'dist/index.js' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: [...external, ...external.map((name) => `${name}/*`)],
  // commander and picomatch are CommonJS and require node's own modules.
  banner: {
    js: "import { createRequire as histlintRequire } from 'node:module'; const require = histlintRequire(import.meta.url);",
  },
  plugins: [processGlobal],
  logLevel: 'warning',
});

// The bundled packages' licenses travel with their code.
const licenses = BUNDLED.map((name) => {
  const dir = `${root}node_modules/${name}`;
  const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  if (file === undefined) throw new Error(`${name}: no license file to ship with the bundle`);
  const { version } = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));
  return `${name} ${version}\n\n${readFileSync(`${dir}/${file}`, 'utf8').trim()}\n`;
});
writeFileSync(
  `${outdir}/THIRD-PARTY-LICENSES.txt`,
  `dist/bundle/ includes the code of these packages, under these licenses.\n\n${licenses.join('\n---\n\n')}`,
);
