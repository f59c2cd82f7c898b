/**
 * The worker-thread entry of the lint pool: a batch of tasks in, their
 * results out (batches keep per-message overhead off small files).
 */
import { runLintTaskSync, type LintTask, type TaskResult } from './tasks.js';

/** Runs a batch of lint tasks (tinypool calls the default export). */
export default function lintWorker(tasks: LintTask[]): TaskResult[] {
  return tasks.map(runLintTaskSync);
}
