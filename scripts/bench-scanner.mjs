// Measures scripts/json-scanner.mjs against strict decode + JSON.parse (issue 18, item 3).
// First a self-check: on the bench corpus, the shared corpus, the fixtures and fuzzed input,
// scanJson and scanSkeleton must accept exactly what the strict decode + JSON.parse accepts, and
// a regular skeleton must equal the one read from JSON.parse's value; any disagreement is
// printed and the script exits 1. Then timing: interleaved rounds, medians, MB/s and ratios.
//   node scripts/bench-scanner.mjs [--rounds N] [--files N] [--mb N] [--fuzz N] [--check-only]
// Needs .bench/corpus/files-50/files and .bench/corpus/v1/v1.jsonl (made by `npm run bench`).
import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  openSync,
  readSync,
  closeSync,
} from 'node:fs';
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { scanJson, scanSkeleton } from './json-scanner.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BENCH = path.join(ROOT, '.bench');
const FILES_DIR = path.join(BENCH, 'corpus', 'files-50', 'files');
const JSONL = path.join(BENCH, 'corpus', 'v1', 'v1.jsonl');
const arg = (name, fallback) => {
  const k = process.argv.indexOf(`--${name}`);
  return k === -1 ? fallback : Number(process.argv[k + 1]);
};
const ROUNDS = arg('rounds', 7);
const FILES = arg('files', 20000);
const CHECK_FILES = 5000;
const MB = arg('mb', 64);
const FUZZ = arg('fuzz', 20000);

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The reference: what the strict decode + JSON.parse make of the bytes (undefined = invalid). */
function reference(bytes) {
  try {
    return { value: JSON.parse(decoder.decode(bytes)) };
  } catch {
    return undefined;
  }
}

// The skeleton read from a parsed value, by the rules scanSkeleton documents; a second,
// independent implementation to check the scanner's against.
const PART_FIELDS = ['id', 'callId', 'name', 'url', 'mediaType', 'arguments'];
const CPART_FIELDS = ['name', 'url', 'mediaType'];
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
function referenceSkeleton(doc) {
  const out = { bare: false, version: undefined, messages: [], irregular: false };
  let list;
  if (Array.isArray(doc)) {
    out.bare = true;
    list = doc;
  } else if (isObject(doc)) {
    if (Object.hasOwn(doc, 'version')) {
      if (typeof doc.version === 'number') out.version = doc.version;
      else out.irregular = true;
    } else out.irregular = true;
    if (Array.isArray(doc.messages)) list = doc.messages;
    else out.irregular = true;
  } else out.irregular = true;
  for (const m of list ?? []) {
    if (!isObject(m)) {
      out.irregular = true;
      continue;
    }
    const msg = { role: undefined, parts: [] };
    out.messages.push(msg);
    if (typeof m.role === 'string') msg.role = m.role;
    else out.irregular = true;
    if (!Array.isArray(m.parts)) {
      out.irregular = true;
      continue;
    }
    for (const p of m.parts) {
      if (!isObject(p)) {
        out.irregular = true;
        continue;
      }
      const part = { type: typeof p.type === 'string' ? p.type : undefined };
      if (part.type === undefined) out.irregular = true;
      for (const f of PART_FIELDS) {
        if (!Object.hasOwn(p, f)) continue;
        if (typeof p[f] === 'string') part[f] = p[f];
        else out.irregular = true;
      }
      if (Array.isArray(p.content)) {
        part.content = [];
        for (const q of p.content) {
          if (!isObject(q)) {
            out.irregular = true;
            continue;
          }
          const cpart = { type: typeof q.type === 'string' ? q.type : undefined };
          if (cpart.type === undefined) out.irregular = true;
          for (const f of CPART_FIELDS) {
            if (!Object.hasOwn(q, f)) continue;
            if (typeof q[f] === 'string') cpart[f] = q[f];
            else out.irregular = true;
          }
          part.content.push(cpart);
        }
      }
      msg.parts.push(part);
    }
  }
  return out;
}

// Deep-equal, ignoring keys whose value is undefined (the scanner presets `type`/`role`).
const clean = (v) => JSON.parse(JSON.stringify(v));

