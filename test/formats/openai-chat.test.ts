/**
 * The openai-chat format: corpus round trip, detection, hand-written mapping
 * cases (fixtures/formats/openai-chat/), normalize through the format, and
 * locate().
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_TEXT, normalizeHistory } from '../../src/core/normalize.js';
import { analyzePairing } from '../../src/core/pairing.js';
import type { Conversation } from '../../src/formats/format.js';
import { openaiChatFormat as fmt } from '../../src/formats/openai-chat/index.js';
import { jsonEqual, type JsonObject, type JsonValue } from '../../src/model/json.js';
import { parsePointer, valueAt } from '../../src/model/pointer.js';
import { EnvelopeSchema } from '../../src/model/schema.js';
import type { Part } from '../../src/model/types.js';
import { ROOT } from '../helpers/cli.js';
import {
  copy,
  corpusRecords,
  describeFixtureCases,
  fixtureCases,
  otherFolders,
  readJson,
  REQUEST_FOLDERS,
  textRoundTrip,
  type CorpusRecord,
} from '../helpers/formats.js';
import { describeShared } from '../helpers/shared.js';

const FIXTURES = path.join(ROOT, 'fixtures', 'formats');
const OTHER_FOLDERS = otherFolders(REQUEST_FOLDERS, 'openai-chat');

const records = corpusRecords('openai-chat');

describeShared('openai-chat corpus', 'corpus/openai-chat', () => {
  it('has records', () => {
    expect(records.length).toBe(69);
  });

  it('round-trips every record exactly', () => {
    const failed: string[] = [];
    for (const r of records) {
      const written = textRoundTrip(fmt, r.value);
      if (!jsonEqual(written.value, r.value)) failed.push(r.where);
      else if (written.losses.length > 0) failed.push(`${r.where} (losses)`);
    }
    expect(failed).toEqual([]);
  });

  it('reads every record into a schema-valid v1 conversation', () => {
    const invalid: string[] = [];
    for (const r of records) {
      const { conversation } = fmt.read(copy(r.value));
      if (!EnvelopeSchema.safeParse(copy(conversation)).success) invalid.push(r.where);
    }
    expect(invalid).toEqual([]);
  });

  it('keeps tool call ids and arguments byte for byte', () => {
    for (const r of records) {
      const messages = (
        Array.isArray(r.value) ? r.value : (r.value as JsonObject).messages
      ) as JsonObject[];
      const sourceCalls = messages.flatMap((m) =>
        Array.isArray(m.tool_calls) ? (m.tool_calls as JsonObject[]) : [],
      );
      const v1Calls = fmt
        .read(copy(r.value))
        .conversation.messages.flatMap((m) => m.parts.filter((p) => p.type === 'tool-call'));
      expect(v1Calls.map((p) => [p.id, p.arguments])).toEqual(
        sourceCalls.map((c) => [c.id, (c.function as JsonObject).arguments]),
      );
    }
  });
});

describe('openai-chat detection', () => {
  it('rejects v1 conversations', () => {
    const v1Files = [
      path.join(ROOT, 'fixtures', 'examples', 'interrupted-run.json'),
      ...readdirSync(path.join(ROOT, 'fixtures', 'core', 'normalize')).map((c) =>
        path.join(ROOT, 'fixtures', 'core', 'normalize', c, 'input.json'),
      ),
      ...fixtureCases('openai-chat').map((c) => path.join(c.dir, 'v1.json')),
    ];
    for (const file of v1Files) {
      if (!existsSync(file)) continue;
      const v = readJson(file);
      expect(fmt.detect(v), file).toBe(false);
      if (!Array.isArray(v)) expect(fmt.detect((v as JsonObject).messages!), file).toBe(false);
    }
  });

  it('rejects AI SDK ModelMessage arrays', () => {
    for (const c of fixtureCases('ai-sdk')) {
      if (c.source !== undefined) expect(fmt.detect(c.source), c.name).toBe(false);
    }
  });

  it('rejects Anthropic shapes and non-conversations', () => {
    const anthropicBare = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'x', input: {} }] },
    ];
    expect(fmt.detect(anthropicBare)).toBe(false);
    expect(fmt.detect({ system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] })).toBe(
      false,
    );
    expect(
      fmt.detect({
        model: 'claude-x',
        max_tokens: 10,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      }),
    ).toBe(false);
    expect(fmt.detect([{ role: 'user', content: [{ text: 'bedrock block' }] }])).toBe(false);
    expect(fmt.detect([{ role: 'user', parts: [{ text: 'gemini' }] }])).toBe(false);
    expect(fmt.detect([{ type: 'message', role: 'user', content: 'responses item' }])).toBe(false);
    expect(fmt.detect([])).toBe(false);
    expect(fmt.detect({ messages: 'x' })).toBe(false);
    expect(fmt.detect('text')).toBe(false);
    // A plain role/content history is Chat's: the fallback for ambiguous simple histories.
    expect(fmt.detect([{ role: 'user', content: 'hi' }])).toBe(true);
    expect(
      fmt.detect({
        model: 'gpt-4o',
        max_completion_tokens: 5,
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).toBe(true);
  });

  it('refuses to read what is not a messages array', () => {
    expect(() => fmt.read({ contents: [] })).toThrow(/not openai-chat/);
    expect(() => fmt.read([42])).toThrow(/message 0 is not an object/);
  });
});

// unknown-fields-kept holds an Anthropic-style image block: only --from openai-chat reads it.
describeFixtureCases(fmt, { fromOnly: ['unknown-fields-kept'] });

describe('openai-chat fixtures', () => {
  const v1 = (name: string): Conversation =>
    readJson(path.join(FIXTURES, 'openai-chat', name, 'v1.json')) as Conversation;
  const parts = (c: Conversation, role?: string): Part[] =>
    c.messages.filter((m) => role === undefined || m.role === role).flatMap((m) => m.parts);

  it('maps tool_calls to tool-call parts and tool messages to one tool-result each', () => {
    const c = v1('tool-calls-and-results');
    expect(parts(c, 'assistant').filter((p) => p.type === 'tool-call')).toEqual([
      {
        type: 'tool-call',
        id: 'call_lisbon01',
        name: 'get_weather',
        arguments: '{"city": "Lisbon"}',
      },
      {
        type: 'tool-call',
        id: 'call_porto02',
        name: 'get_weather',
        arguments: '{"city":"Porto","units":1e2}',
      },
    ]);
    const tools = c.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.parts.map((p) => p.callId))).toEqual([
      ['call_lisbon01'],
      ['call_porto02'],
    ]);
    expect(c.messages[0]).toEqual({
      role: 'system',
      parts: [{ type: 'text', text: 'You are a travel assistant. Use the tools.' }],
    });
  });

  it('keeps a truncated arguments string verbatim (no truncated_args in a string format)', () => {
    const c = v1('arguments-verbatim');
    expect(parts(c).find((p) => p.id === 'call_trunc')!.arguments).toBe(
      '{"party": 2, "time": "19:',
    );
    // Read from a bare array, stored as v1: written back bare.
    const out = fmt.write(c).value as JsonObject[];
    const calls = (out[1]!.tool_calls as JsonObject[]).map(
      (t) => (t.function as JsonObject).arguments,
    );
    expect(calls[0]).toBe('{"party": 2, "time": "19:');
  });

  it('splits data: URLs into data + mediaType and rebuilds them exactly', () => {
    const image = parts(v1('multimodal-user')).find((p) => p.type === 'image' && 'data' in p)!;
    expect(image).toMatchObject({
      data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB',
      mediaType: 'image/png',
    });
    const doc = parts(v1('multimodal-user')).find((p) => p.name === 'invoice.pdf')!;
    expect(doc).toMatchObject({
      type: 'document',
      data: 'JVBERi0xLjQK',
      mediaType: 'application/pdf',
    });
  });

  it('writes developer messages back as developer and keeps null/absent/empty content apart', () => {
    const read = fmt.read(
      readJson(path.join(FIXTURES, 'openai-chat', 'content-shapes', 'source.json')),
    );
    expect(read.conversation.messages[0]!.role).toBe('system');
    const out = fmt.write(read.conversation, read.context).value as JsonObject[];
    expect(out[0]!.role).toBe('developer');
    expect(out[4]).not.toHaveProperty('content');
    expect(out[6]!.content).toBe('');
    expect(out[7]!.content).toBeNull();
  });

  it('keeps adjacent assistant messages read from Chat apart, with or without the read context', () => {
    const source = readJson(
      path.join(FIXTURES, 'openai-chat', 'content-shapes', 'source.json'),
    ) as JsonObject[];
    const roles = (list: JsonValue): JsonValue[] => (list as JsonObject[]).map((m) => m.role!);
    const read = fmt.read(copy(source));
    expect(roles(source).slice(8)).toEqual(['assistant', 'assistant', 'assistant']);
    expect(roles(fmt.write(read.conversation, read.context).value)).toEqual(roles(source));
    // A stored v1 file: each of them carries Chat's providerData, so none joins another; and
    // the bare array read comes back bare (the conversation's `$bare`).
    const stored = fmt.write(copy(read.conversation)).value;
    expect(Array.isArray(stored)).toBe(true);
    expect(roles(stored)).toEqual(roles(source));
  });

  it('keeps the request body in its key order, with or without the read context', () => {
    const body = {
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0,
      model: 'gpt-4o',
    };
    const read = fmt.read(copy(body));
    for (const written of [
      fmt.write(read.conversation, read.context).value,
      fmt.write(copy(read.conversation)).value,
    ]) {
      expect(Object.keys(written as JsonObject)).toEqual(['messages', 'temperature', 'model']);
    }
  });

  it('with the read context, keeps the messages of the file apart and drops an added provider-executed call', () => {
    const source = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'a' },
      { role: 'assistant', content: 'b' },
    ];
    const first = fmt.read(copy(source));
    const again = fmt.read(copy(source));
    const added: Conversation['messages'] = [
      { role: 'user', parts: [{ type: 'text', text: 'search' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'tool-call', id: 'ws', name: 'web_search', arguments: '{}' },
          { type: 'tool-result', callId: 'ws', content: [{ type: 'text', text: 'found' }] },
          { type: 'text', text: 'Done.' },
        ],
      },
    ];
    // The messages of an earlier read of the same file, written with the context of a later one.
    const messages = [...(copy(first.conversation.messages) as typeof added), ...added];
    const written = fmt.write({ ...again.conversation, messages }, again.context);
    expect(written.value).toEqual([
      ...source,
      { role: 'user', content: 'search' },
      { role: 'assistant', content: 'Done.' },
    ]);
    expect(written.losses.map((l) => l.what)).toEqual([
      'provider-executed tool call "ws" (web_search)',
      'result of provider-executed tool call "ws"',
    ]);
  });

  it('carries unknown parts and fields through', () => {
    const c = v1('unknown-fields-kept');
    const user = c.messages[0]!.parts;
    // Parts v1 has no type for are kept whole under a prefixed type (lint: unknown-part-type).
    expect(user[1]).toEqual({
      type: 'openai-chat:video_url',
      providerData: {
        'openai-chat': {
          part: { type: 'video_url', video_url: { url: 'https://example.com/v.mp4' } },
        },
      },
    });
    // Even when the source type is a v1 type name: it is not misread as a v1 part.
    expect(user[2]!.type).toBe('openai-chat:image');
    expect(c.messages[1]!.parts[0]).toMatchObject({
      type: 'reasoning',
      text: 'The user wants a clip; call the tool.',
    });
  });

  it('reports reasoning, media in results, failed flags and other providerData as losses', () => {
    const losses = readJson(
      path.join(FIXTURES, 'openai-chat', 'write-from-another-format', 'losses.json'),
    ) as JsonObject[];
    const whats = losses.map((l) => l.what);
    expect(whats).toEqual(
      expect.arrayContaining([
        'reasoning part',
        'image in a tool result',
        'failed flag of a tool result',
        'providerData.anthropic',
      ]),
    );
  });
});

describe('openai-chat normalize through the format', () => {
  it('adds the interrupted result right after the assistant message, and pairs cleanly after', () => {
    const source = readJson(
      path.join(FIXTURES, 'openai-chat', 'tool-calls-and-results', 'source.json'),
    ) as JsonObject;
    // Drop the Porto result: its call dangles.
    const broken = copy(source);
    (broken.messages as JsonValue[]).splice(4, 1);
    const read = fmt.read(broken);
    const { messages, changed } = normalizeHistory(read.conversation.messages);
    expect(changed).toBe(true);
    const out = fmt.write({ ...read.conversation, messages }, read.context);
    expect(out.losses).toEqual([]);
    const written = (out.value as JsonObject).messages as JsonObject[];
    expect(written[2]!.role).toBe('assistant');
    expect(written[3]).toEqual({
      role: 'tool',
      tool_call_id: 'call_porto02',
      content: INTERRUPTED_TEXT,
    });
    expect(written[4]).toMatchObject({ role: 'tool', tool_call_id: 'call_lisbon01' });
    // Everything else is untouched.
    expect((out.value as JsonObject).tools).toEqual(source.tools);
    expect(fmt.detect(out.value)).toBe(true);
    const again = analyzePairing(fmt.read(out.value).conversation.messages);
    expect(again.unanswered).toEqual([]);
    expect(again.results.every((r) => r.status === 'answer')).toBe(true);
  });

  it('repairs a bare agent trajectory (a tau-bench-like message list) and keeps it bare', () => {
    const call = (id: string, name: string, args: string): JsonObject => ({
      id,
      type: 'function',
      function: { name, arguments: args },
    });
    const trajectory: JsonObject[] = [
      { role: 'system', content: 'You are a retail support agent. Follow the policy.' },
      { role: 'user', content: 'I want to return the boots from order #W2378156.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          call('call_b2', 'get_order_details', '{"order_id":"#W2378156"}'),
          call('call_c3', 'get_user_details', '{"user_id":"yusuf_rossi_9620"}'),
        ],
      },
      { role: 'tool', tool_call_id: 'call_b2', content: '{"status":"delivered"}' },
      { role: 'tool', tool_call_id: 'call_c3', content: '{"payment":"paypal"}' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          call('call_a1', 'return_delivered_order_items', '{"item_ids":["4760268021"]}'),
        ],
      },
      { role: 'tool', tool_call_id: 'call_a1', content: '{"status":"return requested"}' },
      {
        role: 'assistant',
        content: 'The return is requested; the refund goes to your PayPal account.',
      },
    ];
    const traj = copy(trajectory) as JsonObject[];
    const lastTool = traj.map((m) => m.role).lastIndexOf('tool');
    const callId = traj[lastTool]!.tool_call_id;
    traj.splice(lastTool, 1);
    const read = fmt.read(traj);
    const { messages, repair } = normalizeHistory(read.conversation.messages);
    expect(repair.synthesized.map((s) => s.callId)).toEqual([callId]);
    expect(repair.dropped).toEqual([]);
    const out = fmt.write({ ...read.conversation, messages }, read.context).value as JsonObject[];
    expect(Array.isArray(out)).toBe(true);
    expect(out.length).toBe(traj.length + 1);
    expect(out[lastTool]).toEqual({
      role: 'tool',
      tool_call_id: callId,
      content: INTERRUPTED_TEXT,
    });
    expect(analyzePairing(fmt.read(out).conversation.messages).unanswered).toEqual([]);
  });
});

describe('openai-chat locate', () => {
  const sources: CorpusRecord[] = [
    ...records,
    ...fixtureCases('openai-chat')
      .filter((c) => c.source !== undefined)
      .map((c) => ({ where: c.name, value: c.source! })),
  ];

  it('points at an existing node for every message and part', () => {
    const missing: string[] = [];
    for (const r of sources) {
      const { conversation, locate } = fmt.read(copy(r.value));
      const at = (p: string): JsonValue | undefined => valueAt(r.value, parsePointer(p));
      if (at(locate()) === undefined) missing.push(`${r.where} base`);
      conversation.messages.forEach((m, i) => {
        if (at(locate(i)) === undefined) missing.push(`${r.where} m${i}`);
        m.parts.forEach((p, j) => {
          if (at(locate(i, j)) === undefined) missing.push(`${r.where} m${i} p${j}`);
          if (
            p.type === 'tool-call' &&
            at(locate(i, j, ['arguments'])) !== p.arguments &&
            p.providerData === undefined
          )
            missing.push(`${r.where} m${i} p${j} arguments`);
          if (
            p.type === 'tool-result' &&
            typeof p.callId === 'string' &&
            at(locate(i, j, ['callId'])) !== p.callId
          )
            missing.push(`${r.where} m${i} p${j} callId`);
          if (p.type === 'text' && at(locate(i, j, ['text'])) !== p.text)
            missing.push(`${r.where} m${i} p${j} text`);
          if (p.type === 'tool-result') {
            (p.content as Part[]).forEach((c, k) => {
              if (c.type === 'text' && at(locate(i, j, ['content', k, 'text'])) !== c.text)
                missing.push(`${r.where} m${i} p${j} c${k}`);
            });
          }
        });
      });
    }
    expect(missing).toEqual([]);
  });

  it('maps argument, id and name paths to the call fields', () => {
    const value = readJson(
      path.join(FIXTURES, 'openai-chat', 'tool-calls-and-results', 'source.json'),
    );
    const { locate } = fmt.read(value);
    expect(locate(2, 1, ['arguments'])).toBe('/messages/2/tool_calls/1/function/arguments');
    expect(locate(2, 1, ['name'])).toBe('/messages/2/tool_calls/1/function/name');
    expect(locate(2, 1, ['id'])).toBe('/messages/2/tool_calls/1/id');
    expect(locate(3, 0, ['callId'])).toBe('/messages/3/tool_call_id');
    expect(locate(4, 0, ['content', 1, 'text'])).toBe('/messages/4/content/1/text');
    expect(locate(1, 0)).toBe('/messages/1/content');
    expect(locate(99)).toBe('/messages');
  });
});

describeShared('openai-chat detection on the corpus', 'corpus', () => {
  it('recognizes every corpus record', () => {
    expect(records.filter((r) => !fmt.detect(r.value)).map((r) => r.where)).toEqual([]);
  });

  it.each(OTHER_FOLDERS)('rejects every %s record', (folder) => {
    const other = corpusRecords(folder);
    expect(other.length).toBeGreaterThan(0);
    expect(other.filter((r) => fmt.detect(r.value)).map((r) => r.where)).toEqual([]);
  });
});

describe("openai-chat: an assistant message's refusal", () => {
  const body = {
    model: 'm',
    messages: [
      { role: 'user', content: 'help me' },
      { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
      { role: 'user', content: 'ok' },
    ],
  };

  it('is read as the text it is, which lint, sanitize and show then see', () => {
    const { conversation } = fmt.read(body as unknown as JsonValue);
    expect(conversation.messages[1]!.parts).toMatchObject([
      { type: 'text', text: 'I cannot help with that.' },
    ]);
  });

  it('is written back where it was, with the read and from a stored v1 file', () => {
    const read = fmt.read(body as unknown as JsonValue);
    const stored = JSON.parse(JSON.stringify(read.conversation)) as Conversation;
    for (const written of [fmt.write(read.conversation, read.context), fmt.write(stored)]) {
      expect(written.losses).toEqual([]);
      expect(written.value).toEqual(body);
    }
  });

  it('is located at its field', () => {
    const read = fmt.read(body as unknown as JsonValue);
    expect(read.locate(1, 0, ['text'])).toBe('/messages/1/refusal');
  });
});
