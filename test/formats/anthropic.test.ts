/**
 * The Anthropic Messages adapter: lossless round trip of every corpus record,
 * strict detection, the hand-written cases of fixtures/formats/anthropic,
 * arguments, normalize through the format, and locate pointers into the source.
 */
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_TEXT, normalizeHistory } from '../../src/core/normalize.js';
import { anthropicFormat } from '../../src/formats/anthropic/index.js';
import type { Conversation } from '../../src/formats/format.js';
import { stringifyJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import type { Message } from '../../src/model/types.js';
import {
  CORPUS_FOLDERS,
  corpusRecords,
  expectAnswered,
  expectCleanReads,
  expectKeyOrderKept,
  expectLocatable,
  describeFixtureCases,
  failedRoundTrips,
  fixtureReader,
  normalizeThrough as normalizeThroughFormat,
  otherFolders,
  ownFixtureCases,
  readJson,
  roundTrip,
  storedRoundTrip,
  v1InputFiles,
} from '../helpers/formats.js';
import { describeShared } from '../helpers/shared.js';

const OTHER_FOLDERS = otherFolders(CORPUS_FOLDERS, 'anthropic');

const records = corpusRecords('anthropic');

const fixture = fixtureReader('anthropic');

/** Every string under one of `keys`, anywhere in a value, in document order. */
function stringsUnder(value: JsonValue, keys: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (v: JsonValue): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v as JsonObject)) {
        if (keys.includes(k) && typeof x === 'string') out.push(x);
        else walk(x);
      }
    }
  };
  walk(value);
  return out;
}

/** The ids of every tool_use and tool_result block (not server tools), in order. */
function toolIds(value: JsonValue): string[] {
  const out: string[] = [];
  const walk = (v: JsonValue): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      const o = v as JsonObject;
      if (o.type === 'tool_use' && typeof o.id === 'string') out.push(o.id);
      if (o.type === 'tool_result' && typeof o.tool_use_id === 'string') out.push(o.tool_use_id);
      Object.values(o).forEach(walk);
    }
  };
  walk(value);
  return out;
}

/** The `data` of every redacted_thinking block. */
function redactedData(value: JsonValue): string[] {
  const out: string[] = [];
  const walk = (v: JsonValue): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      const o = v as JsonObject;
      if (o.type === 'redacted_thinking' && typeof o.data === 'string') out.push(o.data);
      Object.values(o).forEach(walk);
    }
  };
  walk(value);
  return out;
}

describeShared('anthropic corpus', 'corpus/anthropic', () => {
  it('has every record', () => {
    expect(records.length).toBe(80);
  });

  it('round-trips every record exactly, with no losses', () => {
    expect(failedRoundTrips(records, (v) => roundTrip(anthropicFormat, v))).toEqual([]);
  });

  it('round-trips every record through a stored v1 file (no read context)', () => {
    expect(failedRoundTrips(records, (v) => storedRoundTrip(anthropicFormat, v))).toEqual([]);
  });

  it('keeps the request key order', () => {
    expectKeyOrderKept(anthropicFormat, records);
  });

  it('reads conversations the v1 schema accepts, whose pairing needs no repair', () => {
    expectCleanReads(anthropicFormat, records);
  });

  it('keeps ids and signatures byte-exact', () => {
    for (const rec of records) {
      const { conversation } = anthropicFormat.read(rec.value);
      const messages = (rec.value as JsonObject).messages!;
      const v1 = conversation.messages as unknown as JsonValue;
      expect(stringsUnder(v1, ['signature']), rec.where).toEqual(
        stringsUnder(messages, ['signature']),
      );
      expect(stringsUnder(v1, ['redacted']), rec.where).toEqual(redactedData(messages));
      const ids = toolIds(messages);
      expect(toolIds(anthropicFormat.write(conversation).value), rec.where).toEqual(ids);
      const v1Ids = conversation.messages.flatMap((m) =>
        m.parts.flatMap((p) => [p.id, p.callId].filter((x) => typeof x === 'string')),
      );
      expect(v1Ids, rec.where).toEqual(ids);
    }
  });

  it('locates every message, part and field in the source', () => {
    for (const rec of records) expectLocatable(rec.value, anthropicFormat.read(rec.value));
  });
});

