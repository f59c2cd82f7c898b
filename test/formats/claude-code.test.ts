/**
 * The Claude Code session reader: every corpus session reads, pairs and
 * locates; event order, merged assistant events, sidechains and rewinds
 * follow the hand-written cases of fixtures/formats/claude-code.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeHistory } from '../../src/core/normalize.js';
import { claudeCodeFormat, type ClaudeCodeContext } from '../../src/formats/claude-code/index.js';
import { SourceError } from '../../src/model/errors.js';
import { parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import { parsePointer, valueAt } from '../../src/model/pointer.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { DANGLING_SESSION } from '../helpers/lint-fixtures.js';
import { describeCorpusClaims, describeFixtureCases, ownFixtureCases } from '../helpers/formats.js';
import { CORPUS, describeShared } from '../helpers/shared.js';

const SESSIONS = path.join(CORPUS, 'claude-code-jsonl');
const FIXTURES = path.join(ROOT, 'fixtures', 'formats', 'claude-code');

/** A session file as read() takes it: the JSONL lines joined into one array, or the JSON export as is. */
function loadSession(file: string): JsonValue {
  const text = readFileSync(path.join(SESSIONS, file), 'utf8');
  if (file.endsWith('.json')) return parseJson(text);
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parseJson(line));
}

/** A session of fixtures/formats/claude-code (its events as one array) and as JSONL text. */
function fixtureSession(name: string): { value: JsonValue; jsonl: string } {
  const value = parseJson(readFileSync(path.join(FIXTURES, name, 'source.json'), 'utf8'));
  const jsonl = (value as JsonValue[]).map((event) => stringifyJson(event, 0) + '\n').join('');
  return { value, jsonl };
}

/** Every message and part is located at a node of the source; ids, arguments and signatures at their own field. */
function expectLocatable(value: JsonValue, read: ReturnType<typeof claudeCodeFormat.read>): void {
  const at = (pointer: string): JsonValue | undefined => valueAt(value, parsePointer(pointer));
  read.conversation.messages.forEach((m, i) => {
    const mp = read.locate(i);
    expect(at(mp), `message ${i} at ${mp}`).toBeDefined();
    m.parts.forEach((p, j) => {
      const pp = read.locate(i, j);
      expect(at(pp), `part ${i}/${j} at ${pp}`).toBeDefined();
      expect(pp.startsWith(mp.replace(/\/\d+$/, '/'))).toBe(true);
      for (const field of ['id', 'callId', 'signature', 'redacted']) {
        if (typeof p[field] !== 'string') continue;
        // Byte-exact: the field read is the very string at its pointer.
        expect(at(read.locate(i, j, [field])), `${field} of ${i}/${j}`).toBe(p[field]);
      }
      if (p.type === 'tool-call') {
        const input = at(read.locate(i, j, ['arguments']));
        expect(read.locate(i, j, ['arguments']).endsWith('/input')).toBe(true);
        expect(input).toBeDefined();
      }
    });
  });
}

/** The events behind each message: role initial and event indices, e.g. `a26,27,28,29`. */
function eventOutline(read: ReturnType<typeof claudeCodeFormat.read>): string {
  return read.conversation.messages
    .map((m, i) => {
      const indices = new Set<number>([Number(parsePointer(read.locate(i))[0])]);
      m.parts.forEach((_, j) => indices.add(Number(parsePointer(read.locate(i, j))[0])));
      return m.role[0] + [...indices].join(',');
    })
    .join(' ');
}

