#!/usr/bin/env node
// A shim around main(): the process's own I/O in, the exit code out.
import { describeOutputFailure, Interruption, main } from '../dist/bundle/main.js';

const controller = new AbortController();
let stops = 0;
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(signal, () => {
    // The first Ctrl-C or SIGTERM lets the current file finish atomically (exit 130 or 143);
    // a second one stops at once.
    stops += 1;
    if (stops > 1) process.exit(code);
    controller.abort(new Interruption(signal));
  });
}

// A reader that went away (`histlint lint . | head`) is no error of ours: stop quietly, with the
// exit code the command reached, or 2 when it had not finished (its output is incomplete). Any
// other failure main reports while it runs; one that comes after it returned is reported here.
let finished = false;
for (const [name, stream] of [
  ['stdout', process.stdout],
  ['stderr', process.stderr],
]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 2);
    if (!finished) return;
    if (name === 'stdout') process.stderr.write(describeOutputFailure(name, error));
    process.exitCode = 2;
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
finished = true;
