/**
 * `histlint lint --fix` (SPEC §5.2): fixes of the enabled fixable rules
 * only, written in place, then linted again; the exit code reflects what is
 * left. Inputs are rule fixtures copied to a temp folder.
 */
import {
  copyFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, type CliResult } from './helpers/cli.js';
import { inputFile } from './helpers/rule-fixtures.js';

const FIXTURES = path.join(ROOT, 'fixtures', 'rules');
const work = mkdtempSync(path.join(tmpdir(), 'histlint-lint-fix-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface JsonReport {
  files: { file: string; findings: { ruleId: string; severity: string; line: number }[] }[];
  errorCount: number;
  warningCount: number;
}

interface Conversation {
  version?: number;
  messages: { role: string; parts: Record<string, unknown>[] }[];
}

let folders = 0;
/** A fresh folder under the temp folder. */
function folder(): string {
  return mkdtempSync(path.join(work, `case-${folders++}-`));
}

/** Copies a rule fixture's input into `dir` under `as` (default: the fixture's own name). */
function copyFixture(fixture: string, dir: string, as?: string): string {
  const from = path.join(FIXTURES, fixture);
  const name = as ?? inputFile(from);
  copyFileSync(path.join(from, inputFile(from)), path.join(dir, name));
  return name;
}

function read(dir: string, name: string): string {
  return readFileSync(path.join(dir, name), 'utf8');
}

function readConversation(dir: string, name: string): Conversation {
  return JSON.parse(read(dir, name)) as Conversation;
}

/** `histlint lint --format json ARGS` in `dir`. */
async function lint(dir: string, args: string[]): Promise<CliResult & { report: JsonReport }> {
  const r = await runCli(['lint', '--format', 'json', ...args], { cwd: dir });
  return { ...r, report: JSON.parse(r.stdout) as JsonReport };
}

/** What `histlint <op> --write` makes of a copy of the same input. */
async function reference(
  op: 'normalize' | 'sanitize',
  fixture: string,
  dir: string,
  flags: string[] = [],
): Promise<string> {
  const name = copyFixture(
    fixture,
    dir,
    `reference${path.extname(inputFile(path.join(FIXTURES, fixture)))}`,
  );
  const r = await runCli([op, '--write', ...flags, name], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return read(dir, name);
}

const PAIRING_FIXTURES = [
  'dangling-tool-call/invalid-call-without-result',
  'orphan-tool-result/invalid-results-without-calls',
  'result-before-call/invalid-result-before-its-call',
  'duplicate-tool-result/invalid-second-and-third-result',
  'dangling-tool-call/invalid-jsonl-crlf',
];

describe('lint --fix: pairing', () => {
  for (const fixture of PAIRING_FIXTURES) {
    it(`${fixture}: fixed in place, byte for byte what normalize writes`, async () => {
      const dir = folder();
      const expected = await reference('normalize', fixture, dir);
      const name = copyFixture(fixture, dir);
      const before = await lint(dir, [name]);
      expect(before.code).toBe(1);

      const r = await lint(dir, ['--fix', name]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.report.files).toEqual([{ file: name, target: null, findings: [] }]);
      expect(read(dir, name)).toBe(expected);

      // Linting the result again finds nothing and changes nothing.
      const again = await lint(dir, ['--fix', name]);
      expect(again.code).toBe(0);
      expect(read(dir, name)).toBe(expected);
    });
  }

  it('--leave-pending: drops the orphan but synthesizes nothing for the pending calls', async () => {
    const fixture = 'orphan-tool-result/invalid-before-pending-calls';
    const dir = folder();
    const expected = await reference('normalize', fixture, dir, ['--leave-pending']);
    const name = copyFixture(fixture, dir);
    const r = await lint(dir, ['--fix', '--leave-pending', name]);
    expect(r.code).toBe(0);
    expect(read(dir, name)).toBe(expected);
    const out = readConversation(dir, name);
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(out.messages[2]!.parts.map((p) => p.callId)).toEqual(['c1']);
  });
  it('--pointer: fixes the conversation inside a wrapping document, keeps the rest', async () => {
    const fixture = 'dangling-tool-call/invalid-at-pointer';
    const dir = folder();
    const expected = await reference('normalize', fixture, dir, ['--pointer', '/request']);
    const name = copyFixture(fixture, dir);
    const r = await lint(dir, ['--fix', '--pointer', '/request', name]);
    expect(r.code).toBe(0);
    expect(read(dir, name)).toBe(expected);
    const out = JSON.parse(read(dir, name)) as { status: number; request: Conversation };
    expect(out.status).toBe(200);
    expect(out.request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
  });

  it('JSONL: fixes the readable lines and leaves a broken line byte for byte', async () => {
    const dir = folder();
    const name = 'mixed.jsonl';
    const broken = '{"version":1,"messages":[{"role":"user","parts":[{"type":"text","text":"cut';
    const dangling = read(
      path.join(FIXTURES, 'dangling-tool-call/invalid-jsonl-crlf'),
      'input.jsonl',
    ).split('\r\n')[1]!;
    writeFileSync(path.join(dir, name), `${dangling}\n${broken}\n`);
    const r = await lint(dir, ['--fix', name]);
    expect(r.code).toBe(1);
    expect(r.report.files[0]!.findings.map((f) => f.ruleId)).toEqual(['parse-error']);
    const lines = read(dir, name).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(broken);
    expect((JSON.parse(lines[0]!) as Conversation).messages.map((m) => m.role)).toEqual([
      'assistant',
      'tool',
    ]);
  });
});

describe('lint --fix: unsafe-url and system-message', () => {
  const fixture = 'unsafe-url/invalid-user-message-left-empty';

  it('drops unsafe parts and user messages left empty, keeps system messages', async () => {
    const dir = folder();
    const name = copyFixture(fixture, dir);
    const r = await lint(dir, ['--fix', name]);
    expect(r.code).toBe(0);
    expect(r.report.files[0]!.findings).toEqual([]);
    expect(readConversation(dir, name)).toEqual({
      version: 1,
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'You are terse.' }] },
        { role: 'user', parts: [{ type: 'text', text: 'what is this?' }] },
        {
          role: 'assistant',
          parts: [{ type: 'tool-call', id: 'c1', name: 'fetch', arguments: '{}' }],
        },
        // A tool message stays, with its result's content emptied, so pairing survives.
        {
          role: 'tool',
          parts: [{ type: 'tool-result', callId: 'c1', name: 'fetch', content: [] }],
        },
        { role: 'assistant', parts: [{ type: 'text', text: 'Nothing I can read.' }] },
      ],
    });
  });

  it('with --rule system-message=error also drops system messages: what sanitize writes', async () => {
    const dir = folder();
    const expected = await reference('sanitize', fixture, dir);
    const name = copyFixture(fixture, dir);
    const r = await lint(dir, ['--fix', '--rule', 'system-message=error', name]);
    expect(r.code).toBe(0);
    expect(r.report.files[0]!.findings).toEqual([]);
    expect(read(dir, name)).toBe(expected);
    expect(readConversation(dir, name).messages.some((m) => m.role === 'system')).toBe(false);
  });

  it('--rule system-message=error drops system messages of a file with nothing else to fix', async () => {
    const dir = folder();
    const name = copyFixture('system-message/invalid-enabled', dir);
    const r = await lint(dir, ['--fix', '--rule', 'system-message=error', name]);
    expect(r.code).toBe(0);
    expect(readConversation(dir, name).messages.map((m) => m.role)).toEqual(['user', 'user']);
  });

  it('--rule unsafe-url=off leaves unsafe parts alone', async () => {
    const dir = folder();
    const name = copyFixture(fixture, dir);
    const before = read(dir, name);
    const r = await lint(dir, ['--fix', '--rule', 'unsafe-url=off', name]);
    expect(r.code).toBe(0);
    expect(read(dir, name)).toBe(before);
  });
});

