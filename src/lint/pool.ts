/**
 * Runs lint tasks on worker threads (tinypool), or in this thread for
 * `--jobs 1`. Small files travel in batches; results come back in task
 * order, so output does not depend on the number of jobs.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runLintTaskSync, type LintTask, type TaskResult } from './tasks.js';
import { packBatch } from './worker.js';

/** The built worker: tests run from src/, whose .ts files a worker thread cannot load. */
const WORKER = fileURLToPath(new URL('../../dist/lint/worker.js', import.meta.url));

/** A batch closes at this many tasks or this many bytes (a byte range is always alone). */
const BATCH_TASKS = 256;
const BATCH_BYTES = 16 * 1024 * 1024;

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

/** A worker pool started ahead of the work, so threads load their code while the main thread prepares tasks. */
export interface LintPool {
  run(tasks: LintTask[]): Promise<TaskResult[]>;
  destroy(): Promise<void>;
}

/** Starts `threads` worker threads (or returns null when the built worker is missing, as in tests of src/). */
export async function startPool(threads: number): Promise<LintPool | null> {
  if (threads <= 1 || !existsSync(WORKER)) return null;
  const { default: Tinypool } = await import('tinypool');
  const pool = new Tinypool({
    filename: WORKER,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 100,
  });
  return {
    run: (batch) => pool.run(packBatch(batch)) as Promise<TaskResult[]>,
    destroy: () => pool.destroy(),
  };
}

/**
 * Runs tasks on `pool` (or in this thread when there is none); `onResult`
 * sees each result as it completes. The pool is destroyed at the end.
 */
export async function runTasks(
  tasks: readonly LintTask[],
  pool: LintPool | null,
  onResult: (result: TaskResult, index: number) => void = () => undefined,
  signal?: AbortSignal,
  sizes: readonly number[] = [],
): Promise<(TaskResult | undefined)[]> {
  const results: (TaskResult | undefined)[] = new Array(tasks.length);
  if (pool === null || tasks.length <= 1) {
    await pool?.destroy();
    for (let k = 0; k < tasks.length; k++) {
      if (signal?.aborted) break;
      results[k] = runLintTaskSync(tasks[k]!);
      onResult(results[k]!, k);
      // Let a Ctrl-C handler run between files.
      if (k % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
    }
    return results;
  }
  const batches = batchTasks(tasks, sizes);
  // One listener for the whole run (not one per batch): Ctrl-C stops the threads, pending batches fail.
  const stop = (): void => void pool.destroy();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    await Promise.all(
      batches.map(async (batch) => {
        if (signal?.aborted) return;
        try {
          const out = await pool.run(batch.map((k) => tasks[k]!));
          batch.forEach((k, i) => {
            results[k] = out[i]!;
            onResult(out[i]!, k);
          });
        } catch (e) {
          // An aborted batch leaves its slots empty; anything else is a bug to surface.
          if (!signal?.aborted) throw e;
        }
      }),
    );
  } finally {
    signal?.removeEventListener('abort', stop);
    await pool.destroy();
  }
  return results;
}
