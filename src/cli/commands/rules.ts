/**
 * `histlint rules`: every rule with its default severity, fix and docs.
 */
import { Option, type Command } from 'commander';
import { EXIT_OK } from '../exit-codes.js';
import { print } from '../io.js';
import type { CommandContext } from '../options.js';

/** Adds the command. */
export function registerRules(program: Command, ctx: CommandContext): void {
  program
    .command('rules')
    .description('list the lint rules: id, default severity, fixable, docs')
    .addOption(
      new Option('-f, --format <name>', 'output format').choices(['text', 'json']).default('text'),
    )
    .action(async (opts: { format: 'text' | 'json' }) => {
      const { RULES, ruleDocsUrl } = await import('../../rules/index.js');
      const rows = RULES.map((r) => ({
        id: r.meta.id,
        defaultSeverity: r.meta.defaultSeverity,
        fixable: r.meta.fixable === false ? null : r.meta.fixable,
        description: r.meta.description,
        docs: ruleDocsUrl(r.meta.id),
        ...(r.meta.target === undefined ? {} : { target: r.meta.target }),
      }));
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
