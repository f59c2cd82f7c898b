/**
 * The ai-sdk format: hand-written ModelMessage fixtures (there is no corpus
 * folder) round-tripped and mapped, detection, conversion from the
 * openai-chat corpus, normalize through the format, and locate().
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_TEXT, normalizeHistory } from '../../src/core/normalize.js';
import { analyzePairing } from '../../src/core/pairing.js';
import { unsafeMediaScheme } from '../../src/core/url.js';
import { aiSdkFormat as fmt } from '../../src/formats/ai-sdk/index.js';
import type { Conversation } from '../../src/formats/format.js';
import { openaiChatFormat } from '../../src/formats/openai-chat/index.js';
import { TRUNCATED_ARGS_KEY } from '../../src/formats/shared.js';
import { jsonEqual, parseJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import { parsePointer, valueAt } from '../../src/model/pointer.js';
import type { Part } from '../../src/model/types.js';
import { ROOT } from '../helpers/cli.js';
import {
  copy,
  corpusRecords,
  describeFixtureCases,
  fixtureCases,
  readJson,
  REQUEST_FOLDERS,
  type CorpusRecord,
} from '../helpers/formats.js';
import { describeShared } from '../helpers/shared.js';

const FIXTURES = path.join(ROOT, 'fixtures', 'formats', 'ai-sdk');

const cases = fixtureCases('ai-sdk');
const sources: CorpusRecord[] = cases
  .filter((c) => c.source !== undefined)
  .map((c) => ({ where: c.name, value: c.source! }));

const v1 = (name: string): Conversation =>
  readJson(path.join(FIXTURES, name, 'v1.json')) as Conversation;
const partsOf = (c: Conversation): Part[] => c.messages.flatMap((m) => m.parts);

describeFixtureCases(fmt);

describe('ai-sdk fixtures', () => {
  it('has hand-written ModelMessage fixtures', () => {
    expect(sources.length).toBeGreaterThanOrEqual(6);
  });

  it('maps tool-call input objects to argument text, numbers as written', () => {
    const calls = partsOf(v1('v5-tool-loop')).filter((p) => p.type === 'tool-call');
    expect(calls[0]).toEqual({
      type: 'tool-call',
      id: 'toolu_01Lisbon',
      name: 'getWeather',
      arguments: '{"city":"Lisbon","days":1.50}',
    });
  });

  it('maps outputs: text, json, error-text / error-json to failed, content to parts', () => {
    const results = partsOf(v1('v5-tool-loop')).filter((p) => p.type === 'tool-result');
    expect(results.map((r) => [r.callId, r.failed === true])).toEqual([
      ['toolu_01Lisbon', false],
      ['toolu_02Porto', false],
      ['toolu_03Convert', true],
    ]);
    expect(results[1]!.content).toEqual([{ type: 'text', text: '{"sky":"cloudy","tempC":19}' }]);
    const multi = partsOf(v1('v6-multimodal')).filter((p) => p.type === 'tool-result');
    expect((multi[0]!.content as Part[]).map((c) => c.type)).toEqual([
      'text',
      'image',
      'image',
      'image',
    ]);
    expect(multi[2]!.failed).toBe(true);
  });

  it('lifts reasoning signatures out of providerOptions, byte for byte', () => {
    const reasoning = partsOf(v1('v5-tool-loop')).find((p) => p.type === 'reasoning')!;
    expect(reasoning.signature).toBe('ErUBCkYIBRgCIkDm0sig+/==');
    const v4 = partsOf(v1('v4-args-result')).filter((p) => p.type === 'reasoning');
    expect(v4.map((p) => [p.signature, p.redacted])).toEqual([
      ['sig-v4-opaque==', undefined],
      [undefined, 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT'],
    ]);
  });

  it('reads images and files: URLs, base64, data: URLs, media types', () => {
    const user = v1('v6-multimodal').messages[0]!.parts;
    expect(user[1]).toEqual({ type: 'image', url: 'https://example.com/charts/q1.png' });
    expect(user[2]).toMatchObject({ type: 'image', mediaType: 'image/png' });
    expect(user[3]).toMatchObject({ type: 'image', mediaType: 'image/jpeg' });
    expect(user[4]).toEqual({
      type: 'document',
      data: 'JVBERi0xLjQKJcOkw7zDtsOf',
      mediaType: 'application/pdf',
      name: 'report.pdf',
    });
    expect(user[5]).toMatchObject({
      type: 'image',
      data: 'UklGRiIAAABXRUJQVlA4',
      mediaType: 'image/webp',
    });
  });

  it('reads a string as a URL when new URL() would, so sanitize sees its scheme', () => {
    const value = parseJson(
      JSON.stringify([
        {
          role: 'user',
          content: [
            { type: 'image', image: ' file:///etc/passwd' },
            { type: 'file', data: 'java\tscript:alert(1)', mediaType: 'application/pdf' },
            { type: 'image', image: 'iVBORw0KGgo=' },
          ],
        },
      ]),
    );
    const parts = fmt.read(value).conversation.messages[0]!.parts;
    for (const s of [' file:///etc/passwd', 'java\tscript:alert(1)'])
      expect(new URL(s).protocol).not.toBe('https:');
    expect(parts[0]).toMatchObject({ type: 'image', url: ' file:///etc/passwd' });
    expect(parts[1]).toMatchObject({ type: 'document', url: 'java\tscript:alert(1)' });
    expect(parts[2]).toMatchObject({ type: 'image', data: 'iVBORw0KGgo=' });
    expect(parts.slice(0, 2).map((p) => unsafeMediaScheme(p))).toEqual(['file', 'javascript']);
  });

  it('reads a system SystemModelMessage, or an array of them, as system messages, and writes them back', () => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }];
    for (const system of [
      { role: 'system', content: 'EVIL' },
      [
        { role: 'system', content: 'ONE' },
        { role: 'system', content: 'TWO', providerOptions: { x: { cache: true } } },
      ],
    ] as JsonValue[]) {
      const value = parseJson(JSON.stringify({ model: 'openai/gpt-5', system, messages }));
      const read = fmt.read(value);
      const sys = read.conversation.messages.filter((m) => m.role === 'system');
      expect(sys.map((m) => m.parts[0]!.text)).toEqual(
        Array.isArray(system) ? ['ONE', 'TWO'] : ['EVIL'],
      );
      expect(jsonEqual(fmt.write(read.conversation, read.context).value, value)).toBe(true);
      // Without its system messages (sanitize), no system prompt is left.
      const without = {
        ...read.conversation,
        messages: read.conversation.messages.filter((m) => m.role !== 'system'),
      };
      expect(fmt.write(without, read.context).value).not.toHaveProperty('system');
    }
  });

  it('writes inline data that reads as a URL as a data: URL, so the AI SDK does not fetch it', () => {
    const conversation: Conversation = {
      version: 1,
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'image', data: 'file:///etc/passwd', mediaType: 'image/png' },
            { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
          ],
        },
      ],
    };
    const written = fmt.write(conversation).value as JsonObject[];
    const content = written[0]!.content as JsonObject[];
    expect(content.map((c) => c.image)).toEqual([
      'data:image/png;base64,file:///etc/passwd',
      'iVBORw0KGgo=',
    ]);
  });

  it('keeps a raw string input as the arguments text', () => {
    const calls = partsOf(v1('raw-string-input')).filter((p) => p.type === 'tool-call');
    expect(calls[0]!.arguments).toBe('{"party": 2, "time": "19:');
  });

  it('carries approval parts and providerOptions through', () => {
    const c = v1('v6-approval-provider-executed');
    expect(c.messages[2]!.parts[4]).toEqual({
      type: 'ai-sdk:tool-approval-request',
      providerData: {
        'ai-sdk': {
          part: { type: 'tool-approval-request', approvalId: 'appr_1', toolCallId: 'call_upd' },
        },
      },
    });
    expect(c.messages[0]!.providerData).toEqual({
      'ai-sdk': { providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
    });
  });

  it('writes bad argument text as {"truncated_args": ...} and fills toolName from the call', () => {
    const written = fmt.write(v1('write-from-another-format')).value as JsonObject[];
    const assistant = written.find((m) => m.role === 'assistant')!;
    const call = (assistant.content as JsonObject[]).find((p) => p.toolCallId === 'toolu_02')!;
    expect(call.input).toEqual({ [TRUNCATED_ARGS_KEY]: '{"city":"Lis' });
    const tool = written.find((m) => m.role === 'tool')!;
    expect((tool.content as JsonObject[])[1]).toMatchObject({
      toolName: 'get_forecast',
      output: { type: 'error-text', value: 'forecast service down' },
    });
  });

  it('keeps the bare shape and the call options key order, with and without the read context', () => {
    const stored = (c: Conversation): Conversation => copy(c) as Conversation;
    for (const source of [
      [{ role: 'user', content: [{ type: 'text', text: 'hi', providerOptions: {} }] }],
      {
        temperature: 0.5,
        messages: [{ role: 'user', content: 'hi' }],
        system: 'Be brief.',
        model: 'openai/gpt-5',
      },
    ]) {
      const value = parseJson(JSON.stringify(source));
      const read = fmt.read(value);
      for (const written of [
        fmt.write(read.conversation, read.context).value,
        fmt.write(stored(read.conversation)).value,
      ]) {
        expect(JSON.stringify(copy(written))).toBe(JSON.stringify(copy(value)));
      }
    }
  });

  it('writes a message read here back as it was, also from a stored v1 file', () => {
    // A tool message with text (another format would move it to a user message).
    const value = parseJson(
      JSON.stringify([
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 't', input: {} }],
        },
        { role: 'tool', content: [{ type: 'text', text: 'done', providerOptions: {} }] },
      ]),
    );
    const read = fmt.read(value);
    for (const written of [
      fmt.write(read.conversation, read.context),
      fmt.write(copy(read.conversation) as Conversation),
    ]) {
      expect(jsonEqual(written.value, value)).toBe(true);
      expect(written.losses).toEqual([]);
    }
  });

  it('refuses to read what is not a ModelMessage array', () => {
    expect(() => fmt.read({ contents: [] })).toThrow(/not ai-sdk/);
    expect(() => fmt.read([null])).toThrow(/message 0 is not an object/);
  });
});

describe('ai-sdk detection', () => {
  it('rejects v1 conversations', () => {
    const files = [
      path.join(ROOT, 'fixtures', 'examples', 'interrupted-run.json'),
      ...cases.map((c) => path.join(c.dir, 'v1.json')),
    ];
    for (const file of files) {
      const v = readJson(file);
      expect(fmt.detect(v), file).toBe(false);
      if (!Array.isArray(v)) expect(fmt.detect((v as JsonObject).messages!), file).toBe(false);
    }
  });

  it('needs an AI SDK-only feature; plain role/content histories are not claimed', () => {
    expect(fmt.detect([{ role: 'user', content: 'hi' }])).toBe(false);
    expect(fmt.detect([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }])).toBe(false);
    expect(
      fmt.detect([{ role: 'user', content: [{ type: 'text', text: 'hi', providerOptions: {} }] }]),
    ).toBe(true);
    expect(
      fmt.detect([
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', data: 'x' } }] },
      ]),
    ).toBe(false);
    // UIMessages have parts, not content.
    expect(fmt.detect([{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }])).toBe(
      false,
    );
  });
});

/** Calls and results of a v1 conversation, in order, arguments compared as parsed JSON. */
function pairingView(c: Conversation): JsonValue[] {
  const out: JsonValue[] = [];
  for (const p of partsOf(c)) {
    if (p.type === 'tool-call') {
      let args: JsonValue;
      try {
        const parsed = parseJson(p.arguments as string);
        args =
          typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
            ? parsed
            : { [TRUNCATED_ARGS_KEY]: p.arguments as string };
      } catch {
        args = { [TRUNCATED_ARGS_KEY]: p.arguments as string };
      }
      out.push({ call: p.id ?? null, name: p.name ?? null, args });
    } else if (p.type === 'tool-result') {
      const texts = (p.content as Part[]).filter((c) => c.type === 'text').map((c) => c.text!);
      out.push({ result: p.callId ?? null, texts });
    }
  }
  return out;
}

