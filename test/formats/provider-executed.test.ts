/**
 * Provider-executed tool calls (an AI SDK `tool-call` with `providerExecuted:
 * true` and its `tool-result` in the same assistant message) written to every
 * other format: each writer drops the call and its result and reports both,
 * so what it writes is a request the provider takes (the target rules find
 * nothing about the pair). A pair read from a writer's own format is written
 * back as read, and the AI SDK writes it back as it was.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzePairing } from '../../src/core/pairing.js';
import { aiSdkFormat } from '../../src/formats/ai-sdk/index.js';
import { anthropicFormat } from '../../src/formats/anthropic/index.js';
import { bedrockFormat } from '../../src/formats/bedrock/index.js';
import type { Conversation, ConversationFormat } from '../../src/formats/format.js';
import { geminiFormat } from '../../src/formats/gemini/index.js';
import { openaiChatFormat } from '../../src/formats/openai-chat/index.js';
import { openaiResponsesFormat } from '../../src/formats/openai-responses/index.js';
import { providerExecutedParts } from '../../src/formats/shared.js';
import { lintText } from '../../src/lint/engine.js';
import { SeverityResolver } from '../../src/lint/severity.js';
import { jsonEqual, stringifyJson, type JsonValue } from '../../src/model/json.js';
import type { Message } from '../../src/model/types.js';
import { ROOT } from '../helpers/cli.js';
import { copy, readJson } from '../helpers/formats.js';

const SOURCE = path.join(
  ROOT,
  'fixtures',
  'formats',
  'ai-sdk',
  'v6-approval-provider-executed',
  'source.json',
);

/** Every writer but the AI SDK's, which is the format the pair comes from. */
const WRITERS: readonly ConversationFormat[] = [
  openaiChatFormat,
  anthropicFormat,
  bedrockFormat,
  geminiFormat,
  openaiResponsesFormat,
];

/** The losses of the pair in message 2 of the fixture (web_search, run by the provider). */
const PAIR_LOSSES = [
  {
    messageIndex: 2,
    partIndex: 0,
    what: 'provider-executed tool call "srvtoolu_01" (web_search)',
  },
  {
    messageIndex: 2,
    partIndex: 1,
    what: 'result of provider-executed tool call "srvtoolu_01"',
  },
];

/** The findings of `histlint lint --from <format> --target <format>` on a value. */
function lintTarget(format: string, value: JsonValue): { ruleId: string; severity: string }[] {
  const rules = new SeverityResolver({}, ROOT, new Map()).forFile(undefined);
  return lintText(stringifyJson(value, 2), { rules, from: format, target: format }).map((f) => ({
    ruleId: f.ruleId,
    severity: f.severity,
  }));
}

describe('provider-executed tool calls from the AI SDK', () => {
  const read = aiSdkFormat.read(readJson(SOURCE));

  it('reads as a call answered in its own assistant message', () => {
    const m = read.conversation.messages[2]!;
    expect(m.role).toBe('assistant');
    expect([...providerExecutedParts(m).keys()]).toEqual([0, 1]);
  });

  it('writes back to the AI SDK exactly, with and without the read context', () => {
    const value = readJson(SOURCE);
    const withContext = aiSdkFormat.write(read.conversation, read.context);
    expect(jsonEqual(withContext.value, value)).toBe(true);
    expect(withContext.losses).toEqual([]);
    const stored = aiSdkFormat.write(copy(read.conversation));
    expect(jsonEqual(stored.value, value)).toBe(true);
    expect(stored.losses).toEqual([]);
  });

  it.each(WRITERS.map((f) => [f.name, f] as const))(
    '%s: drops the call and its result, reports both, and lints clean',
    (name, fmt) => {
      const written = fmt.write(copy(read.conversation));
      const pairLosses = written.losses.filter((l) => l.messageIndex === 2 && l.partIndex! <= 1);
      expect(pairLosses).toEqual(PAIR_LOSSES);
      // Neither the call nor its result is written; the approved call and its result are.
      const text = stringifyJson(written.value, 0);
      expect(text).not.toContain('srvtoolu_01');
      expect(text).not.toContain('web_search');
      expect(text).toContain('call_upd');
      const back = fmt.read(copy(written.value)).conversation;
      const pairing = analyzePairing(back.messages);
      expect(pairing.unanswered).toEqual([]);
      expect(back.messages.every((m) => providerExecutedParts(m).size === 0)).toBe(true);
      // The target's own rules find no error (Anthropic warns that the history ends with the assistant).
      const findings = lintTarget(name, written.value);
      expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
      const expectedWarnings = name === 'anthropic' ? ['anthropic/trailing-assistant'] : [];
      expect(findings.map((f) => f.ruleId)).toEqual(expectedWarnings);
    },
  );
});

