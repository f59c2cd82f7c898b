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

/** The widest a finding's lines get, unless one word is longer (no word is ever cut). */
export const STYLISH_WIDTH = 120;
/** The narrowest the message column gets, however long the other columns are. */
const MIN_MESSAGE_WIDTH = 40;
/** The widest the position column is padded to (a longer `line:column` shifts only its own row). */
const MAX_POSITION_WIDTH = 10;

/**
 * A finding's message split where it quotes the provider's rejection
 * (`...; Anthropic rejects it: "..."`): the finding, and the quoted text, which
 * stylish puts on a line of its own. Without such a quote, the whole message.
 */
export function splitProviderQuote(message: string): { text: string; quote?: string } {
  const m = /^(.*?\brejects\b[^"]*?):\s+(".*")$/s.exec(message);
  return m === null ? { text: message } : { text: m[1]!, quote: m[2]! };
}

/** `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole). */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  return lines;
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
    // One line per finding within STYLISH_WIDTH: the provider's quoted rejection goes on an
    // indented line below, a message too long for its column wraps below itself, and no column
    // is padded past what the width allows (one long message does not push the others out).
    const split = rows.map((r) => splitProviderQuote(r[2]!));
    const w0 = Math.min(Math.max(...rows.map((r) => r[0]!.length)), MAX_POSITION_WIDTH);
    const w1 = Math.max(...rows.map((r) => r[1]!.length));
    const indent = 2 + w0 + 2 + w1 + 2;
    const idWidth = Math.max(...rows.map((r) => r[3]!.length));
    const room = Math.max(STYLISH_WIDTH - indent - 2 - idWidth, MIN_MESSAGE_WIDTH);
    const w2 = Math.min(Math.max(...split.map((m) => m.text.length)), room);
    const below = ' '.repeat(indent);
    rows.forEach(([pos, sev, , id], i) => {
      const sevText = sev === 'error' ? c.red(sev!.padEnd(w1)) : c.yellow(sev!.padEnd(w1));
      const [first, ...rest] = wrapText(split[i]!.text, w2);
      out.push(`  ${c.dim(pos!.padEnd(w0))}  ${sevText}  ${first!.padEnd(w2)}  ${c.dim(id)}`);
      for (const line of rest) out.push(below + line);
      const quote = split[i]!.quote;
      if (quote !== undefined) {
        const lines = wrapText(quote, Math.max(STYLISH_WIDTH - indent - 2, MIN_MESSAGE_WIDTH));
        for (const line of lines) out.push(`${below}  ${c.dim(line)}`);
      }
    });
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
