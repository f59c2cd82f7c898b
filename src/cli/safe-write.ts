/**
 * Replacing files safely (SPEC §5.1, SECURITY.md): the one place where histlint writes a file.
 *
 * A replacement is a temp file beside the target (`.<name>.histlint-<pid36>-<hex>.tmp`), given
 * the target's owner, group and mode, fsynced and renamed over the target. Before any of that a
 * target is refused, untouched, when replacing it would lose something: it is not a regular file,
 * the effective user could not write it in place, it has other hard links, its owner or group
 * cannot be kept, another histlint holds its lock, or (for an input) it changed after it was read.
 * The lock (`.<name>.histlint.lock`, created exclusively) is held from the read to the rename.
 */
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  linkSync,
  openSync,
  promises as fs,
  readFileSync,
  realpathSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type BigIntStats,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { describeFsError } from '../model/errors.js';

/** A file histlint will not replace, with the reason in a few words; the file is untouched. */
export class RefusedWrite extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedWrite';
  }
}

/** Options of a replacement. */
export interface ReplaceOptions {
  /** Replace a file that has other hard links (they keep the old content). */
  breakLinks?: boolean;
}

/** The temp-file name pattern of SPEC §5.1: `.<name>.histlint-<random>.tmp`; the random part starts with the writer's pid. */
const TEMP_NAME = /^\.(.+)\.histlint-([0-9a-z]+)-[0-9a-f]{12}\.tmp$/;
/** The lock beside a file being written, and the short-lived guard of a stale lock's takeover. */
const LOCK_NAME = /^\.(.+)\.histlint\.lock(?:\.takeover)?$/;

/** The temp file name for writing `target`. */
export function tempNameFor(target: string): string {
  const random = `${process.pid.toString(36)}-${randomBytes(6).toString('hex')}`;
  return path.join(path.dirname(target), `.${path.basename(target)}.histlint-${random}.tmp`);
}

