/**
 * Whether output gets ANSI colors: `--color`/`--no-color` win, then
 * `NO_COLOR` / `FORCE_COLOR`, then whether the stream is a terminal.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import type { OutputStream } from './io.js';

/** The chalk color level for a stream. */
export function colorLevel(
  flag: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
  stream: OutputStream,
): 0 | 1 | 2 | 3 {
  if (flag === true) return 1;
  if (flag === false) return 0;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '2') return 2;
    if (force === '3') return 3;
    return 1;
  }
  if (stream.isTTY === true && env.TERM !== 'dumb') return 1;
  return 0;
}

/** A chalk instance for a stream. */
export function chalkFor(
  flag: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
  stream: OutputStream,
): ChalkInstance {
  return new Chalk({ level: colorLevel(flag, env, stream) });
}