describeShared('ai-sdk conversion from the openai-chat corpus', 'corpus/openai-chat', () => {
  const records = corpusRecords('openai-chat');

  it('openai-chat → v1 → ai-sdk → v1 keeps calls, results and ids', () => {
    expect(records.length).toBeGreaterThan(0);
    const failed: string[] = [];
    for (const r of records) {
      const chat = openaiChatFormat.read(copy(r.value)).conversation;
      const written = fmt.write(copy(chat) as Conversation);
      const value = copy(written.value);
      const back = fmt.read(value);
      if (!jsonEqual(copy(pairingView(back.conversation)), copy(pairingView(chat)))) {
        failed.push(`${r.where} pairing`);
      }
      if (partsOf(chat).some((p) => p.type === 'tool-call') && !fmt.detect(value)) {
        failed.push(`${r.where} detect`);
      }
      // The written value is itself lossless through ai-sdk.
      if (
        !jsonEqual(fmt.write(copy(back.conversation) as Conversation, back.context).value, value)
      ) {
        failed.push(`${r.where} re-write`);
      }
      // Tool results get their toolName from the call when Chat had none.
      for (const m of value as JsonObject[]) {
        if (m.role !== 'tool') continue;
        for (const p of m.content as JsonObject[]) {
          if (p.type === 'tool-result' && typeof p.toolName !== 'string') {
            failed.push(`${r.where} toolName`);
          }
        }
      }
    }
    expect(failed).toEqual([]);
  });

  it('keeps the text of messages', () => {
    for (const r of records.slice(0, 20)) {
      const chat = openaiChatFormat.read(copy(r.value)).conversation;
      const back = fmt.read(copy(fmt.write(copy(chat) as Conversation).value)).conversation;
      const texts = (c: Conversation): string[] =>
        partsOf(c)
          .filter((p) => p.type === 'text')
          .map((p) => p.text as string);
      expect(texts(back), r.where).toEqual(texts(chat));
    }
  });
});