describe('anthropic detection', () => {
  it('rejects v1 conversations', () => {
    const files = v1InputFiles();
    for (const file of files) expect(anthropicFormat.detect(readJson(file)), file).toBe(false);
    expect(files.length).toBeGreaterThan(10);
    const v1: JsonValue = [{ role: 'user', parts: [{ type: 'text', text: 'v1' }] }];
    expect(anthropicFormat.detect(v1)).toBe(false);
    expect(anthropicFormat.detect({ version: 1, messages: v1 })).toBe(false);
  });

  it('claims only what is unambiguous', () => {
    const text = (t: string): JsonValue => [{ type: 'text', text: t }];
    const toolUse = [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }];
    // Plain histories belong to OpenAI chat, the fallback.
    expect(anthropicFormat.detect([{ role: 'user', content: 'hi' }])).toBe(false);
    expect(anthropicFormat.detect({ messages: [{ role: 'user', content: 'hi' }] })).toBe(false);
    expect(anthropicFormat.detect([{ role: 'user', content: text('hi') }])).toBe(false);
    // Anthropic-only blocks or request fields decide.
    expect(anthropicFormat.detect([{ role: 'assistant', content: toolUse }])).toBe(true);
    expect(
      anthropicFormat.detect({ system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] }),
    ).toBe(true);
    expect(
      anthropicFormat.detect({
        model: 'm',
        max_tokens: 10,
        messages: [{ role: 'user', content: text('hi') }],
      }),
    ).toBe(true);
    expect(
      anthropicFormat.detect({
        anthropic_version: 'bedrock-2023-05-31',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).toBe(true);
    // Other formats' marks veto.
    expect(
      anthropicFormat.detect([
        { role: 'assistant', content: toolUse },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'x' },
      ]),
    ).toBe(false);
    expect(
      anthropicFormat.detect({
        model: 'm',
        max_tokens: 10,
        n: 2,
        messages: [{ role: 'user', content: text('hi') }],
      }),
    ).toBe(false);
    expect(
      anthropicFormat.detect({
        messages: [{ role: 'user', content: [{ text: 'bedrock' }] }],
        system: 'x',
      }),
    ).toBe(false);
    expect(anthropicFormat.detect({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })).toBe(
      false,
    );
    expect(anthropicFormat.detect({ input: [{ role: 'user', content: 'hi' }], system: 'x' })).toBe(
      false,
    );
  });
});

describe('anthropic fixtures', () => {
  it('has read and write cases', () => {
    const cases = ownFixtureCases('anthropic');
    expect(cases.filter((c) => c.kind === 'read').length).toBeGreaterThanOrEqual(6);
    expect(cases.filter((c) => c.kind === 'write').length).toBeGreaterThanOrEqual(1);
  });
});

// What a write case wrote reads back as Anthropic, with every call answered.
describeFixtureCases(anthropicFormat, {
  written: (value) => expectAnswered(anthropicFormat, value),
});

describe('anthropic pointers', () => {
  it('maps v1 fields to the source fields', () => {
    const source = fixture('read-tool-call-and-result', 'source.json');
    const read = anthropicFormat.read(source);
    expect(read.locate()).toBe('/messages');
    expect(read.locate(0)).toBe('/messages/0');
    expect(read.locate(0, 0)).toBe('/messages/0/content');
    expect(read.locate(0, 0, ['text'])).toBe('/messages/0/content');
    expect(read.locate(1, 1, ['arguments'])).toBe('/messages/1/content/1/input');
    expect(read.locate(1, 1, ['id'])).toBe('/messages/1/content/1/id');
    expect(read.locate(2, 0, ['callId'])).toBe('/messages/2/content/0/tool_use_id');
    expect(read.locate(2, 0, ['content', 0, 'text'])).toBe('/messages/2/content/0/content');
    expect(read.locate(2, 1, ['content', 0, 'text'])).toBe('/messages/2/content/1/content/0/text');
    expect(read.locate(2, 2, ['text'])).toBe('/messages/2/content/2/text');
    const system = anthropicFormat.read(
      fixture('read-system-blocks-and-inline-system', 'source.json'),
    );
    expect(system.locate(0)).toBe('/system');
    expect(system.locate(0, 1, ['text'])).toBe('/system/1/text');
    expect(system.locate(1, 0)).toBe('/messages/0/content/0');
    const thinking = anthropicFormat.read(fixture('read-thinking-signatures', 'source.json'));
    expect(thinking.locate(1, 0, ['signature'])).toBe('/messages/1/content/0/signature');
    expect(thinking.locate(1, 1, ['redacted'])).toBe('/messages/1/content/1/data');
    const bare = anthropicFormat.read(fixture('read-bare-array', 'source.json'));
    expect(bare.locate(1, 0, ['arguments'])).toBe('/1/content/0/input');
  });
});

describe('anthropic arguments', () => {
  const withCall = (args: string): Conversation => ({
    version: 1,
    messages: [
      {
        role: 'assistant',
        parts: [{ type: 'tool-call', id: 'toolu_x', name: 'f', arguments: args }],
      },
    ],
  });
  const inputOf = (args: string): JsonValue => {
    const body = anthropicFormat.write(withCall(args)).value as JsonObject;
    const message = (body.messages as JsonObject[])[0]!;
    return ((message.content as JsonObject[])[0] as JsonObject).input!;
  };

  it('parses object text, keeping numbers as written', () => {
    const input = inputOf('{"a": 1.50, "big": 12345678901234567890}');
    expect(stringifyJson(input, 0)).toBe('{"a":1.50,"big":12345678901234567890}');
  });

  it('wraps text that is not a JSON object as truncated_args', () => {
    for (const bad of ['{"city": "Par', 'null', '[1]', '', '"s"']) {
      expect(inputOf(bad)).toEqual({ truncated_args: bad });
    }
  });

  it('reads input objects as compact text and a non-object input back as it was', () => {
    const source = fixture('read-tool-result-flags', 'source.json');
    const read = anthropicFormat.read(source);
    expect(read.conversation.messages[1]!.parts[2]!.arguments).toBe('"raw"');
    const written = anthropicFormat.write(read.conversation, read.context).value as JsonObject;
    const call = ((written.messages as JsonObject[])[1]!.content as JsonObject[])[2]!;
    expect(call.input).toBe('raw');
  });
});

