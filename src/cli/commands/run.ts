/**
 * `histlint run [HISTORY] --prompt TEXT ...`: one agent run on a repaired
 * history (SPEC §2.5, §5.4). The runner, the agent and the provider SDKs are
 * loaded only when the command runs.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  addReadOptions,
  breakLinksOption,
  collect,
  nonNegativeInt,
  positiveInt,
  type CommandContext,
} from '../options.js';
import type { RunFlags } from '../agent-run.js';

/** The longest timeout node's timers can hold (2^31 - 1 ms); a longer one would fire at once. */
const MAX_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** Parses a number of seconds above 0 (decimals allowed), at most MAX_SECONDS. */
function seconds(value: string): number {
  if (!/^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/.test(value) || !(Number(value) > 0))
    throw new InvalidArgumentError('expected a number of seconds above 0');
  if (Number(value) > MAX_SECONDS)
    throw new InvalidArgumentError(`expected at most ${MAX_SECONDS} seconds (about 24 days)`);
  return Number(value);
}

/** Adds the command. */
export function registerRun(program: Command, ctx: CommandContext): void {
  addReadOptions(
    program
      .command('run')
      .description('run one agent turn on a repaired history, with tools from MCP servers')
      .argument(
        '[history]',
        'the history file; "-" for standard input; none reads standard input when it is not a terminal, else starts a new conversation',
      ),
  )
    .option(
      '--prompt <text>',
      'the user message to send (optional when the history ends with a user message or tool results)',
    )
    .addOption(
      new Option(
        '--provider <name>',
        'openai (Chat Completions, any compatible server) or anthropic',
      )
        .choices(['openai', 'anthropic'])
        .default('openai'),
    )
    .requiredOption('--model <name>', 'the model name')
    .option(
      '--base-url <url>',
      'the API base URL, e.g. http://127.0.0.1:8080/v1 for a local server',
    )
    .option(
      '--api-key-env <name>',
      'the environment variable holding the API key (default OPENAI_API_KEY / ANTHROPIC_API_KEY)',
    )
    .option('--instructions <text>', 'instructions for the model (repeatable)', collect)
    .option('--instructions-file <file>', "adds the file's text after the --instructions text")
    .option(
      '--mcp <command>',
      'tools from an MCP server over stdio: "COMMAND ARGS" (repeatable)',
      collect,
    )
    .option('--max-steps <n>', 'model requests per run', positiveInt, 10)
    .option(
      '--max-retries <n>',
      'retries per request on 429, 5xx and network errors',
      nonNegativeInt,
      2,
    )
    .option('--timeout <seconds>', 'timeout of each model request (default 600)', seconds)
    .option('--tool-timeout <seconds>', 'timeout of each MCP tool call (default 60)', seconds)
    .option(
      '--max-output-tokens <n>',
      'most tokens per reply (default: the server decides; anthropic 4096)',
      positiveInt,
    )
    .option(
      '--max-messages <n>',
      'send at most the newest N messages of the history',
      nonNegativeInt,
    )
    .option(
      '--max-tokens <n>',
      'send at most N tokens of the history (the trim counting rule)',
      nonNegativeInt,
    )
    .addOption(
      new Option('--tokenizer <name>', 'tokenizer for --max-tokens (default: o200k_base)').choices([
        'o200k_base',
        'cl100k_base',
      ]),
    )
    .option('--run-id <id>', "the run's id (default: a new UUIDv7)")
    .option(
      '--conversation-id <id>',
      "the conversation's id (default: the history's newest, else a new one)",
    )
    .option('--fork', 'continue the history under a new conversation id')
    .option('-o, --output-file <file>', 'write the resulting conversation to FILE')
    .option('--write', 'replace the history file with the resulting conversation, atomically')
    .addOption(breakLinksOption())
    .action(async (history: string | undefined, opts: RunFlags) => {
      const { runAgentCommand } = await import('../agent-run.js');
      ctx.setExit(await runAgentCommand(history, opts, ctx.io));
    });
}