describe('provider-executed pairs read from the writer’s own format', () => {
  /** A source each block-turn format reads into an assistant message holding a call and its result. */
  const sources: [ConversationFormat, JsonValue][] = [
    [
      anthropicFormat,
      {
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Search.' }] },
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } },
              { type: 'tool_result', tool_use_id: 'toolu_1', content: 'found' },
              { type: 'text', text: 'Found it.' },
            ],
          },
        ],
      },
    ],
    [
      bedrockFormat,
      {
        messages: [
          { role: 'user', content: [{ text: 'Search.' }] },
          {
            role: 'assistant',
            content: [
              { toolUse: { toolUseId: 'tu_1', name: 'lookup', input: { q: 'x' } } },
              { toolResult: { toolUseId: 'tu_1', content: [{ text: 'found' }] } },
              { text: 'Found it.' },
            ],
          },
        ],
      },
    ],
    [
      geminiFormat,
      {
        contents: [
          { role: 'user', parts: [{ text: 'Search.' }] },
          {
            role: 'model',
            parts: [
              { functionCall: { id: 'fc_1', name: 'lookup', args: { q: 'x' } } },
              { functionResponse: { id: 'fc_1', name: 'lookup', response: { output: 'found' } } },
              { text: 'Found it.' },
            ],
          },
        ],
      },
    ],
  ];

  it.each(sources.map(([f, v]) => [f.name, f, v] as const))(
    '%s: writes the pair back as read, with no loss',
    (_name, fmt, value) => {
      const read = fmt.read(copy(value));
      expect(providerExecutedParts(read.conversation.messages[1]!).size).toBe(2);
      const written = fmt.write(read.conversation, read.context);
      expect(jsonEqual(written.value, value)).toBe(true);
      expect(written.losses).toEqual([]);
    },
  );
});

describe('providerExecutedParts', () => {
  const call = (id: string, name?: string): JsonValue => ({
    type: 'tool-call',
    id,
    ...(name === undefined ? {} : { name }),
    arguments: '{}',
  });
  const result = (callId: string): JsonValue => ({ type: 'tool-result', callId, content: [] });
  const message = (role: string, parts: JsonValue[]): Message =>
    ({ role, parts }) as unknown as Message;

  it('pairs a call with a result after it in the same assistant message', () => {
    const m = message('assistant', [{ type: 'text', text: 'x' }, call('a', 'search'), result('a')]);
    expect([...providerExecutedParts(m)]).toEqual([
      [1, 'provider-executed tool call "a" (search)'],
      [2, 'result of provider-executed tool call "a"'],
    ]);
  });

  it('leaves calls answered elsewhere, results before their call and other roles alone', () => {
    expect(providerExecutedParts(message('assistant', [call('a'), call('b')])).size).toBe(0);
    expect(providerExecutedParts(message('assistant', [result('a'), call('a')])).size).toBe(0);
    expect(providerExecutedParts(message('tool', [call('a'), result('a')])).size).toBe(0);
    expect(providerExecutedParts(message('user', [call('a'), result('a')])).size).toBe(0);
  });

  it('pairs each result with one call of its id, in order', () => {
    const m = message('assistant', [call('a'), call('a'), result('a'), result('b')]);
    expect([...providerExecutedParts(m)]).toEqual([
      [0, 'provider-executed tool call "a"'],
      [2, 'result of provider-executed tool call "a"'],
    ]);
  });
});

describe('the write-drops-provider-executed-call fixture cases', () => {
  it('share one conversation, with a pair beside other parts and a message of a pair alone', () => {
    // Each writer's suite runs its case; one conversation keeps the five in step.
    const formats = ['openai-chat', 'anthropic', 'bedrock', 'gemini', 'openai-responses'];
    const conversations = formats.map((format) =>
      readJson(
        path.join(
          ROOT,
          'fixtures',
          'formats',
          format,
          'write-drops-provider-executed-call',
          'v1.json',
        ),
      ),
    );
    for (const c of conversations) expect(jsonEqual(c, conversations[0]!)).toBe(true);
    const conversation = conversations[0] as Conversation;
    expect(conversation.messages.filter((m) => providerExecutedParts(m).size > 0).length).toBe(2);
  });
});