describe('lint --fix: only the fixes of enabled rules', () => {
  const fixture = 'orphan-tool-result/invalid-beside-dangling-call';

  it('all pairing rules on: drops the orphan and synthesizes the missing result', async () => {
    const dir = folder();
    const name = copyFixture(fixture, dir);
    const r = await lint(dir, ['--fix', name]);
    expect(r.code).toBe(0);
    const out = readConversation(dir, name);
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(out.messages[2]!.parts).toEqual([
      {
        type: 'tool-result',
        callId: 'c1',
        name: 'weather',
        content: [{ type: 'text', text: 'interrupted before execution; no result was produced' }],
      },
    ]);
  });

  it('--rule dangling-tool-call=off: drops the orphan, synthesizes nothing', async () => {
    const dir = folder();
    const name = copyFixture(fixture, dir);
    const r = await lint(dir, ['--fix', '--rule', 'dangling-tool-call=off', name]);
    expect(r.code).toBe(0);
    const out = readConversation(dir, name);
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    // With the rule back on, the call is still dangling.
    const after = await lint(dir, [name]);
    expect(after.code).toBe(1);
    expect(after.report.files[0]!.findings.map((f) => f.ruleId)).toEqual(['dangling-tool-call']);
  });

  it('--rule orphan-tool-result=off: synthesizes the missing result, keeps the orphan', async () => {
    const dir = folder();
    const name = copyFixture(fixture, dir);
    const r = await lint(dir, ['--fix', '--rule', 'orphan-tool-result=off', name]);
    expect(r.code).toBe(0);
    const out = readConversation(dir, name);
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user']);
    expect(out.messages[2]!.parts.map((p) => p.callId)).toEqual(['c1']);
    expect(out.messages[3]!.parts.map((p) => p.callId)).toEqual(['c9']);
  });
});

