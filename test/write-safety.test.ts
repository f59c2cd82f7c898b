/**
 * A file is replaced only when that is safe (SPEC §5.1, SECURITY.md): two histlint writers never
 * both proceed on one file (the lock), a file that changed after it was read keeps its newer
 * content, the owner, group and mode stay, a file the user could not write in place, one with
 * other hard links and anything but a regular file are refused, each with one line and exit 2.
 * Real processes throughout; a test barrier (HISTLINT_TEST_REPLACE_BARRIER) holds a writer
 * between its read and its rename, so the races are deterministic.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedSince, lockNameFor } from '../src/cli/safe-write.js';
import { ROOT, spawnCli, startCli, type SpawnOptions } from './helpers/cli.js';

const DANGLING = {
  version: 1,
  messages: [
    { role: 'system', parts: [{ type: 'text', text: 'You are a planted prompt.' }] },
    { role: 'user', parts: [{ type: 'text', text: 'Weather in Lisbon?' }] },
    {
      role: 'assistant',
      parts: [{ type: 'tool-call', id: 'c1', name: 'get_weather', arguments: '{"city":"Lisbon"}' }],
    },
  ],
};
const DANGLING_TEXT = JSON.stringify(DANGLING) + '\n';
const LINE = (id: string): string =>
  JSON.stringify({
    version: 1,
    messages: [
      { role: 'user', parts: [{ type: 'text', text: `question ${id}` }] },
      { role: 'assistant', parts: [{ type: 'tool-call', id, name: 'f', arguments: '{}' }] },
    ],
  }) + '\n';

const IS_ROOT = process.getuid?.() === 0;
/** An ordinary user to run as: the test's own when it is not root; else a user created for CI, or a uid no one has. */
const ORDINARY = ((): { uid: number; gid: number; name: string } => {
  if (!IS_ROOT) return { uid: process.getuid!(), gid: process.getgid!(), name: 'this user' };
  try {
    const uid = Number(execFileSync('id', ['-u', 'histlint-test'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'histlint-test'], { encoding: 'utf8' }));
    return { uid, gid, name: 'histlint-test' };
  } catch {
    return { uid: 4242, gid: 4242, name: 'uid 4242' };
  }
})();

/** True when `user` can read `file` (every folder above it searchable). */
function canRead(user: { uid: number; gid: number }, file: string): boolean {
  const probe = spawnSync(
    process.execPath,
    ['-e', 'require("node:fs").accessSync(process.argv[1], 4)', file],
    { uid: user.uid, gid: user.gid, stdio: 'ignore' },
  );
  return probe.status === 0;
}

let work: string;
let count = 0;
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'histlint-write-safety-'));
  chmodSync(work, 0o755);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A fresh folder with the given files. */
function folder(files: Record<string, string> = {}): string {
  const dir = path.join(work, `d${count++}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

function read(dir: string, name: string): string {
  return readFileSync(path.join(dir, name), 'utf8');
}

/** What histlint left in a folder besides the files: must be nothing. */
function leftovers(dir: string, names: readonly string[]): string[] {
  return readdirSync(dir).filter((n) => !names.includes(n));
}

async function waitFor(file: string, ms = 30_000): Promise<void> {
  for (let waited = 0; waited < ms; waited += 10) {
    if (existsSync(file)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${file} never appeared`);
}

/** Starts a writer that stops between its read and its rename until `release()` is called. */
async function heldWriter(
  argv: string[],
  options: SpawnOptions = {},
): Promise<{ pid: number; release(): Promise<{ code: number; stderr: string }> }> {
  const barrier = path.join(work, `barrier-${count++}`);
  const run = startCli(argv, {
    ...options,
    env: { ...options.env, HISTLINT_TEST_REPLACE_BARRIER: barrier },
  });
  await Promise.race([
    waitFor(`${barrier}.waiting`),
    run.result.then((r) => {
      throw new Error(`the writer ended before its rename: ${r.code} ${r.stderr}`);
    }),
  ]);
  return {
    pid: run.pid,
    async release() {
      writeFileSync(barrier, '');
      return run.result;
    },
  };
}

