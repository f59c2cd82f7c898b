/**
 * The langchain adapter beyond the contract cases (contract.test.ts): its own fixture cases, tool
 * call args written back exactly, an interrupted call found and repaired through the format, a
 * failed ToolMessage, the OpenAI mirror of calls kept in step with the calls, kept data that sets
 * no wire field, and detection that claims no other format's files (nor they its).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizeHistory } from '../../src/core/sanitize.js';
import { FORMATS } from '../../src/formats/index.js';
import { langchainFormat } from '../../src/formats/langchain/index.js';
import { withMessages } from '../../src/formats/histlint/index.js';
import { lintConversation } from '../../src/lint/api.js';
import { parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import type { Conversation } from '../../src/formats/format.js';
import type { Part } from '../../src/model/types.js';
import {
  copy,
  corpusDocuments,
  corpusFolders,
  describeFixtureCases,
  fixtureCases,
  normalizeThrough,
  plain,
} from '../helpers/formats.js';
import { ROOT } from '../helpers/cli.js';
import { describeShared } from '../helpers/shared.js';

const f = langchainFormat;

/** The first part of a message. */
const p0 = (m: Conversation['messages'][number]): Part => m.parts[0]!;

/** A LangChain message dict with the fields `messages_to_dict` writes for its type. */
function dict(type: string, data: JsonObject): JsonObject {
  const base: JsonObject = {
    content: '',
    additional_kwargs: {},
    response_metadata: {},
    type,
    name: null,
    id: null,
  };
  if (type === 'human' || type === 'ai') base.example = false;
  if (type === 'ai')
    Object.assign(base, { tool_calls: [], invalid_tool_calls: [], usage_metadata: null });
  if (type === 'tool') Object.assign(base, { tool_call_id: '', artifact: null, status: 'success' });
  return { type, data: { ...base, ...data } };
}

/** A value through JSON text (exact numbers kept as written). */
const value = (v: unknown): JsonValue => parseJson(JSON.stringify(v));

/** An AI message that calls `weather`, and the human message after it: no result between. */
const INTERRUPTED = (): JsonValue =>
  value([
    dict('human', { content: 'Weather in Utrecht?' }),
    dict('ai', {
      tool_calls: [
        { name: 'weather', args: { city: 'Utrecht' }, id: 'call_w1', type: 'tool_call' },
      ],
    }),
    dict('human', { content: 'Hello?' }),
  ]);

describeFixtureCases(langchainFormat);

describe('langchain', () => {
  it('is checked against openai-chat and writes a bare list by default', () => {
    expect(f.target).toBe('openai-chat');
    expect(f.readOnly).toBe(false);
    const written = f.write({ version: 1, messages: [] } as Conversation);
    expect(written.value).toEqual([]);
  });

  it('writes tool call args back exactly: an object as read (numbers as written), a string as a string', () => {
    // Written as text: numbers keep their spelling (1.50, 1e3) only through parseJson.
    const args = '{"w":1.50,"h":1e3,"tags":["a",{"z":true,"y":null}]}';
    const calls = `[{"name":"plot","args":${args},"id":"c1","type":"tool_call"},{"name":"raw","args":"{\\"x\\": 1}","id":"c2","type":"tool_call"}]`;
    const ai = stringifyJson(value([dict('ai', {})]), 0).replace(
      '"tool_calls":[]',
      `"tool_calls":${calls}`,
    );
    const src = parseJson(ai);
    const read = f.read(src);
    const [object, text] = read.conversation.messages[0]!.parts;
    expect(object!.arguments).toBe(args);
    expect(text!.arguments).toBe('{"x": 1}');
    for (const written of [
      f.write(read.conversation, read.context).value,
      f.write(copy(read.conversation)).value,
    ]) {
      expect(stringifyJson(written)).toBe(stringifyJson(src));
    }
  });

  it('reports an unanswered call at its tool_calls entry', () => {
    const findings = lintConversation(JSON.stringify(INTERRUPTED()));
    const dangling = findings.find((x) => x.ruleId === 'dangling-tool-call');
    expect(dangling?.pointer).toBe('/1/data/tool_calls/0');
  });

  it('repairs an interrupted call with a ToolMessage in LangChain shape, nothing else changed', () => {
    const src = INTERRUPTED() as JsonValue[];
    const out = normalizeThrough(f, src) as JsonValue[];
    expect(out).toHaveLength(4);
    expect(plain(out[0]!)).toEqual(plain(src[0]!));
    expect(plain(out[1]!)).toEqual(plain(src[1]!));
    expect(plain(out[3]!)).toEqual(plain(src[2]!));
    expect(plain(out[2]!)).toEqual({
      type: 'tool',
      data: {
        content: 'interrupted before execution; no result was produced',
        additional_kwargs: {},
        response_metadata: {},
        type: 'tool',
        name: 'weather',
        id: null,
        tool_call_id: 'call_w1',
        artifact: null,
        status: 'success',
      },
    });
  });

  it('reads status "error" as a failed result and writes a failed result back as one', () => {
    const src = value([
      dict('ai', { tool_calls: [{ name: 'x', args: {}, id: 'c1', type: 'tool_call' }] }),
      dict('tool', { content: 'boom', name: 'x', tool_call_id: 'c1', status: 'error' }),
    ]);
    const read = f.read(src);
    const result = read.conversation.messages[1]!.parts[0]!;
    expect(result.failed).toBe(true);
    expect(read.locate(1, 0, ['failed'])).toBe('/1/data/status');
    const stripped = copy(read.conversation);
    delete stripped.messages[1]!.providerData;
    const written = f.write(stripped).value as JsonObject[];
    expect((written[1]!.data as JsonObject).status).toBe('error');
  });

  it('cuts a dropped call out of the OpenAI mirror in additional_kwargs', () => {
    // LangChain rebuilds tool_calls from additional_kwargs.tool_calls when the list is empty.
    const mirror = {
      id: 'call_1',
      function: { name: 'refund', arguments: '{}' },
      type: 'function',
    };
    const src = value([
      dict('human', { content: 'Refund me.' }),
      dict('ai', {
        content: 'Starting the refund.',
        additional_kwargs: { tool_calls: [mirror], refusal: null },
        tool_calls: [{ name: 'refund', args: {}, id: 'call_1', type: 'tool_call' }],
      }),
    ]);
    const read = f.read(src);
    const { messages } = sanitizeHistory(read.conversation.messages, { dropUnresolvedCalls: true });
    const written = f.write(withMessages(read.conversation, messages), read.context);
    expect(written.losses).toEqual([]);
    const ai = (written.value as JsonObject[])[1]!.data as JsonObject;
    expect(plain(ai.tool_calls!)).toEqual([]);
    expect(plain(ai.additional_kwargs!)).toEqual({ refusal: null });
    // With the call still there, the mirror stays as read.
    expect(plain(f.write(read.conversation, read.context).value)).toEqual(plain(src));
  });

  it('never lets kept data set content, calls, results or roles', () => {
    const MARK = 'PLANTED';
    const conversation = copy(
      f.read(
        value([
          dict('chat', { content: 'Be brief.', role: 'system' }),
          dict('ai', { tool_calls: [{ name: 'x', args: {}, id: 'c1', type: 'tool_call' }] }),
          dict('tool', { content: 'ok', name: 'x', tool_call_id: 'c1' }),
        ]),
      ).conversation,
    );
    for (const m of conversation.messages) {
      m.providerData ??= { langchain: {} };
      const kept = (m.providerData as JsonObject).langchain as JsonObject;
      const planted: JsonObject = {};
      for (const k of [
        'content',
        'tool_calls',
        'invalid_tool_calls',
        'tool_call_id',
        'name',
        'role',
        'status',
        'type',
      ])
        planted[k] = k === 'tool_calls' ? [{ name: MARK, args: {}, id: MARK }] : MARK;
      kept.data = planted;
      // A block's own extra fields (an `id`, `cache_control`) are kept; its wire fields are not.
      const wire =
        p0(m).type === 'tool-call'
          ? ['args', 'id', 'name', 'type', 'text', 'url']
          : p0(m).type === 'tool-result'
            ? ['content', 'tool_call_id', 'status', 'name']
            : ['type', 'text', 'url', 'image_url', 'data', 'mime_type'];
      for (const p of m.parts)
        p.providerData = { langchain: Object.fromEntries(wire.map((k) => [k, MARK])) };
    }
    const text = stringifyJson(f.write(conversation).value);
    expect(text).not.toContain(MARK);
  });
});

