/**
 * Unified diffs of what a command would write (`--diff` on normalize,
 * sanitize, trim and `lint --fix`), in the form `git apply -p1` and `patch -p1`
 * take: `--- a/FILE`, `+++ b/FILE`, hunks with three lines of context.
 */
import { createTwoFilesPatch } from 'diff';
import type { ChalkInstance } from 'chalk';

/** The diff from `before` to `after` of the file shown as `display`; '' when they are equal. */
export function unifiedDiff(display: string, before: string, after: string): string {
  if (before === after) return '';
  const patch = createTwoFilesPatch(`a/${display}`, `b/${display}`, before, after, '', '', {
    context: 3,
  });
  // The library starts with a line of "=" (its Index: form); git's form starts at "---".
  return patch.replace(/^=+\n/, '').replace(/^(--- .*?)\t\n(\+\+\+ .*?)\t\n/, '$1\n$2\n');
}

/** A diff with removed lines red and added lines green (headers bold), for a terminal. */
export function colorDiff(patch: string, chalk: ChalkInstance): string {
  if (chalk.level === 0) return patch;
  return patch
    .split('\n')
    .map((line) => {
      if (line.startsWith('--- ') || line.startsWith('+++ ')) return chalk.bold(line);
      if (line.startsWith('@@')) return chalk.cyan(line);
      if (line.startsWith('-')) return chalk.red(line);
      if (line.startsWith('+')) return chalk.green(line);
      return line;
    })
    .join('\n');
}
