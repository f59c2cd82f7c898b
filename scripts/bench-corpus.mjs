// The bench corpus (issue 18): from one seed, the same conversations as v1 files, v1 JSONL,
// OpenAI Chat, Anthropic and Gemini request bodies (JSONL, written by histlint's own writers)
// and Claude Code sessions, with planted defects. Each input gets a folder with the input and an
// `expected.json`: the finding counts per rule id that `histlint lint` (default rules, --target
// auto) must report on it. A stamp makes a corpus once per (seed, sizes, generator version).
//
// Conversation k is the same wherever it appears: its content comes from a PRNG seeded by
// (seed, k), and whether it carries a defect from a second one compared with the input's rate,
// so a conversation with a defect at rate 0.1 has the same defect at rate 0.5.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

/** Bumped whenever the generator's output changes, so an old corpus is made again. */
export const GENERATOR_VERSION = 1;

export const DEFAULT_SEED = 20261129;

/** A small seeded PRNG (mulberry32), so every run benchmarks the same corpus. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed of its own for item k of stream `salt` (a murmur3 finalizer over the three). */
function seedOf(seed, salt, k) {
  let h = (seed ^ Math.imul(salt, 0x85ebca6b) ^ Math.imul(k + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const CONTENT = 1;
const DEFECT = 2;
const SESSION = 3;

const WORDS =
  'the a weather city order refund policy tool call result search file read write list user assistant please check tomorrow rain sun price total'.split(
    ' ',
  );

/**
 * Conversation k, clean: a system prompt, 2–7 turns of user text, assistant text with 0–2
 * calls and their results, then the user's next prompt (a request body ends with one, so no
 * provider rule reports a trailing assistant message).
 */
export function conversation(seed, k) {
  const r = rng(seedOf(seed, CONTENT, k));
  const words = (n) =>
    Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
  const messages = [{ role: 'system', parts: [{ type: 'text', text: words(30) }] }];
  const turns = 2 + Math.floor(r() * 6);
  for (let t = 0; t < turns; t++) {
    messages.push({
      role: 'user',
      parts: [{ type: 'text', text: words(5 + Math.floor(r() * 40)) }],
    });
    const calls = Math.floor(r() * 3);
    const parts = [{ type: 'text', text: words(10 + Math.floor(r() * 60)) }];
    for (let c = 0; c < calls; c++) {
      parts.push({
        type: 'tool-call',
        id: `call_${k}_${t}_${c}`,
        name: 'lookup',
        arguments: JSON.stringify({ q: words(3), n: c }),
      });
    }
    messages.push({ role: 'assistant', runId: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', parts });
    if (calls > 0) {
      const results = [];
      for (let c = 0; c < calls; c++) {
        results.push({
          type: 'tool-result',
          callId: `call_${k}_${t}_${c}`,
          name: 'lookup',
          content: [{ type: 'text', text: words(20 + Math.floor(r() * 100)) }],
        });
      }
      messages.push({ role: 'tool', parts: results });
    }
  }
  messages.push({ role: 'user', parts: [{ type: 'text', text: words(5 + Math.floor(r() * 20)) }] });
  return { version: 1, conversationId: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c', messages };
}

/**
 * The defects the generator plants, and what `histlint lint` reports for one of each, by the
 * format the conversation is stored in: the core rule, and the turn-order rule of the format's
 * provider (checked under --target auto). One defect is one finding of each listed rule.
 */
export const DEFECTS = {
  // A call whose result never comes (the last result of a turn left out).
  'dangling-call': {
    histlint: ['dangling-tool-call'],
    'openai-chat': ['dangling-tool-call', 'openai-chat/tool-results-adjacent'],
    anthropic: ['dangling-tool-call', 'anthropic/tool-result-next-turn'],
    gemini: ['dangling-tool-call', 'gemini/function-response-next-turn'],
    'claude-code': ['dangling-tool-call', 'anthropic/tool-result-next-turn'],
  },
  // A result for a call id no call has.
  'orphan-result': {
    histlint: ['orphan-tool-result'],
    'openai-chat': ['orphan-tool-result', 'openai-chat/tool-message-after-call'],
    anthropic: ['orphan-tool-result', 'anthropic/tool-result-next-turn'],
    gemini: ['orphan-tool-result', 'gemini/function-response-next-turn'],
    'claude-code': ['orphan-tool-result', 'anthropic/tool-result-next-turn'],
  },
  // A second result for a call that has one.
  'duplicate-result': {
    histlint: ['duplicate-tool-result'],
    'openai-chat': ['duplicate-tool-result'],
    anthropic: ['duplicate-tool-result'],
    gemini: ['duplicate-tool-result', 'gemini/function-response-next-turn'],
    'claude-code': ['duplicate-tool-result'],
  },
};
const KINDS = Object.keys(DEFECTS);

/** The defect conversation k carries at `rate` (the share of conversations with one), or undefined. */
export function defectOf(seed, k, rate) {
  const r = rng(seedOf(seed, DEFECT, k));
  if (r() >= rate) return undefined;
  return { kind: KINDS[Math.floor(r() * KINDS.length)], r };
}

/**
 * Conversation k with its defect at `rate` planted; returns it and the defect's kind. A
 * conversation without tool results gets its defect as a call without a result (a dangling
 * call) whatever was drawn: the others need a result to copy or to sit beside.
 */
export function plantedConversation(seed, k, rate) {
  const conv = conversation(seed, k);
  const defect = defectOf(seed, k, rate);
  if (defect === undefined) return { conv, kind: undefined };
  const { r } = defect;
  const tools = conv.messages.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
  if (tools.length === 0) {
    const assistant = conv.messages.find((m) => m.role === 'assistant');
    assistant.parts.push({
      type: 'tool-call',
      id: `call_${k}_lost`,
      name: 'lookup',
      arguments: '{"q":"lost"}',
    });
    return { conv, kind: 'dangling-call' };
  }
  const at = tools[Math.floor(r() * tools.length)];
  const results = conv.messages[at].parts;
  if (defect.kind === 'dangling-call') {
    results.pop();
    if (results.length === 0) conv.messages.splice(at, 1);
  } else if (defect.kind === 'orphan-result') {
    results.push({
      type: 'tool-result',
      callId: `call_${k}_orphan`,
      name: 'lookup',
      content: [{ type: 'text', text: 'a result for no call' }],
    });
  } else {
    const first = results[0];
    results.push({ ...first, content: [{ type: 'text', text: 'the same call answered again' }] });
  }
  return { conv, kind: defect.kind };
}

const LOOKUP_PARAMETERS = {
  type: 'object',
  properties: { q: { type: 'string' }, n: { type: 'integer' } },
  required: ['q'],
};
const LOOKUP_DESCRIPTION = 'Look up facts about an order, a city or a policy.';

/**
 * The request body a provider receives for conversation `conv`: histlint's writer of that
 * format, plus the request fields a client sends with it (model, tools).
 */
function requestBody(formats, format, conv) {
  const { value } = formats(format).write(conv);
  switch (format) {
    case 'openai-chat':
      return {
        model: 'gpt-4.1-mini',
        ...value,
        tools: [
          {
            type: 'function',
            function: {
              name: 'lookup',
              description: LOOKUP_DESCRIPTION,
              parameters: LOOKUP_PARAMETERS,
            },
          },
        ],
      };
    case 'anthropic':
      return {
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        ...value,
        tools: [
          { name: 'lookup', description: LOOKUP_DESCRIPTION, input_schema: LOOKUP_PARAMETERS },
        ],
      };
    case 'gemini':
      return {
        ...value,
        tools: [
          {
            functionDeclarations: [
              { name: 'lookup', description: LOOKUP_DESCRIPTION, parameters: LOOKUP_PARAMETERS },
            ],
          },
        ],
      };
    default:
      throw new Error(`no request body for ${format}`);
  }
}

/** 32 hex digits from `r`. */
function hex(r, n = 32) {
  let s = '';
  while (s.length < n)
    s += Math.floor(r() * 2 ** 32)
      .toString(16)
      .padStart(8, '0');
  return s.slice(0, n);
}

function uuid(r) {
  const h = hex(r);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
}

/**
 * Claude Code writes a session as it runs: an event per typed prompt (after a file-history
 * snapshot), an event per content block of an assistant message (one message id for all), an
 * event per tool result; each event names the one before it (`parentUuid`). This builds those
 * events for conversations appended to one session, from the Anthropic messages histlint's writer
 * makes of them (the system prompt is not in a session log).
 */
class SessionWriter {
  constructor(formats, seed, s) {
    this.formats = formats;
    this.r = rng(seedOf(seed, SESSION, s));
    this.sessionId = uuid(this.r);
    this.parent = null;
    this.clock = Date.UTC(2026, 0, 1) + s * 3_600_000;
  }

  /** The lines of one more conversation of this session. */
  lines(conv) {
    const { value } = this.formats('anthropic').write(conv);
    const out = [];
    const event = (type, message, extra = {}) => {
      this.clock += 1000 + Math.floor(this.r() * 4000);
      const uuidHere = uuid(this.r);
      const e = {
        parentUuid: this.parent,
        isSidechain: false,
        userType: 'external',
        cwd: '/home/dev/shop',
        sessionId: this.sessionId,
        version: '2.1.38',
        gitBranch: 'main',
        type,
        message,
        uuid: uuidHere,
        timestamp: new Date(this.clock).toISOString(),
        ...extra,
      };
      this.parent = uuidHere;
      out.push(JSON.stringify(e));
      return uuidHere;
    };
    let lastAssistant = null;
    for (const m of value.messages) {
      if (m.role === 'assistant') {
        const id = `msg_01${hex(this.r, 22)}`;
        const requestId = `req_011${hex(this.r, 21)}`;
        for (const block of m.content) {
          const message = {
            model: 'claude-opus-4-6',
            id,
            type: 'message',
            role: 'assistant',
            content: [block],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 3, output_tokens: 1 + Math.floor(this.r() * 400) },
          };
          lastAssistant = event('assistant', message, { requestId });
        }
        continue;
      }
      const blocks =
        typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
      const prompt = [];
      for (const block of blocks) {
        if (block.type !== 'tool_result') {
          prompt.push(block);
          continue;
        }
        const text = (Array.isArray(block.content) ? block.content : [])
          .map((b) => b.text ?? '')
          .join('\n');
        event(
          'user',
          { role: 'user', content: [block] },
          {
            toolUseResult: { stdout: text, stderr: '', interrupted: false, isImage: false },
            sourceToolAssistantUUID: lastAssistant,
          },
        );
      }
      if (prompt.length > 0) {
        const content = prompt.length === 1 && prompt[0].type === 'text' ? prompt[0].text : prompt;
        const at = this.clock;
        const promptUuid = event('user', { role: 'user', content });
        // The snapshot Claude Code logs with each prompt: a line that is no message.
        out.push(
          JSON.stringify({
            type: 'file-history-snapshot',
            messageId: promptUuid,
            snapshot: {
              messageId: promptUuid,
              trackedFileBackups: {},
              timestamp: new Date(at).toISOString(),
            },
            isSnapshotUpdate: false,
          }),
        );
      }
    }
    return out;
  }
}

/** Buffered appends to one file. */
class Sink {
  constructor(file) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.fd = openSync(file, 'w');
    this.pending = [];
    this.pendingBytes = 0;
    this.bytes = 0;
  }

  write(text) {
    const n = Buffer.byteLength(text);
    this.pending.push(text);
    this.pendingBytes += n;
    this.bytes += n;
    if (this.pendingBytes >= 1 << 22) this.flush();
  }

  flush() {
    if (this.pending.length > 0) writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
  }

  close() {
    this.flush();
    closeSync(this.fd);
  }
}

/** What lint must report on an input, built as its conversations are written. */
class Expectation {
  constructor(format) {
    this.format = format;
    this.conversations = 0;
    this.units = 0;
    this.withFindings = 0;
    this.defects = {};
    this.counts = {};
    this.unitHasDefect = false;
  }

  /** One conversation of the current unit (file, line or session). */
  add(kind) {
    this.conversations++;
    if (kind === undefined) return;
    this.unitHasDefect = true;
    this.defects[kind] = (this.defects[kind] ?? 0) + 1;
    for (const rule of DEFECTS[kind][this.format]) this.counts[rule] = (this.counts[rule] ?? 0) + 1;
  }

  /** Closes the current unit. */
  endUnit() {
    this.units++;
    if (this.unitHasDefect) this.withFindings++;
    this.unitHasDefect = false;
  }

  toJSON() {
    return {
      format: this.format,
      conversations: this.conversations,
      units: this.units,
      withFindings: this.withFindings,
      defects: sorted(this.defects),
      counts: sorted(this.counts),
    };
  }
}

function sorted(obj) {
  return Object.fromEntries(Object.entries(obj).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Default sizes, each overridden by its BENCH_* variable (see sizesFromEnv). */
export const DEFAULT_SIZES = {
  files: 20000,
  bigMB: 256,
  sliceMB: 60,
  sessions: 2000,
  sessionConversations: 5,
  sessionMB: 64,
  defects: 0.1,
};

/** The sizes from the environment: BENCH_FILES, BENCH_BIG_MB, BENCH_SLICE_MB, BENCH_SESSIONS, … */
export function sizesFromEnv(env) {
  const pick = (name, fallback) => (env[name] === undefined ? fallback : Number(env[name]));
  const sizes = {
    files: pick('BENCH_FILES', DEFAULT_SIZES.files),
    bigMB: pick('BENCH_BIG_MB', DEFAULT_SIZES.bigMB),
    sliceMB: pick('BENCH_SLICE_MB', DEFAULT_SIZES.sliceMB),
    sessions: pick('BENCH_SESSIONS', DEFAULT_SIZES.sessions),
    sessionConversations: pick('BENCH_SESSION_CONVERSATIONS', DEFAULT_SIZES.sessionConversations),
    sessionMB: pick('BENCH_SESSION_MB', DEFAULT_SIZES.sessionMB),
    defects: pick('BENCH_DEFECTS', DEFAULT_SIZES.defects),
  };
  for (const [name, value] of Object.entries(sizes)) {
    if (!Number.isFinite(value) || value < 0) throw new Error(`bench: bad size ${name}=${value}`);
  }
  return sizes;
}

const FOREIGN = ['openai-chat', 'anthropic', 'gemini'];
const SLICED = ['histlint', 'openai-chat', 'anthropic'];
const JSONL_NAME = {
  histlint: 'v1',
  'openai-chat': 'openai-chat',
  anthropic: 'anthropic',
  gemini: 'gemini',
};

/**
 * Makes the corpus in `dir` (reused when its stamp matches) and returns its manifest: every input
 * with its path (relative to `dir`), layout, format and expectation. `formats` is
 * `formatByName` of the histlint build to write with; `sizes` as DEFAULT_SIZES; MB are 2^20 bytes.
 */
export function generateCorpus({ dir, seed = DEFAULT_SEED, sizes = DEFAULT_SIZES, formats, log }) {
  const stampFile = path.join(dir, 'stamp.json');
  // The writers' output for one conversation joins the stamp: a build whose writers changed
  // makes the corpus again.
  const probe = FOREIGN.map((f) => requestBody(formats, f, plantedConversation(seed, 0, 1).conv));
  const stamp = JSON.stringify({ version: GENERATOR_VERSION, seed, sizes, probe });
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const inputs = [];
  const finish = (input, expectation, bytes) => {
    const expected = { input: input.path, ...expectation.toJSON() };
    writeFileSync(
      path.join(dir, input.name, 'expected.json'),
      JSON.stringify(expected, null, 2) + '\n',
    );
    inputs.push({ ...input, bytes, expected });
  };

  // v1 many files, pretty-printed, one conversation each: none with a defect, and half.
  for (const [name, rate] of [
    ['files-0', 0],
    ['files-50', 0.5],
  ]) {
    log?.(`${name}: ${sizes.files} files`);
    const folder = path.join(dir, name, 'files');
    mkdirSync(folder, { recursive: true });
    const expectation = new Expectation('histlint');
    let bytes = 0;
    for (let k = 0; k < sizes.files; k++) {
      const { conv, kind } = plantedConversation(seed, k, rate);
      const text = JSON.stringify(conv, null, 2) + '\n';
      bytes += Buffer.byteLength(text);
      writeFileSync(path.join(folder, `c${String(k).padStart(6, '0')}.json`), text);
      expectation.add(kind);
      expectation.endUnit();
    }
    finish(
      { name, path: `${name}/files`, layout: 'files', format: 'histlint' },
      expectation,
      bytes,
    );
  }

  // One conversation per line, in every format at once, until the v1 file has bigMB; the first
  // sliceMB of lines of some of them also go to a slice of their own.
  log?.(`JSONL: ${sizes.bigMB} MB of v1 and the same conversations as request bodies`);
  const jsonl = ['histlint', ...FOREIGN].map((format) => {
    const name = JSONL_NAME[format];
    return {
      format,
      name,
      file: `${name}/${name}.jsonl`,
      sink: new Sink(path.join(dir, name, `${name}.jsonl`)),
      expectation: new Expectation(format),
      slice:
        // A slice as big as its input would be the input again.
        SLICED.includes(format) && sizes.sliceMB > 0 && sizes.sliceMB < sizes.bigMB
          ? {
              name: `${name}-${sizes.sliceMB}`,
              file: `${name}-${sizes.sliceMB}/${name}-${sizes.sliceMB}.jsonl`,
              sink: new Sink(
                path.join(dir, `${name}-${sizes.sliceMB}`, `${name}-${sizes.sliceMB}.jsonl`),
              ),
              expectation: new Expectation(format),
              open: true,
            }
          : undefined,
    };
  });
  const bigBytes = sizes.bigMB * 2 ** 20;
  const sliceBytes = sizes.sliceMB * 2 ** 20;
  for (let k = 0; jsonl[0].sink.bytes < bigBytes; k++) {
    const { conv, kind } = plantedConversation(seed, k, sizes.defects);
    for (const out of jsonl) {
      const value = out.format === 'histlint' ? conv : requestBody(formats, out.format, conv);
      const line = JSON.stringify(value) + '\n';
      out.sink.write(line);
      out.expectation.add(kind);
      out.expectation.endUnit();
      const slice = out.slice;
      if (slice?.open) {
        slice.sink.write(line);
        slice.expectation.add(kind);
        slice.expectation.endUnit();
        if (slice.sink.bytes >= sliceBytes) slice.open = false;
      }
    }
  }
  for (const out of jsonl) {
    out.sink.close();
    const input = { name: out.name, path: out.file, layout: 'lines', format: out.format };
    finish(input, out.expectation, out.sink.bytes);
    if (out.slice !== undefined) {
      out.slice.sink.close();
      finish(
        {
          name: out.slice.name,
          path: out.slice.file,
          layout: 'lines',
          format: out.format,
          sliceOf: out.name,
        },
        out.slice.expectation,
        out.slice.sink.bytes,
      );
    }
  }

  // Claude Code: a folder of sessions of a few conversations each, and one big session.
  if (sizes.sessions > 0) {
    log?.(`claude-code: ${sizes.sessions} sessions of ${sizes.sessionConversations} conversations`);
    const folder = path.join(dir, 'claude-code', 'sessions');
    mkdirSync(folder, { recursive: true });
    const expectation = new Expectation('claude-code');
    let bytes = 0;
    let k = 0;
    for (let s = 0; s < sizes.sessions; s++) {
      const session = new SessionWriter(formats, seed, s);
      const lines = [];
      for (let c = 0; c < sizes.sessionConversations; c++, k++) {
        const { conv, kind } = plantedConversation(seed, k, sizes.defects);
        lines.push(...session.lines(conv));
        expectation.add(kind);
      }
      expectation.endUnit();
      const text = lines.join('\n') + '\n';
      bytes += Buffer.byteLength(text);
      writeFileSync(path.join(folder, `${session.sessionId}.jsonl`), text);
    }
    const input = { name: 'claude-code', path: 'claude-code/sessions', layout: 'files' };
    finish({ ...input, format: 'claude-code' }, expectation, bytes);
  }
  if (sizes.sessionMB > 0) {
    log?.(`claude-code-big: one session of ${sizes.sessionMB} MB`);
    const name = 'claude-code-big';
    const sink = new Sink(path.join(dir, name, 'session.jsonl'));
    const expectation = new Expectation('claude-code');
    const session = new SessionWriter(formats, seed, -1);
    for (let k = 0; sink.bytes < sizes.sessionMB * 2 ** 20; k++) {
      const { conv, kind } = plantedConversation(seed, k, sizes.defects);
      for (const line of session.lines(conv)) sink.write(line + '\n');
      expectation.add(kind);
    }
    expectation.endUnit();
    sink.close();
    const input = { name, path: `${name}/session.jsonl`, layout: 'file', format: 'claude-code' };
    finish(input, expectation, sink.bytes);
  }

  const manifest = { version: GENERATOR_VERSION, seed, sizes, inputs };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  writeFileSync(stampFile, stamp);
  return manifest;
}

/**
 * What a `histlint lint --format json` report holds, in the terms of expected.json: finding counts
 * per rule id, and how many units (files; for `lines`, JSONL lines) have a finding.
 */
export function reportCounts(report, layout) {
  const counts = {};
  let withFindings = 0;
  const errors = [];
  for (const file of report.files) {
    if (file.error !== undefined) errors.push(`${file.file}: ${file.error.message ?? file.error}`);
    const lines = new Set();
    for (const f of file.findings) {
      counts[f.ruleId] = (counts[f.ruleId] ?? 0) + 1;
      lines.add(f.line);
    }
    withFindings += layout === 'lines' ? lines.size : file.findings.length > 0 ? 1 : 0;
  }
  return { counts: sorted(counts), withFindings, errors };
}

/** The differences between an expectation and a report's counts, as lines; empty when they agree. */
export function countMismatches(expected, actual) {
  const out = [];
  const rules = new Set([...Object.keys(expected.counts), ...Object.keys(actual.counts)]);
  for (const rule of [...rules].sort()) {
    const want = expected.counts[rule] ?? 0;
    const got = actual.counts[rule] ?? 0;
    if (want !== got) out.push(`${rule}: expected ${want}, lint reported ${got}`);
  }
  if (expected.withFindings !== actual.withFindings) {
    out.push(
      `${expected.withFindings} ${expected.units === 1 ? 'unit' : 'units'} with findings expected, ${actual.withFindings} reported`,
    );
  }
  for (const e of actual.errors) out.push(`unreadable: ${e}`);
  return out;
}
