/**
 * The worker-thread entry of the lint pool: a batch of tasks in, their
 * results out. A batch names each distinct set of options once, so the
 * per-file message stays small (structured cloning runs on the main thread).
 */
import { runLintTaskSync, type LintTask, type TaskOptions, type TaskResult } from './tasks.js';

/** A batch as it crosses to a worker: options listed once, tasks pointing at them. */
export interface PackedBatch {
  options: TaskOptions[];
  tasks: {
    file: string;
    absolute: string;
    options: number;
    range?: { start: number; end: number };
  }[];
}

/** Packs tasks for a worker, listing each options object once. */
export function packBatch(tasks: readonly LintTask[]): PackedBatch {
  const options: TaskOptions[] = [];
  const index = new Map<TaskOptions, number>();
  const packed: PackedBatch['tasks'] = [];
  for (const t of tasks) {
    let k = index.get(t.options);
    if (k === undefined) {
      k = options.length;
      options.push(t.options);
      index.set(t.options, k);
    }
    const p: PackedBatch['tasks'][number] = { file: t.file, absolute: t.absolute, options: k };
    if (t.range !== undefined) p.range = t.range;
    packed.push(p);
  }
  return { options, tasks: packed };
}

/** Runs a packed batch of lint tasks (tinypool calls the default export). */
export default function lintWorker(batch: PackedBatch): TaskResult[] {
  return batch.tasks.map((t) => {
    const task: LintTask = {
      file: t.file,
      absolute: t.absolute,
      options: batch.options[t.options]!,
    };
    if (t.range !== undefined) task.range = t.range;
    return runLintTaskSync(task);
  });
}
