// Bare read + strict UTF-8 decode + JSON.parse, nothing else: the benchmark's baseline work,
// shared by scripts/bench-baseline.mjs (as a program) and scripts/bench-steady.mjs (in-process).
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

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
  // A line that spans chunks: its pieces, joined once at its end (linear in the line's length).
  let carry = [];
  let carried = 0;
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
      const last = buf.subarray(from, nl);
      const piece =
        carry.length === 0 ? last : Buffer.concat([...carry, last], carried + last.length);
      carry = [];
      carried = 0;
      JSON.parse(decoder.decode(piece));
      n++;
      from = nl + 1;
    }
    if (from < read) {
      carry.push(Buffer.from(buf.subarray(from, read)));
      carried += read - from;
    }
  }
  closeSync(fd);
  return n;
}

/** Each file as JSONL (a session log: one value a line); returns how many lines. */
export function parseJsonlFiles(files) {
  let n = 0;
  for (const f of files) {
    const fd = openSync(f, 'r');
    const size = fstatSync(fd).size;
    closeSync(fd);
    n += parseJsonl(f, 0, size);
  }
  return n;
}
