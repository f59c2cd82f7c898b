/**
 * `histlint rules`: every rule with its default severity, fix and docs;
 * `histlint rules ID`: that rule's docs page (its metadata without one).
 */
import { Option, type Command } from 'commander';
import { EXIT_OK, UsageError } from '../exit-codes.js';
import { print } from '../io.js';
import type { CommandContext } from '../options.js';

/** Adds the command. */
export function registerRules(program: Command, ctx: CommandContext): void {
  program
    .command('rules')
    .description('list the lint rules: id, default severity, fixable, docs; or show one rule')
    .argument('[id]', "a rule id: print that rule's docs page (-f json: its metadata)")
    .addOption(
      new Option('-f, --format <name>', 'output format').choices(['text', 'json']).default('text'),
    )
    .action(async (id: string | undefined, opts: { format: 'text' | 'json' }) => {
      const { RULES, ruleById, ruleDocsUrl } = await import('../../rules/index.js');
      const rowOf = (r: (typeof RULES)[number]) => ({
        id: r.meta.id,
        defaultSeverity: r.meta.defaultSeverity,
        fixable: r.meta.fixable === false ? null : r.meta.fixable,
        description: r.meta.description,
        docs: ruleDocsUrl(r.meta.id),
        ...(r.meta.target === undefined ? {} : { target: r.meta.target }),
      });
      if (id !== undefined) {
        const rule = ruleById(id);
        if (rule === undefined) {
          const { didYouMean } = await import('../../model/suggest.js');
          throw new UsageError(
            `unknown rule "${id}"${didYouMean(
              id,
              RULES.map((r) => r.meta.id),
            )} (see "histlint rules")`,
          );
        }
        const row = rowOf(rule);
        if (opts.format === 'json') {
          print(ctx.io.stdout, JSON.stringify(row, null, 2) + '\n');
        } else {
          const { ruleDocsPage } = await import('../package-info.js');
          print(ctx.io.stdout, ruleDocsPage(id) ?? ruleSummary(row));
        }
        ctx.setExit(EXIT_OK);
        return;
      }
      const rows = RULES.map(rowOf);
      if (opts.format === 'json') {
        print(ctx.io.stdout, JSON.stringify(rows, null, 2) + '\n');
      } else {
        const w = Math.max(...rows.map((r) => r.id.length));
        const lines = rows.map(
          (r) =>
            `${r.id.padEnd(w)}  ${r.defaultSeverity.padEnd(7)}  ${(r.fixable === null ? '-' : `fix: ${r.fixable}`).padEnd(19)}  ${r.description}\n${' '.repeat(w + 2)}${r.docs}`,
        );
        print(
          ctx.io.stdout,
          `${'id'.padEnd(w)}  ${'default'}  ${'fixable'.padEnd(19)}  description\n${lines.join('\n')}\n`,
        );
      }
      ctx.setExit(EXIT_OK);
    });
}

/** A rule's metadata as text, for a rule without a docs page. */
function ruleSummary(row: {
  id: string;
  defaultSeverity: string;
  fixable: string | null;
  description: string;
  docs: string;
  target?: string;
}): string {
  const lines = [
    row.id,
    '',
    row.description,
    '',
    `default severity: ${row.defaultSeverity}`,
    `fixable: ${row.fixable ?? 'no'}`,
  ];
  if (row.target !== undefined) lines.push(`target: ${row.target}`);
  lines.push(`docs: ${row.docs}`);
  return lines.join('\n') + '\n';
}
