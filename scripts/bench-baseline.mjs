// The benchmark's baseline, as a program of its own so it pays the same process start-up as
// histlint: read + strict UTF-8 decode + JSON.parse on one thread, nothing else.
// Usage: node scripts/bench-baseline.mjs files DIR | jsonl FILE. Prints the conversations parsed.
import { closeSync, openSync, readFileSync, readSync, readdirSync } from 'node:fs';
import path from 'node:path';

const [mode, target] = process.argv.slice(2);
const decoder = new TextDecoder('utf-8', { fatal: true });
let n = 0;
if (mode === 'files') {
  for (const f of readdirSync(target)) {
    JSON.parse(decoder.decode(readFileSync(path.join(target, f))));
    n++;
  }
} else {
  // Chunked, as histlint reads JSONL: Buffer.indexOf(10) + decode + JSON.parse per line.
  const fd = openSync(target, 'r');
  const buf = Buffer.allocUnsafe(1 << 20);
  let carry = null;
  for (;;) {
    const read = readSync(fd, buf, 0, buf.length, null);
    if (read === 0) break;
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
}
process.stdout.write(`${n}\n`);
