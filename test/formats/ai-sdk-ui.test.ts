/**
 * The ai-sdk-ui format (AI SDK UIMessage[]): the hand-written cases of
 * fixtures/formats/ai-sdk-ui read and written back exactly, detection both
 * ways and the tie with v1 (over every fixture and the shared corpus), tool
 * parts paired by state, results folded back onto their calls, sanitize and
 * `--from` through the CLI, conversion, normalize, UIMessages folded from the
 * recorded UI message streams, and locate().
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INTERRUPTED_TEXT, normalizeHistory } from '../../src/core/normalize.js';
import { analyzePairing } from '../../src/core/pairing.js';
import { aiSdkUiFormat as fmt } from '../../src/formats/ai-sdk-ui/index.js';
import { detectFormat } from '../../src/formats/detect.js';
import type { Conversation } from '../../src/formats/format.js';
import { formatByName } from '../../src/formats/index.js';
import { withMessages } from '../../src/formats/histlint/index.js';
import { openaiChatFormat } from '../../src/formats/openai-chat/index.js';
import { jsonEqual, parseJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import type { Part } from '../../src/model/types.js';
import { ROOT, runCli } from '../helpers/cli.js';
import {
  copy,
  corpusRecords,
  expectAnswered,
  expectLocatable,
  describeFixtureCases,
  fixtureReader,
  ownFixtureCases,
  plain,
  readJson,
} from '../helpers/formats.js';
import { CORPUS, describeShared } from '../helpers/shared.js';

const FIXTURES = path.join(ROOT, 'fixtures', 'formats', 'ai-sdk-ui');
const fixture = fixtureReader('ai-sdk-ui');

const work = mkdtempSync(path.join(tmpdir(), 'histlint-ai-sdk-ui-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A value as the JSON a user stores (numbers as written). */
const json = (v: unknown): JsonValue => parseJson(JSON.stringify(v));

/** Every JSON document under `dir`: each `.json` file, and each line of a `.jsonl` / `.ndjson` file. */
function documents(dir: string): { where: string; value: JsonValue }[] {
  const out: { where: string; value: JsonValue }[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const file = path.join(d, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (name.endsWith('.json')) {
        try {
          out.push({ where: path.relative(ROOT, file), value: readJson(file) });
        } catch {
          // A broken file (a bad-input fixture) is nobody's format.
        }
      } else if (/\.(jsonl|ndjson)$/.test(name)) {
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (line.trim() === '') return;
            try {
              out.push({ where: `${path.relative(ROOT, file)}:${i + 1}`, value: parseJson(line) });
            } catch {
              // A broken line (a bad-input fixture) is nobody's format.
            }
          });
      }
    }
  };
  walk(dir);
  return out;
}

/** The values detection sees in a document: itself, and what a `--pointer` would pick in a log record. */
function candidates(value: JsonValue): JsonValue[] {
  const out = [value];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const key of ['messages', 'request', 'traj', 'value']) {
      const v = (value as JsonObject)[key];
      if (v !== undefined) out.push(v);
    }
  }
  return out;
}

describe('ai-sdk-ui fixtures', () => {
  it('has read and write cases', () => {
    const cases = ownFixtureCases('ai-sdk-ui');
    expect(cases.filter((c) => c.kind === 'read').length).toBeGreaterThanOrEqual(6);
    expect(cases.filter((c) => c.kind === 'write').length).toBeGreaterThanOrEqual(2);
  });
});

/** The calls of a conversation, each with whether it is answered. */
const callsOf = (c: Conversation): unknown =>
  analyzePairing(c.messages).calls.map((k) => [k.id, k.answer !== undefined]);

// Written back, a write case reads as the same calls and results.
describeFixtureCases(fmt, {
  written: (value, fx) =>
    expect(callsOf(fmt.read(copy(value)).conversation)).toEqual(callsOf(fx.v1)),
});

