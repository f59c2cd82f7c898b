/**
 * The format kit's source map, provenance and envelope (src/formats/kit/): what every adapter
 * builds on, tested once here; the contract suite (contract.test.ts) tests each format through it.
 */
import { describe, expect, it } from 'vitest';
import { writesAnyConversation } from '../../src/formats/format.js';
import { FORMATS } from '../../src/formats/index.js';
import {
  BARE_HINT,
  envelopeData,
  KEYS_HINT,
  readEnvelope,
  writeBody,
  writesBare,
} from '../../src/formats/kit/envelope.js';
import {
  conversationReadHere,
  contextOf,
  readContext,
  readHere,
} from '../../src/formats/kit/provenance.js';
import { identityLocator, SourceMap } from '../../src/formats/kit/source-map.js';
import { parseJson, type JsonObject } from '../../src/model/json.js';
import type { Message } from '../../src/model/types.js';

describe('SourceMap', () => {
  const source = parseJson(
    '{"messages":[{"role":"user","content":[{"type":"text","text":"hi"},{"type":"tool_result","content":[{"type":"text","text":"r"}]}]}]}',
  );
  const map = new SourceMap('/messages', source);
  map.message(0, '/messages/0');
  map.part(0, 0, '/messages/0/content/0', { text: 'text', name: 'missing' });
  const result = map.part(0, 1, '/messages/0/content/1', { callId: ['tool_use_id'] });
  map.child(result, 0, '/messages/0/content/1/content/0', { text: 'text' });

  it('locates messages, parts, fields and content parts', () => {
    expect(map.locate()).toBe('/messages');
    expect(map.locate(0)).toBe('/messages/0');
    expect(map.locate(0, 0)).toBe('/messages/0/content/0');
    expect(map.locate(0, 0, ['text'])).toBe('/messages/0/content/0/text');
    expect(map.locate(0, 1, ['content', 0, 'text'])).toBe('/messages/0/content/1/content/0/text');
  });

  it('falls back to the nearest recorded node', () => {
    // A field the source left out, a field it has no map for, indices it never recorded.
    expect(map.locate(0, 0, ['name'])).toBe('/messages/0/content/0');
    expect(map.locate(0, 1, ['callId'])).toBe('/messages/0/content/1');
    expect(map.locate(0, 0, ['other'])).toBe('/messages/0/content/0');
    expect(map.locate(0, 7)).toBe('/messages/0');
    expect(map.locate(3)).toBe('/messages');
  });

  it('a whole-content pointer stands for every content part', () => {
    const m = new SourceMap('', source);
    m.message(0, '/messages/0');
    m.part(0, 0, '/messages/0/content/1').contentPointer = '/messages/0/content/1/content';
    expect(m.locate(0, 0, ['content', 4, 'text'])).toBe('/messages/0/content/1/content');
  });

  it('the identity locator is for values that are v1 already', () => {
    expect(identityLocator('/messages')(1, 2, ['content', 0, 'a/b'])).toBe(
      '/messages/1/parts/2/content/0/a~1b',
    );
    expect(identityLocator('')()).toBe('');
  });
});