describe('lint --fix: exit code and untouched files', () => {
  it('exits 1 when unfixable errors remain, after applying the fixable ones', async () => {
    const fixture = 'dangling-tool-call/invalid-shared-id-in-one-message-reported-once';
    const dir = folder();
    const expected = await reference('normalize', fixture, dir);
    const name = copyFixture(fixture, dir);
    const r = await lint(dir, ['--fix', name]);
    expect(r.code).toBe(1);
    // The dangling call got its result; the two calls sharing one id are left for a human.
    expect(read(dir, name)).toBe(expected);
    expect(readConversation(dir, name).messages).toHaveLength(4);
    expect(r.report.files[0]!.findings.map((f) => f.ruleId)).toEqual(['duplicate-call-id']);
    expect(r.report.errorCount).toBe(1);
  });

  it('exits 0 when every error was fixed, with warnings left', async () => {
    const dir = folder();
    const name = copyFixture('truncated-arguments/invalid-not-json-objects', dir);
    const r = await lint(dir, ['--fix', name]);
    expect(r.code).toBe(0);
    // The dangling calls got results; the truncated arguments and the call without id stay.
    const rules = new Set(r.report.files[0]!.findings.map((f) => f.ruleId));
    expect([...rules].sort()).toEqual(['missing-call-id', 'truncated-arguments']);
    expect(r.report.errorCount).toBe(0);
    expect(r.report.warningCount).toBe(6);
  });

  it('does not rewrite files without fixable findings', async () => {
    const dir = folder();
    const names = [
      copyFixture('dangling-tool-call/valid-every-call-answered', dir, 'clean.json'),
      copyFixture('missing-call-id/invalid-call-and-result-without-ids', dir, 'warnings.json'),
      copyFixture('system-message/invalid-enabled', dir, 'system-off.json'),
      copyFixture('duplicate-call-id/invalid-same-message', dir, 'shared-ids.json'),
      copyFixture('unversioned/invalid-bare-array', dir, 'bare.json'),
      copyFixture('parse-error/invalid-truncated', dir, 'truncated.json'),
      copyFixture('parse-error/invalid-jsonl-several-lines', dir, 'broken-lines.jsonl'),
      copyFixture('not-a-conversation/invalid-object-without-messages', dir, 'other.json'),
      copyFixture('duplicate-key/invalid-repeated-keys', dir, 'keys.json'),
    ];
    const old = new Date('2001-02-03T04:05:06Z');
    const before = new Map<string, { bytes: string; mtime: number }>();
    for (const n of names) {
      utimesSync(path.join(dir, n), old, old);
      before.set(n, { bytes: read(dir, n), mtime: statSync(path.join(dir, n)).mtimeMs });
    }
    const r = await lint(dir, ['--fix', '--rule', 'duplicate-key=warn', ...names]);
    // parse errors, not-a-conversation and shared call ids remain.
    expect(r.code).toBe(1);
    for (const n of names) {
      expect(read(dir, n), n).toBe(before.get(n)!.bytes);
      expect(statSync(path.join(dir, n)).mtimeMs, n).toBe(before.get(n)!.mtime);
    }
  });

  it('does not rewrite a file whose only fixable findings belong to disabled rules', async () => {
    const dir = folder();
    const names = [
      copyFixture('dangling-tool-call/invalid-call-without-result', dir, 'dangling.json'),
      copyFixture('dangling-tool-call/valid-leave-pending-last-assistant', dir, 'pending.json'),
    ];
    const old = new Date('2001-02-03T04:05:06Z');
    for (const n of names) utimesSync(path.join(dir, n), old, old);
    const off = await lint(dir, ['--fix', '--rule', 'dangling-tool-call=off', names[0]!]);
    expect(off.code).toBe(0);
    const pending = await lint(dir, ['--fix', '--leave-pending', names[1]!]);
    expect(pending.code).toBe(0);
    for (const n of names) expect(statSync(path.join(dir, n)).mtimeMs, n).toBe(old.getTime());
  });

  it('a JSONL line that is not UTF-8 stays byte for byte; the others are fixed as they would be without it', async () => {
    const dir = folder();
    const name = copyFixture('dangling-tool-call/invalid-jsonl-crlf', dir);
    const original = readFileSync(path.join(dir, name));
    expect((await lint(dir, ['--fix', name])).code).toBe(0);
    const fixedAlone = readFileSync(path.join(dir, name));
    // The same file with a line that is not UTF-8 after its first (clean) line.
    const cut = original.indexOf('\r\n') + 2;
    const bad = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d, 0x0d, 0x0a]);
    writeFileSync(
      path.join(dir, name),
      Buffer.concat([original.subarray(0, cut), bad, original.subarray(cut)]),
    );
    const r = await lint(dir, ['--fix', name]);
    expect(r.code).toBe(1);
    expect(r.report.files[0]!.findings.map((f) => [f.ruleId, f.line])).toEqual([
      ['parse-error', 2],
    ]);
    const after = readFileSync(path.join(dir, name));
    expect(after).toEqual(
      Buffer.concat([fixedAlone.subarray(0, cut), bad, fixedAlone.subarray(cut)]),
    );
  });

  it('keeps the untouched lines of a JSONL file byte for byte, CRLF included', async () => {
    const dir = folder();
    const name = copyFixture('dangling-tool-call/invalid-jsonl-crlf', dir);
    const before = read(dir, name).split('\r\n');
    const r = await lint(dir, ['--fix', name]);
    expect(r.code).toBe(0);
    const text = read(dir, name);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    const after = text.split('\r\n');
    expect(after).toHaveLength(before.length);
    // Lines 1, 3 (blank) and 4 are clean; 2 (dangling call) and 5 (orphan result) are fixed.
    for (const k of [0, 2, 3, 5]) expect(after[k], `line ${k + 1}`).toBe(before[k]);
    for (const k of [1, 4]) expect(after[k], `line ${k + 1}`).not.toBe(before[k]);
    expect(JSON.parse(after[1]!)).toEqual({
      version: 1,
      messages: [
        {
          role: 'assistant',
          parts: [{ type: 'tool-call', id: 'a1', name: 'f', arguments: '{}' }],
        },
        {
          role: 'tool',
          parts: [
            {
              type: 'tool-result',
              callId: 'a1',
              name: 'f',
              content: [
                { type: 'text', text: 'interrupted before execution; no result was produced' },
              ],
            },
          ],
        },
      ],
    });
    expect(JSON.parse(after[4]!)).toEqual({
      version: 1,
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'x' }] }],
    });
  });
});