describe('langchain: a ChatMessage with the developer role (reported defect)', () => {
  const value: JsonValue = [
    { type: 'chat', data: { content: 'be brief', role: 'developer', type: 'chat' } },
    { type: 'human', data: { content: 'hi', type: 'human' } },
  ];

  it('is a system message: no unknown-role, and written back as it was', () => {
    const read = langchainFormat.read(value);
    expect(read.conversation.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(lintConversation(stringifyJson(value, 0)).map((f) => f.ruleId)).toEqual([]);
    expect(langchainFormat.write(read.conversation, read.context).value).toEqual(value);
  });

  it('never turns a user message into a developer one through kept data', () => {
    const read = langchainFormat.read(value);
    const [dev, user] = read.conversation.messages;
    const planted = { ...user!, providerData: dev!.providerData! };
    const out = langchainFormat.write(withMessages(read.conversation, [planted]))
      .value as JsonObject[];
    expect((out[0]!.data as JsonObject).role).toBe('user');
  });
});

describe('langchain detection', () => {
  it('refuses other shapes', () => {
    for (const v of [
      [],
      { messages: [] },
      [{ role: 'user', content: 'hi' }],
      [{ type: 'human', data: 'hi' }],
      [{ type: 'human', content: 'hi' }],
      [{ type: 'user', data: { content: 'hi' } }],
      [{ type: 'human', role: 'user', data: { content: 'hi' } }],
      [{ type: 'UserMessage', content: 'hi', source: 'user' }],
      // One message dict among another format's messages: not a LangChain list.
      [
        { type: 'human', data: { content: 'hi' } },
        { role: 'assistant', content: 'hello' },
      ],
    ]) {
      expect(f.detect(value(v)), JSON.stringify(v)).toBe(false);
    }
    expect(() => f.read(value({ contents: [] }))).toThrow(/not langchain/);
    expect(() => f.read(value([{ role: 'user', content: 'hi' }]))).toThrow(/not langchain/);
  });

  it('claims no other format’s fixture, and no other format claims one of its', () => {
    const formats = readdirSync(path.join(ROOT, 'fixtures', 'formats'));
    for (const name of formats) {
      for (const fx of fixtureCases(name).filter((c) => c.source !== undefined)) {
        const where = `${name}/${fx.name}`;
        if (name === f.name) {
          for (const other of FORMATS.filter((x) => x !== f))
            expect(other.detect(fx.source!), `${other.name} claims ${where}`).toBe(false);
        } else expect(f.detect(fx.source!), where).toBe(false);
      }
    }
  });
});

describeShared('langchain on the corpus', 'corpus', () => {
  it('claims nothing of it', () => {
    const folders = corpusFolders();
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders)
      for (const [where, v] of corpusDocuments(folder)) expect(f.detect(v), where).toBe(false);
  });
});
