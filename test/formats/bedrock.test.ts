/**
 * The Bedrock Converse adapter: lossless round trip of every corpus record,
 * strict detection, the hand-written cases of fixtures/formats/bedrock,
 * arguments, normalize through the format (strict alternation, one user
 * message per turn, toolConfig), and locate pointers into the source.
 */
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_TEXT, normalizeHistory } from '../../src/core/normalize.js';
import { bedrockFormat } from '../../src/formats/bedrock/index.js';
import type { Conversation } from '../../src/formats/format.js';
import { jsonEqual, stringifyJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import type { Message } from '../../src/model/types.js';
import {
  copy,
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

const OTHER_FOLDERS = otherFolders(CORPUS_FOLDERS, 'bedrock-converse');

const records = corpusRecords('bedrock-converse');

const fixture = fixtureReader('bedrock');

/** Bedrock turns alternate: no two messages in a row have one role. */
function expectAlternating(value: JsonValue): void {
  const roles = ((value as JsonObject).messages as JsonObject[]).map((m) => m.role);
  roles.forEach((r, i) => expect(r, `turn ${i}`).not.toBe(roles[i - 1]));
}

/** Every value under one of `keys`, anywhere in a value, in document order. */
function valuesUnder(value: JsonValue, keys: readonly string[]): JsonValue[] {
  const out: JsonValue[] = [];
  const walk = (v: JsonValue): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v as JsonObject)) {
        if (keys.includes(k)) out.push(x);
        else walk(x);
      }
    }
  };
  walk(value);
  return out;
}

describeShared('bedrock corpus', 'corpus/bedrock-converse', () => {
  it('has every record', () => {
    expect(records.length).toBe(49);
  });

  it('round-trips every record exactly, with no losses', () => {
    expect(failedRoundTrips(records, (v) => roundTrip(bedrockFormat, v))).toEqual([]);
  });

  it('round-trips every record through a stored v1 file (no read context)', () => {
    expect(failedRoundTrips(records, (v) => storedRoundTrip(bedrockFormat, v))).toEqual([]);
  });

  it('keeps the request key order', () => {
    expectKeyOrderKept(bedrockFormat, records);
  });

  it('reads conversations the v1 schema accepts, whose pairing needs no repair', () => {
    expectCleanReads(bedrockFormat, records);
  });

  it('keeps ids, signatures and redacted content byte-exact', () => {
    for (const rec of records) {
      const { conversation } = bedrockFormat.read(rec.value);
      const messages = (rec.value as JsonObject).messages!;
      const v1 = conversation.messages as unknown as JsonValue;
      expect(valuesUnder(v1, ['signature']), rec.where).toEqual(
        valuesUnder(messages, ['signature']),
      );
      // Bedrock's wire carries redacted bytes as base64; v1 holds the blob itself.
      expect(valuesUnder(v1, ['redacted']), rec.where).toEqual(
        valuesUnder(messages, ['redactedContent']).map((b) => atob(b as string)),
      );
      // Client tool ids live on v1 parts; server tool ids stay inside their kept blocks.
      const v1Ids = conversation.messages.flatMap((m) =>
        m.parts.flatMap((p) =>
          p.type.startsWith('bedrock:')
            ? valuesUnder(p.providerData!, ['toolUseId'])
            : [p.id, p.callId].filter((x) => x !== undefined),
        ),
      );
      expect(v1Ids, rec.where).toEqual(valuesUnder(messages, ['toolUseId']));
    }
  });

  it('locates every message, part and field in the source', () => {
    for (const rec of records) expectLocatable(rec.value, bedrockFormat.read(rec.value));
  });
});

