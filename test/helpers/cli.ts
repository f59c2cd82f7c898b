/**
 * Runs histlint in-process (through `main`) or as a spawned `bin/histlint.js`,
 * capturing standard output, standard error and the exit code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

/** The project root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a run printed and returned. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of a run. */
export interface RunOptions {
  cwd?: string;
  stdin?: string | Uint8Array;
  /** Pretend standard input is a terminal (no data). */
  stdinIsTTY?: boolean;
  env?: Record<string, string | undefined>;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  signal?: AbortSignal;
}

/** Runs `main` in this process with captured I/O. */
export async function runCli(argv: string[], options: RunOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const data = options.stdin;
  const stdin = {
    isTTY: options.stdinIsTTY ?? false,
    async *[Symbol.asyncIterator]() {
      if (data !== undefined) yield typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    },
  };
  const code = await main({
    argv,
    stdin,
    stdout: { write: (s: string) => (stdout += s), isTTY: options.stdoutIsTTY ?? false },
    stderr: { write: (s: string) => (stderr += s), isTTY: options.stderrIsTTY ?? false },
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? {},
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return { code, stdout, stderr };
}

/** Options of a spawned run. */
export interface SpawnOptions {
  cwd?: string;
  stdin?: string | Uint8Array;
  env?: Record<string, string>;
  /** Run as this user and group (the test runs as root). */
  uid?: number;
  gid?: number;
  /** The bin/histlint.js to run (default: this checkout's). */
  bin?: string;
}

/** Spawns `node bin/histlint.js` (needs `npm run build` first). */
export function spawnCli(argv: string[], options: SpawnOptions = {}): Promise<CliResult> {
  return startCli(argv, options).result;
}

/** Starts `node bin/histlint.js` and returns its pid at once, with the outcome to come. */
export function startCli(
  argv: string[],
  options: SpawnOptions = {},
): { pid: number; result: Promise<CliResult> } {
  const child = spawn(
    process.execPath,
    [options.bin ?? fileURLToPath(new URL('../../bin/histlint.js', import.meta.url)), ...argv],
    {
      cwd: options.cwd ?? ROOT,
      env: { PATH: process.env.PATH ?? '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid }),
      ...(options.gid === undefined ? {} : { gid: options.gid }),
    },
  );
  const result = collectOutput(child).then(({ code, stdout, stderr }) => ({
    code: code ?? -1,
    stdout,
    stderr,
  }));
  if (options.stdin !== undefined) child.stdin.end(options.stdin);
  else child.stdin.end();
  return { pid: child.pid!, result };
}

/** What a spawned process printed, with how it ended (its code, or the signal that killed it). */
export function collectOutput(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr?.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
