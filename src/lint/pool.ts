/**
 * Runs lint tasks on worker threads (tinypool), or in this thread for
 * `--jobs 1`. Results come back in task order, so output does not depend
 * on the number of jobs.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runLintTask, type LintTask, type TaskResult } from './tasks.js';

/** The built worker: tests run from src/, whose .ts files a worker thread cannot load. */
const WORKER = fileURLToPath(new URL('../../dist/lint/worker.js', import.meta.url));

/** Runs tasks with up to `jobs` in flight; `onResult` sees each result as it completes. */
export async function runTasks(
  tasks: readonly LintTask[],
  jobs: number,
  onResult: (result: TaskResult, index: number) => void = () => undefined,
  signal?: AbortSignal,
): Promise<(TaskResult | undefined)[]> {
  const results: (TaskResult | undefined)[] = new Array(tasks.length);
  if (jobs <= 1 || tasks.length <= 1 || !existsSync(WORKER)) {
    for (let k = 0; k < tasks.length; k++) {
      if (signal?.aborted) break;
      results[k] = await runLintTask(tasks[k]!);
      onResult(results[k]!, k);
    }
    return results;
  }
  const { default: Tinypool } = await import('tinypool');
  const pool = new Tinypool({
    filename: WORKER,
    minThreads: 1,
    maxThreads: Math.min(jobs, tasks.length),
    idleTimeout: 100,
  });
  try {
    await Promise.all(
      tasks.map(async (task, k) => {
        if (signal?.aborted) return;
        try {
          const result = (await pool.run(
            task,
            signal === undefined ? {} : { signal },
          )) as TaskResult;
          results[k] = result;
          onResult(result, k);
        } catch (e) {
          // An aborted task leaves its slot empty; anything else is a bug to surface.
          if (!signal?.aborted) throw e;
        }
      }),
    );
  } finally {
    await pool.destroy();
  }
  return results;
}
