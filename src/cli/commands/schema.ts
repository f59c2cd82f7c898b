/**
 * `histlint schema`: print a bundled JSON Schema.
 */
import { Argument, type Command } from 'commander';
import { EXIT_OK } from '../exit-codes.js';
import { print } from '../io.js';
import type { CommandContext } from '../options.js';

/** Adds the command. */
export function registerSchema(program: Command, ctx: CommandContext): void {
  program
    .command('schema')
    .description('print the JSON Schema of the conversation format (or of the config file)')
    .addArgument(
      new Argument('[which]', 'which schema')
        .choices(['conversation', 'config'])
        .default('conversation'),
    )
    .action(async (which: 'conversation' | 'config') => {
      const { schemaText } = await import('../package-info.js');
      print(
        ctx.io.stdout,
        schemaText(which === 'config' ? 'config.v1.schema.json' : 'conversation.v1.schema.json'),
      );
      ctx.setExit(EXIT_OK);
    });
}