/** The lock file name for writing `target`. */
export function lockNameFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.histlint.lock`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When this process started, in ms since the epoch: what its locks record. */
const STARTED = Math.round(performance.timeOrigin);

/**
 * When process `pid` started, in ms since the epoch (to about a second), where the system tells
 * (Linux: `/proc`); undefined elsewhere.
 */
function processStart(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Field 22, counted after the command name (which may hold spaces) closes with ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    const boot = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'latin1'));
    if (!Number.isFinite(ticks) || boot === null) return undefined;
    // Linux reports start times in USER_HZ ticks, 100 per second on every architecture it runs on.
    return Number(boot[1]) * 1000 + ticks * 10;
  } catch {
    return undefined;
  }
}

/** What a lock file holds. */
interface LockOwner {
  pid: number;
  started: number;
}

function parseLock(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isSafeInteger(value.pid) && Number.isFinite(value.started))
      return { pid: value.pid!, started: value.started! };
  } catch {
    // Not a lock histlint wrote, or one being written right now.
  }
  return undefined;
}

/**
 * True when a lock's process is gone: no process has its pid, or the one that has it started at
 * another time (the pid was reused). A start time the system cannot tell counts as a match.
 */
function ownerGone(owner: LockOwner): boolean {
  if (owner.pid === process.pid) return owner.started !== STARTED;
  if (!processAlive(owner.pid)) return true;
  const started = processStart(owner.pid);
  // /proc's boot time has one-second steps and the process starts before its clock does.
  return started !== undefined && Math.abs(started - owner.started) > 5000;
}

/** A lock with no owner in it (one written where links are not supported, or not histlint's) younger than this is being created; older, it is debris. */
const UNFINISHED_LOCK_MS = 10_000;

/** Who holds the lock at `lock`, and whether that holder is gone. Undefined when there is no lock. */
function lockState(lock: string): { owner?: LockOwner; stale: boolean } | undefined {
  let text: string;
  let stat: Stats;
  try {
    text = readFileSync(lock, 'utf8');
    stat = statSync(lock);
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ENOENT') return undefined;
    throw e;
  }
  const owner = parseLock(text);
  if (owner === undefined) return { stale: Date.now() - stat.mtimeMs > UNFINISHED_LOCK_MS };
  return { owner, stale: ownerGone(owner) };
}

function heldBy(state: { owner?: LockOwner }): RefusedWrite {
  return new RefusedWrite(
    state.owner === undefined
      ? 'being written by another histlint run'
      : `being written by histlint pid ${state.owner.pid}`,
  );
}

/** The file a lock (or its takeover guard) is for. */
function lockedFile(lock: string): string {
  const name = path
    .basename(lock)
    .replace(/\.histlint\.lock(?:\.takeover)?$/, '')
    .slice(1);
  return path.join(path.dirname(lock), name);
}

/**
 * Creates the lock file `lock` holding this process's pid and start time; false when one exists.
 * Written whole under the locked file's temp name first, then linked to the lock's name, which
 * like O_EXCL fails when the name exists: a lock is never seen empty, even from a run killed
 * while taking it. Where links are not supported, the lock is created with O_EXCL and written.
 */
function createLock(lock: string): boolean {
  const content = JSON.stringify({ pid: process.pid, started: STARTED }) + '\n';
  const temp = tempNameFor(lockedFile(lock));
  writeFileSync(temp, content, { flag: 'wx', mode: 0o644 });
  try {
    linkSync(temp, lock);
    return true;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS')
      throw e;
  } finally {
    unlinkQuietly(temp);
  }
  try {
    writeFileSync(lock, content, { flag: 'wx', mode: 0o644 });
    return true;
  } catch (e) {
    if ((e as { code?: unknown }).code === 'EEXIST') return false;
    throw e;
  }
}

/**
 * Removes the stale lock `lock` whose state was read as `seen`, under a guard (itself created
 * exclusively) so that two runs taking over one stale lock cannot remove each other's fresh one.
 * False when another run is taking it over at this moment.
 */
function removeStaleLock(lock: string, seen: { owner?: LockOwner }): boolean {
  const guard = `${lock}.takeover`;
  if (!createLock(guard)) {
    const other = lockState(guard);
    if (other === undefined || !other.stale) return false;
    // A run that died in the moment between taking the guard and giving it back.
    unlinkQuietly(guard);
    if (!createLock(guard)) return false;
  }
  try {
    const now = lockState(lock);
    if (now === undefined) return true;
    const same =
      now.stale && now.owner?.pid === seen.owner?.pid && now.owner?.started === seen.owner?.started;
    if (!same) return false;
    unlinkQuietly(lock);
    return true;
  } finally {
    unlinkQuietly(guard);
  }
}

/** Removes a file of histlint's own that may already be gone. */
function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Gone already, or never made.
  }
}

/**
 * Locks and temp files this process holds right now. A run that must exit at once (a second
 * Ctrl-C) removes them on its way out, so it leaves nothing for the next run to clear.
 */
const HELD = new Set<string>();
let exitHook = false;

function hold(file: string): void {
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const held of HELD) unlinkQuietly(held);
    });
  }
  HELD.add(file);
}

/**
 * Takes the lock of `target`, taking over a stale one; throws {@link RefusedWrite} when another
 * run holds it. Returns how to give it back. Synchronous, as are the checks around it: a run
 * writes one file at a time, and each awaited call would cost a thread-pool round trip per file.
 */
function acquireLock(target: string): () => void {
  const lock = lockNameFor(target);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createLock(lock)) {
      hold(lock);
      return () => {
        HELD.delete(lock);
        unlinkQuietly(lock);
      };
    }
    const state = lockState(lock);
    if (state === undefined) continue; // given back meanwhile
    if (!state.stale || !removeStaleLock(lock, state)) throw heldBy(state);
  }
  throw new RefusedWrite('being written by another histlint run');
}

/**
 * Deletes what a killed histlint run left in `dir`: temp files and locks of histlint's own
 * patterns whose writing process is gone. Returns the paths removed.
 */
export async function clearStaleTemps(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const temp = TEMP_NAME.exec(name);
    if (temp !== null) {
      const pid = parseInt(temp[2]!, 36);
      if (pid === process.pid || processAlive(pid)) continue;
      try {
        if ((await fs.lstat(file)).isFile()) {
          await fs.unlink(file);
          removed.push(file);
        }
      } catch {
        // Another run may have cleared it first.
      }
      continue;
    }
    if (LOCK_NAME.test(name) && !name.endsWith('.takeover')) {
      try {
        if (!(await fs.lstat(file)).isFile()) continue;
        const state = lockState(file);
        if (state?.stale === true && removeStaleLock(file, state)) removed.push(file);
      } catch {
        // Unreadable or gone: left as it is.
      }
    }
  }
  return removed;
}

/** A file-system error with a code, as node's own carry. */
function fsError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * Where a write to `target` lands: a symbolic link leads to the file it names (followed link by
 * link when that file does not exist yet), so a write never replaces the link itself. Also what
 * is there now, if anything.
 */
async function writeTarget(target: string): Promise<{ file: string; stat?: Stats }> {
  let stat: Stats | undefined;
  try {
    stat = await fs.stat(target);
  } catch (e) {
    if ((e as { code?: unknown }).code !== 'ENOENT') throw e;
  }
  if (stat !== undefined) return { file: stat.isFile() ? await fs.realpath(target) : target, stat };
  let file = target;
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      link = await fs.readlink(file);
    } catch {
      return { file }; // not a link: a new file here
    }
    file = path.resolve(path.dirname(file), link);
  }
  throw fsError('ELOOP', `too many symbolic links: ${target}`);
}

/** What kind of thing other than a regular file stands at a path, in a word or two. */
function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Refuses an existing target that cannot be replaced safely (see the module comment). */
function refuseUnsafe(file: string, stat: Stats, options: ReplaceOptions): void {
  if (!stat.isFile())
    throw new RefusedWrite(`${kindOf(stat)}, not a regular file; only regular files are replaced`);
  try {
    accessSync(file, constants.W_OK);
  } catch {
    throw new RefusedWrite(
      'not writable for this user (permission denied); histlint does not replace a file it could not write in place',
    );
  }
  if (stat.nlink > 1 && options.breakLinks !== true)
    throw new RefusedWrite(
      `it has ${stat.nlink} hard links, and replacing it would leave the other names with the old content (--break-links replaces it anyway)`,
    );
}

/** How a file was when it was read: what the check before the rename compares. */
export interface Snapshot {
  stat: BigIntStats;
  bytes: Uint8Array;
  /** When the file was read. */
  readAt: bigint;
}

/**
 * A file's clock has a resolution of a few milliseconds (a kernel tick), and some file systems
 * keep seconds: a file changed this soon before it was read may change again without a new
 * time stamp, so its bytes are compared as well.
 */
const COARSE_CLOCK_NS = 2_000_000_000n;

/** True when the file at `file` is no longer what `seen` read; its bytes are compared only when its stat cannot tell. */
export function changedSince(file: string, seen: Snapshot): boolean {
  let now: BigIntStats;
  try {
    now = statSync(file, { bigint: true });
  } catch {
    return true; // gone or unreadable: not the file that was read
  }
  const a = seen.stat;
  if (
    now.dev !== a.dev ||
    now.ino !== a.ino ||
    now.size !== a.size ||
    now.mtimeNs !== a.mtimeNs ||
    now.ctimeNs !== a.ctimeNs
  )
    return true;
  if (seen.readAt - a.ctimeNs > COARSE_CLOCK_NS) return false;
  try {
    return !readFileSync(file).equals(seen.bytes);
  } catch {
    return true;
  }
}

/** A point the tests can hold a writer at, between its read and its rename (see the test helpers). */
async function testBarrier(): Promise<void> {
  const barrier = process.env.HISTLINT_TEST_REPLACE_BARRIER;
  if (barrier === undefined || barrier === '') return;
  await fs.writeFile(`${barrier}.waiting`, String(process.pid));
  for (let waited = 0; waited < 30_000; waited += 10) {
    if (
      await fs.access(barrier).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Writes `data` into a temp file beside `target` with `like`'s owner, group and mode (when the
 * target exists), and renames it over the target, unless `check` (run just before the rename)
 * throws. The folder is fsynced after.
 */
async function replaceWith(
  target: string,
  data: string | Uint8Array,
  like: Stats | undefined,
  check?: () => Promise<void>,
): Promise<void> {
  const temp = tempNameFor(target);
  const mode = like === undefined ? undefined : like.mode & 0o7777;
  const handle = await fs.open(temp, 'wx', mode ?? 0o666);
  hold(temp);
  try {
    await handle.writeFile(data);
    if (like !== undefined) {
      const mine = await handle.stat();
      if (mine.uid !== like.uid || mine.gid !== like.gid) {
        try {
          await handle.chown(like.uid, like.gid);
        } catch {
          throw new RefusedWrite(
            `its owner or group (uid ${like.uid}, gid ${like.gid}) cannot be kept by this user`,
          );
        }
      }
      // After chown, which clears the set-id bits.
      await handle.chmod(mode!);
    }
    await handle.sync();
    await handle.close();
    await check?.();
    await fs.rename(temp, target);
  } catch (e) {
    await handle.close().catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
    throw e;
  } finally {
    HELD.delete(temp);
  }
  try {
    const dir = await fs.open(path.dirname(target), 'r');
    await dir.sync().catch(() => undefined);
    await dir.close();
  } catch {
    // Some file systems refuse to open or sync a folder; the rename is done either way.
  }
}

/**
 * Writes `data` to `given` (an output file: `-o`, `--out-dir`, a report) atomically, under its
 * lock: the target keeps its owner, group and mode, and a symbolic link is written through,
 * never replaced. Something other than a regular file (`-o /dev/stdout`, a FIFO) cannot be
 * replaced atomically and must not be replaced at all: it is written into.
 */
export async function writeAtomic(
  given: string,
  data: string | Uint8Array,
  options: ReplaceOptions = {},
): Promise<void> {
  const { file: target, stat } = await writeTarget(given);
  if (stat?.isDirectory()) throw fsError('EISDIR', `is a directory: ${given}`);
  if (stat !== undefined && !stat.isFile()) {
    await fs.writeFile(target, data);
    return;
  }
  if (stat !== undefined) refuseUnsafe(target, stat, options);
  const release = acquireLock(target);
  try {
    await replaceWith(target, data, stat);
  } finally {
    release();
  }
}

/** An input opened for `--write`: its bytes as read, and how to replace it or let it go. */
export interface Replaceable {
  /** The file written: the input itself, or the file its symbolic link names. */
  readonly target: string;
  /** The bytes read, under the lock. */
  readonly bytes: Uint8Array;
  /**
   * Replaces the file with `data`, unless it changed since it was read (then {@link RefusedWrite},
   * the newer content kept). Releases the lock.
   */
  replace(data: string | Uint8Array): Promise<void>;
  /** Releases the lock without writing. Safe to call after {@link replace}. */
  release(): Promise<void>;
}

/**
 * Opens the input at `given` to be replaced in place: refuses what cannot be replaced safely
 * (before opening it, so a FIFO never blocks), takes its lock, and reads it.
 */
export async function openForReplace(
  given: string,
  options: ReplaceOptions = {},
): Promise<Replaceable> {
  const target = realpathSync(given);
  const stat = statSync(target);
  if (stat.isDirectory()) throw fsError('EISDIR', `is a directory: ${given}`);
  refuseUnsafe(target, stat, options);
  const release = acquireLock(target);
  let snapshot: Snapshot;
  try {
    const fd = openSync(target, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const seen = fstatSync(fd, { bigint: true });
      // Replaced between the checks and the open: judged again as the file it now is.
      if (seen.ino !== BigInt(stat.ino) || seen.dev !== BigInt(stat.dev))
        refuseUnsafe(target, fstatSync(fd), options);
      const readAt = BigInt(Date.now()) * 1_000_000n;
      snapshot = { stat: seen, bytes: readFileSync(fd), readAt };
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    release();
    throw e;
  }
  let released = false;
  const letGo = async (): Promise<void> => {
    if (released) return;
    released = true;
    release();
  };
  return {
    target,
    bytes: snapshot.bytes,
    async replace(data) {
      try {
        const like = statSync(target);
        await replaceWith(target, data, like, async () => {
          await testBarrier();
          if (changedSince(target, snapshot))
            throw new RefusedWrite(
              'it changed after histlint read it; the newer content is kept (run again to include it)',
            );
        });
      } finally {
        await letGo();
      }
    },
    release: letGo,
  };
}

/** A refusal or a file-system error, in a few words. */
export function describeWriteError(error: unknown): string {
  return error instanceof RefusedWrite ? error.message : describeFsError(error);
}
