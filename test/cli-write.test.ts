/**
 * How the CLI writes files (SPEC §5.1, §5.2): atomically through a temp file
 * of a recognizable name, clearing only its own stale temps, through
 * symlinks, keeping the file mode, and not at all once interrupted.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  createReadStream,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempNameFor } from '../src/cli/safe-write.js';
import { runCli, spawnCli } from './helpers/cli.js';

const DANGLING = {
  version: 1,
  messages: [
    { role: 'user', parts: [{ type: 'text', text: 'Weather in Lisbon?' }] },
    {
      role: 'assistant',
      parts: [
        { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Lisbon"}' },
      ],
    },
  ],
};
const REPAIRED = {
  version: 1,
  messages: [
    ...DANGLING.messages,
    {
      role: 'tool',
      parts: [
        {
          type: 'tool-result',
          callId: 'call_1',
          name: 'get_weather',
          content: [{ type: 'text', text: 'interrupted before execution; no result was produced' }],
        },
      ],
    },
  ],
};
/** The input as stored: one line, so any rewrite changes its bytes. */
const DANGLING_TEXT = JSON.stringify(DANGLING) + '\n';
/** What normalize writes for it: 2-space indent and a final newline. */
const REPAIRED_TEXT = JSON.stringify(REPAIRED, null, 2) + '\n';

/** A pid no process has: far above Linux's largest pid_max (2^22) and any other system's. */
const DEAD_PID = 2 ** 30 + 7;
const DEAD36 = DEAD_PID.toString(36);
const LIVE36 = process.pid.toString(36);