describeShared('claude-code corpus', 'corpus/claude-code-jsonl', () => {
  const sessionFiles = readdirSync(SESSIONS).sort();

  it('has the sessions', () => {
    expect(sessionFiles.length).toBe(22);
  });

  for (const file of sessionFiles) {
    it(`${file}: detects, reads, locates`, () => {
      const value = loadSession(file);
      expect(claudeCodeFormat.detect(value)).toBe(true);
      const read = claudeCodeFormat.read(value);
      expect(read.conversation.messages.length).toBeGreaterThan(0);
      expectLocatable(value, read);
    });
  }

  it('tells every session file by its first line alone (how a JSONL file is recognized)', () => {
    for (const file of sessionFiles.filter((f) => f.endsWith('.jsonl'))) {
      const first = (loadSession(file) as JsonValue[])[0]!;
      expect(claudeCodeFormat.detect([first]), file).toBe(true);
    }
  });

  it('pairs every call and result: normalize changes nothing but the broken edge_cases lines', () => {
    for (const file of sessionFiles) {
      const n = normalizeHistory(claudeCodeFormat.read(loadSession(file)).conversation.messages);
      if (file === 'claude-code-log__edge_cases.jsonl') {
        // Its results sit in a message with a misspelled "contenst" key and in a ["wow error"] content.
        expect(n.repair.synthesized.map((s) => s.callId)).toEqual([
          'tool_edge_002',
          'toolu_todowrite_002',
        ]);
        expect(n.repair.dropped).toEqual([]);
      } else {
        expect(n.changed, file).toBe(false);
      }
    }
  });

  it('keeps every thinking signature of the main thread, byte-exact', () => {
    for (const file of sessionFiles) {
      const value = loadSession(file);
      const read = claudeCodeFormat.read(value);
      const ctx = read.context as ClaudeCodeContext;
      const excluded = new Set([...ctx.sidechainEvents, ...ctx.abandonedEvents]);
      const events = (Array.isArray(value) ? value : (value as JsonObject).loglines) as JsonValue[];
      const expected: string[] = [];
      events.forEach((e, i) => {
        if (excluded.has(i) || ctx.skippedEvents.includes(i)) return;
        const content = ((e as JsonObject).message as JsonObject).content;
        if (!Array.isArray(content)) return;
        for (const b of content) {
          const block = b as JsonObject;
          if (block.type === 'thinking' && typeof block.signature === 'string')
            expected.push(block.signature);
        }
      });
      const signatures = read.conversation.messages.flatMap((m) =>
        m.parts.flatMap((p) => (typeof p.signature === 'string' ? [p.signature] : [])),
      );
      expect(signatures, file).toEqual(expected);
    }
  });

  it('reads spotter__tool_heavy.jsonl in event order, merging one API message', () => {
    const read = claudeCodeFormat.read(loadSession('spotter__tool_heavy.jsonl'));
    expect(eventOutline(read)).toBe(
      'u3 a4 t10 a11,12 t16 u17 u19 u20 u21 u25 a26,27,28,29 t31 t32 a33,36 t35 t37 u38',
    );
    // Parallel results are siblings of the calls in the parentUuid tree; both stay, in file order.
    // Event 36 continues API message 33 after the result of its first call (35) was logged: it
    // joins that message, and the result follows it, as Claude Code sends them.
    const calls = read.conversation.messages[10]!.parts.filter((p) => p.type === 'tool-call');
    expect(calls.map((p) => p.id)).toEqual([
      'toolu_01DKTWcKpZ2ksZQmoKKfxiw6',
      'toolu_01JJds55jYrYwd9TktNGndRY',
    ]);
  });

  it('reads spotter__subagent.jsonl in event order, merging one API message', () => {
    const read = claudeCodeFormat.read(loadSession('spotter__subagent.jsonl'));
    expect(eventOutline(read)).toBe(
      'u3 u4 a5,6,7,8,9,10,11 t12 t13 t14 t15 a16,17,18,21 t20 t22 a23 t25 a26,27,28 t29 ' +
        'a30,31,32 t33 a34,35 t55 a56,57 t65 a66 t67 u68 u70 a71 t75 a76,80 t81 t85 a86 t90 a91',
    );
    // The merged message keeps each event's identity, in order.
    const pd = (read.conversation.messages[2]!.providerData as JsonObject)[
      'claude-code'
    ] as JsonObject;
    expect((pd.events as JsonObject[]).map((e) => e.uuid)).toHaveLength(7);
  });

  it('reads a sub-agent transcript whole (all its events are sidechain)', () => {
    const read = claudeCodeFormat.read(
      loadSession('spotter__258c7280-ae70-4798-800f-63464d01a85d__subagents__agent-a881341.jsonl'),
    );
    const ctx = read.context as ClaudeCodeContext;
    expect(ctx.subagentTranscript).toBe(true);
    expect(ctx.sidechainEvents).toEqual([]);
    expect(read.conversation.messages.length).toBe(6);
  });
});

// Each read case: the context (events left out) as context.json, ids located byte for byte, pairs clean.
describeFixtureCases(claudeCodeFormat, {
  read: (read, fx) => {
    expectLocatable(fx.source!, read);
    expect(normalizeHistory(read.conversation.messages).changed).toBe(false);
  },
});