let checked = 0;
let disagreements = 0;
let conservative = 0;
let compared = 0;
function check(bytes, where) {
  checked++;
  const ref = reference(bytes);
  let a;
  let s;
  const show = () => {
    const text = Buffer.from(bytes).toString('latin1');
    return text.length > 200
      ? `${JSON.stringify(text.slice(0, 200))}… (${text.length} bytes)`
      : JSON.stringify(text);
  };
  try {
    a = scanJson(bytes);
    s = scanSkeleton(bytes);
  } catch (error) {
    disagreements++;
    if (disagreements <= 20) console.log(`THROW ${where}: ${error.message}: ${show()}`);
    return;
  }
  if (a.ok !== (ref !== undefined) || s.ok !== a.ok) {
    disagreements++;
    if (disagreements <= 20) {
      console.log(
        `DISAGREE ${where}: JSON.parse ${ref ? 'valid' : 'invalid'}, scanJson ${a.ok ? 'valid' : `invalid at ${a.offset}`}, scanSkeleton ${s.ok ? 'valid' : `invalid at ${s.offset}`}: ${show()}`,
      );
    }
    return;
  }
  if (!ref) return;
  const want = referenceSkeleton(ref.value);
  if (s.skeleton.irregular) {
    if (!want.irregular) conservative++;
    return;
  }
  compared++;
  if (want.irregular || !isDeepStrictEqual(clean(s.skeleton), clean(want))) {
    disagreements++;
    if (disagreements <= 20)
      console.log(`SKELETON ${where}: scanner and JSON.parse differ: ${show()}`);
  }
}

// Lines of a buffer as subarrays (no copy), without the newline (and a CR before it).
function lines(buf) {
  const out = [];
  let from = 0;
  while (from < buf.length) {
    let nl = buf.indexOf(10, from);
    if (nl === -1) nl = buf.length;
    let end = nl;
    if (end > from && buf[end - 1] === 13) end--;
    if (end > from) out.push(buf.subarray(from, end));
    from = nl + 1;
  }
  return out;
}

function readPrefix(file, bytes) {
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(Math.min(bytes, statSync(file).size));
  const n = readSync(fd, buf, 0, buf.length, 0);
  closeSync(fd);
  // Cut at the last newline so every line is whole.
  const last = buf.lastIndexOf(10, n - 1);
  return buf.subarray(0, last === -1 ? n : last + 1);
}

function walk(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (/\.jsonl?$/.test(entry.name)) out.push(full);
  }
  return out;
}

