// Bare read + strict UTF-8 decode + JSON.parse, nothing else: the benchmark's baseline work,
// shared by scripts/bench-baseline.mjs (as a program) and scripts/bench-steady.mjs (in-process).
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Parses each file whole; returns how many. */
export function parseFiles(files) {
  for (const f of files) JSON.parse(decoder.decode(readFileSync(f)));
  return files.length;
}

/**
 * Chunked, as histlint reads JSONL: Buffer.indexOf(10) + decode + JSON.parse per line, for the
 * lines that start in [start, end). Returns how many lines it parsed.
 */
export function parseJsonl(file, start, end) {
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(1 << 20);
  let carry = null;
  let position = start;
  let n = 0;
  while (position < end) {
    const read = readSync(fd, buf, 0, Math.min(buf.length, end - position), position);
    if (read === 0) break;
    position += read;
    let from = 0;
    for (;;) {
      const nl = buf.indexOf(10, from);
      if (nl === -1 || nl >= read) break;
      const piece =
        carry === null ? buf.subarray(from, nl) : Buffer.concat([carry, buf.subarray(from, nl)]);
      carry = null;
      JSON.parse(decoder.decode(piece));
      n++;
      from = nl + 1;
    }
    if (from < read) {
      const rest = Buffer.from(buf.subarray(from, read));
      carry = carry === null ? rest : Buffer.concat([carry, rest]);
    }
  }
  closeSync(fd);
  return n;
}