describe('lint --fix: session logs (reported defects)', () => {
  const event = (uuid: string, parent: string | null, type: string, content: unknown): string =>
    JSON.stringify({
      parentUuid: parent,
      isSidechain: false,
      sessionId: 's1',
      type,
      message:
        type === 'assistant'
          ? { id: `m-${uuid}`, role: 'assistant', content }
          : { role: 'user', content },
      uuid,
      timestamp: `2026-01-01T00:00:0${uuid.slice(1)}Z`,
    });
  const session = [
    event('u1', null, 'user', 'go'),
    event('u2', 'u1', 'assistant', [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }]),
    event('u3', 'u2', 'user', 'next'),
  ];

  it('repairs a session whose last line a crash cut off, and keeps that line byte for byte', async () => {
    const dir = folder();
    const cut = event('u4', 'u3', 'assistant', [{ type: 'text', text: 'working on it' }]).slice(
      0,
      60,
    );
    writeFileSync(path.join(dir, 's.jsonl'), [...session, cut].join('\n'));
    const r = await lint(dir, ['--fix', 's.jsonl']);
    expect(r.stderr).toBe('');
    // What is left: the cut line, which no fix can mend.
    expect(r.report.files[0]!.findings.map((f) => [f.ruleId, f.line])).toEqual([
      ['parse-error', 5],
    ]);
    const lines = read(dir, 's.jsonl').split('\n');
    expect(lines).toHaveLength(5);
    expect([lines[0], lines[1], lines[4]]).toEqual([session[0], session[1], cut]);
    expect(JSON.parse(lines[2]!)).toMatchObject({ type: 'user', parentUuid: 'u2' });
    expect(JSON.parse(lines[3]!)).toMatchObject({ uuid: 'u3' });
  });

  it('never fixes a session line by line: with a line that is not UTF-8 it refuses, the file as it was', async () => {
    const dir = folder();
    const result = event('u3', 'u2', 'user', [
      { type: 'tool_result', tool_use_id: 't1', content: 'ok' },
    ]);
    const bytes = Buffer.concat([
      Buffer.from([session[0], session[1], result].join('\n') + '\n'),
      Buffer.from([0x7b, 0x22, 0x63, 0x61, 0x66, 0xc3]),
    ]);
    writeFileSync(path.join(dir, 's.jsonl'), bytes);
    const r = await runCli(['lint', '--fix', 's.jsonl'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^s\.jsonl: error: .*line 4 is not UTF-8/);
    // The result logged for the call is still there: nothing was fixed.
    expect(readFileSync(path.join(dir, 's.jsonl'))).toEqual(bytes);
  });

  it('a fix the session cannot hold is exit 2 with an error for the file, which stays as it was', async () => {
    const dir = folder();
    const text =
      [
        '{"sessionId":"g1","projectHash":"ph","startTime":"2026-01-01T00:00:00Z","lastUpdated":"2026-01-01T00:00:00Z","kind":"main"}',
        '{"id":"m1","timestamp":"2026-01-01T00:00:01Z","type":"user","content":[{"text":"look"},{"fileData":{"mimeType":"image/png","fileUri":"file:///etc/passwd"}}]}',
      ].join('\n') + '\n';
    writeFileSync(path.join(dir, 'g.jsonl'), text);
    const r = await runCli(['lint', '--fix', '--format', 'json', 'g.jsonl'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^g\.jsonl: error: .*cannot write this change back into a gemini-cli recording/,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const report = JSON.parse(r.stdout) as { files: { error?: { message: string } }[] };
    expect(report.files[0]!.error?.message).toMatch(/gemini-cli recording/);
    expect(read(dir, 'g.jsonl')).toBe(text);
  });

  it('a read-only format inside the lines of a JSONL file (--pointer) is not counted as fixable', async () => {
    const dir = folder();
    const state = readFileSync(
      path.join(
        ROOT,
        'fixtures',
        'formats',
        'openai-agents',
        'read-pending-approval',
        'source.json',
      ),
      'utf8',
    );
    const line = JSON.stringify({ id: 1, run_state: JSON.parse(state) as unknown });
    writeFileSync(path.join(dir, 'states.jsonl'), `${line}\n${line}\n`);
    const r = await runCli(
      ['lint', '--pointer', '/run_state', '--format', 'json', 'states.jsonl'],
      {
        cwd: dir,
      },
    );
    const report = JSON.parse(r.stdout) as { files: { findings: { fixable: boolean }[] }[] };
    expect(report.files[0]!.findings.length).toBeGreaterThan(0);
    expect(report.files[0]!.findings.filter((f) => f.fixable)).toEqual([]);
  });
});
