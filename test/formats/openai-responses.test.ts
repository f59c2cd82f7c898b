/**
 * The openai-responses format: corpus round trip, detection, hand-written
 * mapping cases (fixtures/formats/openai-responses/), normalize through the
 * format, and locate().
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzePairing } from '../../src/core/pairing.js';
import { INTERRUPTED_TEXT, normalizeHistory } from '../../src/core/normalize.js';
import type { WriteResult } from '../../src/formats/format.js';
import { keptPartNode } from '../../src/formats/kit/kept.js';
import { openaiResponsesFormat as fmt } from '../../src/formats/openai-responses/index.js';
import {
  jsonEqual,
  parseJson,
  stringifyJson,
  type JsonObject,
  type JsonValue,
} from '../../src/model/json.js';
import { parsePointer, valueAt } from '../../src/model/pointer.js';
import { EnvelopeSchema } from '../../src/model/schema.js';
import { lintConversation } from '../../src/lint/api.js';
import { ROOT } from '../helpers/cli.js';
import {
  copy,
  corpusRecords,
  describeFixtureCases,
  fixtureCases,
  failedRoundTrips,
  otherFolders,
  readJson,
  REQUEST_FOLDERS,
  textRoundTrip,
  type CorpusRecord,
} from '../helpers/formats.js';
import { CORPUS, describeShared } from '../helpers/shared.js';

const FIXTURES = path.join(ROOT, 'fixtures', 'formats', 'openai-responses');

/** write(read(x)), with copies through text: the v1 conversation is what a user stores. */
const roundTrip = (value: JsonValue): WriteResult => textRoundTrip(fmt, value);

const RESPONSES = corpusRecords('openai-responses');

/** Responses items of the Agents SDK RunState fixtures (extra material: raw items as a bare array). */
function runStateItems(): CorpusRecord[] {
  const file = path.join(
    CORPUS,
    'openai-agents-runstate',
    'openai-agents-python__tests_fixtures_run_state.jsonl',
  );
  if (!existsSync(file)) return [];
  const out: CorpusRecord[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const state = (parseJson(line) as JsonObject).run_state as JsonObject;
      const items: JsonValue[] = [];
      const collect = (list: JsonValue | undefined): void => {
        if (!Array.isArray(list)) return;
        for (const entry of list) {
          if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
            const raw = (entry as JsonObject).raw_item;
            if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) items.push(raw);
          }
        }
      };
      collect(state.generated_items);
      collect(state.session_items);
      if (Array.isArray(state.original_input)) items.push(...state.original_input);
      if (items.length > 0) out.push({ where: `run_state:${i + 1}`, value: items });
    });
  return out;
}

describeShared('openai-responses corpus round trip', 'corpus/openai-responses', () => {
  it('has records', () => {
    expect(RESPONSES.length).toBeGreaterThan(0);
  });

  it('write(read(x)) deep-equals x for every record, with no losses', () => {
    const failed = failedRoundTrips(RESPONSES, roundTrip);
    expect(failed, `${failed.length}/${RESPONSES.length} records failed`).toEqual([]);
  });

  it('reads every record into a schema-valid v1 conversation', () => {
    const bad: string[] = [];
    for (const rec of RESPONSES) {
      const { conversation } = fmt.read(copy(rec.value));
      const parsed = EnvelopeSchema.safeParse(JSON.parse(stringifyJson(conversation, 0)));
      if (!parsed.success) bad.push(`${rec.where}: ${parsed.error.message.slice(0, 200)}`);
    }
    expect(bad).toEqual([]);
  });

  it('round-trips the Agents SDK RunState items as bare arrays', () => {
    expect(failedRoundTrips(runStateItems(), roundTrip)).toEqual([]);
  });
});

describeFixtureCases(fmt);

/** Every `.json` file under a folder, parsed (files that do not parse are skipped). */
function jsonFiles(dir: string): CorpusRecord[] {
  const out: CorpusRecord[] = [];
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    const file = path.join(entry.parentPath, entry.name);
    try {
      out.push({ where: path.relative(ROOT, file), value: parseJson(readFileSync(file, 'utf8')) });
    } catch {
      // Broken-JSON fixtures are for other suites.
    }
  }
  return out;
}

