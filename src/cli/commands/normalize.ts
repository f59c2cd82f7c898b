/**
 * `histlint normalize`: repair call/result pairing (SPEC §2.1).
 */
import type { Command } from 'commander';
import {
  addTransformOptions,
  duplicatesOption,
  targetOption,
  type CommandContext,
} from '../options.js';
import type { TransformFlags } from '../transform.js';

interface NormalizeFlags extends TransformFlags {
  duplicates: 'keep-first' | 'keep-last';
  leavePending?: boolean;
}

/** Adds the command. */
export function registerNormalize(program: Command, ctx: CommandContext): void {
  addTransformOptions(
    program
      .command('normalize')
      .description('repair tool call/result pairing and print what changed')
      .argument('[files...]', 'files, folders or globs; "-" for standard input'),
  )
    .addOption(duplicatesOption())
    .addOption(targetOption())
    .option(
      '--leave-pending',
      'leave unanswered calls of a trailing assistant message for a resumed run',
    )
    .action(async (files: string[], opts: NormalizeFlags) => {
      const { runTransform } = await import('../transform.js');
      const { normalizeOperation } = await import('../operations.js');
      const op = normalizeOperation({
        duplicates: opts.duplicates,
        leavePending: opts.leavePending === true,
      });
      ctx.setExit(await runTransform(op, files, opts, ctx.io));
    });
}