describe('ai-sdk normalize through the format', () => {
  it('adds a tool message with the interrupted result after the assistant, and pairs cleanly after', () => {
    const value = readJson(path.join(FIXTURES, 'generate-text-options', 'source.json'));
    const read = fmt.read(copy(value));
    const { messages, changed } = normalizeHistory(read.conversation.messages);
    expect(changed).toBe(true);
    const out = fmt.write({ ...read.conversation, messages }, read.context);
    expect(out.losses).toEqual([]);
    const body = out.value as JsonObject;
    expect(body.system).toBe('Answer in French.');
    expect(body.model).toBe('anthropic/claude-sonnet-4.5');
    const written = body.messages as JsonObject[];
    expect(written[1]!.role).toBe('assistant');
    expect(written[2]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_1',
          toolName: 'now',
          output: { type: 'text', value: INTERRUPTED_TEXT },
        },
      ],
    });
    expect(fmt.detect(body)).toBe(true);
    const again = analyzePairing(fmt.read(copy(body)).conversation.messages);
    expect(again.unanswered).toEqual([]);
    expect(again.results.every((r) => r.status === 'answer')).toBe(true);
  });

  it('drops an orphan result and keeps the rest of the tool message', () => {
    const value = readJson(path.join(FIXTURES, 'v4-args-result', 'source.json'));
    const read = fmt.read(copy(value));
    const { messages, repair } = normalizeHistory(read.conversation.messages);
    expect(repair.dropped.map((d) => d.callId)).toEqual(['call_time_2']);
    const out = fmt.write({ ...read.conversation, messages }, read.context).value as JsonObject[];
    const tool = out[2]!;
    expect((tool.content as JsonObject[]).map((p) => p.toolCallId)).toEqual(['call_time']);
    expect((tool.content as JsonObject[])[0]!.result).toEqual({ time: '09:41' });
  });
});

