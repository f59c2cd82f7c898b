/**
 * `histlint id`: print new UUIDv7s (SPEC §2.4).
 */
import type { Command } from 'commander';
import { EXIT_OK } from '../exit-codes.js';
import { print } from '../io.js';
import { nonNegativeInt, type CommandContext } from '../options.js';

/** Adds the command. */
export function registerId(program: Command, ctx: CommandContext): void {
  program
    .command('id')
    .description('print a new UUIDv7')
    .option('-n, --count <n>', 'print N ids, one per line, in increasing order', nonNegativeInt, 1)
    .action(async (opts: { count: number }) => {
      const { newId } = await import('../../core/ids.js');
      const ids: string[] = [];
      for (let k = 0; k < opts.count; k++) ids.push(newId());
      print(ctx.io.stdout, ids.map((id) => id + '\n').join(''));
      ctx.setExit(EXIT_OK);
    });
}
