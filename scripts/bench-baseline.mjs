// The benchmark's baseline, as a program of its own so it pays the same process start-up as
// histlint: read + strict UTF-8 decode + JSON.parse, nothing else.
// Usage: node scripts/bench-baseline.mjs files DIR | jsonl-files DIR | jsonl FILE [THREADS]
// (jsonl-files: a folder of JSONL files, such as Claude Code sessions). Prints the values parsed. With THREADS > 1 the same work is shared by this thread and
// THREADS - 1 worker threads (files dealt round-robin, JSONL cut into line-aligned byte
// ranges): what bare parsing reaches on this machine's cores, the ceiling for parallel lint.
import { closeSync, fstatSync, openSync, readSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { parseFiles, parseJsonl, parseJsonlFiles } from './bare-parse.mjs';

/** Byte offsets that cut `file` into `parts` pieces at line starts. */
function cuts(file, parts) {
  const fd = openSync(file, 'r');
  const size = fstatSync(fd).size;
  const out = [0];
  const buf = Buffer.allocUnsafe(1 << 16);
  for (let k = 1; k < parts; k++) {
    let at = Math.max(Math.floor((size * k) / parts), out[out.length - 1]);
    for (;;) {
      const read = readSync(fd, buf, 0, buf.length, at);
      if (read === 0) {
        at = size;
        break;
      }
      const nl = buf.subarray(0, read).indexOf(10);
      if (nl !== -1) {
        at += nl + 1;
        break;
      }
      at += read;
    }
    out.push(at);
  }
  closeSync(fd);
  out.push(size);
  return out;
}

function work(job) {
  if (job.mode === 'files') return parseFiles(job.files);
  if (job.mode === 'jsonl-files') return parseJsonlFiles(job.files);
  return parseJsonl(job.file, job.start, job.end);
}

if (!isMainThread) {
  parentPort.postMessage(work(workerData));
} else {
  const [mode, target, threadsArg] = process.argv.slice(2);
  const threads = Math.max(1, Number(threadsArg ?? 1));
  const jobs = [];
  if (mode === 'files' || mode === 'jsonl-files') {
    const files = readdirSync(target).map((f) => path.join(target, f));
    for (let t = 0; t < threads; t++)
      jobs.push({ mode, files: files.filter((_, k) => k % threads === t) });
  } else {
    const at = cuts(target, threads);
    for (let t = 0; t < threads; t++)
      jobs.push({ mode, file: target, start: at[t], end: at[t + 1] });
  }
  const others = jobs.slice(1).map(
    (job) =>
      new Promise((resolve, reject) => {
        const w = new Worker(new URL(import.meta.url), { workerData: job });
        w.once('message', resolve);
        w.once('error', reject);
      }),
  );
  let n = work(jobs[0]);
  for (const count of await Promise.all(others)) n += count;
  process.stdout.write(`${n}\n`);
}