describe('two histlint writers on one file', () => {
  it('the second refuses at once while the first holds the lock; the first then finishes', async () => {
    const dir = folder({ 'a.json': DANGLING_TEXT });
    const first = await heldWriter(['normalize', '--write', 'a.json'], { cwd: dir });
    expect(existsSync(lockNameFor(path.join(dir, 'a.json')))).toBe(true);
    for (const op of ['normalize', 'sanitize', 'trim']) {
      const extra = op === 'trim' ? ['--max-messages', '1'] : [];
      const second = await spawnCli([op, '--write', ...extra, 'a.json'], { cwd: dir });
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toBe(
        `a.json: error: not written: being written by histlint pid ${first.pid}\n`,
      );
    }
    const fix = await spawnCli(['lint', '--fix', 'a.json'], { cwd: dir });
    expect(fix.code).toBe(2);
    expect(fix.stderr).toContain(
      `a.json: error: fix not written: being written by histlint pid ${first.pid}\n`,
    );
    expect(read(dir, 'a.json')).toBe(DANGLING_TEXT);
    const done = await first.release();
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(read(dir, 'a.json')).messages).toHaveLength(4);
    expect(leftovers(dir, ['a.json'])).toEqual([]);
  });

  it(
    'sanitize --write and normalize --write at once on 30 files: no file keeps a prompt sanitize removed',
    { timeout: 60_000 },
    async () => {
      const names = Array.from({ length: 30 }, (_, k) => `f${String(k).padStart(2, '0')}.json`);
      for (let round = 0; round < 3; round++) {
        const dir = folder(Object.fromEntries(names.map((n) => [n, DANGLING_TEXT])));
        const [sanitize, normalize] = await Promise.all([
          spawnCli(['sanitize', '--write', '*.json'], { cwd: dir }),
          spawnCli(['normalize', '--write', '*.json'], { cwd: dir }),
        ]);
        expect(sanitize.stderr).not.toContain('    at ');
        expect(normalize.stderr).not.toContain('    at ');
        for (const name of names) {
          const refused = sanitize.stderr.includes(`${name}: error: not written:`);
          const roles = (JSON.parse(read(dir, name)) as typeof DANGLING).messages.map(
            (m) => m.role,
          );
          // A file sanitize did not refuse has no system prompt, whoever wrote it last.
          if (!refused) expect(roles, `${name}\n${sanitize.stderr}`).not.toContain('system');
        }
        // Each refusal is one line and exit 2; nothing else is left in the folder.
        if (/not written/.test(sanitize.stderr)) expect(sanitize.code).toBe(2);
        if (/not written/.test(normalize.stderr)) expect(normalize.code).toBe(2);
        expect(leftovers(dir, names)).toEqual([]);
      }
    },
  );

  it('a stale lock (its process gone) is taken over; a live one is not', async () => {
    const dir = folder({
      'a.json': DANGLING_TEXT,
      'b.json': DANGLING_TEXT,
      'c.json': DANGLING_TEXT,
    });
    // Gone: a pid no process has.
    writeFileSync(
      lockNameFor(path.join(dir, 'a.json')),
      JSON.stringify({ pid: 2 ** 30 + 7, started: Date.now() - 60_000 }),
    );
    // Alive, but another process than the one that took the lock: the pid was reused.
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      writeFileSync(
        lockNameFor(path.join(dir, 'b.json')),
        JSON.stringify({ pid: sleeper.pid, started: Date.now() - 3_600_000 }),
      );
      // Alive and the same process.
      writeFileSync(
        lockNameFor(path.join(dir, 'c.json')),
        JSON.stringify({ pid: sleeper.pid, started: Date.now() }),
      );
      const run = await spawnCli(['normalize', '--write', 'a.json', 'b.json', 'c.json'], {
        cwd: dir,
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(
        `c.json: error: not written: being written by histlint pid ${sleeper.pid}\n`,
      );
      expect(read(dir, 'c.json')).toBe(DANGLING_TEXT);
      for (const name of ['a.json', 'b.json'])
        expect(JSON.parse(read(dir, name)).messages, name).toHaveLength(4);
      expect(leftovers(dir, ['a.json', 'b.json', 'c.json']).sort()).toEqual([
        '.c.json.histlint.lock',
      ]);
    } finally {
      sleeper.kill();
    }
  });

  it("a lock that is not histlint's is respected while fresh and cleared once old", async () => {
    const dir = folder({ 'a.json': DANGLING_TEXT });
    const lock = lockNameFor(path.join(dir, 'a.json'));
    writeFileSync(lock, 'not a lock of ours');
    const fresh = await spawnCli(['normalize', '--write', 'a.json'], { cwd: dir });
    expect(fresh.code).toBe(2);
    expect(fresh.stderr).toBe(
      'a.json: error: not written: being written by another histlint run\n',
    );
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const later = await spawnCli(['normalize', '--write', 'a.json'], { cwd: dir });
    expect(later.code, later.stderr).toBe(0);
    expect(leftovers(dir, ['a.json'])).toEqual([]);
  });
});