describe('openai-responses detection', () => {
  it('rejects v1 conversations (the project fixtures)', () => {
    const v1 = [
      ...jsonFiles(path.join(ROOT, 'fixtures', 'core')),
      // The --target openai-responses fixtures hold Responses requests on purpose.
      ...jsonFiles(path.join(ROOT, 'fixtures', 'rules')).filter(
        (r) => !r.where.startsWith(path.join('fixtures', 'rules', 'openai-responses') + path.sep),
      ),
      ...jsonFiles(path.join(ROOT, 'fixtures', 'examples')),
    ];
    expect(v1.length).toBeGreaterThan(0);
    expect(v1.filter((r) => fmt.detect(r.value)).map((r) => r.where)).toEqual([]);
    expect(fmt.detect(readJson(path.join(FIXTURES, 'tool-call-and-result'), 'v1.json'))).toBe(
      false,
    );
  });

  it('rejects look-alikes', () => {
    const values: JsonValue[] = [
      // OpenAI chat: a bare array of {role, content} is chat's, not ours.
      [
        { role: 'system', content: 'x' },
        { role: 'user', content: 'hi' },
      ],
      [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      [{ role: 'tool', tool_call_id: 'c', content: 'r' }],
      // AI SDK ModelMessage[].
      [
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'f', input: {} }],
        },
      ],
      // An embeddings request, nothing (a string input is a one-message request: see below).
      { model: 'text-embedding-3-small', input: ['a', 'b'] },
      { messages: [], input: [] },
      [],
      'text',
      null,
    ];
    for (const v of values) expect(fmt.detect(v), JSON.stringify(v)).toBe(false);
    expect(() => fmt.read({ messages: [] })).toThrow(/not openai-responses/);
    expect(() => fmt.read([{ role: 'tool', content: 'x' }])).toThrow(/not openai-responses/);
    expect(() => fmt.read({ input: [42] })).toThrow(/not openai-responses/);
  });

  it('accepts the minimal shapes', () => {
    expect(fmt.detect({ model: 'gpt-5', input: [] })).toBe(true);
    // Only Responses has an `input` list: an empty one is an empty history (as the writer stores it).
    expect(fmt.detect({ input: [] })).toBe(true);
    expect(fmt.detect({ input: [{ role: 'user', content: 'hi' }] })).toBe(true);
    expect(fmt.detect([{ type: 'function_call_output', call_id: 'c', output: 'x' }])).toBe(true);
    expect(fmt.detect([{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }])).toBe(
      true,
    );
  });
});

describe('openai-responses through normalize', () => {
  const body: JsonObject = {
    model: 'gpt-5',
    instructions: 'Be useful.',
    input: [
      { role: 'user', content: 'Book it.' },
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [],
        encrypted_content: 'gAAAA-enc',
      },
      { type: 'function_call', id: 'fc_1', call_id: 'call_x', name: 'book', arguments: '{}' },
      { type: 'function_call', id: 'fc_2', call_id: 'call_y', name: 'pay', arguments: '{"n":1}' },
      { type: 'function_call_output', call_id: 'call_y', output: 'paid' },
      { type: 'function_call_output', call_id: 'call_gone', output: 'stray' },
      { role: 'user', content: 'Done?' },
    ],
  };

  it('puts the synthesized output after the calls, in the shape the API takes, and drops the orphan', () => {
    const r = fmt.read(copy(body));
    const n = normalizeHistory(r.conversation.messages);
    expect(n.changed).toBe(true);
    const out = fmt.write({ ...r.conversation, messages: n.messages }, r.context);
    expect(out.losses).toEqual([]);
    const input = (out.value as JsonObject).input as JsonObject[];
    expect(input).toEqual([
      { role: 'user', content: 'Book it.' },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA-enc' },
      { type: 'function_call', id: 'fc_1', call_id: 'call_x', name: 'book', arguments: '{}' },
      { type: 'function_call', id: 'fc_2', call_id: 'call_y', name: 'pay', arguments: '{"n":1}' },
      { type: 'function_call_output', call_id: 'call_x', output: INTERRUPTED_TEXT },
      { type: 'function_call_output', call_id: 'call_y', output: 'paid' },
      { role: 'user', content: 'Done?' },
    ]);
    expect((out.value as JsonObject).instructions).toBe('Be useful.');
    expect((out.value as JsonObject).model).toBe('gpt-5');

    // Read back: every call answered, nothing orphaned, and normalize has nothing left to do.
    const again = fmt.read(out.value);
    const pairing = analyzePairing(again.conversation.messages);
    expect(pairing.unanswered).toEqual([]);
    expect(pairing.results.every((p) => p.status === 'answer')).toBe(true);
    expect(normalizeHistory(again.conversation.messages).changed).toBe(false);
  });

  it('keeps a bare array bare', () => {
    const items = body.input as JsonValue[];
    const r = fmt.read(copy(items));
    const n = normalizeHistory(r.conversation.messages);
    const out = fmt.write({ ...r.conversation, messages: n.messages }, r.context);
    expect(Array.isArray(out.value)).toBe(true);
    expect((out.value as JsonValue[]).length).toBe(items.length);
  });

  it('leaves an output whose call lives on the server (previous_response_id) alone', () => {
    const input = readJson(path.join(FIXTURES, 'server-side-output'), 'source.json');
    const r = fmt.read(input);
    expect(normalizeHistory(r.conversation.messages).changed).toBe(false);
  });

  it('drops instructions with the system message sanitize removes', async () => {
    const { sanitizeHistory } = await import('../../src/core/sanitize.js');
    const r = fmt.read(copy(body));
    const s = sanitizeHistory(r.conversation.messages);
    const out = fmt.write({ ...r.conversation, messages: s.messages }, r.context);
    expect(Object.keys(out.value as JsonObject)).not.toContain('instructions');
  });
});

