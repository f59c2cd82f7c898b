/**
 * `histlint show FILE`: a readable timeline of one conversation.
 */
import { Option, type Command } from 'commander';
import type { ShowFlags } from '../show-run.js';
import {
  addReadOptions,
  collect,
  nonNegativeInt,
  targetOption,
  type CommandContext,
} from '../options.js';

/** Adds the command. */
export function registerShow(program: Command, ctx: CommandContext): void {
  addReadOptions(
    program
      .command('show')
      .description('a readable timeline of one conversation with pairing and findings')
      .argument(
        '[file]',
        'the file (a folder or glob that holds just one); "-" for standard input',
      ),
  )
    .addOption(
      new Option('-f, --format <name>', 'output format: a timeline, or JSON for machines')
        .choices(['text', 'json'])
        .default('text'),
    )
    .option('-c, --config <file>', 'use this config file for the findings')
    .addOption(targetOption())
    .option('--rule <id=severity>', 'set a rule to off, warn or error (repeatable)', collect)
    .option('--line <n>', 'for JSONL: only the conversation on line N', nonNegativeInt)
    .option(
      '--width <n>',
      'columns of text shown per part; 0 shows none (default: fit the terminal, or 60 when not a terminal)',
      nonNegativeInt,
    )
    .action(async (file: string | undefined, opts: ShowFlags) => {
      const { runShow } = await import('../show-run.js');
      ctx.setExit(await runShow(file, opts, ctx.io));
    });
}
