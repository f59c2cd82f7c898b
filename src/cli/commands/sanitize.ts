/**
 * `histlint sanitize`: strip what an untrusted client must not assert (SPEC §2.2).
 */
import type { Command } from 'commander';
import { addTransformOptions, duplicatesOption, type CommandContext } from '../options.js';
import type { TransformFlags } from '../transform.js';

/** Adds the command. */
export function registerSanitize(program: Command, ctx: CommandContext): void {
  addTransformOptions(
    program
      .command('sanitize')
      .description(
        'drop system messages and non-http(s) media URLs, repair pairing, report every drop',
      )
      .argument('[files...]', 'files or globs; "-" for standard input'),
  )
    .addOption(duplicatesOption())
    .action(
      async (
        files: string[],
        opts: TransformFlags & { duplicates: 'keep-first' | 'keep-last' },
      ) => {
        const { runTransform } = await import('../transform.js');
        const { sanitizeOperation } = await import('../operations.js');
        ctx.setExit(
          await runTransform(
            sanitizeOperation({ duplicates: opts.duplicates }),
            files,
            opts,
            ctx.io,
          ),
        );
      },
    );
}