describe('ai-sdk-ui detection', () => {
  it('claims no other fixture: v1 files and every other format stay theirs', () => {
    const docs = [
      ...documents(path.join(ROOT, 'fixtures', 'core')),
      ...documents(path.join(ROOT, 'fixtures', 'formats')),
      ...documents(path.join(ROOT, 'fixtures', 'rules')),
      ...documents(path.join(ROOT, 'fixtures', 'cli')),
      ...documents(path.join(ROOT, 'fixtures', 'examples')),
    ];
    expect(docs.length).toBeGreaterThan(500);
    // Its own cases' UIMessages: what is read (source.json) and what is written (written.json).
    // Their v1 side (v1.json) is v1, and is scanned with the rest.
    const own = (where: string): boolean =>
      /^fixtures\/formats\/ai-sdk-ui\/[^/]+\/(source|written)\.json$/.test(where);
    const claimed = docs
      .filter((d) => !own(d.where) && candidates(d.value).some((v) => fmt.detect(v)))
      .map((d) => d.where);
    expect(claimed).toEqual([]);
    expect(
      docs.filter(
        (d) => d.where.startsWith('fixtures/formats/ai-sdk-ui/') && d.where.endsWith('/v1.json'),
      ).length,
    ).toBeGreaterThan(10);
  });

  it('a text-only UIMessage array means the same in both formats, and reads as v1', () => {
    const tie = json([
      { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      { id: 'm2', role: 'assistant', parts: [{ type: 'text', text: 'hello' }] },
    ]);
    expect(fmt.detect(tie)).toBe(false);
    expect(detectFormat(tie).name).toBe('histlint');
    expect(fmt.detect(json({ messages: tie }))).toBe(false);
    expect(fmt.detect(json([]))).toBe(false);
    // Read as ai-sdk-ui on request, it is the same conversation.
    const read = fmt.read(copy(tie)).conversation;
    expect(read.messages.map((m) => [m.role, m.parts])).toEqual([
      ['user', [{ type: 'text', text: 'hi' }]],
      ['assistant', [{ type: 'text', text: 'hello' }]],
    ]);
  });

  it('refuses to read what is not a UIMessage array', () => {
    expect(() => fmt.read(json({ contents: [] }))).toThrow(/not ai-sdk-ui: no UIMessage array/);
    expect(() => fmt.read(json([{ id: 'm', role: 'user', content: 'hi' }]))).toThrow(
      /message 0 has no "parts" array/,
    );
    expect(() => fmt.read(json([{ role: 'tool', parts: [] }]))).toThrow(/role "tool"/);
  });

  it('needs one thing only a UIMessage has', () => {
    const user = (part: JsonObject, extra: JsonObject = {}): JsonValue =>
      json([{ id: 'm1', role: 'user', ...extra, parts: [{ type: 'text', text: 'hi' }, part] }]);
    const text = { type: 'text', text: 'x' };
    for (const [label, value] of [
      ['file', user({ type: 'file', mediaType: 'image/png', url: 'https://x/a.png' })],
      ['source-url', user({ type: 'source-url', sourceId: 's', url: 'https://x' })],
      ['source-document', user({ type: 'source-document', sourceId: 's', title: 't' })],
      ['step-start', user({ type: 'step-start' })],
      ['tool-<name>', user({ type: 'tool-f', toolCallId: 'c', state: 'input-available' })],
      ['dynamic-tool', user({ type: 'dynamic-tool', toolName: 'f', toolCallId: 'c' })],
      ['data-<name>', user({ type: 'data-weather', data: {} })],
      ['toolCallId', user({ ...text, toolCallId: 'c' })],
      ['state', user({ ...text, state: 'done' })],
      ['providerMetadata', user({ ...text, providerMetadata: {} })],
      ['message metadata', user(text, { metadata: { at: 1 } })],
      ['a useChat body', json({ id: 'chat', messages: user({ type: 'step-start' }) })],
    ] as const)
      expect(fmt.detect(value), label).toBe(true);
  });

  it('never claims what only v1 has', () => {
    const step = { type: 'step-start' };
    const with_ = (part: JsonObject, role = 'user'): JsonValue =>
      json([{ role, parts: [step, part] }]);
    for (const [label, value] of [
      ['image', with_({ type: 'image', url: 'https://x/a.png' })],
      [
        'document',
        with_({ type: 'document', url: 'https://x/a.pdf', mediaType: 'application/pdf' }),
      ],
      [
        'v1 tool-call',
        with_({ type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }, 'assistant'),
      ],
      ['v1 tool-result', with_({ type: 'tool-result', callId: 'c', content: [] })],
      ['part providerData', with_({ type: 'text', text: 'x', providerData: {} })],
      ['tool role', json([{ role: 'tool', parts: [step] }])],
      ['message providerData', json([{ role: 'user', providerData: {}, parts: [step] }])],
      ['v4 content beside parts', json([{ role: 'user', content: 'x', parts: [step] }])],
      ['the v1 envelope', json({ version: 1, messages: [{ role: 'user', parts: [step] }] })],
      [
        'ModelMessages',
        json([{ role: 'user', content: [{ type: 'file', data: 'x', mediaType: 'a/b' }] }]),
      ],
    ] as const)
      expect(fmt.detect(value), label).toBe(false);
  });
});

describeShared('ai-sdk-ui detection on the corpus', 'corpus', () => {
  it('claims no corpus file or record (UI message stream chunks are not UIMessages)', () => {
    const docs = documents(CORPUS);
    expect(docs.some((d) => d.where.includes('vercel-ai-uimessage-stream'))).toBe(true);
    const claimed = docs
      .filter((d) => candidates(d.value).some((v) => fmt.detect(v)))
      .map((d) => d.where);
    expect(claimed).toEqual([]);
  });
});

describe('ai-sdk-ui tool parts, paired by state', () => {
  const read = fmt.read(fixture('read-tool-states', 'source.json'));
  const { messages } = read.conversation;
  const pairing = analyzePairing(messages);

  it('reads a call without output as a dangling call, a call with one as a call and its result', () => {
    expect(pairing.unanswered.map((c) => c.id)).toEqual([
      'call_delete_41', // approval-requested
      'call_book', // input-available
      'call_book_2', // input-streaming
    ]);
    const answered = pairing.calls.filter((c) => c.answer !== undefined).map((c) => c.id);
    expect(answered).toEqual(['call_weather', 'call_list', 'call_fx', 'call_delete_42']);
    expect(pairing.results.every((r) => r.status === 'answer')).toBe(true);
  });

  it('puts each result in a tool message after the step of its call, the error text as a failed result', () => {
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    const results = messages[2]!.parts;
    expect(results.map((r) => [r.callId, r.failed === true])).toEqual([
      ['call_weather', false],
      ['call_list', false],
      ['call_fx', true],
    ]);
    expect(results[0]!.content).toEqual([{ type: 'text', text: '{"sky":"clear","tempC":21}' }]);
    expect(results[2]!.content).toEqual([{ type: 'text', text: 'unknown currency XYZ' }]);
    // A denied call's result is the refusal, with its reason as the text.
    expect(messages[4]!.parts[0]).toMatchObject({
      callId: 'call_delete_42',
      failed: true,
      content: [{ type: 'text', text: 'keep the Faro one' }],
    });
    // What comes after the results continues the same UIMessage.
    expect(messages[3]!.providerData).toEqual({ 'ai-sdk-ui': { $continue: true } });
  });

  it('keeps a provider-executed result in the assistant message, right after its call', () => {
    const c = fmt.read(fixture('read-provider-executed-and-sources', 'source.json')).conversation;
    expect(c.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(c.messages[1]!.parts.map((p) => p.type)).toEqual([
      'ai-sdk-ui:step-start',
      'tool-call',
      'tool-result',
      'ai-sdk-ui:source-url',
      'ai-sdk-ui:source-document',
      'text',
    ]);
    expect(analyzePairing(c.messages).unanswered).toEqual([]);
  });

  it('keeps sources, step boundaries and data parts whole, and the message id and metadata', () => {
    const c = fmt.read(fixture('read-provider-executed-and-sources', 'source.json')).conversation;
    expect(c.messages[1]!.parts[3]).toEqual({
      type: 'ai-sdk-ui:source-url',
      providerData: {
        'ai-sdk-ui': {
          part: {
            type: 'source-url',
            sourceId: 'src_1',
            url: 'https://www.letour.fr/en/history',
            title: 'History of the Tour',
          },
        },
      },
    });
    expect(c.messages[1]!.providerData).toEqual({
      'ai-sdk-ui': { id: 'a-1', metadata: { finishReason: 'stop' } },
    });
  });

  it('writes the results back onto their calls, with the states they had', () => {
    const written = fmt.write(read.conversation, read.context).value as JsonObject[];
    expect(written).toHaveLength(2);
    const states = (written[1]!.parts as JsonObject[])
      .filter((p) => typeof p.toolCallId === 'string')
      .map((p) => [p.toolCallId, p.state]);
    expect(states).toEqual([
      ['call_weather', 'output-available'],
      ['call_list', 'output-available'],
      ['call_fx', 'output-error'],
      ['call_delete_41', 'approval-requested'],
      ['call_delete_42', 'output-denied'],
      ['call_book', 'input-available'],
      ['call_book_2', 'input-streaming'],
    ]);
  });
});

describe('ai-sdk-ui writes from v1', () => {
  const call = (id: string, name = 'f'): Part => ({ type: 'tool-call', id, name, arguments: '{}' });
  const result = (callId: string, text: string, failed = false): Part => ({
    type: 'tool-result',
    callId,
    content: [{ type: 'text', text }],
    ...(failed ? { failed: true } : {}),
  });

  it('folds a tool message into the tool parts of the assistant message the pairing index names', () => {
    const conversation: Conversation = {
      version: 1,
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'go' }] },
        { role: 'assistant', parts: [call('a'), call('b'), call('c')] },
        { role: 'tool', parts: [result('b', 'B'), result('a', 'A', true)] },
        { role: 'user', parts: [{ type: 'text', text: 'and c?' }] },
        { role: 'tool', parts: [result('c', 'C')] },
      ],
    };
    const { value, losses } = fmt.write(conversation);
    expect(losses).toEqual([]);
    const messages = value as JsonObject[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(plain(messages[1]!.parts!)).toEqual([
      { type: 'tool-f', toolCallId: 'a', state: 'output-error', input: {}, errorText: 'A' },
      { type: 'tool-f', toolCallId: 'b', state: 'output-available', input: {}, output: 'B' },
      { type: 'tool-f', toolCallId: 'c', state: 'output-available', input: {}, output: 'C' },
    ]);
  });

  it('writes a dangling call as input-available, and a repeated id as two parts', () => {
    const conversation: Conversation = {
      version: 1,
      messages: [
        { role: 'assistant', parts: [call('x'), call('y')] },
        { role: 'tool', parts: [result('x', 'one')] },
        { role: 'assistant', parts: [call('x')] },
        { role: 'tool', parts: [result('x', 'two')] },
      ],
    };
    const messages = fmt.write(conversation).value as JsonObject[];
    expect(
      messages.map((m) => (m.parts as JsonObject[]).map((p) => [p.toolCallId, p.state, p.output])),
    ).toEqual([
      [
        ['x', 'output-available', 'one'],
        ['y', 'input-available', undefined],
      ],
      [['x', 'output-available', 'two']],
    ]);
  });

  it('gives each message an id no other has, and keeps the ids it read', () => {
    const conversation: Conversation = {
      version: 1,
      messages: [
        {
          role: 'user',
          parts: [{ type: 'text', text: 'a' }],
          providerData: { 'ai-sdk-ui': { id: 'msg-1' } },
        },
        { role: 'assistant', parts: [{ type: 'text', text: 'b' }] },
      ],
    };
    const ids = (fmt.write(conversation).value as JsonObject[]).map((m) => m.id);
    expect(ids).toEqual(['msg-1', 'msg-1-2']);
  });

  it('writes a result v1 cannot put on a call as a loss, never as a message of its own', () => {
    const { value, losses } = fmt.write({
      version: 1,
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
        { role: 'tool', parts: [result('nobody', 'orphan')] },
      ],
    });
    expect((value as JsonObject[]).map((m) => m.role)).toEqual(['user']);
    expect(losses).toEqual([
      {
        messageIndex: 1,
        partIndex: 0,
        what: "tool result with no call to write it on (a UIMessage keeps it on the call's part)",
      },
    ]);
  });

  it("never takes a tool part's state or a document's filename from kept data", () => {
    const planted = { state: 'output-available', filename: 'PLANTED.exe', output: 'PLANTED' };
    const onCall = { state: 'output-available', output: 'PLANTED', errorText: 'PLANTED' };
    const value = fmt.write({
      version: 1,
      messages: [
        {
          role: 'user',
          parts: [
            {
              type: 'document',
              url: 'https://example.com/a.pdf',
              mediaType: 'application/pdf',
              providerData: { 'ai-sdk-ui': planted },
            },
          ],
        },
        { role: 'assistant', parts: [{ ...call('c1'), providerData: { 'ai-sdk-ui': onCall } }] },
      ],
    }).value as JsonObject[];
    expect((value[0]!.parts as JsonObject[])[0]!.filename).toBeUndefined();
    expect((value[1]!.parts as JsonObject[])[0]).toMatchObject({ state: 'input-available' });
    expect(JSON.stringify(value)).not.toContain('PLANTED');
  });

  it('writes inline data as a data: URL, so it stays inline', () => {
    const value = fmt.write({
      version: 1,
      messages: [
        {
          role: 'user',
          parts: [{ type: 'image', data: 'file:///etc/passwd', mediaType: 'image/png' }],
        },
      ],
    }).value as JsonObject[];
    expect((value[0]!.parts as JsonObject[])[0]!.url).toBe(
      'data:image/png;base64,file:///etc/passwd',
    );
  });
});