describe('anthropic through normalize', () => {
  const body = (messages: JsonValue[]): JsonObject => ({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    messages,
  });
  const call = (id: string): JsonObject => ({
    type: 'tool_use',
    id,
    name: 'lookup',
    input: { q: id },
  });
  const synthesized = (id: string): JsonObject => ({
    type: 'tool_result',
    tool_use_id: id,
    content: [{ type: 'text', text: INTERRUPTED_TEXT }],
  });

  /** read → normalize → write; the output must read back with nothing left to repair. */
  const normalizeThrough = (value: JsonValue): JsonValue =>
    normalizeThroughFormat(anthropicFormat, value);

  it('puts a synthesized result first in the user message that answers the turn', () => {
    const input = body([
      { role: 'user', content: 'Look up a and b.' },
      { role: 'assistant', content: [call('toolu_a'), call('toolu_b')] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'A' },
          { type: 'text', text: 'Also c?' },
        ],
      },
    ]);
    const out = normalizeThrough(input) as JsonObject;
    expect(out.messages).toEqual([
      { role: 'user', content: 'Look up a and b.' },
      { role: 'assistant', content: [call('toolu_a'), call('toolu_b')] },
      {
        role: 'user',
        content: [
          synthesized('toolu_b'),
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'A' },
          { type: 'text', text: 'Also c?' },
        ],
      },
    ]);
    expect(out.model).toBe('claude-sonnet-4-6');
  });

  it('passes a call without id and a result without tool_use_id through, and repairs the rest', () => {
    const noId: JsonObject = { type: 'tool_use', name: 'lookup', input: {} };
    const noCallId: JsonObject = { type: 'tool_result', content: 'lost' };
    const out = normalizeThrough(
      body([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [noId, call('toolu_2')] },
        { role: 'user', content: [noCallId, { type: 'text', text: 'next' }] },
      ]),
    ) as JsonObject;
    expect(out.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [noId, call('toolu_2')] },
      { role: 'user', content: [synthesized('toolu_2'), noCallId, { type: 'text', text: 'next' }] },
    ]);
  });

  it('answers a dangling call at the end with a new user message', () => {
    const input = body([
      { role: 'user', content: 'Look up a.' },
      { role: 'assistant', content: [{ type: 'text', text: 'On it.' }, call('toolu_a')] },
    ]);
    const out = normalizeThrough(input) as JsonObject;
    expect((out.messages as JsonValue[]).at(-1)).toEqual({
      role: 'user',
      content: [synthesized('toolu_a')],
    });
  });

  it('answers a call followed by a user turn right after the call', () => {
    const input = body([
      { role: 'user', content: 'Look up a.' },
      { role: 'assistant', content: [call('toolu_a')] },
      { role: 'user', content: 'Never mind.' },
    ]);
    const out = normalizeThrough(input) as JsonObject;
    expect(out.messages).toEqual([
      { role: 'user', content: 'Look up a.' },
      { role: 'assistant', content: [call('toolu_a')] },
      { role: 'user', content: [synthesized('toolu_a')] },
      { role: 'user', content: 'Never mind.' },
    ]);
  });

  it('drops an orphan result and the message it leaves empty', () => {
    const input = body([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_ghost', content: 'boo' }],
      },
      { role: 'user', content: 'Bye' },
    ]);
    const out = normalizeThrough(input) as JsonObject;
    expect(out.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
      { role: 'user', content: 'Bye' },
    ]);
  });

  it('merges the tool messages of one turn from another format into one user message', () => {
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'a and b' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'tool-call', id: 'call_a', name: 'f', arguments: '{}' },
          { type: 'tool-call', id: 'call_b', name: 'f', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool-result', callId: 'call_a', content: [{ type: 'text', text: 'A' }] }],
      },
    ];
    const result = normalizeHistory(messages);
    const written = anthropicFormat.write({ version: 1, messages: result.messages })
      .value as JsonObject;
    const turns = written.messages as JsonObject[];
    expect(turns).toHaveLength(3);
    expect((turns[2]!.content as JsonObject[]).map((b) => b.tool_use_id)).toEqual([
      'call_b',
      'call_a',
    ]);
  });
});

describeShared('anthropic detection on the corpus', 'corpus', () => {
  it('recognizes every request of the corpus', () => {
    for (const rec of records) expect(anthropicFormat.detect(rec.value), rec.where).toBe(true);
  });

  it('rejects the other formats of the corpus', () => {
    const others = OTHER_FOLDERS.flatMap((f) => corpusRecords(f, { lines: true }));
    expect(others.length).toBeGreaterThan(1000);
    for (const rec of others) expect(anthropicFormat.detect(rec.value), rec.where).toBe(false);
  });
});
