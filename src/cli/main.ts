/**
 * The command line: commander wiring only. `main` takes its I/O as an
 * argument and returns the exit code; it never exits the process.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { FROM_NAMES } from '../formats/index.js';
import { EXIT_OK, EXIT_USAGE, UsageError } from './exit-codes.js';
import { print, type Io } from './io.js';
import { packageVersion } from './package-info.js';
import { oneLine, type TransformFlags } from './transform.js';

function nonNegativeInt(value: string): number {
  if (!/^(0|[1-9][0-9]*)$/.test(value))
    throw new InvalidArgumentError('expected a whole number (0 or more)');
  return Number(value);
}

/** Options every command that reads conversations takes. */
function addReadOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--from <format>', 'input format').choices(FROM_NAMES).default('auto'))
    .option(
      '--pointer <pointer>',
      'JSON pointer to the conversation inside each document or JSONL line',
    )
    .option(
      '--stdin-filename <name>',
      'name standard input in reports (its extension picks JSON or JSONL)',
    )
    .option('--color', 'force colored output')
    .option('--no-color', 'disable colored output');
}

/** Output and report options of normalize, sanitize and trim (SPEC §5.1). */
function addTransformOptions(cmd: Command): Command {
  return addReadOptions(cmd)
    .option('-o, --output-file <file>', 'write the result to FILE (one input only)')
    .option(
      '--out-dir <dir>',
      'write each result under DIR, by its path relative to the working folder',
    )
    .option(
      '--write',
      'replace each input in place, atomically (unchanged inputs are not rewritten)',
    )
    .option('--check', 'write nothing; exit 1 if any input would change')
    .addOption(
      new Option('--report-format <format>', 'report on standard error as')
        .choices(['human', 'json'])
        .default('human'),
    )
    .option('--report-file <file>', 'also write the JSON report to FILE');
}

/** Builds the program; `setExit` receives each action's exit code. */
function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command('histlint');
  program
    .description('Lint, repair, sanitize and trim stored LLM conversation histories.')
    .version(packageVersion(), '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => print(io.stdout, s),
      writeErr: (s) => print(io.stderr, s),
      outputError: (s, write) => write(s.startsWith('error:') ? `histlint: ${s}` : s),
    });

  addTransformOptions(
    program
      .command('normalize')
      .description('repair tool call/result pairing and print what changed')
      .argument('[files...]', 'files or globs; "-" for standard input'),
  )
    .addOption(
      new Option('--duplicates <which>', 'which of several results for one call to keep')
        .choices(['keep-first', 'keep-last'])
        .default('keep-first'),
    )
    .option(
      '--leave-pending',
      'leave unanswered calls of a trailing assistant message for a resumed run',
    )
    .action(
      async (
        files: string[],
        opts: TransformFlags & { duplicates: 'keep-first' | 'keep-last'; leavePending?: boolean },
      ) => {
        const { runTransform } = await import('./transform.js');
        const { normalizeOperation } = await import('./operations.js');
        const op = normalizeOperation({
          duplicates: opts.duplicates,
          leavePending: opts.leavePending === true,
        });
        setExit(await runTransform(op, files, opts, io));
      },
    );

  addTransformOptions(
    program
      .command('sanitize')
      .description(
        'drop system messages and non-http(s) media URLs, repair pairing, report every drop',
      )
      .argument('[files...]', 'files or globs; "-" for standard input'),
  )
    .addOption(
      new Option('--duplicates <which>', 'which of several results for one call to keep')
        .choices(['keep-first', 'keep-last'])
        .default('keep-first'),
    )
    .action(
      async (
        files: string[],
        opts: TransformFlags & { duplicates: 'keep-first' | 'keep-last' },
      ) => {
        const { runTransform } = await import('./transform.js');
        const { sanitizeOperation } = await import('./operations.js');
        setExit(
          await runTransform(sanitizeOperation({ duplicates: opts.duplicates }), files, opts, io),
        );
      },
    );

  addTransformOptions(
    program
      .command('trim')
      .description(
        'keep the newest messages by count or token budget, never splitting a call from its results',
      )
      .argument('[files...]', 'files or globs; "-" for standard input'),
  )
    .option('--max-messages <n>', 'keep at most N messages', nonNegativeInt)
    .option(
      '--max-tokens <n>',
      'keep at most N tokens (see the README for the counting rule)',
      nonNegativeInt,
    )
    .addOption(
      new Option('--tokenizer <name>', 'tokenizer for --max-tokens').choices([
        'o200k_base',
        'cl100k_base',
      ]),
    )
    .option('--keep-system', 'keep leading system messages in front, not counted against the limit')
    .action(
      async (
        files: string[],
        opts: TransformFlags & {
          maxMessages?: number;
          maxTokens?: number;
          tokenizer?: 'o200k_base' | 'cl100k_base';
          keepSystem?: boolean;
        },
      ) => {
        if ((opts.maxMessages === undefined) === (opts.maxTokens === undefined)) {
          throw new UsageError('trim needs exactly one of --max-messages N or --max-tokens N');
        }
        if (opts.tokenizer !== undefined && opts.maxTokens === undefined) {
          throw new UsageError('--tokenizer applies to --max-tokens only');
        }
        const { runTransform } = await import('./transform.js');
        const { trimOperation } = await import('./operations.js');
        let limit: Parameters<typeof trimOperation>[0];
        if (opts.maxMessages !== undefined) limit = { maxMessages: opts.maxMessages };
        else {
          const { loadTokenCounter } = await import('../core/tokens.js');
          limit = {
            maxTokens: opts.maxTokens!,
            countTokens: await loadTokenCounter(opts.tokenizer ?? 'o200k_base'),
          };
        }
        setExit(
          await runTransform(trimOperation(limit, opts.keepSystem === true), files, opts, io),
        );
      },
    );

  program
    .command('schema')
    .description('print the JSON Schema of the conversation format')
    .action(async () => {
      const { schemaText } = await import('./package-info.js');
      print(io.stdout, schemaText('conversation.v1.schema.json'));
      setExit(EXIT_OK);
    });

  program
    .command('id')
    .description('print a new UUIDv7')
    .option('-n, --count <n>', 'print N ids, one per line, in increasing order', nonNegativeInt, 1)
    .action(async (opts: { count: number }) => {
      const { newId } = await import('../core/ids.js');
      const ids: string[] = [];
      for (let k = 0; k < opts.count; k++) ids.push(newId());
      print(io.stdout, ids.map((id) => id + '\n').join(''));
      setExit(EXIT_OK);
    });

  return program;
}

/** Runs histlint with the given I/O and returns the exit code. */
export async function main(io: Io): Promise<number> {
  let exit = EXIT_OK;
  const program = buildProgram(io, (code) => {
    exit = code;
  });
  try {
    if (io.argv.length === 0) {
      print(io.stderr, program.helpInformation());
      return EXIT_USAGE;
    }
    await program.parseAsync([...io.argv], { from: 'user' });
    return exit;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version are successes; every other commander error is a usage error.
      return e.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (e instanceof UsageError) {
      print(io.stderr, `histlint: ${e.message}\n`);
      return EXIT_USAGE;
    }
    print(io.stderr, `histlint: internal error: ${oneLine(e)}\n`);
    return EXIT_USAGE;
  }
}