/** A histlint temp name, as SPEC §5.1 describes it and io.ts makes it. */
function tempPattern(name: string, pid36 = '[0-9a-z]+'): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\.${escaped}\\.histlint-${pid36}-[0-9a-f]{12}\\.tmp$`);
}

let work: string;
let counter = 0;
beforeAll(() => {
  work = realpathSync(mkdtempSync(path.join(tmpdir(), 'histlint-cli-write-')));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A fresh folder holding the given files. */
function folder(files: Record<string, string> = {}): string {
  const dir = path.join(work, `case-${++counter}`);
  mkdirSync(dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

function read(dir: string, rel: string): string {
  return readFileSync(path.join(dir, rel), 'utf8');
}

function tempsIn(dir: string): string[] {
  return readdirSync(dir).filter((n) => /\.histlint-.*\.tmp$/.test(n));
}

describe('temp files', () => {
  it('are named .<name>.histlint-<pid in base 36>-<12 hex>.tmp beside the target', () => {
    const target = path.join(work, 'sub', 'history.json');
    const temp = tempNameFor(target);
    expect(path.dirname(temp)).toBe(path.dirname(target));
    expect(path.basename(temp)).toMatch(tempPattern('history.json', LIVE36));
    expect(tempNameFor(target)).not.toBe(temp);
  });

  it('are what --write writes through, and none is left behind', async () => {
    const dir = folder({ 'history.json': DANGLING_TEXT });
    const seen = new Set<string>();
    const watcher = watch(dir, (_event, name) => {
      if (name !== null) seen.add(name.toString());
    });
    try {
      const result = await runCli(['normalize', '--write', 'history.json'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      // Watch events arrive asynchronously; give the last ones a moment.
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      watcher.close();
    }
    expect(read(dir, 'history.json')).toBe(REPAIRED_TEXT);
    // Beside the temp file, the lock held from the read to the rename; neither is left.
    const temps = [...seen].filter(
      (n) => n !== 'history.json' && n !== '.history.json.histlint.lock',
    );
    expect(temps.length, `names seen: ${[...seen]}`).toBeGreaterThan(0);
    for (const name of temps) expect(name).toMatch(tempPattern('history.json', LIVE36));
    expect(seen.has('.history.json.histlint.lock'), `names seen: ${[...seen]}`).toBe(true);
    expect(tempsIn(dir)).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['history.json']);
  });

  it('of a dead process are cleared by the next --write in that folder; nothing else is', async () => {
    expect(() => process.kill(DEAD_PID, 0)).toThrow();
    const stale = [
      `.history.json.histlint-${DEAD36}-0123456789ab.tmp`,
      `.other.json.histlint-${DEAD36}-abcdef012345.tmp`,
    ];
    const kept = [
      // A run still alive: this very process.
      `.history.json.histlint-${LIVE36}-0123456789ab.tmp`,
      // A user's files that only look similar.
      '.history.json.histlint-backup.tmp',
      `history.json.histlint-${DEAD36}-0123456789ab.tmp`,
      `.history.json.histlint-${DEAD36}-0123456789AB.tmp`,
      `.history.json.histlint-${DEAD36}-0123456789a.tmp`,
      `.history.json.histlint-${DEAD36}-0123456789ab.tmp.bak`,
      `.history.json.histlint-${DEAD36}-0123456789ab.tmp~`,
      `.history.json.histlint_${DEAD36}-0123456789ab.tmp`,
    ];
    const files: Record<string, string> = { 'history.json': DANGLING_TEXT };
    for (const name of [...stale, ...kept]) files[name] = `left by someone: ${name}\n`;
    const dir = folder(files);
    // A folder of the pattern is not a temp file either.
    const dirLike = `.notes.json.histlint-${DEAD36}-0123456789ab.tmp`;
    mkdirSync(path.join(dir, dirLike));

    const result = await runCli(['normalize', '--write', 'history.json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(read(dir, 'history.json')).toBe(REPAIRED_TEXT);
    for (const name of stale) expect(existsSync(path.join(dir, name)), name).toBe(false);
    for (const name of kept) {
      expect(existsSync(path.join(dir, name)), name).toBe(true);
      expect(read(dir, name)).toBe(`left by someone: ${name}\n`);
    }
    expect(statSync(path.join(dir, dirLike)).isDirectory()).toBe(true);
  });

  it('of a live process (the test, seen from a spawned run) are kept', async () => {
    const live = `.history.json.histlint-${LIVE36}-0123456789ab.tmp`;
    const dead = `.history.json.histlint-${DEAD36}-0123456789ab.tmp`;
    const dir = folder({ 'history.json': DANGLING_TEXT, [live]: 'live\n', [dead]: 'dead\n' });
    const result = await spawnCli(['normalize', '--write', 'history.json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(read(dir, 'history.json')).toBe(REPAIRED_TEXT);
    expect(read(dir, live)).toBe('live\n');
    expect(existsSync(path.join(dir, dead))).toBe(false);
  });
});

describe('--write', () => {
  it('writes through a symlink to its target and keeps the link', async () => {
    const dir = folder({ 'store/history.json': DANGLING_TEXT });
    symlinkSync(path.join('store', 'history.json'), path.join(dir, 'link.json'));
    const result = await runCli(['normalize', '--write', 'link.json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(lstatSync(path.join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(dir, 'link.json'))).toBe(path.join('store', 'history.json'));
    expect(read(dir, 'store/history.json')).toBe(REPAIRED_TEXT);
    expect(tempsIn(dir)).toEqual([]);
    expect(tempsIn(path.join(dir, 'store'))).toEqual([]);
  });

  it('through a symlink keeps the target mode', async () => {
    const dir = folder({ 'store/history.json': DANGLING_TEXT });
    chmodSync(path.join(dir, 'store/history.json'), 0o640);
    symlinkSync(path.join('store', 'history.json'), path.join(dir, 'link.json'));
    const result = await runCli(['normalize', '--write', 'link.json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(statSync(path.join(dir, 'store/history.json')).mode & 0o7777).toBe(0o640);
  });

  for (const mode of [0o600, 0o640, 0o755]) {
    it(`keeps the file mode ${mode.toString(8)}`, async () => {
      const dir = folder({ 'history.json': DANGLING_TEXT });
      chmodSync(path.join(dir, 'history.json'), mode);
      const result = await runCli(['normalize', '--write', 'history.json'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(read(dir, 'history.json')).toBe(REPAIRED_TEXT);
      expect(statSync(path.join(dir, 'history.json')).mode & 0o7777).toBe(mode);
    });
  }

  it('keeps the file mode in a spawned run too', async () => {
    const dir = folder({ 'history.json': DANGLING_TEXT });
    chmodSync(path.join(dir, 'history.json'), 0o600);
    const result = await spawnCli(['normalize', '--write', 'history.json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(read(dir, 'history.json')).toBe(REPAIRED_TEXT);
    expect(statSync(path.join(dir, 'history.json')).mode & 0o7777).toBe(0o600);
  });
});

describe('an interrupt', () => {
  const OLD = new Date('2001-02-03T04:05:06Z');

  function aborted(): AbortSignal {
    const controller = new AbortController();
    controller.abort();
    return controller.signal;
  }

  /** Two inputs that both need a change, with an old mtime so a rewrite would show. */
  function inputs(): string {
    const dir = folder({ 'a.json': DANGLING_TEXT, 'sub/b.json': DANGLING_TEXT });
    for (const rel of ['a.json', 'sub/b.json']) utimesSync(path.join(dir, rel), OLD, OLD);
    return dir;
  }

  function expectUntouched(dir: string): void {
    for (const rel of ['a.json', 'sub/b.json']) {
      expect(read(dir, rel), rel).toBe(DANGLING_TEXT);
      expect(statSync(path.join(dir, rel)).mtimeMs, rel).toBe(OLD.getTime());
    }
    expect(tempsIn(dir)).toEqual([]);
    expect(tempsIn(path.join(dir, 'sub'))).toEqual([]);
  }

  it('before the first file exits 130 with nothing written (--write)', async () => {
    const dir = inputs();
    const result = await runCli(['normalize', '--write', 'a.json', 'sub/b.json'], {
      cwd: dir,
      signal: aborted(),
    });
    expect(result.code, result.stderr).toBe(130);
    expect(result.stdout).toBe('');
    expectUntouched(dir);
  });

  it('exits 130 with nothing written (--out-dir)', async () => {
    const dir = inputs();
    const result = await runCli(['normalize', '--out-dir', 'out', 'a.json', 'sub/b.json'], {
      cwd: dir,
      signal: aborted(),
    });
    expect(result.code, result.stderr).toBe(130);
    expect(existsSync(path.join(dir, 'out', 'a.json'))).toBe(false);
    expect(existsSync(path.join(dir, 'out', 'sub', 'b.json'))).toBe(false);
    expectUntouched(dir);
  });

  it('exits 130 with nothing written (-o) and nothing on standard output', async () => {
    const dir = inputs();
    const result = await runCli(['normalize', 'a.json', '-o', 'out.json'], {
      cwd: dir,
      signal: aborted(),
    });
    expect(result.code, result.stderr).toBe(130);
    expect(existsSync(path.join(dir, 'out.json'))).toBe(false);
    const toStdout = await runCli(['normalize', 'a.json'], { cwd: dir, signal: aborted() });
    expect(toStdout.code).toBe(130);
    expect(toStdout.stdout).toBe('');
    expectUntouched(dir);
  });

  it('exits 130 under --check too', async () => {
    const dir = inputs();
    const result = await runCli(['normalize', '--check', 'a.json', 'sub/b.json'], {
      cwd: dir,
      signal: aborted(),
    });
    expect(result.code, result.stderr).toBe(130);
    expectUntouched(dir);
  });
});

describe('an output file that cannot be written', () => {
  // A folder where the report should go: one line naming the file, exit 2, no temp file left.
  it.each([
    [['lint', 'history.json', '--format', 'json', '-o', 'out']],
    [['merge-reports', 'report.json', '-o', 'out']],
    [['normalize', 'history.json', '--report-file', 'out']],
  ])('%j fails in one line naming it', async (argv) => {
    const dir = folder({
      'history.json': DANGLING_TEXT,
      'report.json': JSON.stringify({ files: [], errorCount: 0, warningCount: 0 }),
    });
    mkdirSync(path.join(dir, 'out'));
    const result = await runCli(argv, { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^histlint: error: cannot write out: is a directory, not a file\n$/m,
    );
    expect(result.stderr).not.toMatch(/\.tmp|internal error|EISDIR/);
    expect(tempsIn(dir)).toEqual([]);
  });

  it('-o of normalize reports the file, not the temp file, and the other files still run', async () => {
    const dir = folder({ 'history.json': DANGLING_TEXT });
    mkdirSync(path.join(dir, 'out'));
    const result = await runCli(['normalize', 'history.json', '-o', 'out'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'history.json: error: cannot write: is a directory, not a file',
    );
    expect(result.stderr).not.toMatch(/\.tmp|EISDIR/);
    expect(tempsIn(dir)).toEqual([]);
  });
});

describe('an output file that is a link or not a file', () => {
  it('-o through a symlink writes the file it names and keeps the link', async () => {
    const dir = folder({ 'history.json': DANGLING_TEXT, 'reports/old.json': 'old\n' });
    symlinkSync(path.join('reports', 'old.json'), path.join(dir, 'report.json'));
    for (const argv of [
      ['lint', 'history.json', '--format', 'json', '-o', 'report.json'],
      ['normalize', 'history.json', '-o', 'report.json'],
    ]) {
      const result = await runCli(argv, { cwd: dir });
      expect(result.stderr).not.toContain('cannot write');
      expect(lstatSync(path.join(dir, 'report.json')).isSymbolicLink()).toBe(true);
      expect(read(dir, 'reports/old.json')).not.toBe('old\n');
    }
    expect(read(dir, 'reports/old.json')).toBe(REPAIRED_TEXT);
    expect(tempsIn(dir)).toEqual([]);
  });

  it('-o to a symlink whose file does not exist yet creates that file', async () => {
    const dir = folder({ 'history.json': DANGLING_TEXT });
    mkdirSync(path.join(dir, 'reports'));
    symlinkSync(path.join('reports', 'new.json'), path.join(dir, 'report.json'));
    const result = await runCli(['normalize', 'history.json', '-o', 'report.json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(lstatSync(path.join(dir, 'report.json')).isSymbolicLink()).toBe(true);
    expect(read(dir, 'reports/new.json')).toBe(REPAIRED_TEXT);
  });

  it.skipIf(process.platform === 'win32')(
    '-o to a FIFO writes into it and leaves it a FIFO',
    async () => {
      const dir = folder({ 'history.json': DANGLING_TEXT });
      const fifo = path.join(dir, 'pipe');
      execFileSync('mkfifo', [fifo]);
      const chunks: Buffer[] = [];
      const reader = new Promise<string>((resolve, reject) => {
        createReadStream(fifo)
          .on('data', (c) => chunks.push(c as Buffer))
          .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
          .on('error', reject);
      });
      const result = await runCli(['normalize', 'history.json', '-o', 'pipe'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(await reader).toBe(REPAIRED_TEXT);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
      expect(tempsIn(dir)).toEqual([]);
    },
  );
});

describe('an output that would overwrite an input', () => {
  // SPEC §6: no input changes without --write, whatever flag names it as an output.
  it.each([
    [['normalize', 'history.json', '-o', 'history.json'], '-o history.json'],
    [['normalize', 'history.json', '--out-dir', '.'], '--out-dir . would overwrite the input'],
    [['normalize', 'history.json', '--report-file', 'history.json'], '--report-file history.json'],
    [['sanitize', 'link.json', '-o', 'history.json'], '-o history.json'],
    [['lint', 'history.json', '-o', 'history.json'], '-o history.json'],
    [['merge-reports', 'report.json', '-o', 'report.json'], '-o report.json'],
  ])('%j is refused and the input kept', async (argv, message) => {
    const report = JSON.stringify({ files: [], errorCount: 0, warningCount: 0 });
    const dir = folder({ 'history.json': DANGLING_TEXT, 'report.json': report });
    symlinkSync(path.join(dir, 'history.json'), path.join(dir, 'link.json'));
    const result = await runCli(argv, { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(read(dir, 'history.json')).toBe(DANGLING_TEXT);
    expect(read(dir, 'report.json')).toBe(report);
  });

  it('lint -o naming one of many inputs (a long list is scanned, not indexed) is refused', async () => {
    const files: Record<string, string> = {};
    for (let k = 0; k < 300; k++) files[`data/f${String(k).padStart(3, '0')}.json`] = DANGLING_TEXT;
    const dir = folder(files);
    symlinkSync(path.join(dir, 'data/f123.json'), path.join(dir, 'link.json'));
    for (const target of ['data/f299.json', 'link.json']) {
      const result = await runCli(['lint', 'data', '-o', target], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`-o ${target} is one of the inputs`);
    }
    expect(read(dir, 'data/f299.json')).toBe(DANGLING_TEXT);
    expect(read(dir, 'data/f123.json')).toBe(DANGLING_TEXT);
  });

  it('--out-dir naming a file is a one-line usage error', async () => {
    const dir = folder({ 'history.json': DANGLING_TEXT, 'out.json': '{}' });
    const result = await runCli(['normalize', 'history.json', '--out-dir', 'out.json'], {
      cwd: dir,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('histlint: error: --out-dir out.json: not a folder\n');
    expect(read(dir, 'out.json')).toBe('{}');
  });

  it('--out-dir elsewhere still writes', async () => {
    const dir = folder({ 'history.json': DANGLING_TEXT });
    const result = await runCli(['normalize', 'history.json', '--out-dir', 'out'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(read(dir, 'out/history.json')).toBe(REPAIRED_TEXT);
  });
});
