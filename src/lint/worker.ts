/**
 * The worker-thread entry of the lint pool. A worker receives the whole work
 * list once and takes batches from it itself, by bumping a counter it shares
 * with the other threads, until none is left; each batch's results go back
 * as soon as they are ready. No thread waits for another to hand it work, so
 * a busy main thread never leaves a worker idle.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { runLintTaskSync, type LintTask, type TaskOptions, type TaskResult } from './tasks.js';

/** Tasks as they cross to a worker: each distinct options object listed once, tasks pointing at it. */
export interface PackedTasks {
  options: TaskOptions[];
  tasks: {
    file: string;
    absolute: string;
    options: number;
    range?: { start: number; end: number };
  }[];
}

/** The work list a worker runs: batch b is tasks [bounds[b], bounds[b + 1]). */
export interface WorkOrder extends PackedTasks {
  bounds: number[];
  /** The next batch to take, shared by every thread of the run (an Int32Array over a SharedArrayBuffer). */
  next: Int32Array;
}

/** What a worker posts: each batch's results as it finishes it, then `null` when no batch is left. */
export type WorkerMessage = { batch: number; results: TaskResult[] } | null;

/** The `workerData` that marks a thread as a lint worker (and not some other thread importing this module). */
export const WORKER_MARK = 'histlint-lint-worker';

/** Packs tasks for a worker, listing each options object once. */
export function packTasks(tasks: readonly LintTask[]): PackedTasks {
  const options: TaskOptions[] = [];
  const index = new Map<TaskOptions, number>();
  const packed: PackedTasks['tasks'] = [];
  for (const t of tasks) {
    let k = index.get(t.options);
    if (k === undefined) {
      k = options.length;
      options.push(t.options);
      index.set(t.options, k);
    }
    const p: PackedTasks['tasks'][number] = { file: t.file, absolute: t.absolute, options: k };
    if (t.range !== undefined) p.range = t.range;
    packed.push(p);
  }
  return { options, tasks: packed };
}

/** Takes the next batch number from the shared counter; -1 when all are taken. */
export function takeBatch(next: Int32Array, count: number): number {
  const b = Atomics.add(next, 0, 1);
  return b < count ? b : -1;
}

/** Runs batches of a work order until none is left, posting each batch's results; returns how many it ran. */
export function runOrder(order: WorkOrder, post: (m: WorkerMessage) => void): number {
  const count = order.bounds.length - 1;
  let ran = 0;
  for (let b = takeBatch(order.next, count); b !== -1; b = takeBatch(order.next, count)) {
    const results: TaskResult[] = [];
    for (let k = order.bounds[b]!; k < order.bounds[b + 1]!; k++) {
      const t = order.tasks[k]!;
      const task: LintTask = {
        file: t.file,
        absolute: t.absolute,
        options: order.options[t.options]!,
      };
      if (t.range !== undefined) task.range = t.range;
      results.push(runLintTaskSync(task));
    }
    post({ batch: b, results });
    ran++;
  }
  post(null);
  return ran;
}

// In a lint worker thread: each order posted to the thread is run, its results posted back.
if (!isMainThread && parentPort !== null && workerData === WORKER_MARK) {
  const port = parentPort;
  port.on('message', (order: WorkOrder) => {
    runOrder(order, (m) => port.postMessage(m));
  });
}