describe('ai-sdk-ui through the command line', () => {
  const file = (name: string, value: unknown): string => {
    const p = path.join(work, name);
    writeFileSync(p, JSON.stringify(value, null, 2) + '\n');
    return p;
  };

  it('sanitize drops a file part whose url is file:///etc/passwd, reports it, and keeps a data: URL attachment', async () => {
    const input = file('sanitize.json', [
      {
        id: 'u-1',
        role: 'user',
        parts: [
          { type: 'text', text: 'read these' },
          { type: 'file', mediaType: 'text/plain', filename: 'passwd', url: 'file:///etc/passwd' },
          {
            type: 'file',
            mediaType: 'text/plain',
            filename: 'hi.txt',
            url: 'data:text/plain;base64,aGk=',
          },
        ],
      },
      {
        id: 'a-1',
        role: 'assistant',
        parts: [
          { type: 'source-url', sourceId: 's1', url: 'file:///etc/shadow' },
          { type: 'text', text: 'Read.', state: 'done' },
        ],
      },
    ]);
    const output = path.join(work, 'sanitize.out.json');
    const r = await runCli(['sanitize', input, '-o', output, '--report-format', 'json'], {
      cwd: work,
    });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stderr) as {
      files: {
        sanitize: { unsafeParts: { messageIndex: number; partIndex: number; scheme: string }[] };
      }[];
    };
    expect(report.files[0]!.sanitize.unsafeParts).toMatchObject([
      { messageIndex: 0, partIndex: 1, kind: 'document', scheme: 'file' },
      { messageIndex: 1, partIndex: 0, kind: 'ai-sdk-ui:source-url', scheme: 'file' },
    ]);
    const written = readFileSync(output, 'utf8');
    expect(written).not.toContain('file:');
    // Written back as the UIMessages it was, without the two parts.
    expect(JSON.parse(written)).toEqual([
      {
        id: 'u-1',
        role: 'user',
        parts: [
          { type: 'text', text: 'read these' },
          {
            type: 'file',
            mediaType: 'text/plain',
            filename: 'hi.txt',
            url: 'data:text/plain;base64,aGk=',
          },
        ],
      },
      { id: 'a-1', role: 'assistant', parts: [{ type: 'text', text: 'Read.', state: 'done' }] },
    ]);
  });

  it('--from ai-sdk-ui reads a text-only file as UIMessages; --from ai-sdk refuses it, naming ai-sdk-ui', async () => {
    const input = file('tie.json', [
      { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] },
    ]);
    const ui = await runCli(['convert', input, '--from', 'ai-sdk-ui', '--to', 'histlint'], {
      cwd: work,
    });
    expect(ui.code, ui.stderr).toBe(0);
    expect(JSON.parse(ui.stdout)).toEqual({
      version: 1,
      messages: [
        {
          role: 'user',
          parts: [{ type: 'text', text: 'hi' }],
          providerData: { 'ai-sdk-ui': { id: 'm1' } },
        },
      ],
      // A bare array is recorded, so a write of the stored file gives one back.
      providerData: { 'ai-sdk-ui': { $bare: true } },
    });
    const sdk = await runCli(['convert', input, '--from', 'ai-sdk', '--to', 'histlint'], {
      cwd: work,
    });
    expect(sdk.code).toBe(2);
    expect(sdk.stderr).toContain('a UIMessage (ai-sdk-ui)');
    expect(sdk.stdout).toBe('');
  });

  it('convert --to ai-sdk-ui writes UIMessages, results on their calls', async () => {
    const input = file('v1.json', {
      version: 1,
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'Time in Faro?' }] },
        {
          role: 'assistant',
          parts: [{ type: 'tool-call', id: 'call_1', name: 'now', arguments: '{"city":"Faro"}' }],
        },
        {
          role: 'tool',
          parts: [
            { type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: '09:41' }] },
          ],
        },
        { role: 'assistant', parts: [{ type: 'text', text: 'It is 09:41.' }] },
      ],
    });
    const r = await runCli(['convert', input, '--to', 'ai-sdk-ui'], { cwd: work });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: 'msg-0', role: 'user', parts: [{ type: 'text', text: 'Time in Faro?' }] },
      {
        id: 'msg-1',
        role: 'assistant',
        parts: [
          {
            type: 'tool-now',
            toolCallId: 'call_1',
            state: 'output-available',
            input: { city: 'Faro' },
            output: '09:41',
          },
        ],
      },
      { id: 'msg-2', role: 'assistant', parts: [{ type: 'text', text: 'It is 09:41.' }] },
    ]);
    // From a provider's format, the request settings a UIMessage has no place for are dropped and
    // reported, without --lossy (only content needs it).
    const chat = path.join(
      ROOT,
      'fixtures',
      'formats',
      'openai-chat',
      'tool-calls-and-results',
      'source.json',
    );
    const plain = await runCli(['convert', chat, '--to', 'ai-sdk-ui'], { cwd: work });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toContain(
      'dropped request settings: model, temperature, tool_choice, tools',
    );
    const value = parseJson(plain.stdout);
    expect(detectFormat(value).name).toBe('ai-sdk-ui');
    const ids = (c: Conversation): unknown =>
      analyzePairing(c.messages).calls.map((k) => [k.id, k.name, k.answer !== undefined]);
    expect(ids(fmt.read(value).conversation)).toEqual(
      ids(openaiChatFormat.read(readJson(chat)).conversation),
    );
  });

  it('lint points at the tool part of a dangling call, line and column in the UIMessage file', async () => {
    const source = path.join(FIXTURES, 'read-tool-states', 'source.json');
    const r = await runCli(['lint', source, '--format', 'json'], { cwd: work });
    const report = JSON.parse(r.stdout) as {
      files: {
        target: string | null;
        findings: { ruleId: string; pointer: string; line: number; column: number }[];
      }[];
    };
    expect(report.files[0]!.target).toBeNull();
    const dangling = report.files[0]!.findings.filter((f) => f.ruleId === 'dangling-tool-call');
    expect(dangling.map((f) => f.pointer)).toEqual(['/1/parts/7', '/1/parts/9', '/1/parts/10']);
    const lines = readFileSync(source, 'utf8').split('\n');
    expect(dangling.map((f) => lines[f.line - 1]!.slice(f.column - 1, f.column))).toEqual([
      '{',
      '{',
      '{',
    ]);
    expect(dangling.map((f) => lines[f.line]!.trim())).toEqual([
      '"type": "tool-deleteBooking",',
      '"type": "tool-bookTable",',
      '"type": "tool-bookTable",',
    ]);
  });
});

