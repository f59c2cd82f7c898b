/**
 * The pydantic-ai adapter beyond the contract cases: an interrupted tool call repaired through
 * the format, non-string tool returns and args, a retry-prompt without a tool, and a conversion
 * from another format.
 */
import { describe, expect, it } from 'vitest';
import { normalizeHistory } from '../../src/index.js';
import { pydanticAiFormat } from '../../src/formats/pydantic-ai/index.js';
import { openaiChatFormat } from '../../src/formats/openai-chat/index.js';
import { parseJson, type JsonValue } from '../../src/model/json.js';
import { plain } from '../helpers/formats.js';

const f = pydanticAiFormat;
const value = (text: string): JsonValue => parseJson(text);

describe('pydantic-ai', () => {
  it('round trips an object tool return, null args and a retry-prompt without a tool', () => {
    const src = value(
      JSON.stringify([
        { parts: [{ content: 'go', part_kind: 'user-prompt' }], kind: 'request' },
        {
          parts: [{ tool_name: 'noop', args: null, tool_call_id: 'c1', part_kind: 'tool-call' }],
          kind: 'response',
        },
        {
          parts: [
            {
              tool_name: 'noop',
              content: { ok: 1.5 },
              tool_call_id: 'c1',
              part_kind: 'tool-return',
            },
          ],
          kind: 'request',
        },
        {
          parts: [{ content: 'bad output', tool_call_id: 'r1', part_kind: 'retry-prompt' }],
          kind: 'request',
        },
        { parts: [{ content: 'done', part_kind: 'text' }], kind: 'response' },
      ]),
    );
    const read = f.read(src);
    expect(read.conversation.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
    ]);
    const written = f.write(read.conversation, read.context);
    expect(written.losses).toEqual([]);
    expect(plain(written.value)).toEqual(plain(src));
  });

  it('repairs an interrupted call: a result is added, nothing else changes', () => {
    const src = value(
      JSON.stringify([
        { parts: [{ content: 'weather?', part_kind: 'user-prompt' }], kind: 'request' },
        {
          parts: [
            { tool_name: 'w', args: '{"c":"P"}', tool_call_id: 'call_9', part_kind: 'tool-call' },
          ],
          kind: 'response',
        },
        { parts: [{ content: 'hello?', part_kind: 'user-prompt' }], kind: 'request' },
      ]),
    );
    const read = f.read(src);
    const fixed = normalizeHistory(read.conversation);
    expect(fixed.changed).toBe(true);
    const out = f.write(fixed.envelope, read.context).value as JsonValue[];
    const again = f.read(out);
    const results = again.conversation.messages.flatMap((m) =>
      m.parts.filter((p) => p.type === 'tool-result'),
    );
    expect(results.map((p) => p.callId)).toEqual(['call_9']);
    expect(plain(out[0]!)).toEqual(plain((src as JsonValue[])[0]!));
    expect(plain(out[1]!)).toEqual(plain((src as JsonValue[])[1]!));
    // Twice gives the same.
    const twice = normalizeHistory(again.conversation);
    expect(plain(f.write(twice.envelope, again.context).value)).toEqual(plain(out));
  });

  it('writes a history from another format as requests and responses', () => {
    const chat = openaiChatFormat.read(
      value(
        JSON.stringify([
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 't1', type: 'function', function: { name: 'x', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 't1', content: 'ok' },
        ]),
      ),
    );
    const out = f.write(chat.conversation);
    expect(plain(out.value)).toEqual([
      {
        parts: [
          { content: 'be brief', part_kind: 'system-prompt' },
          { content: 'hi', part_kind: 'user-prompt' },
        ],
        kind: 'request',
      },
      {
        parts: [{ tool_name: 'x', args: '{}', tool_call_id: 't1', part_kind: 'tool-call' }],
        kind: 'response',
      },
      {
        parts: [{ tool_name: 'x', content: 'ok', tool_call_id: 't1', part_kind: 'tool-return' }],
        kind: 'request',
      },
    ]);
    expect(f.detect(out.value)).toBe(true);
  });
});
