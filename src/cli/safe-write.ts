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
import { createHash, randomBytes, type Hash } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  linkSync,
  openSync,
  promises as fs,
  read as readFd,
  readFileSync,
  readSync,
  realpathSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  type BigIntStats,
  type Stats,
} from 'node:fs';
import { tmpdir } from 'node:os';
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
  /** The bytes read (a file read whole). */
  bytes?: Uint8Array;
  /** Or, for a file read as a stream, the SHA-256 of its bytes (hex), when the check needs them. */
  digest?: string;
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
  if (!needsBytes(seen)) return false;
  try {
    if (seen.bytes !== undefined) return !readFileSync(file).equals(seen.bytes);
    return seen.digest === undefined || fileDigest(file) !== seen.digest;
  } catch {
    return true;
  }
}

/** True when a file's stat cannot tell whether it changed after `seen` (see {@link COARSE_CLOCK_NS}). */
function needsBytes(seen: { stat: BigIntStats; readAt: bigint }): boolean {
  return seen.readAt - seen.stat.ctimeNs <= COARSE_CLOCK_NS;
}

/** Bytes read or written at a time: large enough to cost few calls, small enough to cost no memory. */
const CHUNK = 1 << 20;

/** The SHA-256 of a file's bytes (hex), read in chunks: a file read as a stream is never held whole. */
function fileDigest(file: string): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (let n; (n = readSync(fd, buffer, 0, CHUNK, null)) > 0;) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
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

/** Writes all of `bytes` to `fd` (a write may take fewer). */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
}

/**
 * A replacement being written: a temp file beside `target` with `like`'s owner, group and mode
 * (when the target exists), written in order and in chunks, then renamed over the target by
 * {@link commit} or removed by {@link discard}. Writes are synchronous and buffered: a stream
 * of small lines costs one system call per megabyte.
 */
class TempFile {
  private readonly temp: string;
  private fd: number | undefined;
  private readonly buffer = Buffer.allocUnsafe(CHUNK);
  private used = 0;

  constructor(
    private readonly target: string,
    like: Stats | undefined,
  ) {
    this.temp = tempNameFor(target);
    const mode = like === undefined ? undefined : like.mode & 0o7777;
    const fd = openSync(this.temp, 'wx', mode ?? 0o666);
    this.fd = fd;
    hold(this.temp);
    try {
      if (like !== undefined) {
        const mine = fstatSync(fd);
        if (mine.uid !== like.uid || mine.gid !== like.gid) {
          try {
            fchownSync(fd, like.uid, like.gid);
          } catch {
            throw new RefusedWrite(
              `its owner or group (uid ${like.uid}, gid ${like.gid}) cannot be kept by this user`,
            );
          }
        }
        // After chown, which clears the set-id bits.
        fchmodSync(fd, mode!);
      }
    } catch (e) {
      this.discard();
      throw e;
    }
  }

  /** Appends to the replacement; a failure (a full disk) discards it and throws. */
  write(data: string | Uint8Array): void {
    try {
      if (typeof data === 'string') {
        // Short texts (a line) are encoded into the buffer without a copy of their own.
        if (data.length * 3 <= this.buffer.length - this.used) {
          this.used += this.buffer.write(data, this.used);
          return;
        }
        data = Buffer.from(data, 'utf8');
      }
      if (data.length > this.buffer.length - this.used) this.flush();
      if (data.length >= this.buffer.length) writeAll(this.fd!, data);
      else {
        this.buffer.set(data, this.used);
        this.used += data.length;
      }
    } catch (e) {
      this.discard();
      throw e;
    }
  }