describe('claude-code fixtures', () => {
  it('has cases that check the context', () => {
    const cases = ownFixtureCases('claude-code');
    expect(cases.filter((c) => c.context !== undefined).length).toBe(cases.length);
  });

  it('points a part below a tool result at the content block', () => {
    const source = parseJson(
      readFileSync(path.join(FIXTURES, 'block-mapping', 'source.json'), 'utf8'),
    );
    const read = claudeCodeFormat.read(source);
    expect(read.locate(2, 0, ['content', 1])).toBe('/2/message/content/0/content/1');
    expect(read.locate(2, 0, ['callId'])).toBe('/2/message/content/0/tool_use_id');
    expect(read.locate(1, 3, ['arguments'])).toBe('/1/message/content/3/input');
    expect(read.locate(1, 0, ['redacted'])).toBe('/1/message/content/0/data');
    expect(read.locate(0)).toBe('/0');
  });

  it('locates a string content and the loglines export', () => {
    const source = parseJson(
      readFileSync(path.join(FIXTURES, 'loglines-export', 'source.json'), 'utf8'),
    );
    const read = claudeCodeFormat.read(source);
    expect(read.locate(0, 0)).toBe('/loglines/0/message/content');
    expect(read.locate(1, 1, ['id'])).toBe('/loglines/1/message/content/1/id');
  });
});

describe('claude-code format', () => {
  it('is a session format: written back only into the session read', () => {
    expect(claudeCodeFormat.readOnly).toBe(false);
    expect(claudeCodeFormat.session).toBe(true);
    const read = claudeCodeFormat.read(fixtureSession('block-mapping').value);
    // Nothing changed: every event written is the event read.
    const events = fixtureSession('block-mapping').value as JsonValue[];
    const again = claudeCodeFormat.read(events);
    const written = claudeCodeFormat.write(again.conversation, again.context).value as JsonValue[];
    expect(written.length).toBe(events.length);
    written.forEach((e, i) => expect(e).toBe(events[i]));
    expect(() => claudeCodeFormat.write(read.conversation)).toThrow(SourceError);
    expect(() => claudeCodeFormat.write(read.conversation)).toThrow(/written only back/);
  });

  it('--check says whether a session would change (exit 1 or 0); --write repairs only the one that changes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'histlint-claude-code-'));
    try {
      // A call without its result: normalize would add one.
      writeFileSync(path.join(dir, 'broken.jsonl'), DANGLING_SESSION);
      writeFileSync(path.join(dir, 'short.jsonl'), fixtureSession('block-mapping').jsonl);
      const check = (file: string) => runCli(['normalize', '--check', file], { cwd: dir });
      const wouldChange = await check('broken.jsonl');
      expect(wouldChange.code, wouldChange.stderr).toBe(1);
      const unchanged = await check('short.jsonl');
      expect(unchanged.code, unchanged.stderr).toBe(0);
      const before = readFileSync(path.join(dir, 'short.jsonl'), 'utf8');
      for (const file of ['broken.jsonl', 'short.jsonl']) {
        const write = await runCli(['normalize', '--write', file], { cwd: dir });
        expect(write.code, write.stderr).toBe(0);
      }
      expect(readFileSync(path.join(dir, 'short.jsonl'), 'utf8')).toBe(before);
      // The repaired session has nothing left to repair, and trim still refuses a session.
      expect((await check('broken.jsonl')).code).toBe(0);
      const trim = await runCli(['trim', '--max-messages', '1', '--write', 'broken.jsonl'], {
        cwd: dir,
      });
      expect(trim.code).toBe(2);
      expect(trim.stderr).toContain('trim does not write claude-code sessions');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects v1 conversations and the fixtures of the other formats', () => {
    const values: [string, JsonValue][] = [];
    const formats = path.join(ROOT, 'fixtures', 'formats');
    for (const format of readdirSync(formats)) {
      if (format === 'claude-code') continue;
      for (const c of readdirSync(path.join(formats, format))) {
        for (const file of ['source.json', 'written.json']) {
          const full = path.join(formats, format, c, file);
          if (existsSync(full)) values.push([full, parseJson(readFileSync(full, 'utf8'))]);
        }
      }
    }
    const core = path.join(ROOT, 'fixtures', 'core');
    for (const op of readdirSync(core)) {
      for (const c of readdirSync(path.join(core, op))) {
        const file = path.join(core, op, c, 'input.json');
        if (existsSync(file)) values.push([file, parseJson(readFileSync(file, 'utf8'))]);
      }
    }
    expect(values.length).toBeGreaterThan(80);
    for (const [label, value] of values) expect(claudeCodeFormat.detect(value), label).toBe(false);
  });

  it('refuses to read what is not a session', () => {
    expect(() => claudeCodeFormat.read({ messages: [] })).toThrow(/not claude-code/);
    expect(() => claudeCodeFormat.read([{ role: 'user', content: 'hi' }])).toThrow(
      /not claude-code/,
    );
    expect(claudeCodeFormat.detect([{ type: 'summary', text: 'x' }])).toBe(false);
    expect(
      claudeCodeFormat.detect([{ type: 'user', message: { role: 'user', content: 'x' } }]),
    ).toBe(false);
  });

  it('does not take an application log whose lines have a type, a session id and a text message', () => {
    // Reported: such a log was read as an empty session and linted clean.
    const log: JsonValue[] = [
      { type: 'info', sessionId: 'abc', message: 'user logged in' },
      { type: 'warn', sessionId: 'abc', uuid: 'r-1', message: 'slow request' },
    ];
    expect(claudeCodeFormat.detect(log)).toBe(false);
    expect(claudeCodeFormat.detect([log[0]!])).toBe(false);
  });
});

