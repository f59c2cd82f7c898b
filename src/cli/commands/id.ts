/**
 * `histlint id`: print new UUIDv7s (SPEC §2.4).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { EXIT_INTERRUPTED, EXIT_OK } from '../exit-codes.js';
import type { OutputStream } from '../io.js';
import { nonNegativeInt, type CommandContext } from '../options.js';

/** The most ids one run prints (`-n`): 37 MB of output; more is refused before any is made. */
export const MAX_IDS = 1_000_000;

/** Ids per write: the output is streamed, never built whole. */
const CHUNK = 10_000;

function idCount(value: string): number {
  const n = nonNegativeInt(value);
  if (n > MAX_IDS) throw new InvalidArgumentError(`at most ${MAX_IDS} ids a run`);
  return n;
}

/** Waits until a stream that said it is full (`write` returned false) has drained. */
async function drained(stream: OutputStream, accepted: unknown): Promise<void> {
  const s = stream as OutputStream & { once?: (event: string, fn: () => void) => unknown };
  if (accepted !== false || typeof s.once !== 'function') return;
  await new Promise<void>((resolve) => s.once!('drain', resolve));
}

/** Adds the command. */
export function registerId(program: Command, ctx: CommandContext): void {
  program
    .command('id')
    .description('print a new UUIDv7')
    .option(
      '-n, --count <n>',
      `print N ids, one per line, in increasing order (at most ${MAX_IDS})`,
      idCount,
      1,
    )
    .action(async (opts: { count: number }) => {
      const { newId } = await import('../../core/ids.js');
      for (let done = 0; done < opts.count; done += CHUNK) {
        // Ctrl-C, or output that cannot be written, stops it between chunks.
        if (ctx.io.signal?.aborted === true) {
          ctx.setExit(EXIT_INTERRUPTED);
          return;
        }
        let text = '';
        for (let k = done; k < Math.min(opts.count, done + CHUNK); k++) text += newId() + '\n';
        await drained(ctx.io.stdout, ctx.io.stdout.write(text));
      }
      ctx.setExit(EXIT_OK);
    });
}
