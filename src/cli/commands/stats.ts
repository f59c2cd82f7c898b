/**
 * `histlint stats`: messages, tool calls and tokens per file and in total.
 */
import { Option, type Command } from 'commander';
import type { StatsFlags } from '../stats-run.js';
import { addReadOptions, collect, type CommandContext } from '../options.js';

/** Adds the command. */
export function registerStats(program: Command, ctx: CommandContext): void {
  addReadOptions(
    program
      .command('stats')
      .description(
        'messages by role, tool calls, results, dangling calls, orphans, tokens and bytes per file and in total',
      )
      .argument('[patterns...]', 'files, folders or globs; "-" for standard input'),
  )
    .addOption(
      new Option('-f, --format <name>', 'output format').choices(['text', 'json']).default('text'),
    )
    .addOption(
      new Option('--tokenizer <name>', 'tokenizer (default: o200k_base)').choices([
        'o200k_base',
        'cl100k_base',
      ]),
    )
    .option('--ignore <pattern>', 'skip files matching PATTERN (repeatable)', collect)
    .option('--no-error-on-unmatched-pattern', 'do not fail when a pattern matches no file')
    .option(
      '-c, --config <file>',
      'config file for from and pointer (default: histlint.config.json found upward)',
    )
    .action(async (patterns: string[], opts: StatsFlags) => {
      const { runStats } = await import('../stats-run.js');
      ctx.setExit(await runStats(patterns, opts, ctx.io));
    });
}