describeCorpusClaims(claudeCodeFormat, 'claude-code-jsonl');

/** A session event of the main thread, with Claude Code's usual metadata. */
function event(
  type: 'user' | 'assistant',
  uuid: string,
  parentUuid: string | null,
  content: JsonValue,
  extra: JsonObject = {},
): JsonObject {
  const message: JsonObject = { role: type, content };
  if (type === 'assistant') message.id = `msg_${uuid}`;
  return {
    type,
    uuid,
    parentUuid,
    isSidechain: false,
    sessionId: 'sess-1',
    timestamp: '2025-07-01T10:00:00.000Z',
    message,
    ...extra,
  };
}

const PROMPT = event('user', 'u1', null, 'List the files.');
const CALL = event('assistant', 'a1', 'u1', [
  { type: 'tool_use', id: 'toolu_ls', name: 'Bash', input: { command: 'ls' } },
]);
const RESULT = event('user', 'r1', 'a1', [
  { type: 'tool_result', tool_use_id: 'toolu_ls', content: 'a.txt\nb.txt' },
]);
const ANSWER = event('assistant', 'a2', 'r1', [{ type: 'text', text: 'Two files.' }]);

const toJsonl = (events: JsonValue[]): string =>
  events.map((e) => stringifyJson(e, 0) + '\n').join('');