describe('bedrock detection', () => {
  it('rejects v1 conversations', () => {
    const files = v1InputFiles();
    for (const file of files) expect(bedrockFormat.detect(readJson(file)), file).toBe(false);
    expect(files.length).toBeGreaterThan(10);
    const v1: JsonValue = [{ role: 'user', parts: [{ type: 'text', text: 'v1' }] }];
    expect(bedrockFormat.detect(v1)).toBe(false);
    expect(bedrockFormat.detect({ version: 1, messages: v1 })).toBe(false);
  });

  it('needs untyped blocks keyed by their kind, or the Converse request fields', () => {
    expect(bedrockFormat.detect([{ role: 'user', content: [{ text: 'hi' }] }])).toBe(true);
    expect(
      bedrockFormat.detect({ messages: [], system: [{ text: 's' }], inferenceConfig: {} }),
    ).toBe(true);
    // A system prompt alone (how the writer stores it): Converse system blocks, nothing else to go by.
    expect(bedrockFormat.detect({ messages: [], system: [{ text: 's' }] })).toBe(true);
    expect(bedrockFormat.detect({ messages: [], system: [{ type: 'text', text: 's' }] })).toBe(
      false,
    );
    expect(bedrockFormat.detect({ messages: [] })).toBe(false);
    expect(bedrockFormat.detect([{ role: 'user', content: 'hi' }])).toBe(false);
    expect(bedrockFormat.detect([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }])).toBe(
      false,
    );
    expect(bedrockFormat.detect([{ role: 'user', content: [{ foo: 'bar' }] }])).toBe(false);
    expect(bedrockFormat.detect({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })).toBe(
      false,
    );
    expect(bedrockFormat.detect([{ role: 'model', parts: [{ text: 'gemini' }] }])).toBe(false);
    expect(
      bedrockFormat.detect({
        system: 'a string',
        messages: [{ role: 'user', content: [{ text: 'x' }] }],
      }),
    ).toBe(false);
    expect(bedrockFormat.detect({ input: [{ role: 'user', content: [{ text: 'x' }] }] })).toBe(
      false,
    );
  });
});

describe('bedrock fixtures', () => {
  it('has read and write cases', () => {
    const cases = ownFixtureCases('bedrock');
    expect(cases.filter((c) => c.kind === 'read').length).toBeGreaterThanOrEqual(5);
    expect(cases.filter((c) => c.kind === 'write').length).toBeGreaterThanOrEqual(1);
  });
});

// What a write case wrote reads back as Bedrock, alternating, with every call answered.
describeFixtureCases(bedrockFormat, {
  written: (value) => {
    expectAlternating(value);
    expectAnswered(bedrockFormat, value);
  },
});

describe('bedrock pointers', () => {
  it('maps v1 fields to the source fields', () => {
    const source = fixture('read-tool-use-and-result', 'source.json');
    const read = bedrockFormat.read(source);
    expect(read.locate()).toBe('/messages');
    expect(read.locate(0)).toBe('/system');
    expect(read.locate(0, 0, ['text'])).toBe('/system/0/text');
    expect(read.locate(2, 1, ['arguments'])).toBe('/messages/1/content/1/toolUse/input');
    expect(read.locate(2, 1, ['id'])).toBe('/messages/1/content/1/toolUse/toolUseId');
    expect(read.locate(3, 0, ['callId'])).toBe('/messages/2/content/0/toolResult/toolUseId');
    expect(read.locate(3, 0, ['content', 0, 'text'])).toBe(
      '/messages/2/content/0/toolResult/content/0/json',
    );
    expect(read.locate(3, 1, ['failed'])).toBe('/messages/2/content/1/toolResult/status');
    const media = bedrockFormat.read(fixture('read-images-and-documents', 'source.json'));
    expect(media.locate(1, 0, ['data'])).toBe('/messages/0/content/0/image/source/bytes');
    expect(media.locate(1, 1, ['url'])).toBe('/messages/0/content/1/image/source/s3Location/uri');
    expect(media.locate(1, 2, ['name'])).toBe('/messages/0/content/2/document/name');
    expect(media.locate(1, 5, ['type'])).toBe('/messages/0/content/5');
    const reasoning = bedrockFormat.read(fixture('read-reasoning', 'source.json'));
    expect(reasoning.locate(1, 0, ['signature'])).toBe(
      '/messages/1/content/0/reasoningContent/reasoningText/signature',
    );
    expect(reasoning.locate(1, 1, ['redacted'])).toBe(
      '/messages/1/content/1/reasoningContent/redactedContent',
    );
    // A cachePoint rides on the part before it, so later parts keep their own block index.
    const cache = bedrockFormat.read(fixture('read-cache-points', 'source.json'));
    expect(cache.locate(1, 2)).toBe('/messages/0/content/3');
    expect(cache.locate(0, 1)).toBe('/system/2');
  });
});

