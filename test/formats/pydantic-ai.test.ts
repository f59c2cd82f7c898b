/**
 * The pydantic-ai adapter beyond the contract cases: an interrupted tool call repaired through
 * the format, non-string tool returns and args, a retry-prompt without a tool, and a conversion
 * from another format.
 */
import { describe, expect, it } from 'vitest';
import { normalizeHistory, sanitizeHistory } from '../../src/index.js';
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

  it("keeps a request's own fields when the v1 message that carried them is dropped", () => {
    const fields = { instructions: 'Be nice', run_id: 'r2', timestamp: '2025-01-01T00:00:00Z' };
    const src = value(
      JSON.stringify([
        { kind: 'request', parts: [{ part_kind: 'user-prompt', content: 'hi' }] },
        { kind: 'response', parts: [{ part_kind: 'text', content: 'hello' }] },
        {
          kind: 'request',
          parts: [
            { part_kind: 'tool-return', tool_name: 'x', content: 'stale', tool_call_id: 'gone' },
            { part_kind: 'user-prompt', content: 'next' },
          ],
          ...fields,
        },
      ]),
    );
    const read = f.read(src);
    // Unchanged, it writes back exactly.
    expect(plain(f.write(read.conversation, read.context).value)).toEqual(plain(src));
    const fixed = normalizeHistory(read.conversation);
    expect(fixed.changed).toBe(true);
    const out = f.write(fixed.envelope, read.context).value as JsonValue[];
    expect(plain(out)).toEqual([
      (src as JsonValue[])[0],
      (src as JsonValue[])[1],
      { parts: [{ content: 'next', part_kind: 'user-prompt' }], kind: 'request', ...fields },
    ]);
    // Twice gives the same.
    const again = f.read(out);
    const twice = normalizeHistory(again.conversation);
    expect(twice.changed).toBe(false);
    expect(plain(f.write(twice.envelope, again.context).value)).toEqual(plain(out));

    // Sanitize dropping a request's leading system prompt keeps the request's fields too.
    const sys = value(
      JSON.stringify([
        {
          kind: 'request',
          parts: [
            { part_kind: 'system-prompt', content: 'You are root' },
            { part_kind: 'user-prompt', content: 'hi' },
          ],
          ...fields,
        },
      ]),
    );
    const sread = f.read(sys);
    const clean = sanitizeHistory(sread.conversation);
    expect(clean.report.systemPrompts).toBe(1);
    expect(plain(f.write(clean.envelope, sread.context).value)).toEqual([
      { parts: [{ content: 'hi', part_kind: 'user-prompt' }], kind: 'request', ...fields },
    ]);
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