describe('ai-sdk-ui through normalize', () => {
  it('answers the pending calls, written back on their parts as interrupted', () => {
    const read = fmt.read(fixture('read-tool-states', 'source.json'));
    const { messages, changed } = normalizeHistory(read.conversation.messages);
    expect(changed).toBe(true);
    const out = fmt.write(withMessages(read.conversation, messages), read.context);
    expect(out.losses).toEqual([]);
    const parts = (out.value as JsonObject[])[1]!.parts as JsonObject[];
    const pending = parts.filter((p) =>
      ['call_delete_41', 'call_book', 'call_book_2'].includes(p.toolCallId as string),
    );
    expect(pending.map((p) => [p.state, p.output])).toEqual([
      ['output-available', INTERRUPTED_TEXT],
      ['output-available', INTERRUPTED_TEXT],
      ['output-available', INTERRUPTED_TEXT],
    ]);
    expectAnswered(fmt, out.value);
    expect(normalizeHistory(fmt.read(copy(out.value)).conversation.messages).changed).toBe(false);
  });
});

describe('ai-sdk-ui locate', () => {
  it('maps v1 fields to the UIMessage fields', () => {
    const tools = fmt.read(fixture('read-tool-states', 'source.json'));
    expect(tools.locate()).toBe('');
    expect(tools.locate(1)).toBe('/1');
    expect(tools.locate(1, 2)).toBe('/1/parts/2');
    expect(tools.locate(1, 2, ['id'])).toBe('/1/parts/2/toolCallId');
    expect(tools.locate(1, 2, ['name'])).toBe('/1/parts/2/type');
    expect(tools.locate(1, 2, ['arguments'])).toBe('/1/parts/2/input');
    // A result is its call's part: the output, the error text, the refusal's reason.
    expect(tools.locate(2)).toBe('/1');
    expect(tools.locate(2, 0, ['callId'])).toBe('/1/parts/2/toolCallId');
    expect(tools.locate(2, 0, ['content', 0, 'text'])).toBe('/1/parts/2/output');
    expect(tools.locate(2, 2, ['content', 0, 'text'])).toBe('/1/parts/4/errorText');
    expect(tools.locate(4, 0, ['content', 0, 'text'])).toBe('/1/parts/8/approval/reason');
    // The step after the results is the same UIMessage.
    expect(tools.locate(3, 1, ['text'])).toBe('/1/parts/6/text');

    const agent = fmt.read(fixture('read-multi-step-agent', 'source.json'));
    expect(agent.locate(1, 1, ['signature'])).toBe(
      '/1/parts/1/providerMetadata/google/thoughtSignature',
    );
    expect(agent.locate(1, 2, ['name'])).toBe('/1/parts/2/toolName');

    const files = fmt.read(fixture('read-text-and-files', 'source.json'));
    expect(files.locate(0, 2, ['data'])).toBe('/0/parts/2/url');
    expect(files.locate(0, 2, ['name'])).toBe('/0/parts/2/filename');

    const body = fmt.read(fixture('read-use-chat-body', 'source.json'));
    expect(body.locate()).toBe('/messages');
    expect(body.locate(2, 0, ['content', 0, 'text'])).toBe('/messages/1/parts/1/output');

    const raw = fmt.read(fixture('read-raw-input-and-odd-inputs', 'source.json'));
    expect(raw.locate(1, 0, ['arguments'])).toBe('/1/parts/0/rawInput');
  });
});

