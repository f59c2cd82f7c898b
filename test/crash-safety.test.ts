/**
 * Crash safety (SPEC §5.1, §6; SECURITY.md): `normalize --write` killed with
 * SIGKILL at any moment leaves every file with exactly its old or its new
 * content, never half-written and never missing; the temp files a killed run
 * leaves (`.<name>.histlint-<pid36>-<hex>.tmp`) are cleared by the next
 * `--write` run over the folder; and no other file is ever deleted or changed.
 */
import { spawn } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from './helpers/cli.js';

const BIN = fileURLToPath(new URL('../bin/histlint.js', import.meta.url));
const COUNT = 300;
const NAMES = Array.from({ length: COUNT }, (_, k) => `f${String(k).padStart(3, '0')}.json`);
/** A histlint temp file of one of our inputs: `.<name>.histlint-<pid36>-<12 hex>.tmp`. */
const TEMP = /^\.(f\d{3}\.json)\.histlint-([0-9a-z]+)-[0-9a-f]{12}\.tmp$/;
/** The lock of one of our inputs: `.<name>.histlint.lock`. */
const LOCK = /^\.f\d{3}\.json\.histlint\.lock$/;

/** A pid no process has (above every system's pid_max), in base 36. */
const DEAD36 = (2 ** 30 + 7).toString(36);
const LIVE36 = process.pid.toString(36);

/**
 * Files that are not histlint's to touch, though some look like its temps:
 * each must survive every run with its content.
 */
const DECOYS: Record<string, string> = {
  '.x.histlint-notmine.tmp': 'user file\n',
  'a.tmp': 'user file\n',
  'notes.txt': 'user notes\n',
  'f000.json.bak': 'a backup\n',
  '.f000.json.histlint-zz.tmp': 'user file\n',
  [`.f000.json.histlint-${DEAD36}-0123456789AB.tmp`]: 'upper-case hex: not the pattern\n',
  [`.f000.json.histlint-${DEAD36}-0123456789ab.tmp.bak`]: 'a suffix: not the pattern\n',
  [`f001.json.histlint-${DEAD36}-0123456789ab.tmp`]: 'no leading dot: not the pattern\n',
  // The pattern, but the writing process (this test) is alive.
  [`.f001.json.histlint-${LIVE36}-0123456789ab.tmp`]: 'a live run is writing this\n',
  // A dot file is not matched by `*.json`: it is never read, let alone written.
  '.hidden.json':
    '{"version":1,"messages":[{"role":"assistant","parts":[{"type":"tool-call","id":"h","name":"f","arguments":"{}"}]}]}\n',
};
/** A folder and a symlink whose names match the temp pattern of a dead pid: not regular files, so kept. */
const DECOY_DIR = `.f002.json.histlint-${DEAD36}-0123456789ab.tmp`;
const DECOY_LINK = `.f003.json.histlint-${DEAD36}-0123456789ab.tmp`;

let work: string;
let counter = 0;
const OLD = new Map<string, string>();
const NEW = new Map<string, string>();

/** An input needing repair (an unanswered call), from 20 bytes to ~200 KB, so writes take a while. */
function original(k: number): string {
  const filler = 'lorem ipsum dolor '.repeat((k % 10) * 1200);
  return (
    JSON.stringify({
      version: 1,
      conversationId: `conv-${k}`,
      messages: [
        { role: 'user', parts: [{ type: 'text', text: `question ${k} ${filler}` }] },
        {
          role: 'assistant',
          parts: [{ type: 'tool-call', id: `call_${k}`, name: 'search', arguments: '{"q":1}' }],
        },
      ],
    }) + '\n'
  );
}

