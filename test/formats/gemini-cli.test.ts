/**
 * The gemini-cli adapter (a session format): an interrupted call repaired in place in both forms
 * (the JSON file and the JSONL lines): its result recorded on the call as a cancelled one, every
 * other message the value read; the repaired recording passes the gemini target and repairs no
 * further; content parts (a pasted image, a file reference, a function response) read as the
 * gemini format reads them, located in the recording, and seen by lint and sanitize; the corpus
 * recordings read, lint and write back unchanged; detection claims nothing of the other corpus
 * folders. The contract cases run in contract.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeHistory } from '../../src/core/normalize.js';
import { geminiCliFormat } from '../../src/formats/gemini-cli/index.js';
import { withMessages } from '../../src/formats/histlint/index.js';
import { lintConversation } from '../../src/lint/api.js';
import { SourceError } from '../../src/model/errors.js';
import {
  jsonEqual,
  parseJson,
  stringifyJson,
  type JsonObject,
  type JsonValue,
} from '../../src/model/json.js';
import { providerDataOf } from '../../src/model/provider-data.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { corpusDocuments, describeCorpusClaims } from '../helpers/formats.js';
import { CORPUS, describeShared } from '../helpers/shared.js';

/** The tools case with its first call's result gone (the CLI was stopped while it ran). */
function interrupted(): JsonObject {
  const file = path.join(ROOT, 'fixtures', 'formats', 'gemini-cli', 'tools', 'source.json');
  const value = parseJson(readFileSync(file, 'utf8')) as JsonObject;
  const messages = value.messages as JsonObject[];
  const calls = messages[1]!.toolCalls as JsonObject[];
  const { result: _, ...call } = calls[0]!;
  messages[1] = { ...messages[1]!, toolCalls: [{ ...call, status: 'executing' }, calls[1]!] };
  return value;
}

/** Reads, repairs for Gemini, writes back. */
function repair(value: JsonValue): { value: JsonValue; changed: boolean } {
  const read = geminiCliFormat.read(value);
  const fixed = normalizeHistory(read.conversation.messages, {
    target: { target: 'gemini', native: false },
  });
  const written = geminiCliFormat.write(
    withMessages(read.conversation, fixed.messages),
    read.context,
  );
  expect(written.losses).toEqual([]);
  return { value: written.value, changed: fixed.changed };
}

/** A value as plain JSON (no number wrappers), for `toEqual`. */
const plainJson = (v: unknown): unknown => JSON.parse(stringifyJson(v as JsonValue));

const errors = (value: JsonValue): string[] =>
  lintConversation(JSON.stringify(value), { from: 'gemini-cli' })
    .filter((f) => f.severity === 'error')
    .map((f) => f.ruleId);