describe('openai-responses calls without a name', () => {
  const body: JsonObject = {
    model: 'gpt-5',
    input: [
      { role: 'user', content: 'hi' },
      { type: 'function_call', call_id: 'c1', arguments: '{}' },
    ],
  };

  it('are read as calls, and written back without a name', () => {
    const r = fmt.read(copy(body));
    expect(r.conversation.messages[1]!.parts).toMatchObject([
      { type: 'tool-call', id: 'c1', arguments: '{}' },
    ]);
    expect(r.conversation.messages[1]!.parts[0]!.name).toBeUndefined();
    expect(jsonEqual(fmt.write(r.conversation, r.context).value, body)).toBe(true);
  });

  it('get a result from normalize like any other call', () => {
    const r = fmt.read(copy(body));
    const n = normalizeHistory(r.conversation.messages);
    expect(n.repair.synthesized.map((s) => s.callId)).toEqual(['c1']);
    const out = fmt.write({ ...r.conversation, messages: n.messages }, r.context);
    expect(out.losses).toEqual([]);
    expect((out.value as JsonObject).input).toEqual([
      ...(body.input as JsonValue[]),
      { type: 'function_call_output', call_id: 'c1', output: INTERRUPTED_TEXT },
    ]);
  });
});

describe('openai-responses custom tool calls', () => {
  const patch = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n';
  const body: JsonObject = {
    model: 'gpt-5',
    input: [
      { role: 'user', content: 'Add a.txt.' },
      {
        type: 'custom_tool_call',
        id: 'ctc_1',
        call_id: 'call_p',
        name: 'apply_patch',
        input: patch,
      },
    ],
  };

  it('are read as calls (the free-form input as {"input": ...}) and written back as read', () => {
    const r = fmt.read(copy(body));
    const call = r.conversation.messages[1]!.parts[0]!;
    expect(call).toMatchObject({ type: 'tool-call', id: 'call_p', name: 'apply_patch' });
    expect(JSON.parse(call.arguments as string)).toEqual({ input: patch });
    expect(r.locate(1, 0, ['arguments'])).toBe('/input/1');
    expect(jsonEqual(fmt.write(r.conversation, r.context).value, body)).toBe(true);
    expect(jsonEqual(fmt.write(copy(r.conversation)).value, body)).toBe(true);
  });

  it('an unanswered one is reported, and answered by a custom_tool_call_output', () => {
    const ids = lintConversation(JSON.stringify(body)).map((f) => f.ruleId);
    expect(ids).toContain('dangling-tool-call');
    const r = fmt.read(copy(body));
    const n = normalizeHistory(r.conversation.messages);
    expect(n.repair.synthesized.map((x) => x.callId)).toEqual(['call_p']);
    const out = fmt.write({ ...r.conversation, messages: n.messages }, r.context);
    expect(out.losses).toEqual([]);
    expect(((out.value as JsonObject).input as JsonValue[])[2]).toEqual({
      type: 'custom_tool_call_output',
      call_id: 'call_p',
      output: INTERRUPTED_TEXT,
    });
    expect(lintConversation(JSON.stringify(out.value)).map((f) => f.ruleId)).toEqual([]);
  });

  it('pairs a custom_tool_call_output with its call', () => {
    const answered = copy(body);
    (answered.input as JsonValue[]).push({
      type: 'custom_tool_call_output',
      call_id: 'call_p',
      output: 'Done!',
    });
    expect(lintConversation(JSON.stringify(answered)).map((f) => f.ruleId)).toEqual([]);
    const r = fmt.read(answered);
    expect(r.conversation.messages[2]!.parts[0]).toMatchObject({
      type: 'tool-result',
      callId: 'call_p',
      content: [{ type: 'text', text: 'Done!' }],
    });
    expect(jsonEqual(fmt.write(r.conversation, r.context).value, answered)).toBe(true);
  });
});

