/**
 * Options shared by several commands, and argument parsers.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { FROM_CHOICES, TARGET_CHOICES } from '../names.js';
import { parsePointer } from '../model/pointer.js';
import { UsageError } from './exit-codes.js';
import type { Io } from './io.js';

/** What every command's action needs: the I/O, and where to put its exit code. */
export interface CommandContext {
  io: Io;
  setExit(code: number): void;
}

/** Parses a whole number of 0 or more. */
export function nonNegativeInt(value: string): number {
  if (!/^(0|[1-9][0-9]*)$/.test(value))
    throw new InvalidArgumentError('expected a whole number (0 or more)');
  return Number(value);
}

/** Parses a whole number of 1 or more. */
export function positiveInt(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value))
    throw new InvalidArgumentError('expected a whole number (1 or more)');
  return Number(value);
}

/** Collects a repeatable option's values. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The first line of an error's message, never a stack. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!;
}

/** Options every command that reads conversations takes. */
export function addReadOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--from <format>', 'input format (default: auto)').choices(FROM_CHOICES))
    .option(
      '--pointer <pointer>',
      'JSON pointer to the conversation inside each document or JSONL line',
    )
    .option(
      '--stdin-filename <name>',
      'name standard input in reports (its extension picks JSON or JSONL)',
    )
    .option('--color', 'force colored output')
    .option('--no-color', 'disable colored output')
    .option('--no-gitignore', 'read files .gitignore ignores (.histlintignore still applies)');
}

/** Output and report options of normalize, sanitize and trim (SPEC §5.1). */
export function addTransformOptions(cmd: Command): Command {
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
    .addOption(breakLinksOption())
    .option(
      '--check',
      'write nothing; list the inputs that would change, then one summary line; exit 1 if any would',
    )
    .option(
      '--diff',
      'write nothing; print on standard output a unified diff of what --write would write; exit 1 if there is one',
    )
    .addOption(
      new Option('--report-format <format>', 'report on standard error as')
        .choices(['human', 'json'])
        .default('human'),
    )
    .option('--report-file <file>', 'also write the JSON report to FILE')
    .option(
      '-c, --config <file>',
      'config file for from and pointer (default: histlint.config.json found upward)',
    )
    .option(
      '--ignore <pattern>',
      'skip files matching PATTERN when expanding folders and globs (repeatable)',
      collect,
    )
    .option('--no-error-on-unmatched-pattern', 'do not fail when a pattern matches no file');
}

/** `--break-links`: where histlint replaces files in place, also one that has other hard links. */
export function breakLinksOption(): Option {
  return new Option(
    '--break-links',
    'also replace a file that has other hard links (they keep the old content)',
  );
}

/** The `--duplicates` option. */
export function duplicatesOption(): Option {
  return new Option('--duplicates <which>', 'which of several results for one call to keep')
    .choices(['keep-first', 'keep-last'])
    .default('keep-first');
}

/**
 * `--target`: whose acceptance rules to check (and, for the repair commands, to repair for). No
 * default here, so the config's `target` applies when the flag is absent; both default to `auto`.
 */
export function targetOption(): Option {
  return new Option(
    '--target <provider>',
    "check the provider's acceptance rules: auto (the file's own provider, the default), none, or a provider",
  ).choices(TARGET_CHOICES);
}

/** The `--pointer` value as tokens (none: the document itself); a malformed pointer is a usage error. */
export function pointerTokens(text: string | undefined): string[] {
  if (text === undefined) return [];
  try {
    return parsePointer(text);
  } catch (e) {
    throw new UsageError(`--pointer: ${oneLine(e)}`);
  }
}