describe('ai-sdk locate', () => {
  it('points at an existing node for every message and part', () => {
    const missing: string[] = [];
    for (const s of sources) {
      const { conversation, locate } = fmt.read(copy(s.value));
      const at = (p: string): JsonValue | undefined => valueAt(s.value, parsePointer(p));
      if (at(locate()) === undefined) missing.push(`${s.where} base`);
      conversation.messages.forEach((m, i) => {
        if (at(locate(i)) === undefined) missing.push(`${s.where} m${i}`);
        m.parts.forEach((p, j) => {
          if (at(locate(i, j)) === undefined) missing.push(`${s.where} m${i} p${j}`);
          if (p.type === 'tool-call' && at(locate(i, j, ['id'])) !== p.id) {
            missing.push(`${s.where} m${i} p${j} id`);
          }
          if (p.type === 'tool-result' && at(locate(i, j, ['callId'])) !== p.callId) {
            missing.push(`${s.where} m${i} p${j} callId`);
          }
          if (p.type === 'text' && at(locate(i, j, ['text'])) !== p.text) {
            missing.push(`${s.where} m${i} p${j} text`);
          }
          if (p.type === 'tool-result') {
            (p.content as Part[]).forEach((_, k) => {
              if (at(locate(i, j, ['content', k])) === undefined) {
                missing.push(`${s.where} m${i} p${j} c${k}`);
              }
            });
          }
        });
      });
    }
    expect(missing).toEqual([]);
  });

  it('maps paths below parts to the ModelMessage fields', () => {
    const value = readJson(path.join(FIXTURES, 'v5-tool-loop', 'source.json'));
    const { locate } = fmt.read(value);
    expect(locate(2, 2, ['arguments'])).toBe('/2/content/2/input');
    expect(locate(2, 2, ['name'])).toBe('/2/content/2/toolName');
    expect(locate(2, 0, ['signature'])).toBe('/2/content/0/providerOptions/anthropic/signature');
    expect(locate(3, 1, ['content', 0, 'text'])).toBe('/3/content/1/output/value');
    expect(locate(1, 0)).toBe('/1/content');
    const options = readJson(path.join(FIXTURES, 'generate-text-options', 'source.json'));
    const read = fmt.read(options);
    expect(read.locate(0, 0)).toBe('/system');
    expect(read.locate(1)).toBe('/messages/0');
  });
});

describeShared('ai-sdk detection on the corpus', 'corpus', () => {
  it.each(REQUEST_FOLDERS)('rejects every %s corpus record', (folder) => {
    const records = corpusRecords(folder);
    expect(records.length).toBeGreaterThan(0);
    expect(records.filter((r) => fmt.detect(r.value)).map((r) => r.where)).toEqual([]);
  });
});