describe('openai-responses write details', () => {
  it('rebuilds an edited reasoning summary and keeps an unchanged one exactly', () => {
    const input: JsonValue = [
      {
        type: 'reasoning',
        id: 'rs_9',
        summary: [
          { type: 'summary_text', text: 'a' },
          { type: 'summary_text', text: 'b' },
        ],
        encrypted_content: 'enc',
      },
      { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
    ];
    const r = fmt.read(copy(input));
    const part = r.conversation.messages[0]!.parts[0]!;
    expect(part.text).toBe('a\n\nb');
    expect(part.signature).toBe('enc');
    part.text = 'edited';
    const out = fmt.write(r.conversation, r.context).value as JsonObject[];
    expect(out[0]).toEqual({
      type: 'reasoning',
      id: 'rs_9',
      summary: [{ type: 'summary_text', text: 'edited' }],
      encrypted_content: 'enc',
    });
  });

  it('writes a v1 tool message without providerData as function_call_output items', () => {
    const out = fmt.write({
      version: 1,
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'go' }] },
        {
          role: 'assistant',
          parts: [{ type: 'tool-call', id: 'call_1', name: 'f', arguments: 'not json' }],
        },
        {
          role: 'tool',
          parts: [
            {
              type: 'tool-result',
              callId: 'call_1',
              name: 'f',
              content: [{ type: 'text', text: 'r' }],
            },
          ],
        },
      ],
    });
    expect(out.losses).toEqual([]);
    expect(out.value).toEqual({
      input: [
        { type: 'message', role: 'user', content: 'go' },
        // String arguments stay as they are, JSON or not.
        { type: 'function_call', call_id: 'call_1', name: 'f', arguments: 'not json' },
        { type: 'function_call_output', call_id: 'call_1', output: 'r' },
      ],
    });
  });

  it('keeps source keys that start with "$" and non-text assistant content', () => {
    const input: JsonValue = [
      { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}', $meta: { a: 1 } },
      { type: 'function_call_output', call_id: 'c', output: 'ok' },
      {
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'see', annotations: [] },
          { type: 'input_image', image_url: 'https://example.com/x.png' },
        ],
      },
    ];
    const r = fmt.read(copy(input));
    expect(r.conversation.messages[2]!.parts.map((p) => p.type)).toEqual([
      'text',
      'openai-responses:input_image',
    ]);
    expect(fmt.write(r.conversation, r.context).value).toEqual(input);
  });

  it('writes a system message read from input back as that message, not as instructions', () => {
    const input: JsonValue = { input: [{ role: 'system', content: 'sys' }], model: 'm' };
    const r = fmt.read(copy(input));
    const out = fmt.write(r.conversation);
    expect(out.value).toEqual(input);
  });
});

