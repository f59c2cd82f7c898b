/**
 * The Codex CLI rollout reader and writer: the corpus rollout reads, locates and writes back
 * unchanged; an interrupted rollout is repaired in place (normalize, then write): the new output
 * line after its call, every other line the very object read, twice the same.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexCliFormat, type CodexCliContext } from '../../src/formats/codex-cli/index.js';
import { SourceError } from '../../src/model/errors.js';
import {
  lintConversation,
  normalizeHistory,
  sanitizeHistory,
  type Conversation,
} from '../../src/index.js';
import { parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { CORPUS, describeShared } from '../helpers/shared.js';
import { describeCorpusClaims, describeFixtureCases } from '../helpers/formats.js';
import { detectFormat } from '../../src/formats/detect.js';

const ROLLOUTS = path.join(CORPUS, 'codex-rollout');

function jsonl(file: string): JsonValue[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parseJson(line));
}

/** A tools rollout interrupted after its first call (the output never written), then resumed by a prompt. */
function interrupted(): JsonValue[] {
  const file = path.join(ROOT, 'fixtures', 'formats', 'codex-cli', 'tools', 'source.json');
  const lines = parseJson(readFileSync(file, 'utf8')) as JsonValue[];
  const prompt = { ...(lines[1] as JsonObject), timestamp: '2025-11-04T09:12:00.000Z' };
  return [...lines.slice(0, 7), prompt];
}

/** Normalize the rollout, then write it back. */
function repair(lines: JsonValue[]): JsonValue[] {
  const read = codexCliFormat.read(lines);
  const once = normalizeHistory(read.conversation);
  return codexCliFormat.write(once.envelope as Conversation, read.context).value as JsonValue[];
}

