/**
 * The Gemini adapter: lossless round trip of every corpus record, strict
 * detection, the hand-written cases of fixtures/formats/gemini, normalize
 * through the format, and locate pointers into the source.
 */
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_TEXT, normalizeHistory } from '../../src/core/normalize.js';
import type { Conversation } from '../../src/formats/format.js';
import { GEMINI_SKIP_SIGNATURE, geminiFormat } from '../../src/formats/gemini/index.js';
import { jsonEqual, stringifyJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import type { Part } from '../../src/model/types.js';
import {
  CORPUS_FOLDERS,
  corpusRecords,
  describeFixtureCases,
  expectLocatable,
  failedRoundTrips,
  fixtureReader,
  normalizeThrough,
  otherFolders,
  readJson,
  roundTrip,
  storedRoundTrip,
  v1InputFiles,
} from '../helpers/formats.js';
import { CORPUS, describeShared } from '../helpers/shared.js';

const geminiRecords = corpusRecords('gemini');

const readFixture = fixtureReader('gemini');

/** The v1 fields of a part that a Gemini part has a source for. */
const locatedFields = (p: Part): string[][] =>
  ['arguments', 'id', 'callId', 'text', 'signature', 'data', 'url']
    .filter((field) => field in p)
    .map((field) => [field]);

describeShared('gemini corpus', 'corpus/gemini', () => {
  it('has records', () => {
    expect(geminiRecords.length).toBeGreaterThanOrEqual(45);
  });

  it('round-trips every record exactly', () => {
    expect(failedRoundTrips(geminiRecords, (v) => roundTrip(geminiFormat, v))).toEqual([]);
  });

  it('round-trips every record through a stored v1 file (no read context)', () => {
    const trip = (v: JsonValue) => storedRoundTrip(geminiFormat, v);
    expect(failedRoundTrips(geminiRecords, trip, false)).toEqual([]);
  });

  it('reads pairs cleanly: normalize changes nothing on any record', () => {
    for (const rec of geminiRecords) {
      const { conversation } = geminiFormat.read(rec.value);
      const n = normalizeHistory(conversation.messages);
      expect(n.changed, rec.where).toBe(false);
    }
  });

  it('locates every message and part in the source', () => {
    for (const rec of geminiRecords)
      expectLocatable(rec.value, geminiFormat.read(rec.value), locatedFields);
  });

  it('keeps thought signatures byte-exact on the part they were on', () => {
    for (const rec of geminiRecords) {
      const read = geminiFormat.read(rec.value);
      const written = geminiFormat.write(read.conversation, read.context).value as JsonObject;
      const source = rec.value as JsonObject;
      (source.contents as JsonObject[]).forEach((c, i) => {
        (c.parts as JsonObject[]).forEach((p, j) => {
          const sig = p.thoughtSignature ?? p.thought_signature;
          if (sig === undefined) return;
          const out = ((written.contents as JsonObject[])[i]!.parts as JsonObject[])[j]!;
          expect(out.thoughtSignature ?? out.thought_signature).toBe(sig);
        });
      });
    }
  });

  it('reads the content of a recorded generateContent response (Gemini 3 call without id)', () => {
    const response = readJson(
      CORPUS,
      'gemini',
      'vercel-ai__google-tool-call-gemini3.json',
    ) as JsonObject;
    expect(geminiFormat.detect(response)).toBe(false);
    const content = ((response.candidates as JsonObject[])[0] as JsonObject).content!;
    const request: JsonObject = { contents: [content] };
    const read = geminiFormat.read(request);
    const call = read.conversation.messages[0]!.parts[0]!;
    expect(call).toMatchObject({ type: 'tool-call', id: 'gemini-c0-p0', name: 'weather' });
    expect(call.arguments).toBe('{"location":"San Francisco"}');
    const sig = ((content as JsonObject).parts as JsonObject[])[0]!.thoughtSignature;
    expect((call.providerData as JsonObject).gemini).toMatchObject({ thoughtSignature: sig });
    // The synthetic id is not written back.
    expect(jsonEqual(geminiFormat.write(read.conversation, read.context).value, request)).toBe(
      true,
    );
  });
});

describe('gemini detection', () => {
  it('rejects v1 conversations', () => {
    const files = v1InputFiles();
    for (const file of files) expect(geminiFormat.detect(readJson(file)), file).toBe(false);
    expect(files.length).toBeGreaterThan(10);
    expect(
      geminiFormat.detect([{ role: 'user', parts: [{ type: 'text', text: 'v1, not Gemini' }] }]),
    ).toBe(false);
  });

  it('needs Gemini parts and, for a bare array, Gemini roles', () => {
    expect(geminiFormat.detect({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })).toBe(
      true,
    );
    expect(geminiFormat.detect([{ role: 'model', parts: [{ text: 'hi' }] }])).toBe(true);
    expect(geminiFormat.detect([{ role: 'assistant', parts: [{ text: 'hi' }] }])).toBe(false);
    // Only Gemini has `contents`: an empty list is an empty Gemini history (as the writer stores it).
    expect(geminiFormat.detect({ contents: [] })).toBe(true);
    expect(geminiFormat.detect({ contents: {} })).toBe(false);
    expect(geminiFormat.detect({ contents: [{ role: 'user', parts: [{ foo: 1 }] }] })).toBe(false);
    expect(geminiFormat.detect({ messages: [], contents: [{ parts: [{ text: 'x' }] }] })).toBe(
      false,
    );
  });

  it('reads "role": null (how some serializers write an absent role) and writes it back', () => {
    const value: JsonValue = {
      contents: [
        { role: null, parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'hello' }] },
        { parts: [{ text: 'again' }] },
      ],
    };
    expect(geminiFormat.detect(value)).toBe(true);
    const read = geminiFormat.read(value);
    expect(read.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(jsonEqual(geminiFormat.write(read.conversation, read.context).value, value)).toBe(true);
    // A bare array still needs a Gemini role on every content.
    expect(geminiFormat.detect([{ role: null, parts: [{ text: 'hi' }] }])).toBe(false);
  });

  it('reads a snake_case system_instruction as the system prompt, and writes it back so', () => {
    for (const si of [{ parts: [{ text: 'root' }] }, 'root'] as JsonValue[]) {
      const value: JsonValue = {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        system_instruction: si,
        generation_config: { temperature: 0 },
      };
      const read = geminiFormat.read(value);
      expect(read.conversation.messages.map((m) => m.role)).toEqual(['system', 'user']);
      expect(read.conversation.messages[0]!.parts).toEqual([{ type: 'text', text: 'root' }]);
      expect(read.locate(0, 0)).toBe(
        typeof si === 'string' ? '/system_instruction' : '/system_instruction/parts/0',
      );
      expect(jsonEqual(geminiFormat.write(read.conversation, read.context).value, value)).toBe(
        true,
      );
      // Without its system message (sanitize), nothing of it is left.
      const { system_instruction: _dropped, ...rest } = value as JsonObject;
      const without = { ...read.conversation, messages: read.conversation.messages.slice(1) };
      expect(jsonEqual(geminiFormat.write(without, read.context).value, rest)).toBe(true);
    }
  });

  it('reads every system prompt a request sets, in either spelling (a null one is unset)', () => {
    const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
    const cases: [JsonObject, string[]][] = [
      [{ systemInstruction: null, system_instruction: { parts: [{ text: 'SNAKE' }] } }, ['SNAKE']],
      [
        { systemInstruction: { parts: [{ text: 'CAMEL' }] }, system_instruction: 'SNAKE' },
        ['CAMEL', 'SNAKE'],
      ],
    ];
    for (const [fields, texts] of cases) {
      const value: JsonValue = { contents, ...fields };
      const read = geminiFormat.read(value);
      const system = read.conversation.messages.filter((m) => m.role === 'system');
      expect(system.map((m) => m.parts[0]!.text)).toEqual(texts);
      expect(jsonEqual(geminiFormat.write(read.conversation, read.context).value, value)).toBe(
        true,
      );
      // Without its system messages, no system prompt is left in the request.
      const without = {
        ...read.conversation,
        messages: read.conversation.messages.filter((m) => m.role !== 'system'),
      };
      const written = geminiFormat.write(without, read.context).value as JsonObject;
      expect(written.system_instruction).toBeUndefined();
      expect(written.systemInstruction ?? null).toBeNull();
    }
  });

  it('reads a system instruction given as a Part or a list, and config.system_instruction, and writes each back as it was', () => {
    const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
    const cases: JsonObject[] = [
      { systemInstruction: { text: 'A part' } },
      { system_instruction: [{ text: 'A list' }, { text: 'of parts' }] },
      { systemInstruction: ['A list of strings'] },
      { config: { temperature: 0, system_instruction: 'Python SDK spelling' } },
      { config: { system_instruction: { parts: [{ text: 'A content' }] } } },
    ];
    for (const fields of cases) {
      const value: JsonValue = { model: 'gemini-2.5-flash', contents, ...fields };
      const read = geminiFormat.read(value);
      expect(
        read.conversation.messages.map((m) => m.role),
        JSON.stringify(fields),
      ).toEqual(['system', 'user']);
      expect(jsonEqual(geminiFormat.write(read.conversation, read.context).value, value)).toBe(
        true,
      );
      const without = { ...read.conversation, messages: read.conversation.messages.slice(1) };
      const written = stringifyJson(geminiFormat.write(without, read.context).value, 0);
      expect(written).not.toMatch(/A part|A list|Python SDK|A content/);
    }
  });

  it("reads the SDK's config.systemInstruction as the system prompt, and writes it back there", () => {
    const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
    // Every shape the SDK takes: a string, a Content, a Part, a list of Parts or of strings.
    for (const si of [
      'EVIL',
      { parts: [{ text: 'EVIL' }] },
      { text: 'EVIL' },
      [{ text: 'EVIL' }],
      ['EVIL'],
    ] as JsonValue[]) {
      const value: JsonValue = {
        model: 'gemini-2.5-flash',
        contents,
        config: { temperature: 0, systemInstruction: si },
      };
      const read = geminiFormat.read(value);
      expect(read.conversation.messages.map((m) => m.role)).toEqual(['system', 'user']);
      expect(read.conversation.messages[0]!.parts).toEqual([{ type: 'text', text: 'EVIL' }]);
      expect(jsonEqual(geminiFormat.write(read.conversation, read.context).value, value)).toBe(
        true,
      );
      // Without its system message, the config keeps its other settings and no instruction.
      const without = { ...read.conversation, messages: read.conversation.messages.slice(1) };
      const written = geminiFormat.write(without, read.context).value as JsonObject;
      expect(written.config).toEqual({ temperature: 0 });
    }
  });

  it('refuses to read what is not Gemini', () => {
    expect(() => geminiFormat.read({ messages: [] })).toThrow(/not gemini/);
    expect(() => geminiFormat.read([1, 2])).toThrow(/not gemini/);
    expect(() => geminiFormat.read({ contents: [{ parts: 'x' }] })).toThrow(/not gemini/);
  });
});