describe('openai-responses locate', () => {
  const sources: CorpusRecord[] = [
    ...RESPONSES,
    ...runStateItems(),
    ...fixtureCases('openai-responses')
      .filter((c) => c.kind === 'read')
      .map((c) => ({ where: c.name, value: c.source! })),
  ];

  it('points every message, part and mapped field at a node that exists', () => {
    const bad: string[] = [];
    for (const rec of sources) {
      const r = fmt.read(rec.value);
      const at = (p: string): JsonValue | undefined => valueAt(rec.value, parsePointer(p));
      const check = (ok: boolean, what: string): void => {
        if (!ok) bad.push(`${rec.where}: ${what}`);
      };
      check(at(r.locate()) !== undefined, 'root');
      r.conversation.messages.forEach((m, i) => {
        check(at(r.locate(i)) !== undefined, `message ${i}`);
        m.parts.forEach((p, j) => {
          const where = `message ${i} part ${j}`;
          check(at(r.locate(i, j)) !== undefined, where);
          if (p.type === 'tool-call') {
            // A client-run hosted call's arguments are an object in the API, JSON text in v1.
            const hosted = (p.providerData as JsonObject | undefined)?.['openai-responses'] as
              JsonObject | undefined;
            if (hosted?.$argsObject === true)
              check(at(r.locate(i, j, ['arguments'])) !== undefined, `${where} arguments`);
            // A custom tool's call: its `input` is the one field of the v1 arguments.
            else if (hosted?.$custom === true)
              check(
                (at(r.locate(i, j, ['arguments'])) as JsonObject).input ===
                  (JSON.parse(p.arguments as string) as { input: string }).input,
                `${where} arguments`,
              );
            else check(at(r.locate(i, j, ['arguments'])) === p.arguments, `${where} arguments`);
            check(at(r.locate(i, j, ['id'])) === p.id, `${where} id`);
          }
          if (p.type === 'reasoning' && p.signature !== undefined) {
            check(at(r.locate(i, j, ['signature'])) === p.signature, `${where} signature`);
          }
          if (p.type === 'text') check(at(r.locate(i, j, ['text'])) === p.text, `${where} text`);
          if (p.type === 'tool-result') {
            check(at(r.locate(i, j, ['callId'])) === p.callId, `${where} callId`);
            (p.content as JsonObject[]).forEach((c, k) => {
              const node = at(r.locate(i, j, ['content', k]));
              check(node !== undefined, `${where} content ${k}`);
              if (c.type === 'text') {
                check(at(r.locate(i, j, ['content', k, 'text'])) === c.text, `${where} text ${k}`);
              }
            });
          }
          if (p.type.startsWith('openai-responses:')) {
            // A kept part points at the item (or content part) it holds.
            const kept = keptPartNode(p, 'openai-responses');
            const node = at(r.locate(i, j));
            check(
              node !== undefined && kept !== undefined && jsonEqual(node, kept),
              `${where} opaque`,
            );
          }
        });
      });
    }
    expect(bad).toEqual([]);
  });
});

describeShared('openai-responses detection on the corpus', 'corpus', () => {
  it('recognizes every corpus record and the RunState item arrays', () => {
    const missed = [...RESPONSES, ...runStateItems()]
      .filter((r) => !fmt.detect(r.value))
      .map((r) => r.where);
    expect(missed).toEqual([]);
  });

  it('rejects the other formats of the corpus', () => {
    const others = otherFolders(REQUEST_FOLDERS, 'openai-responses').flatMap((folder) =>
      corpusRecords(folder),
    );
    expect(others.length).toBeGreaterThan(0);
    const wrong = others.filter((r) => fmt.detect(r.value)).map((r) => r.where);
    expect(wrong).toEqual([]);
  });

  it('rejects Claude Code events, UI message streams and single JSON documents of other formats', () => {
    const values: CorpusRecord[] = [
      ...jsonFiles(path.join(CORPUS, 'vercel-ai-uimessage-stream')),
      ...jsonFiles(path.join(CORPUS, 'gemini')),
      ...jsonFiles(path.join(CORPUS, 'claude-code-jsonl')),
    ];
    const dir = path.join(CORPUS, 'claude-code-jsonl');
    if (existsSync(dir)) {
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
        const lines = readFileSync(path.join(dir, file), 'utf8').split('\n');
        const events = lines.filter((l) => l.trim() !== '').map((l) => parseJson(l));
        values.push({ where: file, value: events });
        events.forEach((e, i) => values.push({ where: `${file}:${i + 1}`, value: e }));
      }
    }
    expect(values.filter((r) => fmt.detect(r.value)).map((r) => r.where)).toEqual([]);
  });
});
