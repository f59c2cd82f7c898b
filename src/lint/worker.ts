/**
 * The worker-thread entry of the lint pool: one task in, its result out.
 */
import { runLintTask, type LintTask, type TaskResult } from './tasks.js';

/** Runs one lint task (tinypool calls the default export). */
export default function lintWorker(task: LintTask): Promise<TaskResult> {
  return runLintTask(task);
}