describe('gemini-cli repair', () => {
  it('records the synthesized result on the interrupted call; every other message is the one read', () => {
    const value = interrupted();
    expect(errors(value)).toContain('dangling-tool-call');
    const { value: out, changed } = repair(value);
    expect(changed).toBe(true);
    const before = value.messages as JsonObject[];
    const after = (out as JsonObject).messages as JsonObject[];
    after.forEach((m, i) => {
      if (i !== 1) expect(m).toBe(before[i]);
    });
    const call = (after[1]!.toolCalls as JsonObject[])[0]!;
    expect(call.status).toBe('cancelled');
    expect(call.result).toEqual([
      {
        functionResponse: {
          id: 'c1',
          name: 'read_file',
          response: { error: 'interrupted before execution; no result was produced' },
        },
      },
    ]);
    expect((after[1]!.toolCalls as JsonObject[])[1]).toBe(
      (before[1]!.toolCalls as JsonObject[])[1],
    );
    expect(errors(out)).toEqual([]);
    expect(repair(out).changed).toBe(false);
  });

  it('repairs the JSONL form on the line of the version read', () => {
    const file = path.join(ROOT, 'fixtures', 'formats', 'gemini-cli', 'bare', 'source.json');
    const lines = parseJson(readFileSync(file, 'utf8')) as JsonObject[];
    const last = lines[5]!;
    const calls = last.toolCalls as JsonObject[];
    const { result: _, ...call } = calls[0]!;
    lines[5] = { ...last, toolCalls: [call] };
    const { value: out } = repair(lines);
    const written = out as JsonValue[];
    written.forEach((l, i) => {
      if (i !== 5) expect(l).toBe(lines[i]);
    });
    expect(((written[5] as JsonObject).toolCalls as JsonObject[])[0]!.status).toBe('cancelled');
    expect(errors(written)).toEqual([]);
  });

  it('refuses what a recording cannot hold, and a write without the read', () => {
    const read = geminiCliFormat.read(interrupted());
    expect(() => geminiCliFormat.write(read.conversation)).toThrow(/written only back/);
    const messages = read.conversation.messages.slice(1);
    expect(() =>
      geminiCliFormat.write(withMessages(read.conversation, messages), read.context),
    ).toThrow(SourceError);
  });

  it('normalize --write repairs the file in place: only the interrupted call changes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'histlint-gemini-cli-'));
    try {
      const text = JSON.stringify(interrupted(), null, 2) + '\n';
      writeFileSync(path.join(dir, 'session.json'), text);
      const r = await runCli(['normalize', '--write', 'session.json'], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      const after = readFileSync(path.join(dir, 'session.json'), 'utf8');
      const removed = text.split('\n').filter((l) => !after.split('\n').includes(l));
      expect(removed).toEqual(['          "status": "executing",']);
      expect((await runCli(['normalize', '--check', 'session.json'], { cwd: dir })).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('gemini-cli replay of the JSONL form', () => {
  const header = { sessionId: 's1', projectHash: 'p1', startTime: '2026-11-01T10:00:00.000Z' };
  const user = (id: string, text: string): JsonObject => ({
    id,
    type: 'user',
    content: [{ text }],
  });
  const model = (id: string, text: string, toolCalls?: JsonValue[]): JsonObject => ({
    id,
    type: 'gemini',
    content: text,
    ...(toolCalls === undefined ? {} : { toolCalls }),
  });
  const call = { id: 'c1', name: 'read_file', args: { path: 'a.txt' }, status: 'executing' };
  const texts = (value: JsonValue): string[] =>
    geminiCliFormat
      .read(value)
      .conversation.messages.flatMap((m) => m.parts.map((p) => String(p.text ?? p.type)));

  it('a $rewindTo line removes that message and every later one', () => {
    const lines = [
      header,
      user('a', 'first'),
      model('b', 'reply', [call]),
      user('c', 'second'),
      { $rewindTo: 'b' },
      model('d', 'again'),
    ];
    expect(texts(lines)).toEqual(['first', 'again']);
    // The interrupted call was rewound away: nothing to report, nothing to repair.
    expect(errors(lines)).toEqual([]);
    expect(repair(lines).changed).toBe(false);
    // A rewind to an id never recorded removes them all.
    expect(texts([header, user('a', 'first'), { $rewindTo: 'zz' }])).toEqual([]);
  });

  it('a message written again after a rewind takes its new place', () => {
    const lines = [
      header,
      user('a', 'one'),
      model('b', 'two'),
      { $rewindTo: 'a' },
      user('a', 'uno'),
    ];
    expect(texts(lines)).toEqual(['uno']);
    expect(geminiCliFormat.read(lines).locate(0)).toBe('/4');
  });

  it('a $set line with messages replaces them, located in that line', () => {
    const lines = [
      header,
      user('a', 'old'),
      { $set: { messages: [user('x', 'kept'), model('y', 'calls', [call])] } },
    ];
    expect(texts(lines)).toEqual(['kept', 'calls', 'tool-call']);
    const findings = lintConversation(JSON.stringify(lines), { from: 'gemini-cli' });
    expect(findings.find((f) => f.ruleId === 'dangling-tool-call')!.pointer).toBe(
      '/2/$set/messages/1/toolCalls/0',
    );
    // A call listed by a $set line has no line of its own to record a result on: refused.
    const read = geminiCliFormat.read(lines);
    const fixed = normalizeHistory(read.conversation.messages, {
      target: { target: 'gemini', native: false },
    });
    expect(() =>
      geminiCliFormat.write(withMessages(read.conversation, fixed.messages), read.context),
    ).toThrow(/recorded in a \$set line/);
  });
});

describe('gemini-cli content parts, read as the gemini format reads them', () => {
  // A 1×1 PNG.
  const PNG =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  const header = {
    sessionId: 's2',
    projectHash: 'p2',
    startTime: '2026-12-01T09:00:00.000Z',
    lastUpdated: '2026-12-01T09:01:00.000Z',
  };
  const pasted = (): JsonObject => ({
    id: 'u1',
    timestamp: '2026-12-01T09:00:01.000Z',
    type: 'user',
    content: [
      { text: 'What are these?' },
      { inlineData: { mimeType: 'image/png', data: PNG } },
      { fileData: { mimeType: 'text/plain', fileUri: 'file:///etc/passwd' } },
    ],
  });
  const answer = (): JsonObject => ({
    id: 'g1',
    timestamp: '2026-12-01T09:00:04.000Z',
    type: 'gemini',
    content: 'A dot and a password file.',
    model: 'gemini-2.5-pro',
  });
  const recording = (): JsonObject => ({ ...header, messages: [pasted(), answer()] });
  const findings = (value: JsonValue, ruleId: string) =>
    lintConversation(JSON.stringify(value), { from: 'gemini-cli' }).filter(
      (f) => f.ruleId === ruleId,
    );

  it('reads an inline image and a file reference as media, kept under gemini-cli, located at the part', () => {
    const value = recording();
    const read = geminiCliFormat.read(value);
    const user = read.conversation.messages[0]!;
    expect(user.role).toBe('user');
    expect(plainJson(user.parts)).toEqual([
      { type: 'text', text: 'What are these?' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
      { type: 'document', url: 'file:///etc/passwd', mediaType: 'text/plain' },
    ]);
    // The kept data is the recording's own: nothing under the gemini format's key.
    expect(JSON.stringify(read.conversation)).not.toContain('"gemini":');
    expect(read.locate(0, 0, ['text'])).toBe('/messages/0/content/0/text');
    expect(read.locate(0, 1)).toBe('/messages/0/content/1');
    expect(read.locate(0, 1, ['data'])).toBe('/messages/0/content/1/inlineData/data');
    expect(read.locate(0, 2, ['url'])).toBe('/messages/0/content/2/fileData/fileUri');
    expect(read.locate(0, 2, ['mediaType'])).toBe('/messages/0/content/2/fileData/mimeType');
  });

  it('keeps what v1 has no place for under gemini-cli: fields beside a part, a part of no v1 type', () => {
    const value = recording();
    const messages = value.messages as JsonObject[];
    messages[0]!.content = [
      {
        fileData: { mimeType: 'video/mp4', fileUri: 'https://example.com/v.mp4' },
        videoMetadata: { fps: 2 },
      },
    ];
    messages[1]!.content = [
      { executableCode: { language: 'PYTHON', code: 'print(1)' } },
      { text: 'Done.' },
    ];
    const read = geminiCliFormat.read(value);
    const [video] = read.conversation.messages[0]!.parts;
    expect(video!.type).toBe('document');
    expect(providerDataOf(video!, 'gemini-cli')).toEqual({ videoMetadata: { fps: 2 } });
    const [code, text] = read.conversation.messages[1]!.parts;
    expect(code!.type).toBe('gemini-cli:executableCode');
    expect(providerDataOf(code!, 'gemini-cli')).toEqual({
      part: { executableCode: { language: 'PYTHON', code: 'print(1)' } },
    });
    expect(read.locate(1, 0)).toBe('/messages/1/content/0');
    expect(text).toEqual({ type: 'text', text: 'Done.' });
    expect(JSON.stringify(read.conversation)).not.toContain('"gemini":');
  });

  it('lint reports the file: URL at its content part, and checks the pasted image', () => {
    const value = recording();
    expect(findings(value, 'unsafe-url').map((f) => f.pointer)).toEqual([
      '/messages/0/content/2/fileData/fileUri',
    ]);
    expect(findings(value, 'inline-media-mismatch')).toEqual([]);
    // A pasted image whose bytes are not the type it declares is reported at its data.
    const content = (value.messages as JsonObject[])[0]!.content as JsonObject[];
    content[1] = { inlineData: { mimeType: 'image/jpeg', data: PNG } };
    expect(findings(value, 'inline-media-mismatch').map((f) => f.pointer)).toEqual([
      '/messages/0/content/1/inlineData/data',
    ]);
  });

  it('normalize writes the recording back unchanged, twice', () => {
    const value = recording();
    const once = repair(value);
    expect(once.changed).toBe(false);
    expect(jsonEqual(once.value, value)).toBe(true);
    ((once.value as JsonObject).messages as JsonValue[]).forEach((m, i) =>
      expect(m).toBe((value.messages as JsonValue[])[i]),
    );
    const twice = repair(once.value);
    expect(twice.changed).toBe(false);
    expect(jsonEqual(twice.value, value)).toBe(true);
  });

  it('sanitize drops the file reference, so the write is refused and the file left as it was', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'histlint-gemini-cli-'));
    try {
      const text = JSON.stringify(recording(), null, 2) + '\n';
      writeFileSync(path.join(dir, 'session.json'), text);
      const r = await runCli(['sanitize', '--write', 'session.json'], { cwd: dir });
      // An operation refusing a file (SPEC §5.2), as a write back that would lose something.
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /cannot write this change back into a gemini-cli recording: message 0 changed/,
      );
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(readFileSync(path.join(dir, 'session.json'), 'utf8')).toBe(text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the JSONL form: the parts of a line and of a $set line are located there', () => {
    const lines: JsonValue[] = [{ ...header, kind: 'main' }, pasted(), answer()];
    const read = geminiCliFormat.read(lines);
    expect(read.conversation.messages[0]!.parts.map((p) => p.type)).toEqual([
      'text',
      'image',
      'document',
    ]);
    expect(read.locate(0, 1, ['data'])).toBe('/1/content/1/inlineData/data');
    expect(findings(lines, 'unsafe-url').map((f) => f.pointer)).toEqual([
      '/1/content/2/fileData/fileUri',
    ]);
    const { value: out, changed } = repair(lines);
    expect(changed).toBe(false);
    (out as JsonValue[]).forEach((l, i) => expect(l).toBe(lines[i]));

    const set: JsonValue[] = [{ ...header, kind: 'main' }, { $set: { messages: [pasted()] } }];
    expect(findings(set, 'unsafe-url').map((f) => f.pointer)).toEqual([
      '/1/$set/messages/0/content/2/fileData/fileUri',
    ]);
  });

  it('a functionResponse recorded in user content answers the call, as a tool turn', () => {
    const value: JsonObject = {
      ...header,
      messages: [
        { id: 'u1', timestamp: 't', type: 'user', content: 'Read a.txt' },
        {
          id: 'g1',
          timestamp: 't',
          type: 'gemini',
          content: '',
          toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'a.txt' }, status: 'success' }],
        },
        {
          id: 'u2',
          timestamp: 't',
          type: 'user',
          content: [
            { functionResponse: { id: 'c1', name: 'read_file', response: { output: 'hello' } } },
          ],
        },
        { id: 'g2', timestamp: 't', type: 'gemini', content: 'It says hello.' },
      ],
    };
    const read = geminiCliFormat.read(value);
    expect(read.conversation.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(plainJson(read.conversation.messages[2]!.parts)).toEqual([
      {
        type: 'tool-result',
        callId: 'c1',
        name: 'read_file',
        content: [{ type: 'text', text: 'hello' }],
      },
    ]);
    expect(read.locate(2, 0, ['content', 0])).toBe(
      '/messages/2/content/0/functionResponse/response',
    );
    expect(errors(value)).toEqual([]);
    expect(repair(value).changed).toBe(false);
  });
});

describeShared('gemini-cli on the corpus', 'corpus/gemini-cli', () => {
  it('reads both recordings, lints them clean against gemini, and writes them back unchanged', () => {
    for (const file of readdirSync(path.join(CORPUS, 'gemini-cli'))) {
      const value = corpusDocuments('gemini-cli').find(([w]) => w === `gemini-cli/${file}`)![1];
      expect(geminiCliFormat.detect(value), file).toBe(true);
      const read = geminiCliFormat.read(value);
      expect(read.conversation.messages.length, file).toBeGreaterThan(2);
      expect(errors(value), file).toEqual([]);
      const written = geminiCliFormat.write(read.conversation, read.context).value;
      expect(jsonEqual(written, value), file).toBe(true);
    }
  });
});

describeCorpusClaims(geminiCliFormat, 'gemini-cli');