  private flush(): void {
    if (this.used === 0) return;
    writeAll(this.fd!, this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  /**
   * Makes the replacement durable and renames it over the target, unless `check` (run just
   * before the rename) throws. The folder is fsynced after.
   */
  async commit(check?: () => Promise<void>): Promise<void> {
    try {
      this.flush();
      fsyncSync(this.fd!);
      closeSync(this.fd!);
      this.fd = undefined;
      await check?.();
      await fs.rename(this.temp, this.target);
      HELD.delete(this.temp);
    } catch (e) {
      this.discard();
      throw e;
    }
    try {
      const dir = await fs.open(path.dirname(this.target), 'r');
      await dir.sync().catch(() => undefined);
      await dir.close();
    } catch {
      // Some file systems refuse to open or sync a folder; the rename is done either way.
    }
  }

  /** Removes the replacement; the target stays as it was. */
  discard(): void {
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // Closed already.
      }
      this.fd = undefined;
    }
    unlinkQuietly(this.temp);
    HELD.delete(this.temp);
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
  const temp = new TempFile(target, like);
  temp.write(data);
  await temp.commit(check);
}

/**
 * Output held until it is complete, so that a run that fails part-way shows none of it (standard
 * output, a FIFO named by `-o`): in memory while small, as most outputs are; past
 * {@link SPOOL_MEMORY} bytes in a temp file under the system's temp folder, so a gigabyte of
 * output costs no memory. The temp file is removed as soon as it is made (where the system allows
 * it; elsewhere on exit): a killed run leaves nothing behind.
 */
export class Spool {
  /** Full blocks, while the output is held in memory. */
  private blocks: Buffer[] = [];
  /** The block being filled (allocated at the first write). */
  private block: Buffer | undefined;
  private used = 0;
  private fd: number | undefined;
  private file: string | undefined;
  private written = 0;

  /** Bytes written so far. */
  get size(): number {
    return this.written + this.blocks.length * SPOOL_BLOCK + this.used;
  }

  /**
   * Appends to the output, copied into fixed blocks: a buffer per write (a line) left tens of
   * megabytes of garbage outside the heap between two collections.
   */
  write(data: string | Uint8Array): void {
    this.block ??= Buffer.allocUnsafe(SPOOL_BLOCK);
    if (typeof data === 'string') {
      // Most texts (a line, a report entry) are encoded in place.
      if (data.length * 3 <= SPOOL_BLOCK - this.used) {
        this.used += this.block.write(data, this.used);
        return;
      }
      data = Buffer.from(data, 'utf8');
    }
    for (let at = 0; at < data.length;) {
      const n = Math.min(data.length - at, SPOOL_BLOCK - this.used);
      this.block.set(data.subarray(at, at + n), this.used);
      this.used += n;
      at += n;
      if (this.used === SPOOL_BLOCK) this.nextBlock();
    }
  }

  /** The block is full: kept while the output is small, else written to the temp file. */
  private nextBlock(): void {
    if (this.fd === undefined && (this.blocks.length + 1) * SPOOL_BLOCK < SPOOL_MEMORY) {
      this.blocks.push(this.block!);
      this.block = Buffer.allocUnsafe(SPOOL_BLOCK);
    } else {
      if (this.fd === undefined) this.open();
      writeAll(this.fd!, this.block!);
      this.written += SPOOL_BLOCK;
    }
    this.used = 0;
  }

  private open(): void {
    const file = path.join(
      tmpdir(),
      `histlint-spool-${process.pid.toString(36)}-${randomBytes(6).toString('hex')}.tmp`,
    );
    this.fd = openSync(file, 'wx+', 0o600);
    try {
      unlinkSync(file);
    } catch {
      this.file = file;
      hold(file);
    }
    for (const block of this.blocks) writeAll(this.fd, block);
    this.written += this.blocks.length * SPOOL_BLOCK;
    this.blocks = [];
  }

  /** The output in order, in chunks of at most `size` bytes or so (each valid until the next). */
  *chunks(size = CHUNK): Generator<Buffer> {
    if (this.fd !== undefined) {
      const buffer = Buffer.allocUnsafe(size);
      for (let at = 0; at < this.written;) {
        const n = readSync(this.fd, buffer, 0, Math.min(size, this.written - at), at);
        if (n === 0) break;
        yield buffer.subarray(0, n);
        at += n;
      }
    }
    yield* this.blocks;
    if (this.block !== undefined && this.used > 0) yield this.block.subarray(0, this.used);
  }

  /** {@link chunks} as text: a character cut between two chunks is decoded whole. */
  *texts(): Generator<string> {
    // A byte order mark written is a character of the output, kept.
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    // Texts of a megabyte or more become external strings, whose memory comes back only with a
    // full collection: a long output in such pieces grew the process by 70 MB.
    for (const chunk of this.chunks(TEXT_CHUNK)) {
      for (let at = 0; at < chunk.length; at += TEXT_CHUNK) {
        const text = decoder.decode(chunk.subarray(at, at + TEXT_CHUNK), { stream: true });
        if (text !== '') yield text;
      }
    }
    const rest = decoder.decode();
    if (rest !== '') yield rest;
  }