describeShared('ai-sdk-ui conversion from the openai-chat corpus', 'corpus/openai-chat', () => {
  const records = corpusRecords('openai-chat');

  it('openai-chat → v1 → ai-sdk-ui → v1 keeps texts, calls, results and ids, and the written value is lossless', () => {
    expect(records.length).toBeGreaterThan(0);
    const failed: string[] = [];
    const view = (c: Conversation): JsonValue =>
      json(
        c.messages.flatMap((m) =>
          m.parts.map((p) =>
            p.type === 'tool-result'
              ? { result: p.callId ?? null, failed: p.failed === true }
              : p.type === 'tool-call'
                ? { call: p.id ?? null, name: p.name ?? null }
                : { type: p.type, text: p.text ?? null },
          ),
        ),
      );
    for (const r of records) {
      const chat = openaiChatFormat.read(copy(r.value)).conversation;
      const written = copy(fmt.write(copy(chat) as Conversation).value);
      const back = fmt.read(copy(written));
      const pairs = (c: Conversation): JsonValue =>
        json(analyzePairing(c.messages).calls.map((k) => [k.id, k.answer !== undefined]));
      if (!jsonEqual(pairs(back.conversation), pairs(chat))) failed.push(`${r.where} pairing`);
      const texts = (c: Conversation): JsonValue =>
        json((view(c) as JsonObject[]).filter((x) => x.type === 'text'));
      if (!jsonEqual(texts(back.conversation), texts(chat))) failed.push(`${r.where} texts`);
      if (!jsonEqual(fmt.write(copy(back.conversation), back.context).value, written))
        failed.push(`${r.where} re-write`);
    }
    expect(failed).toEqual([]);
  });
});