describe('provenance', () => {
  const part = { type: 'text', text: 'a' };
  const message: Message = { role: 'user', parts: [part] };
  const ctx = readContext('anthropic');
  ctx.read.add(message);
  ctx.read.add(part);

  it('a node is read here by identity, by providerData, or (a message) through a part', () => {
    expect(readHere(ctx, message, 'anthropic')).toBe(true);
    expect(readHere(ctx, part, 'anthropic')).toBe(true);
    // normalize copies a message when it drops a part, keeping the other parts.
    expect(readHere(ctx, { role: 'user', parts: [part] }, 'anthropic')).toBe(true);
    expect(readHere(ctx, { role: 'user', parts: [] }, 'anthropic')).toBe(false);
    const stored = { role: 'user', parts: [], providerData: { anthropic: { x: 1 } } };
    expect(readHere(undefined, stored, 'anthropic')).toBe(true);
    expect(readHere(undefined, stored, 'bedrock')).toBe(false);
  });

  it("another format's context says nothing", () => {
    expect(contextOf(ctx, 'bedrock')).toBeUndefined();
    expect(readHere(ctx, message, 'bedrock')).toBe(false);
    expect(contextOf({ format: 'anthropic' }, 'anthropic')).toBeUndefined();
  });

  it('a conversation is read here with a context, or with a trace of the format', () => {
    const plain = { messages: [{ role: 'user', parts: [] }] } as JsonObject & {
      messages: Message[];
    };
    expect(conversationReadHere(ctx, plain, 'anthropic')).toBe(true);
    expect(conversationReadHere(undefined, plain, 'anthropic')).toBe(false);
    const traced = {
      messages: [{ role: 'user', parts: [{ type: 'text', providerData: { anthropic: {} } }] }],
    };
    expect(conversationReadHere(undefined, traced as never, 'anthropic')).toBe(true);
  });
});

describe('envelope', () => {
  it('a bare array is recorded as bare, and written bare without the read context', () => {
    const env = readEnvelope(parseJson('[{"role":"user"}]'), 'x', 'messages');
    expect(env).toMatchObject({ bare: true, base: '' });
    const kept = envelopeData(env, ['messages'])!;
    expect(kept).toEqual({ [BARE_HINT]: true });
    expect(writesBare(undefined, { providerData: { x: kept } }, 'x')).toBe(true);
    expect(writesBare({ bare: false }, { providerData: { x: kept } }, 'x')).toBe(false);
    expect(writesBare(undefined, {}, 'x', { fallback: true })).toBe(true);
  });

  it('refuses what is neither, in one line', () => {
    expect(() => readEnvelope(parseJson('{"input":[]}'), 'x', 'messages')).toThrow(
      'not x: no "messages" array',
    );
    expect(() =>
      readEnvelope(parseJson('[]'), 'x', 'contents', { bareAllowed: false, why: 'no contents' }),
    ).toThrow('not x: no contents');
  });

  it('keeps the read order of a body: by default when it is the default, else with $keys', () => {
    const usual = parseJson('{"model":"m","messages":[],"max_tokens":5}') as JsonObject;
    const a = envelopeData(readEnvelope(usual, 'x', 'messages'), ['messages'])!;
    expect(a).toEqual({ model: 'm', max_tokens: 5 });
    expect(Object.keys(writeBody(a, { messages: [] }))).toEqual(Object.keys(usual));

    const odd = parseJson('{"max_tokens":5,"system":"s","messages":[],"model":"m"}') as JsonObject;
    const b = envelopeData(readEnvelope(odd, 'x', 'messages'), ['messages', 'system'])!;
    expect(b[KEYS_HINT]).toEqual(['max_tokens', 'system', 'messages', 'model']);
    const written = writeBody(b, { system: 's', messages: [] });
    expect(Object.keys(written)).toEqual(Object.keys(odd));
    expect(written).toEqual(odd);
  });

  it('what the writer sets wins over kept data, and hints are never written', () => {
    const kept = { messages: 'stale', $$odd: 1, [KEYS_HINT]: ['messages', '$odd'] } as JsonObject;
    expect(writeBody(kept, { messages: [] })).toEqual({ messages: [], $odd: 1 });
  });
});

describe('a bare array has no place for request fields', () => {
  it.each(
    FORMATS.filter((f) => writesAnyConversation(f) && f.name !== 'histlint').map((f) => [
      f.name,
      f,
    ]),
  )(
    '%s: request fields kept beside $bare are reported lost, not dropped silently',
    (_name, format) => {
      const conversation = {
        version: 1,
        messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
        providerData: { [format.name]: { [BARE_HINT]: true, tools: [{ name: 'x' }] } },
      };
      const written = format.write(conversation as never);
      expect(Array.isArray(written.value)).toBe(true);
      expect(written.losses.map((l) => l.what)).toContain(
        'request field "tools" (a bare array has none)',
      );
    },
  );
});
