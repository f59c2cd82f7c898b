/**
 * Runs lint tasks on `--jobs` threads: this thread and `jobs - 1` worker
 * threads, or this thread alone for `--jobs 1`. The tasks are cut into
 * batches that every thread takes from one shared counter, so no thread
 * waits for another to hand it work; results are stored by task index, so
 * output does not depend on the number of jobs.
 *
 * The threads are plain `node:worker_threads` workers, one work order each:
 * with the threads scheduling themselves, a task-queue pool (tinypool,
 * piscina) had nothing left to do but cost start-up time.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { runLintTaskSync, type LintTask, type TaskResult } from './tasks.js';
import { packTasks, takeBatch, WORKER_MARK, type WorkerMessage, type WorkOrder } from './worker.js';

/**
 * The built worker: beside this module in dist/bundle/ (the CLI) and in dist/lint/ (the
 * library); tests run from src/, whose .ts files a worker thread cannot load, and use dist/lint/.
 */
const WORKER = [
  new URL('./worker.js', import.meta.url),
  new URL('../../dist/lint/worker.js', import.meta.url),
]
  .map((url) => fileURLToPath(url))
  .find((file) => existsSync(file));

/**
 * A batch closes at this many tasks or this many bytes (a byte range is always alone). Taking a
 * batch costs one atomic add, so batches are small: the threads finish close together.
 */
const BATCH_TASKS = 64;
const BATCH_BYTES = 4 * 1024 * 1024;

/** This thread lets pending events (worker results, Ctrl-C) run after this many of its own tasks. */
const YIELD_EVERY = 64;

/**
 * Cuts consecutive tasks into batches by count and size: batch b is tasks
 * [bounds[b], bounds[b + 1]). A byte range of a file is a batch of its own.
 */
export function batchBounds(tasks: readonly LintTask[], sizes: readonly number[]): number[] {
  const bounds = [0];
  let count = 0;
  let bytes = 0;
  const close = (end: number): void => {
    if (end > bounds[bounds.length - 1]!) bounds.push(end);
    count = 0;
    bytes = 0;
  };
  tasks.forEach((task, k) => {
    if (task.range !== undefined) {
      close(k);
      close(k + 1);
      return;
    }
    count++;
    bytes += sizes[k] ?? 0;
    if (count >= BATCH_TASKS || bytes >= BATCH_BYTES) close(k + 1);
  });
  close(tasks.length);
  return bounds;
}

/** Worker threads started ahead of the work, so they load their code while this thread prepares tasks. */
export interface LintPool {
  /** How many worker threads run besides this one. */
  readonly threads: number;
  /**
   * Hands worker `t` a work order; `onMessage` sees what it posts. Resolves when it has posted
   * its last batch, rejects when the thread fails.
   */
  run(t: number, order: WorkOrder, onMessage: (m: WorkerMessage) => void): Promise<void>;
  /** Stops every thread (a running order rejects, unless stopped on purpose). */
  destroy(): Promise<void>;
}

/** Why a worker thread ended before it finished its order. */
function threadFailure(reason: unknown): Error {
  return reason instanceof Error
    ? reason
    : new Error(`lint worker thread stopped (${String(reason)})`);
}

/**
 * With a lint thread on every core, V8's parallel young-generation collection only adds helper
 * tasks that wait for a busy core and then synchronize: each thread collects on its own instead
 * (default jobs on the bench: 2-7 % less time; one thread unchanged). V8 reads the flag at every
 * collection, so setting it while running is safe; it stays set for the rest of this process,
 * which is the CLI's.
 */
function collectOnOwnThreads(jobs: number): void {
  if (jobs >= availableParallelism()) setFlagsFromString('--no-parallel-scavenge');
}

/**
 * Starts the worker threads of `jobs` jobs: `jobs - 1`, since this thread
 * lints too. Returns null for one job, or when the built worker is missing
 * (as in tests of src/).
 */
