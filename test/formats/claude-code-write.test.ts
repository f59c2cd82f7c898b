/**
 * Writing a repaired Claude Code session back (issue 20 item 1, SPEC §5.1): the events in file
 * order, every untouched event the value read (its line byte for byte), a synthesized result a
 * new user event after the call's assistant events with a name-based uuid and the neighbour's
 * session fields, the `parentUuid` chain re-linked through it, a dropped result's event gone with
 * its child re-parented; the conversation rebuilt from what is written passes `--target
 * anthropic`; repairing twice writes the same bytes. On the corpus: every session written back
 * rebuilds to a conversation with nothing left to repair, and no `parentUuid` break the input
 * did not have.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nameId } from '../../src/core/ids.js';
import { normalizeHistory } from '../../src/core/normalize.js';
import { claudeCodeFormat } from '../../src/formats/claude-code/index.js';
import { withMessages } from '../../src/formats/histlint/index.js';
import { readDocument, serializeEventLog } from '../../src/formats/kit/document.js';
import { lintConversation } from '../../src/lint/api.js';
import { SourceError } from '../../src/model/errors.js';
import type { JsonObject, JsonValue } from '../../src/model/json.js';
import { CORPUS, describeShared } from '../helpers/shared.js';

const base = {
  isSidechain: false,
  userType: 'external',
  cwd: '/w',
  sessionId: 's1',
  version: '2.0.1',
};

/** A session whose second call was interrupted: no result was logged for it. */
function interrupted(): JsonObject[] {
  return [
    { type: 'summary', summary: 'work', leafUuid: 'u3' },
    {
      parentUuid: null,
      ...base,
      type: 'user',
      message: { role: 'user', content: 'list and read' },
      uuid: 'u1',
      timestamp: '2026-01-01T00:00:00Z',
    },
    {
      parentUuid: 'u1',
      ...base,
      type: 'assistant',
      message: {
        id: 'm1',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} }],
      },
      uuid: 'a1',
      timestamp: '2026-01-01T00:00:01Z',
    },
    {
      parentUuid: 'a1',
      ...base,
      type: 'assistant',
      message: {
        id: 'm1',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_2', name: 'cat', input: { f: 'x' } }],
      },
      uuid: 'a2',
      timestamp: '2026-01-01T00:00:02Z',
    },
    {
      parentUuid: 'a2',
      ...base,
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }],
      },
      uuid: 'r1',
      timestamp: '2026-01-01T00:00:03Z',
    },
    { type: 'file-history-snapshot', messageId: 'm1', snapshot: {} },
    {
      parentUuid: 'r1',
      ...base,
      type: 'user',
      message: { role: 'user', content: 'go on' },
      uuid: 'u3',
      timestamp: '2026-01-01T00:00:04Z',
    },
  ];
}

/** A session's events as a JSONL document (one event a line, as Claude Code writes them). */
function jsonl(events: readonly JsonValue[], eol = '\n'): ReturnType<typeof readDocument> {
  const text = events.map((e) => JSON.stringify(e) + eol).join('');
  return readDocument(new TextEncoder().encode(text), 'jsonl');
}

/** Reads a document's events, repairs them for Anthropic, and writes the session back as text. */
function repair(doc: ReturnType<typeof readDocument>): { text: string; changed: boolean } {
  const events = doc.units.map((u) => u.value!);
  const read = claudeCodeFormat.read(events);
  const fixed = normalizeHistory(read.conversation.messages, {
    target: { target: 'anthropic', native: false },
  });
  const written = claudeCodeFormat.write(
    withMessages(read.conversation, fixed.messages),
    read.context,
  );
  expect(written.losses).toEqual([]);
  return { text: serializeEventLog(doc, written.value as JsonValue[]), changed: fixed.changed };
}

/** The events of a session text: each line that is not blank, parsed. */
function eventsOf(text: string): JsonObject[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as JsonObject);
}

