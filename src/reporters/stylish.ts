/**
 * The `stylish` reporter: findings grouped by file, aligned columns, a
 * summary line (ESLint's layout, which CI logs and editors recognize).
 */
import { Chalk } from 'chalk';
import { isFixable } from './json.js';
import { terminalSafe } from './terminal.js';
import type { Reporter } from './types.js';

/** One line a terminal shows as written: line breaks become spaces, other controls `\uXXXX`. */
function terminalLine(s: string): string {
  return terminalSafe(s.replace(/\r?\n/g, ' '));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Renders results for a terminal. */
export const stylishReporter: Reporter = (results, ctx) => {
  const c = new Chalk({ level: ctx.color ? 1 : 0 });
  const out: string[] = [];
  let fixable = 0;
  let unreadable = 0;
  for (const file of results.files) {
    if (file.error === undefined && file.findings.length === 0) continue;
    out.push(c.underline(terminalLine(file.file)));
    // A file that could not be read (or, with --fix, written): the error first, then any findings.
    if (file.error !== undefined) {
      unreadable++;
      out.push(`  ${c.red('error')}  ${terminalLine(file.error.message)}`);
      if (file.findings.length === 0) {
        out.push('');
        continue;
      }
    }
    const rows = file.findings.map((f) => {
      if (isFixable(f, file)) fixable++;
      return [
        `${f.line}:${f.column}`,
        f.severity === 'error' ? 'error' : 'warning',
        terminalLine(f.message),
        f.ruleId,
      ];
    });
    const w0 = Math.max(...rows.map((r) => r[0]!.length));
    const w1 = Math.max(...rows.map((r) => r[1]!.length));
    const w2 = Math.max(...rows.map((r) => r[2]!.length));
    for (const [pos, sev, msg, id] of rows) {
      const sevText = sev === 'error' ? c.red(sev!.padEnd(w1)) : c.yellow(sev!.padEnd(w1));
      out.push(`  ${c.dim(pos!.padEnd(w0))}  ${sevText}  ${msg!.padEnd(w2)}  ${c.dim(id)}`);
    }
    out.push('');
  }
  const total = results.errorCount + results.warningCount;
  if (total === 0 && unreadable === 0) return '';
  if (total === 0) return out.join('\n') + '\n';
  const summary = `✖ ${plural(total, 'problem')} (${plural(results.errorCount, 'error')}, ${plural(results.warningCount, 'warning')})`;
  out.push(results.errorCount > 0 ? c.red.bold(summary) : c.yellow.bold(summary));
  if (fixable > 0)
    out.push(
      c.dim(`  ${plural(fixable, 'problem')} potentially fixable with the \`--fix\` option.`),
    );
  return out.join('\n') + '\n';
};