export function startPool(jobs: number): Promise<LintPool | null> {
  const threads = jobs - 1;
  if (threads < 1 || WORKER === undefined) return Promise.resolve(null);
  collectOnOwnThreads(jobs);
  const file = WORKER;
  const workers = Array.from({ length: threads }, () => {
    const worker = new Worker(file, { workerData: WORKER_MARK });
    // A thread that fails before it is handed an order (its code failed to load) fails that order.
    const failed = new Promise<never>((_, reject) => {
      worker.once('error', (e) => reject(threadFailure(e)));
      worker.once('exit', (code) => reject(threadFailure(`exit code ${code}`)));
    });
    failed.catch(() => undefined);
    return { worker, failed };
  });
  return Promise.resolve({
    threads,
    run(t, order, onMessage) {
      const { worker, failed } = workers[t]!;
      const done = new Promise<void>((resolve) => {
        const listener = (m: WorkerMessage): void => {
          onMessage(m);
          if (m === null) {
            worker.off('message', listener);
            resolve();
          }
        };
        worker.on('message', listener);
      });
      worker.postMessage(order);
      return Promise.race([done, failed]);
    },
    async destroy() {
      await Promise.all(workers.map(({ worker }) => worker.terminate()));
    },
  });
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs tasks on this thread and the pool's threads (this thread alone when
 * there is no pool); `onResult` sees each result once, as it arrives. The
 * pool is destroyed at the end.
 */
export async function runTasks(
  tasks: readonly LintTask[],
  pool: LintPool | null,
  onResult: (result: TaskResult, index: number) => void = () => undefined,
  signal?: AbortSignal,
  sizes: readonly number[] = [],
): Promise<(TaskResult | undefined)[]> {
  const results: (TaskResult | undefined)[] = new Array(tasks.length);
  let stored = 0;
  // A task this thread ran again at the end (see ownRun) may arrive twice: the first result counts.
  const store = (k: number, result: TaskResult): void => {
    if (results[k] !== undefined) return;
    results[k] = result;
    stored++;
    onResult(result, k);
  };
  if (pool === null || tasks.length <= 1 || signal?.aborted === true) {
    await pool?.destroy();
    for (let k = 0; k < tasks.length; k++) {
      if (signal?.aborted) break;
      store(k, runLintTaskSync(tasks[k]!));
      // Let a Ctrl-C handler run between files.
      if (k % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
    }
    return results;
  }
  const bounds = batchBounds(tasks, sizes);
  const count = bounds.length - 1;
  const next = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  // Set when a worker failed, or when every task has its result: nothing more is taken then.
  let over = false;
  const stopping = (): boolean => over || signal?.aborted === true;
  // Ctrl-C: no thread takes another batch, and the workers stop at once; the untaken tasks stay empty.
  const stop = (): void => {
    Atomics.store(next, 0, count);
    void pool.destroy();
  };
  signal?.addEventListener('abort', stop, { once: true });

  const packed = packTasks(tasks);
  const order: WorkOrder = { ...packed, bounds, next };
  const workerRun = async (t: number): Promise<void> => {
    try {
      await pool.run(t, order, (m) => {
        if (m === null) return;
        const first = bounds[m.batch]!;
        m.results.forEach((r, i) => store(first + i, r));
      });
    } catch (e) {
      // A stopped run, or one this thread finished, leaves nothing to surface; anything else is a
      // bug, and no thread takes another batch for a run that fails.
      if (stopping()) return;
      over = true;
      Atomics.store(next, 0, count);
      throw e;
    }
  };
  let done = 0;
  const runHere = async (k: number): Promise<void> => {
    store(k, runLintTaskSync(tasks[k]!));
    if (++done % YIELD_EVERY === 0 || tasks[k]!.range !== undefined) await nextTurn();
  };
  // This thread takes batches too, from the first moment, while the workers load their code.
  const ownRun = async (): Promise<void> => {
    for (let b = takeBatch(next, count); b !== -1; b = takeBatch(next, count)) {
      for (let k = bounds[b]!; k < bounds[b + 1]!; k++) {
        if (stopping()) return;
        await runHere(k);
      }
    }
    // No batch is left, but a worker may still hold one of files (a cold or crowded thread can be
    // slow): this thread runs those files too, the first result wins, and it looks for the
    // worker's results after each file, so the run never waits on a worker longer than this
    // thread alone would take. A byte range is not run twice: one cannot stop halfway.
    for (let k = 0; k < tasks.length && stored < tasks.length; k++) {
      if (stopping()) return;
      if (results[k] !== undefined || tasks[k]!.range !== undefined) continue;
      store(k, runLintTaskSync(tasks[k]!));
      await nextTurn();
    }
    if (stored === tasks.length && !over) {
      over = true;
      void pool.destroy();
    }
  };
  try {
    // Workers first: an async function runs up to its first await at once, and this thread's
    // run would otherwise take every batch before a worker was handed its order.
    const runs: Promise<void>[] = [];
    for (let t = 0; t < pool.threads; t++) runs.push(workerRun(t));
    runs.push(ownRun());
    await Promise.all(runs);
  } finally {
    signal?.removeEventListener('abort', stop);
    await pool.destroy();
  }
  return results;
}