beforeAll(async () => {
  work = realpathSync(mkdtempSync(path.join(tmpdir(), 'histlint-crash-')));
  NAMES.forEach((name, k) => OLD.set(name, original(k)));
  // The new content of every file: what an uninterrupted run writes.
  const dir = populate();
  const r = await spawnCli(['normalize', '--write', `${path.basename(dir)}/*.json`], {
    cwd: work,
  });
  expect(r.code, r.stderr).toBe(0);
  for (const name of NAMES) {
    const text = readFileSync(path.join(dir, name), 'utf8');
    expect(text, name).not.toBe(OLD.get(name));
    expect(text).toContain('interrupted before execution');
    NEW.set(name, text);
  }
  expectDecoysIntact(dir);
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A fresh folder with the 300 originals and the decoys. */
function populate(): string {
  const dir = path.join(work, `d${++counter}`);
  mkdirSync(dir);
  for (const [name, text] of OLD) writeFileSync(path.join(dir, name), text);
  for (const [name, text] of Object.entries(DECOYS)) writeFileSync(path.join(dir, name), text);
  mkdirSync(path.join(dir, DECOY_DIR));
  writeFileSync(path.join(dir, DECOY_DIR, 'inside.txt'), 'kept\n');
  writeFileSync(path.join(dir, 'link-target.txt'), 'the target\n');
  symlinkSync('link-target.txt', path.join(dir, DECOY_LINK));
  return dir;
}

function expectDecoysIntact(dir: string): void {
  for (const [name, text] of Object.entries(DECOYS)) {
    expect(readFileSync(path.join(dir, name), 'utf8'), name).toBe(text);
  }
  expect(lstatSync(path.join(dir, DECOY_DIR)).isDirectory()).toBe(true);
  expect(readFileSync(path.join(dir, DECOY_DIR, 'inside.txt'), 'utf8')).toBe('kept\n');
  expect(lstatSync(path.join(dir, DECOY_LINK)).isSymbolicLink()).toBe(true);
  expect(readlinkSync(path.join(dir, DECOY_LINK))).toBe('link-target.txt');
  expect(readFileSync(path.join(dir, 'link-target.txt'), 'utf8')).toBe('the target\n');
}

interface State {
  fresh: number;
  old: number;
  temps: string[];
  /** Locks of our inputs: a killed run leaves at most the one of the file it was on. */
  locks: string[];
}

/**
 * Checks the folder after a run (killed or not): every input holds exactly
 * its old or its new content, every decoy is intact, and nothing else is
 * there but temps of our inputs written by `pid`.
 */
function inspect(dir: string, pid?: number): State {
  const state: State = { fresh: 0, old: 0, temps: [], locks: [] };
  for (const name of NAMES) {
    const text = readFileSync(path.join(dir, name), 'utf8');
    if (text === NEW.get(name)) state.fresh++;
    else if (text === OLD.get(name)) state.old++;
    else throw new Error(`${name} is neither old nor new (${text.length} characters)`);
  }
  expectDecoysIntact(dir);
  const known = new Set([
    ...NAMES,
    ...Object.keys(DECOYS),
    DECOY_DIR,
    DECOY_LINK,
    'link-target.txt',
  ]);
  for (const name of readdirSync(dir)) {
    if (known.has(name)) continue;
    // The lock of the file the run was writing when it was killed: taken over by the next run.
    if (LOCK.test(name)) {
      state.locks.push(name);
      continue;
    }
    const m = TEMP.exec(name);
    expect(m, `unexpected file ${name}`).not.toBeNull();
    if (pid !== undefined) expect(m![2], name).toBe(pid.toString(36));
    state.temps.push(name);
  }
  return state;
}

/** When to kill: after some milliseconds, or once the run has created `temps` temp files. */
type KillAt = { ms: number } | { temps: number };

/** Runs `normalize --write 'dN/*.json'` and kills it with SIGKILL at the given moment. */
function killedRun(
  dir: string,
  at: KillAt,
): Promise<{ pid: number; code: number | null; killed: boolean; stderr: string }> {
  return new Promise((resolve, reject) => {
    const seen = new Set<string>();
    let watcher: ReturnType<typeof watch> | undefined;
    const child = spawn(
      process.execPath,
      [BIN, 'normalize', '--write', `${path.basename(dir)}/*.json`],
      { cwd: work, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    let killed = false;
    const kill = (): void => {
      if (killed || child.exitCode !== null) return;
      killed = child.kill('SIGKILL');
    };
    let timer: NodeJS.Timeout | undefined;
    if ('ms' in at) timer = setTimeout(kill, at.ms);
    else {
      watcher = watch(dir, (_event, name) => {
        if (name === null || !TEMP.test(String(name))) return;
        seen.add(String(name));
        if (seen.size >= at.temps) kill();
      });
    }
    child.on('error', reject);
    child.on('exit', (code) => {
      if (timer !== undefined) clearTimeout(timer);
      watcher?.close();
      resolve({ pid: child.pid!, code, killed, stderr });
    });
  });
}

/** What each kill left: how many files were new, how many temps. */
const outcomes: { label: string; killed: boolean; fresh: number; temps: number }[] = [];

const MOMENTS: KillAt[] = [
  { ms: 20 },
  { ms: 60 },
  { ms: 150 },
  { ms: 300 },
  { ms: 500 },
  { ms: 800 },
  { ms: 1200 },
  { temps: 1 },
  { temps: 2 },
  { temps: 30 },
  { temps: 150 },
  { temps: 280 },
];

describe('normalize --write killed with SIGKILL', () => {
  for (const at of MOMENTS) {
    const label = 'ms' in at ? `after ${at.ms} ms` : `once it has made ${at.temps} temp file(s)`;
    it(
      `${label}: every file is old or new; the next --write clears the leftovers and finishes`,
      { timeout: 120_000 },
      async () => {
        const dir = populate();
        const run = await killedRun(dir, at);
        expect(run.stderr).not.toContain('    at ');
        const after = inspect(dir, run.pid);
        expect(after.locks.length).toBeLessThanOrEqual(1);
        outcomes.push({ label, killed: run.killed, fresh: after.fresh, temps: after.temps.length });
        if (!run.killed) {
          // The run finished first (a slow kill on a fast machine): then it must have finished well.
          expect(run.code, run.stderr).toBe(0);
          expect(after.fresh).toBe(COUNT);
        }
        // A temp the killed run could have left: its name and its (dead) pid.
        const planted = `.f010.json.histlint-${run.pid.toString(36)}-00000000abcd.tmp`;
        writeFileSync(path.join(dir, planted), OLD.get('f010.json')!.slice(0, 100));

        const next = await spawnCli(['normalize', '--write', `${path.basename(dir)}/*.json`], {
          cwd: work,
        });
        expect(next.code, next.stderr).toBe(0);
        expect(next.stderr).not.toContain('    at ');
        const done = inspect(dir);
        expect(done.fresh).toBe(COUNT);
        // The killed run's lock was stale: taken over, or cleared with its temps.
        expect(done.locks).toEqual([]);
        if (after.fresh < COUNT) {
          // The next run had files to write in this folder: the leftovers are gone.
          expect(done.temps).toEqual([]);
        }
      },
    );
  }

  it('the kills landed before, during and (maybe) after the writes', () => {
    // Kills by temp count land mid-run whatever the machine's speed.
    expect(outcomes.some((o) => o.killed && o.fresh === 0)).toBe(true);
    expect(outcomes.some((o) => o.killed && o.fresh > 0 && o.fresh < COUNT)).toBe(true);
    console.log(outcomes.map((o) => `${o.label}: ${o.fresh} new, ${o.temps} temps`).join('\n'));
  });

  it(
    'killed again and again on one folder: files only ever go from old to new, and the end is all new',
    { timeout: 180_000 },
    async () => {
      const dir = populate();
      const wasNew = new Set<string>();
      const pids = new Set<string>();
      const delays = [40, 120, 90, 200, 150, 260, 180, 320, 240, 400, 300, 500];
      let finished = false;
      for (let round = 0; round < delays.length * 2 && !finished; round++) {
        const run = await killedRun(dir, { ms: delays[round % delays.length]! });
        expect(run.stderr).not.toContain('    at ');
        pids.add(run.pid.toString(36));
        const state = inspect(dir);
        // Leftovers come from this run or an earlier killed one (a run killed before its first write clears none).
        for (const t of state.temps) expect(pids).toContain(TEMP.exec(t)![2]);
        for (const name of NAMES) {
          const isNew = readFileSync(path.join(dir, name), 'utf8') === NEW.get(name);
          if (wasNew.has(name)) expect(isNew, `${name} went back to its old content`).toBe(true);
          if (isNew) wasNew.add(name);
        }
        if (!run.killed) {
          expect(run.code, run.stderr).toBe(0);
          expect(state.fresh).toBe(COUNT);
          finished = true;
        }
      }
      const last = await spawnCli(['normalize', '--write', `${path.basename(dir)}/*.json`], {
        cwd: work,
      });
      expect(last.code, last.stderr).toBe(0);
      const end = inspect(dir);
      expect(end.fresh).toBe(COUNT);
      // Nothing changes any more: --check agrees.
      const check = await spawnCli(['normalize', '--check', `${path.basename(dir)}/*.json`], {
        cwd: work,
      });
      expect(check.code, check.stderr).toBe(0);
    },
  );

  it(
    'the leftovers of a killed run are cleared by the next --write run over the folder, even one with nothing to change',
    { timeout: 60_000 },
    async () => {
      const dir = populate();
      const done = await spawnCli(['normalize', '--write', `${path.basename(dir)}/*.json`], {
        cwd: work,
      });
      expect(done.code, done.stderr).toBe(0);
      expect(inspect(dir).fresh).toBe(COUNT);
      // A run killed before it wrote anything: its pid is dead, its temps are leftovers.
      const killed = await killedRun(dir, { ms: 0 });
      const stale = [
        `.f000.json.histlint-${killed.pid.toString(36)}-0123456789ab.tmp`,
        `.f299.json.histlint-${DEAD36}-abcdef012345.tmp`,
      ];
      for (const name of stale) writeFileSync(path.join(dir, name), 'half a file');
      const next = await spawnCli(['normalize', '--write', `${path.basename(dir)}/*.json`], {
        cwd: work,
      });
      expect(next.code, next.stderr).toBe(0);
      const after = inspect(dir);
      expect(after.fresh).toBe(COUNT);
      expect(after.temps).toEqual([]);
    },
  );
});
