// `lint` against a second `lint --cache` over a folder of small clean v1 conversations (after
// `npm run build`). BENCH_CACHE_FILES (default 2000) files, BENCH_CACHE_ROUNDS (default 7)
// interleaved rounds; prints the median wall time of each, and of `--version` (start-up).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/histlint.js', import.meta.url));
const FILES = Number(process.env.BENCH_CACHE_FILES ?? 2000);
const ROUNDS = Number(process.env.BENCH_CACHE_ROUNDS ?? 7);

function conversation(i) {
  const messages = [];
  for (let t = 0; t < 4; t++) {
    const id = `call_${t}`;
    messages.push(
      { role: 'user', parts: [{ type: 'text', text: `Question ${t} of conversation ${i}?` }] },
      {
        role: 'assistant',
        parts: [{ type: 'tool-call', id, name: 'weather', arguments: `{"day":${t}}` }],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool-result', callId: id, content: [{ type: 'text', text: `${t} C` }] }],
      },
      { role: 'assistant', parts: [{ type: 'text', text: `It is ${t} C.` }] },
    );
  }
  return `${JSON.stringify({ version: 1, messages }, null, 2)}\n`;
}

const work = mkdtempSync(path.join(tmpdir(), 'histlint-bench-cache-'));
try {
  mkdirSync(path.join(work, 'convs'));
  for (let i = 0; i < FILES; i++) {
    writeFileSync(path.join(work, 'convs', `c${String(i).padStart(5, '0')}.json`), conversation(i));
  }
  const time = (args) => {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: work, stdio: 'ignore' });
    if (r.status !== 0 && args[0] === 'lint')
      throw new Error(`${args.join(' ')}: exit ${r.status}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  time(['lint', '--cache', 'convs']);
  const runs = { version: [], lint: [], cached: [] };
  for (let k = 0; k < ROUNDS; k++) {
    runs.version.push(time(['--version']));
    runs.lint.push(time(['lint', 'convs']));
    runs.cached.push(time(['lint', '--cache', 'convs']));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [name, xs] of Object.entries(runs)) {
    console.log(
      `${name.padEnd(8)} median ${median(xs).toFixed(0)} ms  (${xs.map((x) => x.toFixed(0)).join(' ')})`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