// Mutations for the fuzzed inputs: each one a way the scanner could accept what JSON.parse rejects.
function mutate(bytes, rng, only) {
  const r = (n) => Math.floor(rng() * n);
  const b = Buffer.from(bytes);
  const at = b.length === 0 ? 0 : r(b.length);
  switch (only ? only[r(only.length)] : r(12)) {
    case 0: // flip a bit
      if (b.length > 0) b[at] ^= 1 << r(8);
      return b;
    case 1: // a random byte
      if (b.length > 0) b[at] = r(256);
      return b;
    case 2: // truncate
      return b.subarray(0, at);
    case 3: // a raw control char (valid only as whitespace outside strings: \t \n \r)
      return Buffer.concat([b.subarray(0, at), Buffer.from([r(0x20)]), b.subarray(at)]);
    case 4: // invalid UTF-8: a lone continuation, a truncated sequence, an overlong, a surrogate
      return Buffer.concat([
        b.subarray(0, at),
        Buffer.from(
          [
            [0x80],
            [0xc3],
            [0xe2, 0x82],
            [0xc0, 0xaf],
            [0xed, 0xa0, 0x80],
            [0xf4, 0x90, 0x80, 0x80],
            [0xff],
          ][r(7)],
        ),
        b.subarray(at),
      ]);
    case 5: // a lone surrogate or broken escape in place of a character
      return Buffer.concat([
        b.subarray(0, at),
        Buffer.from(['\\ud800', '\\udfff', '\\u12', '\\x', '\\', '\\u00e9'][r(6)]),
        b.subarray(at),
      ]);
    case 6: {
      // deep nesting, balanced or not
      const d = 1 + r(5000);
      const open = r(2) ? '['.repeat(d) : '{"a":'.repeat(d);
      const close = open[0] === '[' ? ']'.repeat(d - r(2)) : '}'.repeat(d - r(2));
      return Buffer.concat([Buffer.from(open), b, Buffer.from(close)]);
    }
    case 7: // a BOM, or a stray one
      return Buffer.concat([
        b.subarray(0, r(2) ? 0 : at),
        Buffer.from([0xef, 0xbb, 0xbf]),
        b.subarray(r(2) ? 0 : at),
      ]);
    case 9: {
      // a number's edge: leading zeros, a bare sign or point, an empty exponent, non-JSON forms
      const forms = [
        '00',
        '01',
        '-',
        '-0',
        '1.',
        '.5',
        '1e',
        '1e+',
        '1E+5',
        '+1',
        '0x1',
        'Infinity',
        'NaN',
        '-01.0e-0',
        '1.5e309',
      ];
      const digit = b.findIndex((c, k) => k >= at && c >= 0x30 && c <= 0x39);
      const where = digit === -1 ? at : digit;
      return Buffer.concat([
        b.subarray(0, where),
        Buffer.from(forms[r(forms.length)]),
        b.subarray(where + 1),
      ]);
    }
    case 10: {
      // an ASCII letter written as a \u escape: the same string inside quotes, broken outside them
      const letter = b.findIndex((c, k) => k >= at && (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
      if (letter === -1) return b;
      const escape = `\\u${b[letter].toString(16).padStart(4, '0')}`;
      return Buffer.concat([b.subarray(0, letter), Buffer.from(escape), b.subarray(letter + 1)]);
    }
    case 11: {
      // a duplicate key: one the skeleton reads, inserted first in an object (JSON.parse keeps the last)
      const brace = b.indexOf(0x7b, at);
      if (brace === -1) return b;
      const key = ['type', 'role', 'parts', 'id', 'name', 'messages', 'version', 'content'][r(8)];
      const value = ['1', '"x"', '[]', '[{}]', '[{"type":"x"}]', '{}', 'null'][r(7)];
      return Buffer.concat([
        b.subarray(0, brace + 1),
        Buffer.from(`"${key}":${value},`),
        b.subarray(brace + 1),
      ]);
    }
    default: // a structural byte inserted or deleted
      return r(2)
        ? Buffer.concat([
            b.subarray(0, at),
            Buffer.from([',:[]{}"0-.eE+ '.charCodeAt(r(15))]),
            b.subarray(at),
          ])
        : Buffer.concat([b.subarray(0, at), b.subarray(at + 1)]);
  }
}

// A v1-shaped document from fast-check, so the skeleton path sees its own shapes fuzzed too.
const shortString = fc.string({ maxLength: 12, unit: 'binary' });
// Keys one byte away from the ones the skeleton reads, so a loose key match shows.
const nearKeys = fc.dictionary(
  fc.constantFrom(
    'ib',
    'iD',
    'd',
    'rolf',
    'typ',
    'types',
    'Type',
    'nam',
    'urL',
    'callid',
    'partz',
    'contents',
    'mediatype',
    'argument',
    'role',
    'parts',
  ),
  fc.oneof({ arbitrary: shortString, weight: 9 }, { arbitrary: fc.integer(), weight: 1 }),
  { maxKeys: 2 },
);
const v1Doc = fc.record({
  // The irregular choices are rare, so most documents reach the skeleton comparison.
  version: fc.oneof(
    { arbitrary: fc.constant(1), weight: 19 },
    { arbitrary: fc.constant('1'), weight: 1 },
  ),
  messages: fc.array(
    fc.record({
      extra: nearKeys,
      role: fc.oneof(
        { arbitrary: fc.constantFrom('system', 'user', 'assistant', 'tool'), weight: 19 },
        { arbitrary: fc.integer(), weight: 1 },
      ),
      parts: fc.array(
        fc.record(
          {
            extra: nearKeys,
            type: fc.oneof(
              {
                arbitrary: fc.constantFrom('text', 'tool-call', 'tool-result', 'image'),
                weight: 19,
              },
              { arbitrary: fc.constant(null), weight: 1 },
            ),
            text: fc.string({ unit: 'binary' }),
            id: shortString,
            callId: shortString,
            name: fc.oneof(
              { arbitrary: shortString, weight: 19 },
              { arbitrary: fc.integer(), weight: 1 },
            ),
            url: shortString,
            arguments: fc.json(),
            content: fc.array(
              fc.record(
                { type: fc.constant('text'), name: shortString },
                { requiredKeys: ['type'] },
              ),
              { maxLength: 2 },
            ),
          },
          { requiredKeys: ['type'] },
        ),
        { maxLength: 3 },
      ),
    }),
    { maxLength: 4 },
  ),
});

// Spreads each generated `extra` dictionary into its object, before or after the real keys (a
// near key that is a real one then replaces or is replaced by it).
function flatten(key, value) {
  if (!isObject(value) || !isObject(value.extra)) return value;
  const { extra, ...rest } = value;
  return Object.keys(extra).length % 2 ? { ...extra, ...rest } : { ...rest, ...extra };
}

function fuzzInputs(count) {
  const seed = 18;
  const quarter = Math.ceil(count / 4);
  const texts = [
    ...fc.sample(fc.json({ stringUnit: 'binary' }), { numRuns: quarter, seed }),
    ...fc.sample(fc.json({ maxDepth: 6 }), { numRuns: quarter, seed: seed + 1 }),
    ...fc.sample(fc.string({ unit: 'binary', maxLength: 40 }), {
      numRuns: quarter,
      seed: seed + 2,
    }),
    ...fc
      .sample(v1Doc, { numRuns: quarter, seed: seed + 3 })
      .map((d) => JSON.stringify(d, flatten)),
  ];
  // A small deterministic PRNG (mulberry32) so every run fuzzes the same inputs.
  let state = seed;
  const rng = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [];
  for (let k = 0; k < count; k++) {
    const base = Buffer.from(texts[k % texts.length]);
    // Every fifth input is left as generated (valid JSON for fc.json), the rest mutated 1–3 times;
    // most v1 documents only by the mutations that keep them valid (an escaped letter, a duplicate
    // key), so their skeletons are compared.
    let b = base;
    const only = k >= 3 * quarter && k % 5 !== 1 ? [10, 11] : undefined;
    if (k % 5 !== 0) for (let m = 1 + Math.floor(rng() * 3); m > 0; m--) b = mutate(b, rng, only);
    out.push(b);
  }
  return out;
}

// ---- self-check ----------------------------------------------------------------------------
for (const p of [FILES_DIR, JSONL]) {
  if (!existsSync(p)) {
    console.error(`no ${path.relative(ROOT, p)}: run \`npm run bench\` first`);
    process.exit(2);
  }
}
const allNames = readdirSync(FILES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const t0 = performance.now();
for (const name of allNames.slice(0, CHECK_FILES))
  check(readFileSync(path.join(FILES_DIR, name)), path.relative(ROOT, path.join(FILES_DIR, name)));
const jsonlSlice = readPrefix(JSONL, MB * 1024 * 1024);
const jsonlLines = lines(jsonlSlice);
jsonlLines.forEach((line, k) => check(line, `${path.relative(ROOT, JSONL)}:${k + 1}`));
const corpusFiles = [path.resolve(ROOT, '../shared/corpus'), path.join(ROOT, 'fixtures')]
  .filter((d) => existsSync(d))
  .flatMap((d) => walk(d, []));
let corpusLines = 0;
for (const f of corpusFiles) {
  const buf = readFileSync(f);
  check(buf, f);
  if (f.endsWith('.jsonl'))
    for (const line of lines(buf)) {
      corpusLines++;
      check(line, `${f} (a line)`);
    }
}
const fuzzed = fuzzInputs(FUZZ);
let fuzzValid = 0;
fuzzed.forEach((b, k) => {
  if (reference(b)) fuzzValid++;
  check(b, `fuzz #${k}`);
});
console.log(
  `self-check: ${checked} inputs (${Math.min(CHECK_FILES, allNames.length)} bench files, ${jsonlLines.length} JSONL lines, ` +
    `${corpusFiles.length} corpus/fixture files + ${corpusLines} of their lines, ${FUZZ} fuzzed of which ${fuzzValid} valid), ` +
    `${disagreements} disagreements, ${compared} regular skeletons compared, ` +
    `${conservative} irregular where the reference was regular, ` +
    `${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
if (disagreements > 0) process.exit(1);
if (process.argv.includes('--check-only')) process.exit(0);

// ---- timing --------------------------------------------------------------------------------
const files = allNames.slice(0, FILES).map((name) => readFileSync(path.join(FILES_DIR, name)));
const sets = [
  { name: `v1 files (${files.length})`, items: files },
  { name: `v1 JSONL (first ${MB} MB, ${jsonlLines.length} lines)`, items: jsonlLines },
];
const methods = {
  'decode + JSON.parse': (b) => JSON.parse(decoder.decode(b)),
  scanJson: (b) => {
    if (!scanJson(b).ok) throw new Error('scanJson rejected a bench input');
  },
  scanSkeleton: (b) => {
    if (!scanSkeleton(b).ok) throw new Error('scanSkeleton rejected a bench input');
  },
  // Parts of the baseline and the scanner, to see where the time goes.
  'decode only': (b) => decoder.decode(b),
  'isUtf8 only': (b) => isUtf8(b),
};
const names = Object.keys(methods);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const set of sets) {
  const bytes = set.items.reduce((s, b) => s + b.length, 0);
  const times = Object.fromEntries(names.map((m) => [m, []]));
  // One warm-up pass each, then rounds that rotate the order so drift in machine load spreads
  // over every method.
  for (const m of names) for (const b of set.items) methods[m](b);
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < names.length; k++) {
      const m = names[(round + k) % names.length];
      const fn = methods[m];
      const t = performance.now();
      for (const b of set.items) fn(b);
      times[m].push(performance.now() - t);
    }
  }
  const base = median(times['decode + JSON.parse']);
  console.log(`\n${set.name}: ${(bytes / 1e6).toFixed(1)} MB, ${ROUNDS} rounds, median`);
  for (const m of names) {
    const ms = median(times[m]);
    const spread = `${Math.min(...times[m]).toFixed(0)}–${Math.max(...times[m]).toFixed(0)} ms`;
    console.log(
      `  ${m.padEnd(20)} ${(bytes / 1e6 / (ms / 1000)).toFixed(0).padStart(6)} MB/s  ${ms.toFixed(0).padStart(6)} ms  (${spread})  ${(base / ms).toFixed(2)}× the baseline`,
    );
  }
}