  /** Lets the output go (and its temp file). */
  discard(): void {
    this.blocks = [];
    this.block = undefined;
    this.used = 0;
    this.written = 0;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.file !== undefined) {
      unlinkQuietly(this.file);
      HELD.delete(this.file);
      this.file = undefined;
    }
  }
}

/** The size of the texts a {@link Spool} gives. */
const TEXT_CHUNK = 256 << 10;

/** What a {@link Spool} holds in memory before it moves to a temp file, and in blocks of what size. */
const SPOOL_MEMORY = 8 << 20;
const SPOOL_BLOCK = 256 << 10;

/** An output file being written in order (see {@link openAtomic}). */
export interface AtomicWriter {
  /** Appends to the output. A failure (a full disk) throws; the target stays as it was. */
  write(data: string | Uint8Array): void;
  /** Puts the output in place and releases the lock. */
  commit(): Promise<void>;
  /** Lets the output go, the target untouched, and releases the lock. */
  discard(): void;
}

/**
 * {@link writeAtomic} for output written in order, piece by piece (a JSONL file line by line):
 * the same checks, lock and temp file, taken now; the rename when {@link AtomicWriter.commit}
 * is called. Something other than a regular file is written into at commit, from a
 * {@link Spool}, so it never receives part of an output.
 */
export async function openAtomic(
  given: string,
  options: ReplaceOptions = {},
): Promise<AtomicWriter> {
  const { file: target, stat } = await writeTarget(given);
  if (stat?.isDirectory()) throw fsError('EISDIR', `is a directory: ${given}`);
  if (stat !== undefined && !stat.isFile()) {
    const spool = new Spool();
    return {
      write: (data) => spool.write(data),
      async commit() {
        const fd = openSync(target, 'w');
        try {
          for (const chunk of spool.chunks()) writeAll(fd, chunk);
        } finally {
          closeSync(fd);
          spool.discard();
        }
      },
      discard: () => spool.discard(),
    };
  }
  if (stat !== undefined) refuseUnsafe(target, stat, options);
  const release = acquireLock(target);
  let temp: TempFile;
  try {
    temp = new TempFile(target, stat);
  } catch (e) {
    release();
    throw e;
  }
  let done = false;
  const finish = (): void => {
    if (done) return;
    done = true;
    release();
  };
  return {
    write(data) {
      try {
        temp.write(data);
      } catch (e) {
        finish();
        throw e;
      }
    },
    async commit() {
      try {
        await temp.commit();
      } finally {
        finish();
      }
    },
    discard() {
      temp.discard();
      finish();
    },
  };
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

/** An input opened, locked and checked: the file read is `fd`, as `seen` describes it. */
interface OpenedInput {
  target: string;
  fd: number;
  seen: BigIntStats;
  readAt: bigint;
  release: () => void;
}

/**
 * Opens the input at `given` to be replaced in place: refuses what cannot be replaced safely
 * (before opening it, so a FIFO never blocks) and takes its lock.
 */
function openInput(given: string, options: ReplaceOptions): OpenedInput {
  const target = realpathSync(given);
  const stat = statSync(target);
  if (stat.isDirectory()) throw fsError('EISDIR', `is a directory: ${given}`);
  refuseUnsafe(target, stat, options);
  const release = acquireLock(target);
  try {
    const fd = openSync(target, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const seen = fstatSync(fd, { bigint: true });
      // Replaced between the checks and the open: judged again as the file it now is.
      if (seen.ino !== BigInt(stat.ino) || seen.dev !== BigInt(stat.dev))
        refuseUnsafe(target, fstatSync(fd), options);
      return { target, fd, seen, readAt: BigInt(Date.now()) * 1_000_000n, release };
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  } catch (e) {
    release();
    throw e;
  }
}

/** Renames a finished replacement over `target` unless the file changed since `snapshot`. */
async function commitOver(target: string, temp: TempFile, snapshot: Snapshot): Promise<void> {
  await temp.commit(async () => {
    await testBarrier();
    if (changedSince(target, snapshot))
      throw new RefusedWrite(
        'it changed after histlint read it; the newer content is kept (run again to include it)',
      );
  });
}

/**
 * Opens the input at `given` to be replaced in place: refuses what cannot be replaced safely
 * (before opening it, so a FIFO never blocks), takes its lock, and reads it.
 */
export async function openForReplace(
  given: string,
  options: ReplaceOptions = {},
): Promise<Replaceable> {
  const opened = openInput(given, options);
  const { target, release } = opened;
  let snapshot: Snapshot & { bytes: Uint8Array };
  try {
    snapshot = { stat: opened.seen, bytes: readFileSync(opened.fd), readAt: opened.readAt };
  } catch (e) {
    release();
    throw e;
  } finally {
    closeSync(opened.fd);
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
        const temp = new TempFile(target, statSync(target));
        temp.write(data);
        await commitOver(target, temp, snapshot);
      } finally {
        await letGo();
      }
    },
    release: letGo,
  };
}