describe('bedrock arguments and results', () => {
  const withCall = (args: string): Conversation => ({
    version: 1,
    messages: [
      {
        role: 'assistant',
        parts: [{ type: 'tool-call', id: 'tooluse_x', name: 'f', arguments: args }],
      },
    ],
  });
  const inputOf = (args: string): JsonValue => {
    const body = bedrockFormat.write(withCall(args)).value as JsonObject;
    const block = ((body.messages as JsonObject[])[0]!.content as JsonObject[])[0]!;
    return (block.toolUse as JsonObject).input!;
  };

  it('parses object text, keeping numbers as written', () => {
    expect(stringifyJson(inputOf('{"a": 2.0, "big": 12345678901234567890}'), 0)).toBe(
      '{"a":2.0,"big":12345678901234567890}',
    );
  });

  it('wraps text that is not a JSON object as truncated_args', () => {
    for (const bad of ['{"city": "Par', 'null', '[1]', '']) {
      expect(inputOf(bad)).toEqual({ truncated_args: bad });
    }
  });

  it('adds a minimal toolConfig for a history from another format', () => {
    const body = bedrockFormat.write(withCall('{}')).value as JsonObject;
    expect(body.toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'f', inputSchema: { json: { type: 'object' } } } }],
    });
  });

  it('writes a JSON result back as JSON, and as text once it is no longer JSON', () => {
    const read = bedrockFormat.read(fixture('read-tool-use-and-result', 'source.json'));
    const part = read.conversation.messages[3]!.parts[0]!;
    const content = part.content as JsonObject[];
    const blockOf = (): JsonValue => {
      const body = bedrockFormat.write(read.conversation, read.context).value as JsonObject;
      const result = ((body.messages as JsonObject[])[2]!.content as JsonObject[])[0]!;
      return ((result.toolResult as JsonObject).content as JsonValue[])[0]!;
    };
    expect(stringifyJson(blockOf(), 0)).toBe('{"json":{"temp":18.50,"sky":"cloudy"}}');
    content[0]!.text = 'not json any more';
    expect(blockOf()).toEqual({ text: 'not json any more' });
  });
});

describe('bedrock redacted reasoning', () => {
  const redacted = (bytes: string): JsonObject => ({
    messages: [
      { role: 'user', content: [{ text: 'q' }] },
      {
        role: 'assistant',
        content: [{ reasoningContent: { redactedContent: bytes } }, { text: 'a' }],
      },
    ],
  });

  it('holds the blob the base64 bytes encode, and keeps other bytes as they were', () => {
    for (const [bytes, blob] of [
      ['RXU4RUNrZ0lCeEFCR0FJ', 'Eu8ECkgIBxABGAI'],
      ['AAEC/w==', 'AAEC/w=='],
    ]) {
      const read = bedrockFormat.read(redacted(bytes!));
      expect(read.conversation.messages[1]!.parts[0]!.redacted).toBe(blob);
      const written = bedrockFormat.write(copy(read.conversation));
      expect(jsonEqual(written.value, redacted(bytes!))).toBe(true);
    }
  });

  it('carries Anthropic redacted thinking as the bytes of its data', () => {
    const conversation: Conversation = {
      version: 1,
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'q' }] },
        {
          role: 'assistant',
          parts: [{ type: 'reasoning', text: '', redacted: 'Eu8ECkgIBxABGAI' }],
        },
      ],
    };
    const body = bedrockFormat.write(conversation).value as JsonObject;
    expect((body.messages as JsonObject[])[1]!.content).toEqual([
      { reasoningContent: { redactedContent: 'RXU4RUNrZ0lCeEFCR0FJ' } },
    ]);
  });
});