/** The errors lint finds in a session text under `--target anthropic`. */
function errors(text: string): string[] {
  return lintConversation(JSON.stringify(eventsOf(text)), {
    target: 'anthropic',
    from: 'claude-code',
  })
    .filter((f) => f.severity === 'error')
    .map((f) => f.ruleId);
}

describe('claude-code: a repaired session written back', () => {
  it('adds the synthesized result as a user event after the call, re-parents the next event, keeps every other line', () => {
    const events = interrupted();
    const doc = jsonl(events);
    expect(errors(doc.lines.map((l) => l.raw).join('\n'))).toContain('dangling-tool-call');
    const { text, changed } = repair(doc);
    expect(changed).toBe(true);
    const lines = text.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(events.length + 1);
    const added = JSON.parse(lines[4]!) as JsonObject;
    expect(added).toEqual({
      parentUuid: 'a2',
      ...base,
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            content: [
              { type: 'text', text: 'interrupted before execution; no result was produced' },
            ],
          },
        ],
      },
      uuid: nameId('claude-code tool_result s1 toolu_2'),
      timestamp: '2026-01-01T00:00:02Z',
    });
    // The result logged after it now hangs from it; every other line is as it was.
    const original = events.map((e) => JSON.stringify(e));
    expect(JSON.parse(lines[5]!)).toEqual({ ...events[4], parentUuid: added.uuid });
    expect([...lines.slice(0, 4), ...lines.slice(6)]).toEqual([
      ...original.slice(0, 4),
      ...original.slice(5),
    ]);
    expect(errors(text)).toEqual([]);
  });

  it('repairs a repaired session to the same bytes (nothing left to change)', () => {
    const once = repair(jsonl(interrupted())).text;
    const twice = repair(readDocument(new TextEncoder().encode(once), 'jsonl'));
    expect(twice.changed).toBe(false);
    expect(twice.text).toBe(once);
  });

  it('keeps CRLF line ends, blank lines and a line without a final newline', () => {
    const events = interrupted();
    const text = events.map((e) => JSON.stringify(e)).join('\r\n\r\n');
    const doc = readDocument(new TextEncoder().encode(text), 'jsonl');
    const out = repair(doc).text;
    const original = text.split('\r\n');
    const lines = out.split('\r\n');
    // One line more (the added event, written with the file's line end), nothing else changed but the re-parented one.
    expect(lines.length).toBe(original.length + 1);
    expect(lines.filter((l) => !original.includes(l))).toHaveLength(2);
    expect(out.endsWith(JSON.stringify(events[events.length - 1]))).toBe(true);
  });

  it('drops an orphan result: its event goes and its child hangs from its parent', () => {
    const events = interrupted();
    events.splice(6, 0, {
      parentUuid: 'r1',
      ...base,
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'stray' }],
      },
      uuid: 'r9',
      timestamp: '2026-01-01T00:00:03Z',
    });
    events[7] = { ...events[7]!, parentUuid: 'r9' };
    const out = repair(jsonl(events)).text;
    const written = eventsOf(out);
    expect(written.some((e) => e.uuid === 'r9')).toBe(false);
    expect(written.find((e) => e.uuid === 'u3')!.parentUuid).toBe('r1');
    expect(errors(out)).toEqual([]);
  });

  it('writes a {"loglines": [...]} export back as one', () => {
    const read = claudeCodeFormat.read({ loglines: interrupted(), title: 't' });
    const fixed = normalizeHistory(read.conversation.messages);
    const value = claudeCodeFormat.write(
      withMessages(read.conversation, fixed.messages),
      read.context,
    ).value as JsonObject;
    expect(value.title).toBe('t');
    expect((value.loglines as JsonValue[]).length).toBe(interrupted().length + 1);
  });

  it('refuses to write a conversation that was not read from a session', () => {
    const read = claudeCodeFormat.read(interrupted());
    expect(() => claudeCodeFormat.write(read.conversation)).toThrow(SourceError);
    expect(() => claudeCodeFormat.write(read.conversation, structuredClone(read.context))).toThrow(
      /written only back to the file it was read from/,
    );
  });
});