/**
 * A UIMessage built from the chunks of a recorded UI message stream, as
 * `useChat` builds it: a `step-start` part per step, text and reasoning from
 * their deltas, a tool part per call whose state follows the tool chunks.
 */
function foldStream(chunks: JsonObject[]): JsonObject {
  const parts: JsonObject[] = [];
  const byId = new Map<string, JsonObject>();
  const tools = new Map<string, { part: JsonObject; text: string }>();
  for (const c of chunks) {
    const id = c.id as string;
    switch (c.type) {
      case 'start-step':
        parts.push({ type: 'step-start' });
        break;
      case 'text-start':
      case 'reasoning-start': {
        const part: JsonObject = {
          type: c.type === 'text-start' ? 'text' : 'reasoning',
          text: '',
          state: 'streaming',
        };
        parts.push(part);
        byId.set(id, part);
        break;
      }
      case 'text-delta':
      case 'reasoning-delta':
        byId.get(id)!.text = (byId.get(id)!.text as string) + (c.delta as string);
        break;
      case 'text-end':
      case 'reasoning-end':
        byId.get(id)!.state = 'done';
        break;
      case 'tool-input-start': {
        if (tools.has(c.toolCallId as string)) break;
        const part: JsonObject =
          c.dynamic === true
            ? { type: 'dynamic-tool', toolName: c.toolName!, toolCallId: c.toolCallId! }
            : { type: `tool-${c.toolName as string}`, toolCallId: c.toolCallId! };
        part.state = 'input-streaming';
        parts.push(part);
        tools.set(c.toolCallId as string, { part, text: '' });
        break;
      }
      case 'tool-input-delta': {
        const tool = tools.get(c.toolCallId as string)!;
        tool.text += c.inputTextDelta as string;
        try {
          tool.part.input = JSON.parse(tool.text) as JsonValue;
        } catch {
          // Not whole yet.
        }
        break;
      }
      case 'tool-input-available': {
        const tool = tools.get(c.toolCallId as string)!;
        tool.part.state = 'input-available';
        tool.part.input = c.input!;
        break;
      }
      case 'tool-approval-request': {
        const tool = tools.get(c.toolCallId as string)!;
        tool.part.state = 'approval-requested';
        tool.part.approval = { id: c.approvalId! };
        break;
      }
      case 'tool-output-available': {
        const tool = tools.get(c.toolCallId as string)!;
        tool.part.state = 'output-available';
        tool.part.output = c.output!;
        break;
      }
    }
  }
  return { id: 'assistant-1', role: 'assistant', parts };
}