describe('bedrock through normalize', () => {
  const body = (messages: JsonValue[]): JsonObject => ({
    messages,
    system: [{ text: 'Be helpful.' }],
    inferenceConfig: { maxTokens: 256 },
    toolConfig: { tools: [{ toolSpec: { name: 'lookup', inputSchema: { json: {} } } }] },
  });
  const call = (id: string): JsonObject => ({
    toolUse: { toolUseId: id, name: 'lookup', input: { q: id } },
  });
  const synthesized = (id: string): JsonObject => ({
    toolResult: { toolUseId: id, content: [{ text: INTERRUPTED_TEXT }] },
  });

  /** read → normalize → write; the output must alternate and read back with nothing left to repair. */
  function normalizeThrough(value: JsonValue): JsonObject {
    const out = normalizeThroughFormat(bedrockFormat, value);
    expectAlternating(out);
    return out as JsonObject;
  }

  it('passes a call without toolUseId and a result without one through, and repairs the rest', () => {
    const noId: JsonObject = { toolUse: { name: 'lookup', input: {} } };
    const noCallId: JsonObject = { toolResult: { content: [{ text: 'lost' }] } };
    const out = normalizeThrough(
      body([
        { role: 'user', content: [{ text: 'hi' }] },
        { role: 'assistant', content: [noId, call('tooluse_2')] },
        { role: 'user', content: [noCallId, { text: 'next' }] },
      ]),
    );
    expect(out.messages).toEqual([
      { role: 'user', content: [{ text: 'hi' }] },
      { role: 'assistant', content: [noId, call('tooluse_2')] },
      { role: 'user', content: [synthesized('tooluse_2'), noCallId, { text: 'next' }] },
    ]);
  });

  it('puts a synthesized result first in the user message that answers the turn', () => {
    const out = normalizeThrough(
      body([
        { role: 'user', content: [{ text: 'Look up a and b.' }] },
        { role: 'assistant', content: [call('tooluse_a'), call('tooluse_b')] },
        {
          role: 'user',
          content: [
            { toolResult: { toolUseId: 'tooluse_a', content: [{ text: 'A' }], status: 'success' } },
          ],
        },
      ]),
    );
    expect(out.messages).toEqual([
      { role: 'user', content: [{ text: 'Look up a and b.' }] },
      { role: 'assistant', content: [call('tooluse_a'), call('tooluse_b')] },
      {
        role: 'user',
        content: [
          synthesized('tooluse_b'),
          { toolResult: { toolUseId: 'tooluse_a', content: [{ text: 'A' }], status: 'success' } },
        ],
      },
    ]);
    expect(out.toolConfig).toEqual(body([]).toolConfig);
  });

  it('merges the result of a call followed by a user turn into that turn, results first', () => {
    const out = normalizeThrough(
      body([
        { role: 'user', content: [{ text: 'Look up a.' }] },
        { role: 'assistant', content: [{ text: 'On it.' }, call('tooluse_a')] },
        { role: 'user', content: [{ text: 'Never mind.' }] },
      ]),
    );
    expect(out.messages).toEqual([
      { role: 'user', content: [{ text: 'Look up a.' }] },
      { role: 'assistant', content: [{ text: 'On it.' }, call('tooluse_a')] },
      { role: 'user', content: [synthesized('tooluse_a'), { text: 'Never mind.' }] },
    ]);
  });

  it('answers a dangling call at the end with a new user message', () => {
    const out = normalizeThrough(
      body([
        { role: 'user', content: [{ text: 'Look up a.' }] },
        { role: 'assistant', content: [call('tooluse_a')] },
      ]),
    );
    expect((out.messages as JsonValue[]).at(-1)).toEqual({
      role: 'user',
      content: [synthesized('tooluse_a')],
    });
  });

  it('drops an orphan result and the message it leaves empty', () => {
    const out = normalizeThrough(
      body([
        { role: 'user', content: [{ text: 'Hi' }] },
        { role: 'assistant', content: [{ text: 'Hello' }] },
        {
          role: 'user',
          content: [{ toolResult: { toolUseId: 'tooluse_ghost', content: [{ text: 'boo' }] } }],
        },
      ]),
    );
    expect(out.messages).toEqual([
      { role: 'user', content: [{ text: 'Hi' }] },
      { role: 'assistant', content: [{ text: 'Hello' }] },
    ]);
  });

  it('keeps turns alternating when a message has nothing Bedrock can express', () => {
    const written = bedrockFormat.write({
      version: 1,
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'one' }] },
        { role: 'assistant', parts: [{ type: 'other.block' }] },
        { role: 'user', parts: [{ type: 'text', text: 'two' }] },
      ],
    });
    expect((written.value as JsonObject).messages).toEqual([
      { role: 'user', content: [{ text: 'one' }, { text: 'two' }] },
    ]);
    expect(written.losses).toEqual([
      { messageIndex: 1, what: 'message with nothing Bedrock can express' },
      { messageIndex: 1, partIndex: 0, what: 'unknown part type "other.block"' },
    ]);
  });

  it('writes one user message per turn for tool messages from another format', () => {
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'a and b' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'tool-call', id: 'call_a', name: 'f', arguments: '{}' },
          { type: 'tool-call', id: 'call_b', name: 'g', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool-result', callId: 'call_a', content: [{ type: 'text', text: 'A' }] }],
      },
      { role: 'user', parts: [{ type: 'text', text: 'and?' }] },
    ];
    const result = normalizeHistory(messages);
    const written = bedrockFormat.write({ version: 1, messages: result.messages });
    const out = written.value as JsonObject;
    const turns = out.messages as JsonObject[];
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
    expect(turns[2]!.content).toEqual([
      synthesized('call_b'),
      { toolResult: { toolUseId: 'call_a', content: [{ text: 'A' }] } },
      { text: 'and?' },
    ]);
    expect(((out.toolConfig as JsonObject).tools as JsonObject[]).length).toBe(2);
  });
});

describeShared('bedrock detection on the corpus', 'corpus', () => {
  it('recognizes every request of the corpus', () => {
    for (const rec of records) expect(bedrockFormat.detect(rec.value), rec.where).toBe(true);
  });

  it('rejects the other formats of the corpus', () => {
    const others = OTHER_FOLDERS.flatMap((f) => corpusRecords(f, { lines: true }));
    expect(others.length).toBeGreaterThan(1000);
    for (const rec of others) expect(bedrockFormat.detect(rec.value), rec.where).toBe(false);
  });
});
