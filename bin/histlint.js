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