describe('codex-cli lint', () => {
  it('places a finding at the rollout line of its item, not the file start', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'histlint-codex-'));
    try {
      const text = interrupted()
        .map((l) => stringifyJson(l, 0) + '\n')
        .join('');
      writeFileSync(path.join(dir, 'rollout.jsonl'), text);
      const r = await runCli(['lint', '-f', 'json', 'rollout.jsonl'], { cwd: dir });
      const file = (parseJson(r.stdout) as JsonObject).files as JsonObject[];
      const findings = file[0]!.findings as JsonObject[];
      const dangling = findings.find((f) => f.ruleId === 'dangling-tool-call')!;
      expect(dangling.pointer).toMatch(/^\/\d+\/payload/);
      const line = Number((dangling.pointer as string).split('/')[1]) + 1;
      expect(dangling.line).toBe(line);
      expect(line).toBeGreaterThan(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('codex-cli compaction', () => {
  const line = (type: string, payload: JsonObject, n: number): JsonObject => ({
    timestamp: `2025-11-04T10:00:${String(n).padStart(2, '0')}.000Z`,
    type,
    payload,
  });
  const meta = line('session_meta', { id: 's1', cwd: '/w' }, 0);
  const user = (text: string): JsonObject => ({
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text }],
  });
  const call = (id: string): JsonObject => ({
    type: 'function_call',
    name: 'shell',
    arguments: '{"command":["ls"]}',
    call_id: id,
  });
  const texts = (value: JsonValue[]): string[] =>
    codexCliFormat
      .read(value)
      .conversation.messages.flatMap((m) => m.parts.map((p) => String(p.text ?? p.id)));

  it('a compaction with a replacement history replaces what came before it', () => {
    const rollout = [
      meta,
      line('response_item', user('old question'), 1),
      // Interrupted before the compaction: Codex does not send it again.
      line('response_item', call('call_old'), 2),
      line('compacted', { message: 'summary', replacement_history: [user('kept question')] }, 3),
      line('response_item', user('new question'), 4),
    ];
    expect(texts(rollout)).toEqual(['kept question', 'new question']);
    expect(codexCliFormat.read(rollout).locate(0, 0)).toBe(
      '/3/payload/replacement_history/0/content/0',
    );
    expect(lintConversation(stringifyJson(rollout, 0)).map((f) => f.ruleId)).toEqual([]);
    // Nothing to repair, and the rollout is written back as it was.
    repair(rollout).forEach((e, i) => expect(e).toBe(rollout[i]));
  });

  it('a compaction without one keeps the user messages and adds its summary as one', () => {
    const rollout = [
      meta,
      line('response_item', user('first'), 1),
      line('response_item', call('call_old'), 2),
      line('compacted', { message: 'We listed the files.' }, 3),
      line('response_item', user('next'), 4),
    ];
    expect(texts(rollout)).toEqual(['first', 'We listed the files.', 'next']);
    expect(lintConversation(stringifyJson(rollout, 0)).map((f) => f.ruleId)).toEqual([]);
    repair(rollout).forEach((e, i) => expect(e).toBe(rollout[i]));
  });

  it('repairs a call of the replacement history with a line right after the compaction', () => {
    const rollout = [
      meta,
      line('compacted', { message: 's', replacement_history: [user('go'), call('call_r')] }, 1),
      line('response_item', user('still there?'), 2),
    ];
    expect(lintConversation(stringifyJson(rollout, 0)).map((f) => f.ruleId)).toContain(
      'dangling-tool-call',
    );
    const out = repair(rollout);
    expect(out.length).toBe(4);
    expect(out[0]).toBe(rollout[0]);
    expect(out[1]).toBe(rollout[1]);
    expect(((out[2] as JsonObject).payload as JsonObject).type).toBe('function_call_output');
    expect(out[3]).toBe(rollout[2]);
    expect(lintConversation(stringifyJson(out, 0)).map((f) => f.ruleId)).toEqual([]);
  });
});

describe('codex-cli repair', () => {
  it('inserts the synthesized output right after its call, every other line kept', () => {
    const lines = interrupted();
    const out = repair(lines);
    expect(out.length).toBe(lines.length + 1);
    out.slice(0, 7).forEach((e, i) => expect(e).toBe(lines[i]));
    out.slice(8).forEach((e, i) => expect(e).toBe(lines[i + 7]));
    const added = out[7] as JsonObject;
    expect(added.type).toBe('response_item');
    expect(added.timestamp).toBe((lines[6] as JsonObject).timestamp);
    const payload = added.payload as JsonObject;
    expect(payload.type).toBe('function_call_output');
    expect(payload.call_id).toBe('call_tests01');
  });

  it('gives a rollout that passes the openai-responses rules, and repairs it no further', () => {
    const out = repair(interrupted());
    const ids = lintConversation(stringifyJson(out, 0), { target: 'openai-responses' }).map(
      (f) => f.ruleId,
    );
    expect(ids).toEqual([]);
    const again = repair(out);
    again.forEach((e, i) => expect(e).toBe(out[i]));
    expect(again.length).toBe(out.length);
  });

  it('repairs an interrupted apply_patch (custom_tool_call) with a custom_tool_call_output', () => {
    const file = path.join(ROOT, 'fixtures', 'formats', 'codex-cli', 'tools', 'source.json');
    const all = parseJson(readFileSync(file, 'utf8')) as JsonObject[];
    const at = all.findIndex((l) => (l.payload as JsonObject).type === 'custom_tool_call_output');
    const lines: JsonValue[] = [...all.slice(0, at), ...all.slice(at + 1)];
    const before = lintConversation(stringifyJson(lines, 0)).map((f) => f.ruleId);
    expect(before).toContain('dangling-tool-call');
    const out = repair(lines);
    expect(out.length).toBe(lines.length + 1);
    // The call and the agent's message after it are one assistant turn: the output follows it.
    const added = out.findIndex((l) => !lines.includes(l));
    expect(added).toBe(lines.length);
    const payload = (out[added] as JsonObject).payload as JsonObject;
    expect(payload.type).toBe('custom_tool_call_output');
    expect(payload.call_id).toBe('call_patch01');
    expect(typeof payload.output).toBe('string');
    out.slice(0, added).forEach((e, i) => expect(e).toBe(lines[i]));
    expect(lintConversation(stringifyJson(out, 0)).map((f) => f.ruleId)).toEqual([]);
  });

  it('keeps the line of a changed item when the line before it is dropped (reported defect)', () => {
    const meta = {
      timestamp: 'T0',
      type: 'session_meta',
      payload: { id: '019a085e-04c1-7f81-a09e-9555f6a1fb40', timestamp: 'T0', cwd: '/w' },
    };
    const orphan = {
      timestamp: 'T1-x',
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: 'nope', output: 'x' },
    };
    const user: JsonObject = {
      timestamp: 'T2-a',
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'a' },
          { type: 'input_image', image_url: 'file:///a.png' },
        ],
      },
    };
    const lines: JsonValue[] = [meta, orphan, user];
    const read = codexCliFormat.read(lines);
    const fixed = sanitizeHistory(read.conversation);
    const out = codexCliFormat.write(fixed.envelope as Conversation, read.context)
      .value as JsonObject[];
    expect(out).toHaveLength(2);
    expect(out[0]).toBe(meta);
    expect(out[1]!.timestamp).toBe('T2-a');
    expect((out[1]!.payload as JsonObject).content).toEqual([{ type: 'input_text', text: 'a' }]);
  });

  it('never drops the output Codex records for a local_shell_call (reported defect)', () => {
    const at = (t: string, payload: JsonObject): JsonObject => ({
      timestamp: t,
      type: 'response_item',
      payload,
    });
    const lines: JsonValue[] = [
      { timestamp: 'T0', type: 'session_meta', payload: { id: 'x', cwd: '/w' } },
      at('T1', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'do it' }] }),
      at('T2', {
        type: 'local_shell_call',
        call_id: 'ls_1',
        status: 'completed',
        action: { type: 'exec', command: ['echo', 'hi'] },
      }),
      at('T3', { type: 'function_call_output', call_id: 'ls_1', output: 'hi' }),
    ];
    const ids = lintConversation(stringifyJson(lines, 0)).map((f) => f.ruleId);
    expect(ids).not.toContain('orphan-tool-result');
    const out = repair(lines);
    expect(out).toHaveLength(lines.length);
    out.forEach((e, i) => expect(e).toBe(lines[i]));
  });

  it('keeps the lines read in its context, and writes only back to them', () => {
    const lines = interrupted();
    const read = codexCliFormat.read(lines);
    expect((read.context as CodexCliContext).events).toBe(lines);
    expect(() => codexCliFormat.write(read.conversation)).toThrow(SourceError);
  });
});