/**
 * An input opened for `--write` to be read as a stream: its bytes are read in order, and its
 * replacement is written piece by piece into a temp file beside it, begun only when something
 * differs from the file (an unchanged file costs only its read).
 */
export interface StreamedReplaceable {
  /** The file written: the input itself, or the file its symbolic link names. */
  readonly target: string;
  /** Reads the file's next bytes into `buffer` (under the lock); 0 at its end. */
  read(buffer: Buffer): Promise<number>;
  /** Appends to the replacement, starting it at the first write. A failure throws (the file untouched). */
  write(data: string | Uint8Array): void;
  /** Appends the file's first `length` bytes to the replacement (the part of it that stays). */
  copyStart(length: number): void;
  /** True once the replacement has begun. */
  readonly begun: boolean;
  /**
   * Replaces the file with what was written, unless it changed since it was read (then
   * {@link RefusedWrite}, the newer content kept). Releases the lock.
   */
  replace(): Promise<void>;
  /** Drops the replacement, if any, and releases the lock. Safe to call after {@link replace}. */
  release(): Promise<void>;
}

/**
 * {@link openForReplace} for a file read as a stream: the same checks and lock, and the same
 * check before the rename (the bytes compared through their SHA-256, computed as they are read,
 * when the file's clock cannot tell).
 */
export async function openStreamForReplace(
  given: string,
  options: ReplaceOptions = {},
): Promise<StreamedReplaceable> {
  const opened = openInput(given, options);
  const { target, fd } = opened;
  const hash: Hash | undefined = needsBytes({ stat: opened.seen, readAt: opened.readAt })
    ? createHash('sha256')
    : undefined;
  let position = 0;
  let ended = false;
  let closed = false;
  let temp: TempFile | undefined;
  let released = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };
  const letGo = async (): Promise<void> => {
    if (released) return;
    released = true;
    temp?.discard();
    close();
    opened.release();
  };
  const read = (buffer: Buffer): Promise<number> =>
    new Promise((resolve, reject) => {
      readFd(fd, buffer, 0, buffer.length, position, (error, n) => {
        if (error !== null) return reject(error);
        position += n;
        if (n === 0) ended = true;
        else hash?.update(buffer.subarray(0, n));
        resolve(n);
      });
    });
  const begin = (): TempFile => (temp ??= new TempFile(target, statSync(target)));
  return {
    target,
    read,
    write(data) {
      begin().write(data);
    },
    copyStart(length) {
      const out = begin();
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(length, 1)));
      for (let at = 0; at < length;) {
        const n = readSync(fd, buffer, 0, Math.min(buffer.length, length - at), at);
        if (n === 0) throw fsError('EIO', `${target} ended before ${length} bytes`);
        out.write(n === buffer.length ? buffer : buffer.subarray(0, n));
        at += n;
      }
    },
    get begun() {
      return temp !== undefined;
    },
    async replace() {
      try {
        // The check compares every byte: what was not read yet is read now.
        if (hash !== undefined && !ended) {
          const buffer = Buffer.allocUnsafe(CHUNK);
          while ((await read(buffer)) > 0);
        }
        close();
        const snapshot: Snapshot = { stat: opened.seen, readAt: opened.readAt };
        if (hash !== undefined) snapshot.digest = hash.digest('hex');
        await commitOver(target, begin(), snapshot);
        temp = undefined;
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
