/**
 * A conversion's losses split into content losses (they need --lossy) and what is dropped as
 * request settings or histlint ids (reported, never refused); every loss names its keys.
 */
import { describe, expect, it } from 'vitest';
import { formatByName } from '../../src/formats/index.js';
import {
  conversationLosses,
  messageLosses,
  providerDataLosses,
  splitLosses,
} from '../../src/formats/shared.js';
import type { JsonObject } from '../../src/model/json.js';
import type { Message } from '../../src/model/types.js';

describe('providerDataLosses', () => {
  it('splits the request settings of another format off the conversation, naming every key', () => {
    const conversation = {
      version: 1,
      messages: [],
      providerData: {
        anthropic: { model: 'm', max_tokens: 10, trace: 'x', $bare: false },
        'openai-chat': { $keys: ['messages'] },
      },
    } as unknown as JsonObject;
    expect(providerDataLosses(conversation, 'gemini', {})).toEqual([
      { what: 'providerData.anthropic', keys: ['trace'] },
      { what: 'providerData.anthropic', keys: ['model', 'max_tokens'], dropped: 'settings' },
    ]);
  });

  it('leaves its own format and hints-only entries alone', () => {
    const obj = { providerData: { gemini: { model: 'g' }, anthropic: { $x: 1 } } } as JsonObject;
    expect(providerDataLosses(obj, 'gemini', {})).toEqual([]);
  });

  it('counts a setting name on a message or part as content (settings belong to the request)', () => {
    const part = { type: 'text', text: 'a', providerData: { anthropic: { model: 'x' } } };
    expect(providerDataLosses(part, 'gemini', { messageIndex: 0, partIndex: 0 })).toEqual([
      { messageIndex: 0, partIndex: 0, what: 'providerData.anthropic', keys: ['model'] },
    ]);
  });

  it('gives a source key that starts with $ back as written', () => {
    const obj = { providerData: { anthropic: { $$odd: 1 } } } as JsonObject;
    expect(providerDataLosses(obj, 'gemini', {})).toEqual([
      { what: 'providerData.anthropic', keys: ['$odd'] },
    ]);
  });

  it('does not count a system prompt as a setting', () => {
    const obj = { providerData: { anthropic: { system: [{ type: 'image' }] } } } as JsonObject;
    expect(splitLosses(providerDataLosses(obj, 'gemini', {})).losses).toHaveLength(1);
  });
});

describe('histlint ids', () => {
  it('marks conversationId and runId dropped, other fields lost, each with its key', () => {
    const conversation = {
      version: 1,
      conversationId: 'c',
      metadata: { a: 1 },
      messages: [],
    } as unknown as JsonObject;
    expect(conversationLosses(conversation as never, 'anthropic')).toEqual([
      { what: 'conversation field "conversationId"', keys: ['conversationId'], dropped: 'ids' },
      { what: 'conversation field "metadata"', keys: ['metadata'] },
    ]);
    const m = { role: 'user', parts: [], runId: 'r' } as Message;
    expect(messageLosses(m, 2, 'anthropic')).toEqual([
      { messageIndex: 2, what: 'message field "runId"', keys: ['runId'], dropped: 'ids' },
    ]);
  });
});

describe('splitLosses', () => {
  it('gathers the dropped keys by kind, sorted and once each, and keeps the losses in order', () => {
    const out = splitLosses([
      { what: 'providerData.anthropic', keys: ['model', 'max_tokens'], dropped: 'settings' },
      { messageIndex: 1, what: 'message field "runId"', keys: ['runId'], dropped: 'ids' },
      { messageIndex: 0, what: 'reasoning part' },
      { messageIndex: 2, what: 'message field "runId"', keys: ['runId'], dropped: 'ids' },
      { what: 'providerData.openai-chat', keys: ['temperature'], dropped: 'settings' },
    ]);
    expect(out.losses).toEqual([{ messageIndex: 0, what: 'reasoning part' }]);
    expect(out.dropped).toEqual([
      { what: 'settings', keys: ['max_tokens', 'model', 'temperature'] },
      { what: 'ids', keys: ['runId'] },
    ]);
  });
});

describe('an Anthropic request converted to OpenAI Chat', () => {
  it('loses nothing but its settings', () => {
    const anthropic = formatByName('anthropic')!;
    const chat = formatByName('openai-chat')!;
    const read = anthropic.read({
      model: 'claude-x',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const { losses, dropped } = splitLosses(chat.write(read.conversation).losses);
    expect(losses).toEqual([]);
    expect(dropped).toEqual([{ what: 'settings', keys: ['max_tokens', 'model'] }]);
  });
});