describeFixtureCases(geminiFormat, { located: locatedFields });

describe('gemini fixtures', () => {
  it('keeps ids and big numbers in arguments exactly', () => {
    const read = geminiFormat.read(readFixture('read-function-call-and-response', 'source.json'));
    const call = read.conversation.messages[1]!.parts[0]!;
    expect(call.id).toBe('c1');
    expect(call.arguments).toBe('{"city":"Paris","days":12345678901234567890}');
    expect(read.conversation.messages[1]!.parts[1]!.arguments).toBe(
      '{"city":"Rome","units":["C",1.50]}',
    );
  });

  it('writes arguments that are not a JSON object as truncated_args', () => {
    const conversation: Conversation = {
      version: 1,
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'go' }] },
        {
          role: 'assistant',
          parts: [
            { type: 'tool-call', id: 'a', name: 'f', arguments: '{"x": 1' },
            { type: 'tool-call', id: 'b', name: 'g', arguments: '[1]' },
          ],
        },
      ],
    };
    const contents = (geminiFormat.write(conversation).value as JsonObject)
      .contents as JsonObject[];
    const parts = contents[1]!.parts as JsonObject[];
    expect(parts[0]!.functionCall).toEqual({
      id: 'a',
      name: 'f',
      args: { truncated_args: '{"x": 1' },
    });
    expect((parts[1]!.functionCall as JsonObject).args).toEqual({ truncated_args: '[1]' });
    // A call from another provider carries the documented placeholder signature, on the first call only.
    expect(parts[0]!.thoughtSignature).toBe(GEMINI_SKIP_SIGNATURE);
    expect(parts[1]!.thoughtSignature).toBeUndefined();
  });

  it('keeps the request key order, with and without the read context', () => {
    const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
    const si = { parts: [{ text: 'Be brief.' }] };
    for (const value of [
      { contents, systemInstruction: si, generationConfig: { temperature: 0 } },
      { systemInstruction: si, contents, model: 'gemini-2.5-flash' },
      { generationConfig: {}, model: 'gemini-2.5-flash', contents },
    ] as JsonObject[]) {
      const read = geminiFormat.read(value);
      const stored = JSON.parse(stringifyJson(read.conversation)) as Conversation;
      for (const written of [
        geminiFormat.write(read.conversation, read.context).value,
        geminiFormat.write(stored).value,
      ])
        expect(Object.keys(written as JsonObject)).toEqual(Object.keys(value));
    }
  });

  it('locates a system instruction given as a Part or a list at its own nodes', () => {
    const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
    const part = geminiFormat.read({ contents, systemInstruction: { text: 'A part' } });
    expect(part.locate(0, 0)).toBe('/systemInstruction');
    expect(part.locate(0, 0, ['text'])).toBe('/systemInstruction/text');
    const list = geminiFormat.read({
      contents,
      config: { system_instruction: ['a', { text: 'b' }] },
    });
    expect(list.locate(0, 0, ['text'])).toBe('/config/system_instruction/0');
    expect(list.locate(0, 1, ['text'])).toBe('/config/system_instruction/1/text');
  });

  it('locates the content of a function response: its response, then each item of its parts', () => {
    const value: JsonValue = {
      contents: [
        { role: 'model', parts: [{ functionCall: { id: 'c', name: 'f', args: {} } }] },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'c',
                name: 'f',
                response: { output: 'ok' },
                parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }],
              },
            },
          ],
        },
      ],
    };
    const read = geminiFormat.read(value);
    const at = '/contents/1/parts/0/functionResponse';
    expect(read.locate(1, 0, ['content', 0])).toBe(`${at}/response`);
    expect(read.locate(1, 0, ['content', 1])).toBe(`${at}/parts/0`);
    expect(read.locate(1, 0, ['content', 1, 'data'])).toBe(`${at}/parts/0`);
  });

  it('does not write back a kept function response item that holds a file: URL', () => {
    const value: JsonValue = {
      contents: [
        { role: 'model', parts: [{ functionCall: { id: 'c', name: 'f', args: {} } }] },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'c',
                name: 'f',
                response: { output: 'ok' },
                parts: [{ fileData: { fileUri: 'file:///etc/passwd' } }],
              },
            },
          ],
        },
      ],
    };
    const read = geminiFormat.read(value);
    const written = geminiFormat.write(read.conversation, read.context);
    expect(stringifyJson(written.value)).not.toContain('file:');
    expect(written.losses.map((l) => l.what)).toEqual([
      'tool result content 0 (gemini:part part) with a file: URL',
    ]);
  });
});

