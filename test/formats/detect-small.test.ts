/**
 * `--from auto` on the smallest histories a writer produces: an empty one and
 * one of a system prompt alone. Each must read back to the messages written,
 * whichever format detection picks (`{"messages": []}` fits several formats
 * and means the same in all of them); a provider's own keys (`contents`,
 * `input`, a `system` field) must not be taken for v1.
 */
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/formats/detect.js';
import { FORMATS } from '../../src/formats/index.js';
import { writesAnyConversation, type Conversation } from '../../src/formats/format.js';
import type { JsonValue } from '../../src/model/json.js';

const SMALL: [string, Conversation][] = [
  ['an empty history', { version: 1, messages: [] }],
  [
    'a system prompt alone',
    { version: 1, messages: [{ role: 'system', parts: [{ type: 'text', text: 'be brief' }] }] },
  ],
];

/** Role and text of each part: what a reader must give back, whatever it adds (ids, providerData). */
const gist = (c: Conversation): unknown =>
  c.messages.map((m) => ({
    role: m.role,
    parts: m.parts.map((p) => ({ type: p.type, text: p.text })),
  }));

describe('auto-detection of the smallest histories', () => {
  for (const format of FORMATS.filter(writesAnyConversation)) {
    it.each(SMALL)(`${format.name}: %s reads back as written`, (_label, conversation) => {
      const { value } = format.write(conversation);
      const detected = detectFormat(value as JsonValue);
      expect(gist(detected.read(value as JsonValue).conversation)).toEqual(gist(conversation));
    });
  }

  it.each([
    [{ contents: [] }, 'gemini'],
    [{ contents: [], systemInstruction: { parts: [{ text: 'x' }] } }, 'gemini'],
    [{ input: [] }, 'openai-responses'],
    [{ messages: [], system: 'x' }, 'anthropic'],
    [{ messages: [], system: [{ type: 'text', text: 'x' }] }, 'anthropic'],
    [{ messages: [], system: [{ text: 'x' }] }, 'bedrock'],
    [{ messages: [] }, 'histlint'],
    [{ version: 1, messages: [], system: 'x' }, 'histlint'],
    // An Anthropic request with string and block contents mixed (max_tokens, nothing OpenAI-only).
    [
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        messages: [
          { role: 'user', content: 'Write a haiku.' },
          { role: 'assistant', content: [{ type: 'text', text: 'Fjord light,' }] },
        ],
      },
      'anthropic',
    ],
  ])('%j is %s', (value, name) => {
    expect(detectFormat(value as JsonValue).name).toBe(name);
  });
});
