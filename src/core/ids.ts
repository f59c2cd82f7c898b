/**
 * Identifiers: UUID version 7 (RFC 9562), time-ordered and strictly
 * increasing within one process (SPEC §2.4); and name-based UUIDs (version 5)
 * for what a repair adds to a stored session, the same for the same name.
 */
import { createHash } from 'node:crypto';

let lastMs = -1;
// The 74 bits after the timestamp (12 of rand_a, 62 of rand_b), used as a counter within one millisecond.
let lastTail = 0n;
const TAIL_BITS = 74n;
const TAIL_MAX = (1n << TAIL_BITS) - 1n;

function randomTail(): bigint {
  const bytes = new Uint8Array(10);
  crypto.getRandomValues(bytes);
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  // Clear the top bit so a millisecond has room for many increments before it must borrow the next.
  return (v & TAIL_MAX) >> 1n;
}

/** A new UUIDv7; each call in a process returns a value greater than the one before. */
export function newId(now: number = Date.now()): string {
  let ms = Math.max(Math.floor(now), 0);
  let tail: bigint;
  if (ms > lastMs) {
    tail = randomTail();
  } else {
    ms = lastMs;
    tail = lastTail + 1n + (randomTail() & 0xffffn);
    if (tail > TAIL_MAX) {
      ms = lastMs + 1;
      tail = randomTail();
    }
  }
  lastMs = ms;
  lastTail = tail;
  const randA = Number(tail >> 62n) & 0xfff;
  const randB = tail & ((1n << 62n) - 1n);
  const hex =
    ms.toString(16).padStart(12, '0') +
    (0x7000 | randA).toString(16).padStart(4, '0') +
    ((2n << 62n) | randB).toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** True when `value` is a UUID in its canonical 8-4-4-4-12 hex form. */
export function isUuid(value: string): boolean {
  // A character loop: lint checks every message's ids, and this is several times a regex's speed.
  if (value.length !== 36) return false;
  for (let k = 0; k < 36; k++) {
    const c = value.charCodeAt(k);
    if (k === 8 || k === 13 || k === 18 || k === 23) {
      if (c !== 0x2d) return false;
    } else if (!(
      (c >= 0x30 && c <= 0x39) ||
      (c >= 0x61 && c <= 0x66) ||
      (c >= 0x41 && c <= 0x46)
    )) {
      return false;
    }
  }
  return true;
}

/** The namespace of {@link nameId}: a fixed UUID of histlint's own (the DNS namespace's v5 of "histlint.dev"). */
const NAME_NAMESPACE = Buffer.from('56b0f0dc8fd251eaaafce3c36d9d482e', 'hex');

/**
 * A name-based UUID (RFC 9562 version 5: SHA-1 of histlint's namespace and the name): the same
 * name always gives the same id, so a repair that adds an event to a session writes the same
 * bytes every time it runs.
 */
export function nameId(name: string): string {
  const digest = createHash('sha1').update(NAME_NAMESPACE).update(name, 'utf8').digest();
  digest[6] = (digest[6]! & 0x0f) | 0x50;
  digest[8] = (digest[8]! & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