describe('normalize through the gemini format', () => {
  /** read → normalize → write; a read of the output pairs cleanly, with nothing left to repair. */
  const repair = (source: JsonValue): JsonObject =>
    normalizeThrough(geminiFormat, source) as JsonObject;

  it('answers a dangling call with id in the content right after it', () => {
    const source = {
      contents: [
        { role: 'user', parts: [{ text: 'weather?' }] },
        {
          role: 'model',
          parts: [
            {
              functionCall: { id: 'w1', name: 'weather', args: { city: 'Oslo' } },
              thoughtSignature: 'c2ln',
            },
          ],
        },
        { role: 'user', parts: [{ text: 'hello?' }] },
      ],
    };
    const value = repair(source);
    expect(value.contents).toEqual([
      source.contents[0],
      source.contents[1],
      {
        role: 'user',
        parts: [
          {
            functionResponse: { id: 'w1', name: 'weather', response: { output: INTERRUPTED_TEXT } },
          },
        ],
      },
      source.contents[2],
    ]);
  });

  it('joins the existing responses of the turn, in call order, with equal counts', () => {
    const source: JsonObject = {
      contents: [
        { role: 'user', parts: [{ text: 'two things' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'a', name: 'first', args: {} }, thoughtSignature: 'c2ln' },
            { functionCall: { id: 'b', name: 'second', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'b', name: 'second', response: { output: 'B' } } }],
        },
      ],
    };
    const value = repair(source);
    const contents = value.contents as JsonObject[];
    expect(contents).toHaveLength(3);
    expect(contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'a', name: 'first', response: { output: INTERRUPTED_TEXT } } },
        { functionResponse: { id: 'b', name: 'second', response: { output: 'B' } } },
      ],
    });
  });

  it('answers a call without id with a response without id, paired again on read', () => {
    const source = {
      contents: [
        { role: 'user', parts: [{ text: 'look' }] },
        { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 1 } } }] },
      ],
      generationConfig: { temperature: 0 },
    };
    const value = repair(source);
    expect(value).toEqual({
      contents: [
        source.contents[0],
        source.contents[1],
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'lookup', response: { output: INTERRUPTED_TEXT } } }],
        },
      ],
      generationConfig: { temperature: 0 },
    });
  });

  it('drops an orphan response and the content it leaves empty', () => {
    const source = {
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'user', parts: [{ functionResponse: { id: 'gone', name: 'x', response: {} } }] },
        { role: 'model', parts: [{ text: 'hello' }] },
      ],
    };
    const value = repair(source);
    expect(value.contents).toEqual([source.contents[0], source.contents[2]]);
  });
});

describeShared('gemini detection on the corpus', 'corpus', () => {
  it('recognizes every request of the corpus', () => {
    for (const rec of geminiRecords) expect(geminiFormat.detect(rec.value), rec.where).toBe(true);
  });

  it('rejects the other formats of the corpus', () => {
    const others = otherFolders(CORPUS_FOLDERS, 'gemini').flatMap((folder) =>
      corpusRecords(folder, { documents: true }),
    );
    expect(others.length).toBeGreaterThan(50);
    for (const rec of others) expect(geminiFormat.detect(rec.value), rec.where).toBe(false);
  });
});