/** An event of the small sessions below: `parent` its parentUuid, `content` its message. */
function ev(
  uuid: string,
  parent: string | null,
  type: string,
  content: JsonValue,
  extra: JsonObject = {},
): JsonObject {
  const role = type === 'assistant' ? 'assistant' : 'user';
  const message: JsonObject = { role, content };
  if (type === 'assistant') message.id = `m-${uuid}`;
  return { parentUuid: parent, ...base, type, message, uuid, timestamp: `T-${uuid}`, ...extra };
}

const call = (id: string): JsonValue => [{ type: 'tool_use', id, name: 'Bash', input: {} }];

/** The messages a session text reads as (role and first block or text), in order. */
function conversationOf(text: string): string[] {
  return claudeCodeFormat.read(eventsOf(text)).conversation.messages.map((m) => {
    const p = m.parts[0]!;
    return `${m.role} ${p.type === 'text' ? String(p.text) : p.type === 'tool-call' ? `call ${String(p.id)}` : p.type === 'tool-result' ? `result ${String(p.callId)}` : p.type}`;
  });
}

describe('claude-code: repairs that must keep the session whole (reported defects)', () => {
  it('gives two results synthesized for one reused call id two uuids, and loses no message', () => {
    const events = [
      ev('u1', null, 'user', 'go'),
      ev('u2', 'u1', 'assistant', call('t1')),
      ev('u3', 'u2', 'user', 'hello?'),
      ev('u4', 'u3', 'assistant', call('t1')),
      ev('u5', 'u4', 'user', 'again?'),
    ];
    const { text } = repair(jsonl(events));
    const written = eventsOf(text);
    const uuids = written.map((e) => e.uuid);
    expect(new Set(uuids).size).toBe(uuids.length);
    expect(conversationOf(text)).toEqual([
      'user go',
      'assistant call t1',
      'tool result t1',
      'user hello?',
      'assistant call t1',
      'tool result t1',
      'user again?',
    ]);
    expect(errors(text)).toEqual([]);
    // The first one keeps the name the issue gives it: the session id and the call id.
    expect(uuids).toContain(nameId('claude-code tool_result s1 t1'));
    expect(repair(jsonl(written)).changed).toBe(false);
  });

  it('keeps a rewound branch rewound when the call before the fork is repaired', () => {
    const events = [
      ev('u1', null, 'user', 'go'),
      ev('u2', 'u1', 'assistant', call('t1')),
      ev('u3', 'u2', 'user', 'first try'),
      ev('u4', 'u3', 'assistant', call('t2')),
      ev('u5', 'u2', 'user', 'second try'),
    ];
    const doc = jsonl(events);
    expect(conversationOf(doc.lines.map((l) => l.raw).join('\n'))).toEqual([
      'user go',
      'assistant call t1',
      'user second try',
    ]);
    const once = repair(doc);
    expect(conversationOf(once.text)).toEqual([
      'user go',
      'assistant call t1',
      'tool result t1',
      'user second try',
    ]);
    expect(errors(once.text)).toEqual([]);
    const twice = repair(readDocument(new TextEncoder().encode(once.text), 'jsonl'));
    expect(twice.changed).toBe(false);
    expect(twice.text).toBe(once.text);
  });

  it('leaves a progress line that hangs from the call as it was', () => {
    const progress = {
      parentUuid: 'u2',
      ...base,
      type: 'progress',
      data: { type: 'hook_progress', hookEvent: 'PreToolUse' },
      parentToolUseID: 't1',
      toolUseID: 't1',
      uuid: 'p1',
      timestamp: 'T3',
    };
    const events = [
      ev('u1', null, 'user', 'go'),
      ev('u2', 'u1', 'assistant', call('t1')),
      progress,
      ev('u3', 'u2', 'user', '[Request interrupted by user]'),
    ];
    const { text } = repair(jsonl(events));
    const lines = text.split('\n').filter((l) => l !== '');
    expect(lines).toContain(JSON.stringify(progress));
    expect(conversationOf(text)).toEqual([
      'user go',
      'assistant call t1',
      'tool result t1',
      'user [Request interrupted by user]',
    ]);
    expect(errors(text)).toEqual([]);
  });

  it('keeps a blank line between the lines it was between when the line after it changes', () => {
    const events = [
      ev('u1', null, 'user', 'go'),
      ev('u2', 'u1', 'assistant', call('t1')),
      ev('u3', 'u2', 'assistant', [{ type: 'text', text: 'done' }]),
    ];
    const [a, b, c] = events.map((e) => JSON.stringify(e));
    const text = [a, b, '', c, '', ''].join('\n') + '\n';
    const { text: out } = repair(readDocument(new TextEncoder().encode(text), 'jsonl'));
    const lines = out.split('\n');
    // u1, u2, the blank, the added result, u3 re-parented, the two blanks, the final line end.
    expect(lines.map((l) => (l === '' ? '' : (JSON.parse(l) as JsonObject).uuid))).toEqual([
      'u1',
      'u2',
      '',
      nameId('claude-code tool_result s1 t1'),
      'u3',
      '',
      '',
      '',
    ]);
  });

  it('re-parents a line the chain goes through (a message hangs from it), whatever its type', () => {
    const events = [
      ev('u1', null, 'user', 'go'),
      ev('u2', 'u1', 'assistant', call('t1')),
      {
        parentUuid: 'u2',
        ...base,
        type: 'system',
        content: 'hook ran',
        uuid: 's1',
        timestamp: 'T3',
      },
      ev('u3', 's1', 'user', 'and now?'),
    ];
    const { text } = repair(jsonl(events));
    const written = eventsOf(text);
    const added = written.find((e) => e.uuid === nameId('claude-code tool_result s1 t1'))!;
    expect(added.parentUuid).toBe('u2');
    expect(written.find((e) => e.uuid === 's1')!.parentUuid).toBe(added.uuid);
    expect(errors(text)).toEqual([]);
  });
});

