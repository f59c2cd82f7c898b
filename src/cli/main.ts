/**
 * The command line: commander wiring only. `main` takes its I/O as an
 * argument and returns the exit code; it never exits the process. Each
 * command loads its code when it runs, so `--version` and `--help` stay fast.
 */
import { Command, CommanderError } from 'commander';
import { registerConvert } from './commands/convert.js';
import { registerId } from './commands/id.js';
import { registerInit } from './commands/init.js';
import { registerLint } from './commands/lint.js';
import { registerMergeReports } from './commands/merge-reports.js';
import { registerNormalize } from './commands/normalize.js';
import { registerRules } from './commands/rules.js';
import { registerRun } from './commands/run.js';
import { registerSanitize } from './commands/sanitize.js';
import { registerSchema } from './commands/schema.js';
import { registerShow } from './commands/show.js';
import { registerStats } from './commands/stats.js';
import { registerTrim } from './commands/trim.js';
import {
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_USAGE,
  interruptedExit,
  Interruption,
  UsageError,
} from './exit-codes.js';
import { print, type Io } from './io.js';
import { applyMaxTextBytesEnv } from '../model/text-limit.js';
import { oneLine, type CommandContext } from './options.js';
import { describeOutputFailure, guardOutput } from './output-guard.js';
import { packageVersion } from './package-info.js';

// What bin/histlint.js needs besides main: the reason it aborts with on a signal, and the line for
// an output failure that comes after main has returned.
export { describeOutputFailure, Interruption };

/** Builds the program with every command. */
function buildProgram(ctx: CommandContext): Command {
  const { io } = ctx;
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
  registerLint(program, ctx);
  registerNormalize(program, ctx);
  registerSanitize(program, ctx);
  registerTrim(program, ctx);
  registerConvert(program, ctx);
  registerShow(program, ctx);
  registerStats(program, ctx);
  registerSchema(program, ctx);
  registerId(program, ctx);
  registerRules(program, ctx);
  registerInit(program, ctx);
  registerRun(program, ctx);
  registerMergeReports(program, ctx);
  return program;
}

/**
 * Runs histlint with the given I/O and returns the exit code. Output that cannot be written is
 * exit 2 whatever the command reached, unless a signal stopped it (SPEC §5.2).
 */
export async function main(io: Io): Promise<number> {
  // The tests' lower limit on JSON text (lint's worker threads take it in src/lint/tasks.ts).
  applyMaxTextBytesEnv(io.env);
  const output = guardOutput(io);
  let code = await runProgram(output.io);
  await output.settle();
  const line = output.report();
  if (line !== undefined) print(output.io.stderr, line);
  if (code === EXIT_INTERRUPTED && io.signal?.aborted === true) code = interruptedExit(io.signal);
  else if (output.failures.size > 0) code = EXIT_USAGE;
  await output.close();
  return code;
}

/** Parses the arguments and runs the command. */
async function runProgram(io: Io): Promise<number> {
  let exit = EXIT_OK;
  const program = buildProgram({
    io,
    setExit(code) {
      exit = code;
    },
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
      // A config error may be several problems: one line each.
      for (const line of e.message.split('\n')) print(io.stderr, `histlint: error: ${line}\n`);
      return EXIT_USAGE;
    }
    print(io.stderr, `histlint: error: internal error: ${oneLine(e)}\n`);
    return EXIT_USAGE;
  }
}
