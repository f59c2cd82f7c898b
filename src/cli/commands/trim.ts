/**
 * `histlint trim`: keep the newest messages by count or token budget (SPEC §2.3).
 */
import { Option, type Command } from 'commander';
import { UsageError } from '../exit-codes.js';
import { addTransformOptions, nonNegativeInt, type CommandContext } from '../options.js';
import type { TransformFlags } from '../transform.js';

interface TrimFlags extends TransformFlags {
  maxMessages?: number;
  maxTokens?: number;
  tokenizer?: 'o200k_base' | 'cl100k_base';
  keepSystem?: boolean;
}

/** Adds the command. */
export function registerTrim(program: Command, ctx: CommandContext): void {
  addTransformOptions(
    program
      .command('trim')
      .description(
        'keep the newest messages by count or token budget, never splitting a call from its results',
      )
      .argument('[files...]', 'files, folders or globs; "-" for standard input'),
  )
    .option('--max-messages <n>', 'keep at most N messages', nonNegativeInt)
    .option(
      '--max-tokens <n>',
      'keep at most N tokens (see the README for the counting rule)',
      nonNegativeInt,
    )
    .addOption(
      new Option('--tokenizer <name>', 'tokenizer for --max-tokens (default: o200k_base)').choices([
        'o200k_base',
        'cl100k_base',
      ]),
    )
    .option('--keep-system', 'keep leading system messages in front, not counted against the limit')
    .action(async (files: string[], opts: TrimFlags) => {
      if ((opts.maxMessages === undefined) === (opts.maxTokens === undefined)) {
        throw new UsageError('trim needs exactly one of --max-messages N or --max-tokens N');
      }
      if (opts.tokenizer !== undefined && opts.maxTokens === undefined) {
        throw new UsageError('--tokenizer applies to --max-tokens only');
      }
      const { runTransform } = await import('../transform.js');
      const { trimOperation } = await import('../operations.js');
      let limit: Parameters<typeof trimOperation>[0];
      if (opts.maxMessages !== undefined) {
        limit = { maxMessages: opts.maxMessages };
      } else {
        // The BPE tables are large: loaded only for --max-tokens.
        const { loadTokenCounter } = await import('../../core/tokens.js');
        limit = {
          maxTokens: opts.maxTokens!,
          countTokens: await loadTokenCounter(opts.tokenizer ?? 'o200k_base'),
        };
      }
      ctx.setExit(
        await runTransform(trimOperation(limit, opts.keepSystem === true), files, opts, ctx.io),
      );
    });
}
