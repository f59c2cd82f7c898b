/**
 * Standard output and standard error as the commands see them (SPEC §5.2): a
 * write that fails (a full disk, `/dev/full`) is recorded, later writes to
 * that stream are dropped, and the command is asked to stop between files, as
 * on Ctrl-C. `main` then says so in one line and exits 2. A reader that went
 * away (EPIPE) is recorded too, but is no error to report.
 */
import type { Io, OutputStream } from './io.js';

/** Which stream a failure was on. */
export type StreamName = 'stdout' | 'stderr';

const SHOWN: Record<StreamName, string> = {
  stdout: 'standard output',
  stderr: 'standard error',
};

/** What a node stream has beyond {@link OutputStream}, when the stream is one. */
interface NodeStreamLike {
  /** Set at once by a write that failed; its 'error' event comes on the next tick. */
  errored?: unknown;
  on?(event: 'error', listener: (error: unknown) => void): unknown;
  off?(event: 'error', listener: (error: unknown) => void): unknown;
  once?(event: string, listener: () => void): unknown;
}

/** True for an error of a reader that went away (`histlint lint . | head`). */
function isBrokenPipe(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'EPIPE';
}

/** The one line that says a stream could not be written: `no space left on device (ENOSPC)`. */
export function describeOutputFailure(stream: StreamName, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  let text = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  if (typeof code === 'string') {
    // node's own: "ENOSPC: no space left on device, write".
    const syscall = (error as { syscall?: unknown }).syscall;
    if (text.startsWith(`${code}: `)) text = text.slice(code.length + 2);
    if (typeof syscall === 'string' && text.endsWith(`, ${syscall}`))
      text = text.slice(0, -syscall.length - 2);
    text = `${text} (${code})`;
  }
  return `histlint: error: cannot write to ${SHOWN[stream]}: ${text}\n`;
}

/** The I/O a command gets from {@link guardOutput}, and what became of its output. */
export interface GuardedOutput {
  /** The I/O with both streams guarded and a signal that also stops the command when one fails. */
  io: Io;
  /** The first failure on each stream that failed. */
  failures: Map<StreamName, unknown>;
  /** Lets an error that a write has already caused arrive. */
  settle(): Promise<void>;
  /** Settles, then stops listening to the streams. */
  close(): Promise<void>;
  /** The line to print on standard error, if any: not for EPIPE, and not when standard error failed. */
  report(): string | undefined;
}

/** Wraps the streams of `io` so that a failing write is recorded rather than thrown. */
export function guardOutput(io: Io): GuardedOutput {
  const controller = new AbortController();
  const failures = new Map<StreamName, unknown>();
  const drainWaiters: Record<StreamName, (() => void)[]> = { stdout: [], stderr: [] };
  const detach: (() => void)[] = [];
  let emitters = false;

  const fail = (name: StreamName, error: unknown): void => {
    if (failures.has(name)) return;
    failures.set(name, error);
    // A write waiting for 'drain' would wait forever.
    for (const resume of drainWaiters[name].splice(0)) resume();
    controller.abort(Object.assign(new Error(`${SHOWN[name]} failed`), { name: 'AbortError' }));
  };

  const wrap = (name: StreamName, stream: OutputStream): OutputStream => {
    const node = stream as OutputStream & NodeStreamLike;
    if (typeof node.on === 'function' && typeof node.off === 'function') {
      emitters = true;
      const listener = (error: unknown): void => fail(name, error);
      node.on('error', listener);
      detach.push(() => node.off!('error', listener));
    }
    const guarded: OutputStream & NodeStreamLike = {
      write(chunk: string): unknown {
        if (failures.has(name)) return true;
        let accepted: unknown;
        try {
          accepted = stream.write(chunk);
        } catch (e) {
          fail(name, e);
          return true;
        }
        if (node.errored !== undefined && node.errored !== null) {
          fail(name, node.errored);
          return true;
        }
        return accepted;
      },
      get isTTY() {
        return stream.isTTY;
      },
      get columns() {
        return stream.columns;
      },
    };
    if (typeof node.once === 'function') {
      guarded.once = (event, listener) => {
        const waiters = drainWaiters[name];
        let called = false;
        const once = (): void => {
          if (called) return;
          called = true;
          if (waiters.includes(once)) waiters.splice(waiters.indexOf(once), 1);
          listener();
        };
        if (event === 'drain') waiters.push(once);
        return node.once!(event, once);
      };
    }
    return guarded;
  };

  // A node stream to a file or device reports its failure as an event on the next tick.
  const settle = async (): Promise<void> => {
    if (emitters) await new Promise((resolve) => setImmediate(resolve));
  };
  const stdout = wrap('stdout', io.stdout);
  const stderr = wrap('stderr', io.stderr);
  const signal =
    io.signal === undefined ? controller.signal : AbortSignal.any([io.signal, controller.signal]);
  return {
    io: { ...io, stdout, stderr, signal },
    failures,
    settle,
    async close() {
      await settle();
      for (const off of detach.splice(0)) off();
    },
    report() {
      const error = failures.get('stdout');
      if (failures.has('stderr') || error === undefined || isBrokenPipe(error)) return undefined;
      return describeOutputFailure('stdout', error);
    },
  };
}
