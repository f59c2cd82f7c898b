#!/usr/bin/env node
// A shim around main(): the process's own I/O in, the exit code out.
import { main } from '../dist/bundle/main.js';

const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  // The first Ctrl-C lets the current file finish atomically; a second one stops at once.
  interrupts += 1;
  if (interrupts > 1) process.exit(130);
  controller.abort();
});

// A reader that went away (`histlint lint . | head`) is no error of ours: stop quietly, with the
// exit code the command reached, or 2 when it had not finished (its output is incomplete).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 2);
  });
}

process.exitCode = await main({
  argv: process.argv.slice(2),
  // Opening standard input costs a few milliseconds: only the commands that read it do.
  get stdin() {
    return process.stdin;
  },
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  signal: controller.signal,
});