/** The `parentUuid` links of a session that point at no event, and its roots. */
function chain(events: readonly JsonValue[]): { broken: Set<string>; roots: number } {
  const uuids = new Set(
    events.flatMap((e) =>
      typeof e === 'object' && e !== null && typeof (e as JsonObject).uuid === 'string'
        ? [(e as JsonObject).uuid as string]
        : [],
    ),
  );
  const broken = new Set<string>();
  let roots = 0;
  for (const e of events as JsonObject[]) {
    if (typeof e !== 'object' || e === null || !('parentUuid' in e)) continue;
    if (e.parentUuid === null) roots++;
    else if (typeof e.parentUuid === 'string' && !uuids.has(e.parentUuid))
      broken.add(`${String(e.uuid)}→${e.parentUuid}`);
  }
  return { broken, roots };
}

describeShared('claude-code: corpus sessions written back', 'corpus/claude-code-jsonl', () => {
  const dir = path.join(CORPUS, 'claude-code-jsonl');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort();

  it.each(files)(
    '%s: nothing left to repair, unchanged lines kept, no new parentUuid break',
    (file) => {
      const doc = readDocument(readFileSync(path.join(dir, file)), 'jsonl');
      const before = doc.units.map((u) => u.value!);
      const { text } = repair(doc);
      const after = readDocument(new TextEncoder().encode(text), 'jsonl');
      const events = after.units.map((u) => u.value!);
      const read = claudeCodeFormat.read(events);
      expect(
        normalizeHistory(read.conversation.messages, {
          target: { target: 'anthropic', native: false },
        }).changed,
      ).toBe(false);
      // Every line of the input that is still there is there byte for byte, in order.
      const kept = new Set(after.lines.map((l) => l.raw));
      const lost = doc.lines.filter((l) => !kept.has(l.raw));
      // Only a child of an added event (re-parented onto it) changes its line: no more than one each.
      expect(lost.length).toBeLessThanOrEqual(events.length - before.length);
      const was = chain(before);
      const now = chain(events);
      for (const link of now.broken) expect(was.broken.has(link), link).toBe(true);
      expect(now.roots).toBeLessThanOrEqual(was.roots);
    },
  );
});