describe('a file that changed after it was read', () => {
  it('a line appended to a live log during normalize --write is kept: exit 2, the file untouched', async () => {
    const dir = folder({ 'log.jsonl': LINE('c1') + LINE('c2') });
    const writer = await heldWriter(['normalize', '--write', 'log.jsonl'], { cwd: dir });
    appendFileSync(path.join(dir, 'log.jsonl'), LINE('c3'));
    const done = await writer.release();
    expect(done.code).toBe(2);
    expect(done.stderr).toContain(
      'log.jsonl: error: not written: it changed after histlint read it; the newer content is kept (run again to include it)\n',
    );
    expect(read(dir, 'log.jsonl')).toBe(LINE('c1') + LINE('c2') + LINE('c3'));
    expect(leftovers(dir, ['log.jsonl'])).toEqual([]);
    // Run again: all three lines repaired.
    const again = await spawnCli(['normalize', '--write', 'log.jsonl'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(read(dir, 'log.jsonl').trim().split('\n')).toHaveLength(3);
  });

  it('a file replaced by another program (a new inode) is not replaced again', async () => {
    const dir = folder({ 'a.json': DANGLING_TEXT });
    const writer = await heldWriter(['sanitize', '--write', 'a.json'], { cwd: dir });
    writeFileSync(path.join(dir, 'other.json'), '{"version":1,"messages":[]}\n');
    execFileSync('mv', [path.join(dir, 'other.json'), path.join(dir, 'a.json')]);
    const done = await writer.release();
    expect(done.code).toBe(2);
    expect(done.stderr).toContain('a.json: error: not written: it changed after histlint read it');
    expect(read(dir, 'a.json')).toBe('{"version":1,"messages":[]}\n');
  });

  it('lint --fix keeps a newer file too (run --write: test/run-cli.test.ts)', async () => {
    const dir = folder({ 'a.json': DANGLING_TEXT });
    const fix = await heldWriter(['lint', '--fix', 'a.json'], { cwd: dir });
    appendFileSync(path.join(dir, 'a.json'), '\n');
    const done = await fix.release();
    expect(done.code).toBe(2);
    expect(done.stderr).toContain(
      'a.json: error: fix not written: it changed after histlint read it',
    );
    expect(read(dir, 'a.json')).toBe(DANGLING_TEXT + '\n');
  });

  it("the bytes decide when the file changed within its clock's resolution", async () => {
    const dir = folder({ 'a.json': 'aaaa' });
    const file = path.join(dir, 'a.json');
    const stat = statSync(file, { bigint: true });
    const readAt = stat.ctimeNs + 1_000_000n;
    // Same size, same time stamps: only the bytes can tell.
    expect(changedSince(file, { stat, bytes: Buffer.from('aaaa'), readAt })).toBe(false);
    expect(changedSince(file, { stat, bytes: Buffer.from('bbbb'), readAt })).toBe(true);
    // Read long after its last change: the stat alone tells.
    const later = stat.ctimeNs + 10_000_000_000n;
    expect(changedSince(file, { stat, bytes: Buffer.from('bbbb'), readAt: later })).toBe(false);
  });
});

describe("the file stays the user's", () => {
  it.skipIf(!IS_ROOT)(
    'as root, a 0600 file of another user keeps its owner, group and mode',
    async () => {
      const dir = folder({ 'a.json': DANGLING_TEXT });
      const file = path.join(dir, 'a.json');
      chownSync(file, 4242, 4343);
      chmodSync(file, 0o600);
      const run = await spawnCli(['sanitize', '--write', 'a.json'], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      const after = statSync(file);
      expect([after.uid, after.gid, after.mode & 0o7777]).toEqual([4242, 4343, 0o600]);
      expect(read(dir, 'a.json')).not.toContain('planted');
    },
  );

  it.skipIf(!IS_ROOT)(
    'as root, a 0444 file is written, as sed -i would, and stays 0444',
    async () => {
      const dir = folder({ 'a.json': DANGLING_TEXT });
      chmodSync(path.join(dir, 'a.json'), 0o444);
      const run = await spawnCli(['normalize', '--write', 'a.json'], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(statSync(path.join(dir, 'a.json')).mode & 0o7777).toBe(0o444);
    },
  );

  describe(`as an ordinary user (${ORDINARY.name})`, () => {
    const as: SpawnOptions = IS_ROOT ? { uid: ORDINARY.uid, gid: ORDINARY.gid } : {};
    beforeAll(() => {
      if (!IS_ROOT || canRead(ORDINARY, path.join(ROOT, 'bin/histlint.js'))) return;
      // The checkout is out of that user's reach (a clone in a 0700 home): it runs a copy of the
      // built CLI instead, which needs nothing else of the checkout.
      const copy = path.join(work, 'cli');
      for (const name of ['bin', 'dist', 'schemas', 'package.json'])
        cpSync(path.join(ROOT, name), path.join(copy, name), { recursive: true });
      as.bin = path.join(copy, 'bin/histlint.js');
    });
    /** A folder the ordinary user owns, with files it owns. */
    function ownFolder(files: Record<string, string>): string {
      const dir = folder(files);
      for (const name of ['', ...Object.keys(files)])
        chownSync(path.join(dir, name), ORDINARY.uid, ORDINARY.gid);
      return dir;
    }

    it('its own file is written and stays its own', async () => {
      const dir = ownFolder({ 'a.json': DANGLING_TEXT });
      chmodSync(path.join(dir, 'a.json'), 0o640);
      const run = await spawnCli(['normalize', '--write', 'a.json'], { cwd: dir, ...as });
      expect(run.code, run.stderr).toBe(0);
      const after = statSync(path.join(dir, 'a.json'));
      expect([after.uid, after.gid, after.mode & 0o7777]).toEqual([
        ORDINARY.uid,
        ORDINARY.gid,
        0o640,
      ]);
      expect(leftovers(dir, ['a.json'])).toEqual([]);
    });

    it('a 0444 file it could not write in place is refused, not replaced through the rename', async () => {
      const dir = ownFolder({ 'a.json': DANGLING_TEXT });
      chmodSync(path.join(dir, 'a.json'), 0o444);
      for (const argv of [
        ['normalize', '--write', 'a.json'],
        ['sanitize', '--write', 'a.json'],
      ]) {
        const run = await spawnCli(argv, { cwd: dir, ...as });
        expect(run.code).toBe(2);
        expect(run.stderr).toBe(
          'a.json: error: not written: not writable for this user (permission denied); histlint does not replace a file it could not write in place\n',
        );
      }
      const fix = await spawnCli(['lint', '--fix', 'a.json'], { cwd: dir, ...as });
      expect(fix.code).toBe(2);
      expect(fix.stderr).toContain('a.json: error: fix not written: not writable for this user');
      expect(read(dir, 'a.json')).toBe(DANGLING_TEXT);
      expect(leftovers(dir, ['a.json'])).toEqual([]);
    });

    it.skipIf(!IS_ROOT)(
      'a file of another owner it may write in place is refused: the owner cannot be kept',
      async () => {
        const dir = ownFolder({});
        writeFileSync(path.join(dir, 'a.json'), DANGLING_TEXT);
        chownSync(path.join(dir, 'a.json'), 0, 0);
        chmodSync(path.join(dir, 'a.json'), 0o666);
        const run = await spawnCli(['normalize', '--write', 'a.json'], { cwd: dir, ...as });
        expect(run.code).toBe(2);
        expect(run.stderr).toBe(
          'a.json: error: not written: its owner or group (uid 0, gid 0) cannot be kept by this user\n',
        );
        const after = statSync(path.join(dir, 'a.json'));
        expect([after.uid, after.gid]).toEqual([0, 0]);
        expect(read(dir, 'a.json')).toBe(DANGLING_TEXT);
        expect(leftovers(dir, ['a.json'])).toEqual([]);
      },
    );
  });
});

describe('hard and symbolic links', () => {
  it('a file with another hard link is refused unless --break-links', async () => {
    const dir = folder({ 'a.json': DANGLING_TEXT });
    linkSync(path.join(dir, 'a.json'), path.join(dir, 'b.json'));
    for (const argv of [
      ['normalize', '--write', 'a.json'],
      ['sanitize', '--write', 'a.json'],
      ['trim', '--max-messages', '2', '--write', 'a.json'],
    ]) {
      const run = await spawnCli(argv, { cwd: dir });
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        'a.json: error: not written: it has 2 hard links, and replacing it would leave the other names with the old content (--break-links replaces it anyway)\n',
      );
    }
    const fix = await spawnCli(['lint', '--fix', 'a.json'], { cwd: dir });
    expect(fix.code).toBe(2);
    expect(fix.stderr).toContain('a.json: error: fix not written: it has 2 hard links');
    expect(read(dir, 'a.json')).toBe(DANGLING_TEXT);
    const broken = await spawnCli(['sanitize', '--write', '--break-links', 'a.json'], { cwd: dir });
    expect(broken.code, broken.stderr).toBe(0);
    expect(read(dir, 'a.json')).not.toContain('planted');
    expect(read(dir, 'b.json')).toBe(DANGLING_TEXT);
    expect(statSync(path.join(dir, 'a.json')).nlink).toBe(1);
  });

  it('a symbolic link is written through: the link stays, the file it names changes', async () => {
    const dir = folder({ 'real.json': DANGLING_TEXT });
    symlinkSync('real.json', path.join(dir, 'link.json'));
    const run = await spawnCli(['sanitize', '--write', 'link.json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(read(dir, 'real.json')).not.toContain('planted');
    expect(leftovers(dir, ['real.json', 'link.json'])).toEqual([]);
  });
});

describe('only regular files are replaced', () => {
  let server: Server | undefined;
  afterAll(() => server?.close());

  it('--write on a FIFO, a socket or a device is refused at once, never waiting on it', async () => {
    const dir = folder();
    execFileSync('mkfifo', [path.join(dir, 'fifo.json')]);
    const socket = path.join(dir, 'sock.json');
    server = createServer();
    await new Promise<void>((resolve) => server!.listen(socket, resolve));
    const cases: [string, string][] = [
      ['fifo.json', 'a FIFO'],
      ['sock.json', 'a socket'],
      ['/dev/null', 'a device'],
    ];
    for (const [file, kind] of cases) {
      for (const argv of [
        ['normalize', '--write', file],
        ['sanitize', '--write', file],
      ]) {
        const run = await spawnCli(argv, { cwd: dir });
        expect(run.code, `${argv.join(' ')}: ${run.stderr}`).toBe(2);
        expect(run.stderr).toBe(
          `${file}: error: not written: ${kind}, not a regular file; only regular files are replaced\n`,
        );
      }
    }
    const run = await spawnCli(
      ['run', '--provider', 'openai', '--model', 'm', '--prompt', 'hi', '--write', 'fifo.json'],
      { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-not-used' } },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('fifo.json: not written: a FIFO, not a regular file');
  }, 30_000);
});
