/**
 * `histlint lint`: validate and lint stored conversations (SPEC §3, §5.2).
 */
import { Option, type Command } from 'commander';
import { REPORTER_NAMES } from '../../names.js';
import type { LintFlags } from '../lint-run.js';
import {
  addReadOptions,
  breakLinksOption,
  collect,
  nonNegativeInt,
  positiveInt,
  targetOption,
  type CommandContext,
} from '../options.js';

/** Adds the command. */
export function registerLint(program: Command, ctx: CommandContext): void {
  addReadOptions(
    program
      .command('lint')
      .description(
        'validate and lint conversations (files, folders, globs; "-" for standard input)',
      )
      .argument('[patterns...]', 'files, folders or globs (default: the config\'s "files")'),
  )
    .addOption(
      new Option('-f, --format <name>', 'output format (default: stylish)').choices(REPORTER_NAMES),
    )
    .option('-o, --output-file <file>', 'write the report to FILE instead of standard output')
    .option(
      '-c, --config <file>',
      'use this config file instead of looking for histlint.config.json',
    )
    .option('--rule <id=severity>', 'set a rule to off, warn or error (repeatable)', collect)
    .option('--max-warnings <n>', 'exit 1 when there are more than N warnings', nonNegativeInt)
    .option('--quiet', 'report errors only')
    .option('--fix', 'apply the fixes of the enabled fixable rules, in place, then lint again')
    .option('--fix-dry-run', 'compute the fixes and report as if fixed, writing nothing')
    .option('--diff', 'print a unified diff of what --fix would write, writing nothing')
    .addOption(breakLinksOption())
    .option('--leave-pending', 'do not report the unanswered calls of a trailing assistant message')
    .option('--ignore <pattern>', 'skip files matching PATTERN (repeatable)', collect)
    .option('--no-error-on-unmatched-pattern', 'do not fail when a pattern matches no file')
    .addOption(targetOption())
    .option(
      '-j, --jobs <n>',
      'worker threads (default: the number of cores; 1 lints in this thread)',
      positiveInt,
    )
    .option('--shard <i/n>', 'lint only shard i of n of the file list (for CI matrices)')
    .option('--progress', 'show progress on standard error even when it is not a terminal')
    .option('--no-progress', 'never show progress')
    .option(
      '--suppress-all',
      'record every error in histlint-suppressions.json; later runs report only new ones',
    )
    .option('--suppress-rule <id>', "record only this rule's errors (repeatable)", collect)
    .option('--prune-suppressions', 'drop suppressions that no longer occur')
    .option(
      '--suppressions-location <file>',
      'the suppressions file (default: histlint-suppressions.json)',
    )
    .option('--cache', 'skip files unchanged since they were linted clean')
    .option('--cache-location <file>', 'the cache file (default: .histlintcache)')
    .option(
      '--print-config <file>',
      'print the config FILE would be linted with (after extends and overrides) as JSON; lint nothing',
    )
    .action(async (patterns: string[], opts: LintFlags) => {
      const { runLint } = await import('../lint-run.js');
      ctx.setExit(await runLint(patterns, opts, ctx.io));
    });
}
