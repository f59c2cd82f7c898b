/**
 * `histlint convert FILE --to FORMAT`: one stored format to another through
 * the v1 model (SPEC §4). What the target cannot express is refused unless
 * `--lossy`, which converts and reports each loss.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { SESSION_FORMATS, TO_CHOICES } from '../../names.js';
import { UsageError } from '../exit-codes.js';
import { addTransformOptions, type CommandContext } from '../options.js';
import type { TransformFlags } from '../transform.js';

/** Adds the command. */
export function registerConvert(program: Command, ctx: CommandContext): void {
  addTransformOptions(
    program
      .command('convert')
      .description('convert a conversation to another stored format')
      .argument(
        '[files...]',
        'the file (or files, folders and globs with --out-dir or --write); "-" for standard input',
      ),
  )
    .addOption(
      new Option('--to <format>', 'the format to write')
        .choices(TO_CHOICES)
        .argParser(toChoice)
        .makeOptionMandatory(),
    )
    .option('--lossy', 'convert even what the target cannot express, and report each loss')
    .action(async (files: string[], opts: TransformFlags & { to: string; lossy?: boolean }) => {
      const { runTransform } = await import('../transform.js');
      const { convertOperation } = await import('../operations.js');
      const { formatByName } = await import('../../formats/index.js');
      const to = formatByName(opts.to);
      if (to === undefined) throw new UsageError(`--to: unknown format "${opts.to}"`);
      ctx.setExit(
        await runTransform(convertOperation(to, opts.lossy === true), files, opts, ctx.io),
      );
    });
}

/** `--to`: a format any conversation can be written in; a session format is refused with why. */
function toChoice(value: string): string {
  if ((SESSION_FORMATS as readonly string[]).includes(value))
    throw new InvalidArgumentError(
      `${value} is a session format: histlint writes a session only back into the file it was read from (normalize, sanitize, lint --fix)`,
    );
  if (!(TO_CHOICES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`Allowed choices are ${TO_CHOICES.join(', ')}.`);
  return value;
}
