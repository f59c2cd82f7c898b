/**
 * Runs lint tasks on `--jobs` threads: this thread and `jobs - 1` worker
 * threads (tinypool), or this thread alone for `--jobs 1`. Work travels in
 * batches from one shared queue; results come back in task order, so output
 * does not depend on the number of jobs.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runLintTaskSync, type LintTask, type TaskResult } from './tasks.js';
import { packBatch } from './worker.js';

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

/** A batch closes at this many tasks or this many bytes (a byte range is always alone). */
const BATCH_TASKS = 256;
const BATCH_BYTES = 16 * 1024 * 1024;

/** Batches handed to each worker thread at a time. */
const LANES_PER_THREAD = 2;

/** This thread lets pending events (worker replies, Ctrl-C) run after this many of its own tasks. */
const YIELD_EVERY = 64;

/** Groups consecutive tasks into batches by count and size. */
export function batchTasks(tasks: readonly LintTask[], sizes: readonly number[]): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  tasks.forEach((task, k) => {
    if (task.range !== undefined) {
      if (current.length > 0) batches.push(current);
      batches.push([k]);
      current = [];
      bytes = 0;
      return;
    }
    current.push(k);
    bytes += sizes[k] ?? 0;
    if (current.length >= BATCH_TASKS || bytes >= BATCH_BYTES) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
  });
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Worker threads started ahead of the work, so they load their code while this thread prepares tasks. */
export interface LintPool {
  /** How many worker threads run besides this one. */
  readonly threads: number;
  run(tasks: LintTask[]): Promise<TaskResult[]>;
  destroy(): Promise<void>;
}

/**
 * Starts the worker threads of `jobs` jobs: `jobs - 1`, since this thread
 * lints too. Returns null for one job, or when the built worker is missing
 * (as in tests of src/).
 */
export async function startPool(jobs: number): Promise<LintPool | null> {
  const threads = jobs - 1;
  if (threads < 1 || WORKER === undefined) return null;
  const { default: Tinypool } = await import('tinypool');
  const pool = new Tinypool({
    filename: WORKER,
    minThreads: threads,
    maxThreads: threads,
    // Each thread holds a second batch: a batch handed over only when the previous one returns
    // would wait while this thread is busy with its own work and cannot hear the worker.
    concurrentTasksPerWorker: LANES_PER_THREAD,
    idleTimeout: 100,
  });
  return {
    threads,
    run: (batch) => pool.run(packBatch(batch)) as Promise<TaskResult[]>,
    destroy: () => pool.destroy(),
  };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs tasks on this thread and the pool's threads (this thread alone when
 * there is no pool); `onResult` sees each result as it completes. The pool
 * is destroyed at the end.
 */
export async function runTasks(
  tasks: readonly LintTask[],
  pool: LintPool | null,
  onResult: (result: TaskResult, index: number) => void = () => undefined,
  signal?: AbortSignal,
  sizes: readonly number[] = [],
): Promise<(TaskResult | undefined)[]> {
  const results: (TaskResult | undefined)[] = new Array(tasks.length);
  const store = (k: number, result: TaskResult): void => {
    results[k] = result;
    onResult(result, k);
  };
  if (pool === null || tasks.length <= 1) {
    await pool?.destroy();
    for (let k = 0; k < tasks.length; k++) {
      if (signal?.aborted) break;
      store(k, runLintTaskSync(tasks[k]!));
      // Let a Ctrl-C handler run between files.
      if (k % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
    }
    return results;
  }
  const batches = batchTasks(tasks, sizes);
  let next = 0;
  const aborted = (): boolean => signal?.aborted === true;
  // One listener for the whole run (not one per batch): Ctrl-C stops the threads, pending batches fail.
  const stop = (): void => void pool.destroy();
  signal?.addEventListener('abort', stop, { once: true });

  // A worker lane hands the pool one batch at a time; with two lanes per thread, a worker always
  // holds its next batch, even while this thread is busy with its own and cannot hand one out.
  const workerLane = async (): Promise<void> => {
    while (next < batches.length && !aborted()) {
      const batch = batches[next++]!;
      try {
        const out = await pool.run(batch.map((k) => tasks[k]!));
        batch.forEach((k, i) => store(k, out[i]!));
      } catch (e) {
        // An aborted batch leaves its slots empty; anything else is a bug to surface.
        if (!aborted()) throw e;
      }
    }
  };
  // This thread's lane: it lints too, from the first moment, while the workers load their code.
  const ownLane = async (): Promise<void> => {
    let done = 0;
    while (next < batches.length && !aborted()) {
      for (const k of batches[next++]!) {
        if (aborted()) return;
        store(k, runLintTaskSync(tasks[k]!));
        if (++done % YIELD_EVERY === 0 || tasks[k]!.range !== undefined) await nextTurn();
      }
      await nextTurn();
    }
  };
  try {
    // Worker lanes first: an async function runs up to its first await at once, and this
    // thread's lane would otherwise finish a task before the workers were handed any.
    const lanes: Promise<void>[] = [];
    for (let t = 0; t < pool.threads * LANES_PER_THREAD; t++) lanes.push(workerLane());
    lanes.push(ownLane());
    await Promise.all(lanes);
  } finally {
    signal?.removeEventListener('abort', stop);
    await pool.destroy();
  }
  return results;
}