/** The older rollout of fixtures/formats/codex-cli/legacy: its call interrupted, then a prompt. */
function legacy(): JsonValue[] {
  const file = path.join(ROOT, 'fixtures', 'formats', 'codex-cli', 'legacy', 'source.json');
  return parseJson(readFileSync(file, 'utf8')) as JsonValue[];
}

describe('codex-cli older rollouts ({id, timestamp, instructions} first, then bare items)', () => {
  const user = (text: string): JsonObject => ({
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text }],
  });

  it('is detected by its meta line alone, and as a whole', () => {
    const lines = legacy();
    expect(codexCliFormat.detect([lines[0]!])).toBe(true);
    expect(codexCliFormat.detect(lines)).toBe(true);
    expect(detectFormat(lines).name).toBe('codex-cli');
  });

  it('claims no bare array of Responses items, nor a meta line of another shape', () => {
    const items = legacy().slice(1);
    const bare = items.filter((l) => !Object.hasOwn(l as JsonObject, 'record_type'));
    expect(codexCliFormat.detect(bare)).toBe(false);
    expect(detectFormat(bare).name).toBe('openai-responses');
    const meta = legacy()[0] as JsonObject;
    // Not a session id, a key Codex never wrote there, a rollout envelope line after the meta.
    expect(codexCliFormat.detect([{ ...meta, id: 'msg_1' }, ...bare])).toBe(false);
    expect(codexCliFormat.detect([{ ...meta, role: 'user' }, ...bare])).toBe(false);
    const envelope = { timestamp: meta.timestamp!, type: 'response_item', payload: user('hi') };
    expect(codexCliFormat.detect([meta, envelope])).toBe(false);
  });

  it('reads the item lines, located at the line itself; the meta and state lines are skipped', () => {
    const lines = legacy();
    const read = codexCliFormat.read(lines);
    const context = read.context as CodexCliContext;
    expect(context.skippedEvents).toEqual([0, 4]);
    expect(context.itemLines).toEqual([1, 2, 3, 5]);
    expect(read.locate(0, 0)).toBe('/1/content/0');
    const call = read.conversation.messages[1]!.parts.findIndex((p) => p.type === 'tool-call');
    expect(read.locate(1, call)).toBe('/3');
    expect(codexCliFormat.target).toBe('openai-responses');
  });

  it('reports the interrupted call at its line', async () => {
    const lines = legacy();
    const findings = lintConversation(stringifyJson(lines, 0), { target: 'openai-responses' });
    const dangling = findings.find((f) => f.ruleId === 'dangling-tool-call')!;
    expect(dangling.pointer).toBe('/3');
    const dir = mkdtempSync(path.join(tmpdir(), 'histlint-codex-legacy-'));
    try {
      const text = lines.map((l) => stringifyJson(l, 0) + '\n').join('');
      writeFileSync(path.join(dir, 'rollout.jsonl'), text);
      const r = await runCli(
        ['lint', '-f', 'json', '--target', 'openai-responses', 'rollout.jsonl'],
        {
          cwd: dir,
        },
      );
      const file = (parseJson(r.stdout) as JsonObject).files as JsonObject[];
      const found = (file[0]!.findings as JsonObject[]).find(
        (f) => f.ruleId === 'dangling-tool-call',
      )!;
      expect(found.line).toBe(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('repairs in place: a bare output line right after the call, every other line kept', () => {
    const lines = legacy();
    const out = repair(lines);
    expect(out.length).toBe(lines.length + 1);
    out.slice(0, 4).forEach((e, i) => expect(e).toBe(lines[i]));
    out.slice(5).forEach((e, i) => expect(e).toBe(lines[i + 4]));
    const added = out[4] as JsonObject;
    // No rollout envelope and no timestamp: an older rollout's item lines have neither.
    expect(Object.keys(added).sort()).toEqual(['call_id', 'output', 'type']);
    expect(added.type).toBe('function_call_output');
    expect(added.call_id).toBe('call_legacy01');
    expect(codexCliFormat.detect(out)).toBe(true);
    expect(lintConversation(stringifyJson(out, 0), { target: 'openai-responses' })).toEqual([]);
  });

  it('repairs a repaired rollout no further', () => {
    const out = repair(legacy());
    const again = repair(out);
    expect(again.length).toBe(out.length);
    again.forEach((e, i) => expect(e).toBe(out[i]));
  });

  it('reads the earliest form: no instructions key, state lines with a previous response id', () => {
    const lines: JsonValue[] = [
      { id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', timestamp: '2025-05-07T17:24:21.000Z' },
      user('list the files'),
      { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'call_e1' },
      { type: 'function_call_output', call_id: 'call_e1', output: 'README.md' },
      { record_type: 'state', previous_response_id: 'resp_e1' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'One file.' }] },
    ];
    expect(codexCliFormat.detect([lines[0]!])).toBe(true);
    expect(detectFormat(lines).name).toBe('codex-cli');
    const read = codexCliFormat.read(lines);
    expect((read.context as CodexCliContext).skippedEvents).toEqual([0, 4]);
    expect(lintConversation(stringifyJson(lines, 0)).map((f) => f.ruleId)).toEqual([]);
    repair(lines).forEach((e, i) => expect(e).toBe(lines[i]));
  });
});

describeFixtureCases(codexCliFormat);

describeShared('codex-cli corpus', 'corpus/codex-rollout', () => {
  const files = readdirSync(ROLLOUTS).sort();
  for (const file of files) {
    it(`${file}: detected by its first line, read, linted clean, written back unchanged`, () => {
      const lines = jsonl(path.join(ROLLOUTS, file));
      expect(codexCliFormat.detect([lines[0]!])).toBe(true);
      const read = codexCliFormat.read(lines);
      expect(read.conversation.messages.length).toBeGreaterThan(0);
      expect(read.locate(1)).toMatch(/^\/\d+\/payload$/);
      const ids = lintConversation(stringifyJson(lines, 0)).map((f) => f.ruleId);
      expect(ids.filter((id) => id.startsWith('openai-responses/'))).toEqual([]);
      const out = repair(lines);
      expect(out.length).toBe(lines.length);
      out.forEach((e, i) => expect(e).toBe(lines[i]));
    });
  }
});

describeCorpusClaims(codexCliFormat, 'codex-rollout');
