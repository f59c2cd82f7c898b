/**
 * `histlint sanitize`: strip what an untrusted client must not assert (SPEC §2.2).
 */
import type { Command } from 'commander';
import { UsageError } from '../exit-codes.js';
import { addTransformOptions, duplicatesOption, type CommandContext } from '../options.js';
import type { TransformFlags } from '../transform.js';

interface SanitizeFlags extends TransformFlags {
  duplicates: 'keep-first' | 'keep-last';
  dropUnresolvedCalls?: boolean;
  resolved?: string[];
}

/** Collects `--resolved` ids: comma-separated, and the flag repeatable. */
function collectIds(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(',').filter((id) => id !== '')];
}

/** Adds the command. */
export function registerSanitize(program: Command, ctx: CommandContext): void {
  addTransformOptions(
    program
      .command('sanitize')
      .description(
        'drop system messages and non-http(s) media URLs, repair pairing, report every drop',
      )
      .argument('[files...]', 'files, folders or globs; "-" for standard input'),
  )
    .addOption(duplicatesOption())
    .option(
      '--drop-unresolved-calls',
      'remove the unanswered calls of the last assistant message (and the message if left empty) instead of synthesizing "interrupted" results for them',
    )
    .option(
      '--resolved <ids>',
      'with --drop-unresolved-calls: keep the calls with these ids (comma-separated, repeatable); they get the usual synthesized result',
      collectIds,
    )
    .action(async (files: string[], opts: SanitizeFlags) => {
      if (opts.resolved !== undefined && opts.dropUnresolvedCalls !== true) {
        throw new UsageError('--resolved applies to --drop-unresolved-calls only');
      }
      const { runTransform } = await import('../transform.js');
      const { sanitizeOperation } = await import('../operations.js');
      const op = sanitizeOperation({
        duplicates: opts.duplicates,
        ...(opts.dropUnresolvedCalls === true
          ? { dropUnresolvedCalls: true, resolved: opts.resolved ?? [] }
          : {}),
      });
      ctx.setExit(await runTransform(op, files, opts, ctx.io));
    });
}