describeShared(
  'ai-sdk-ui on UIMessages folded from the recorded streams',
  'corpus/vercel-ai-uimessage-stream',
  () => {
    const dir = path.join(CORPUS, 'vercel-ai-uimessage-stream');
    const streams = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => ({
        name: f,
        chunks: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as JsonObject[],
      }));

    it.each(streams)(
      '$name: detected, read, paired by state and written back exactly',
      ({ name, chunks }) => {
        const value = json([
          { id: 'user-1', role: 'user', parts: [{ type: 'text', text: 'go' }] },
          foldStream(chunks),
        ]);
        expect(detectFormat(value).name).toBe('ai-sdk-ui');
        const read = fmt.read(copy(value));
        const written = fmt.write(copy(read.conversation), read.context);
        expect(written.losses).toEqual([]);
        expect(jsonEqual(written.value, value)).toBe(true);
        expectLocatable(value, read);
        // Calls with an output are answered; one waiting for approval is not.
        const tools = (foldStream(chunks).parts as JsonObject[]).filter(
          (p) => p.toolCallId !== undefined,
        );
        const pairing = analyzePairing(read.conversation.messages);
        expect(pairing.calls.map((c) => [c.id, c.answer !== undefined])).toEqual(
          tools.map((t) => [t.toolCallId, t.state === 'output-available']),
        );
        expect(tools.length, name).toBeGreaterThan(0);
      },
    );
  },
);

describe('ai-sdk-ui as another format', () => {
  it('converts to the AI SDK ModelMessages with the reasoning signature where the provider replays it', () => {
    const read = fmt.read(fixture('read-multi-step-agent', 'source.json'));
    const model = formatByName('ai-sdk')!.write(copy(read.conversation)).value as JsonObject[];
    const reasoning = (model[1]!.content as JsonObject[])[0]!;
    expect(reasoning).toMatchObject({
      type: 'reasoning',
      providerOptions: { google: { thoughtSignature: 'CiQB0e2Kb1wFv==' } },
    });
    expect(model.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
  });
});