/** Lint findings (rule and line) of a JSONL session, through the CLI. */
async function lintSession(jsonl: string): Promise<{ ruleId: string; line: number }[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'histlint-claude-code-'));
  try {
    writeFileSync(path.join(dir, 'session.jsonl'), jsonl);
    const r = await runCli(['lint', '--format', 'json', 'session.jsonl'], { cwd: dir });
    const report = JSON.parse(r.stdout) as {
      files: { findings: { ruleId: string; line: number }[] }[];
    };
    return report.files[0]!.findings.map((f) => ({ ruleId: f.ruleId, line: f.line }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('claude-code events logged twice (a resumed session)', () => {
  it('reads a tool_result event logged again under its uuid once, located at its first line', () => {
    // The copy was written on resume: same message, its own timestamp.
    const copy = { ...RESULT, timestamp: '2025-07-01T11:00:00.000Z' };
    const value = [PROMPT, CALL, RESULT, copy, ANSWER];
    const read = claudeCodeFormat.read(value);
    expect(eventOutline(read)).toBe('u0 a1 t2 a4');
    const results = read.conversation.messages.flatMap((m) =>
      m.parts.filter((p) => p.type === 'tool-result'),
    );
    expect(results).toHaveLength(1);
    expect(read.locate(2)).toBe('/2');
    expect(read.locate(2, 0, ['callId'])).toBe('/2/message/content/0/tool_use_id');
    // The first copy's record is kept, not the later one's.
    const pd = (read.conversation.messages[2]!.providerData as JsonObject)[
      'claude-code'
    ] as JsonObject;
    expect(pd.timestamp).toBe(RESULT.timestamp);
    expect((read.context as ClaudeCodeContext).duplicateEvents).toEqual([3]);
    expectLocatable(value, read);
    expect(normalizeHistory(read.conversation.messages).changed).toBe(false);
  });

  it('reads a whole session copied again on resume once (the copied prompt is no rewind)', () => {
    const next = event('user', 'u2', 'a2', 'And the hidden ones?');
    const reply = event('assistant', 'a3', 'u2', [{ type: 'text', text: 'None.' }]);
    const last = event('user', 'u3', 'a3', 'Thanks.');
    const bye = event('assistant', 'a4', 'u3', [{ type: 'text', text: 'Welcome.' }]);
    const before = [PROMPT, CALL, RESULT, ANSWER, next, reply];
    const value = [...before, ...before, last, bye];
    const read = claudeCodeFormat.read(value);
    // Two prompts on one parent would be a rewind, abandoning all that follows the first.
    expect(eventOutline(read)).toBe('u0 a1 t2 a3 u4 a5 u12 a13');
    const ctx = read.context as ClaudeCodeContext;
    expect(ctx.abandonedEvents).toEqual([]);
    expect(ctx.duplicateEvents).toEqual([6, 7, 8, 9, 10, 11]);
    expectLocatable(value, read);
  });

  it('leaves the context as it was when no event is logged twice', () => {
    const read = claudeCodeFormat.read([PROMPT, CALL, RESULT, ANSWER]);
    expect(read.context).not.toHaveProperty('duplicateEvents');
  });

  it('reads a later copy whose message differs as well, so lint shows the conflict', () => {
    // Not the same event written again: which one Claude Code sent cannot be told, so neither
    // is hidden. Here the later copy carries more content than the first.
    const longer = event('user', 'r1', 'a1', [
      { type: 'tool_result', tool_use_id: 'toolu_ls', content: 'a.txt\nb.txt\nc.txt' },
    ]);
    const value = [PROMPT, CALL, RESULT, longer, ANSWER];
    const read = claudeCodeFormat.read(value);
    expect(eventOutline(read)).toBe('u0 a1 t2 t3 a4');
    expect(read.context).not.toHaveProperty('duplicateEvents');
    expect(read.locate(3, 0, ['callId'])).toBe('/3/message/content/0/tool_use_id');
    expectLocatable(value, read);
  });

  it('lint: no duplicate-tool-result for a tool_result event logged twice; normalize keeps it all', async () => {
    const copy = { ...RESULT, timestamp: '2025-07-01T11:00:00.000Z' };
    const jsonl = toJsonl([PROMPT, CALL, RESULT, copy, ANSWER]);
    const findings = await lintSession(jsonl);
    expect(findings.map((f) => f.ruleId)).not.toContain('duplicate-tool-result');
    // Nothing to repair: normalize --check says the session would not change.
    const dir = mkdtempSync(path.join(tmpdir(), 'histlint-claude-code-'));
    try {
      writeFileSync(path.join(dir, 'session.jsonl'), jsonl);
      const check = await runCli(['normalize', '--check', 'session.jsonl'], { cwd: dir });
      expect(check.code, check.stderr).toBe(0);
      // normalize writes the session as it was; convert shows what is read: all but the copy.
      const plain = await runCli(['normalize', 'session.jsonl'], { cwd: dir });
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout).toBe(jsonl);
      const v1 = await runCli(['convert', '--to', 'histlint', 'session.jsonl'], { cwd: dir });
      expect(v1.code, v1.stderr).toBe(0);
      const messages = (parseJson(v1.stdout) as JsonObject).messages as JsonObject[];
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      const n = normalizeHistory(
        claudeCodeFormat.read(parseJson(`[${jsonl.trim().split('\n').join(',')}]`)).conversation
          .messages,
      );
      expect(n.repair.dropped).toEqual([]);
      expect(n.repair.synthesized).toEqual([]);
      expect(n.changed).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lint: a later copy with other content is reported as a duplicate result, at its line', async () => {
    const other = event('user', 'r1', 'a1', [
      { type: 'tool_result', tool_use_id: 'toolu_ls', content: 'a.txt\nb.txt\nc.txt' },
    ]);
    const findings = await lintSession(toJsonl([PROMPT, CALL, RESULT, other, ANSWER]));
    const dup = findings.filter((f) => f.ruleId === 'duplicate-tool-result');
    expect(dup.map((f) => f.line)).toEqual([4]);
  });
});
