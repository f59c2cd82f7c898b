/**
 * sanitize drops the references that make a provider load content it stores (a response, a
 * conversation, an operator's prompt template, an item, an uploaded file): a client must not
 * splice stored items into a request. Each case is a Responses request body a client submitted.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sanitizeHistory as sanitizeMessages } from '../src/core/sanitize.js';
import { sanitizeHistory } from '../src/index.js';
import type { Conversation } from '../src/formats/format.js';
import type { Message } from '../src/model/types.js';
import { runCli } from './helpers/cli.js';

const work = mkdtempSync(path.join(tmpdir(), 'histlint-server-refs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Case {
  name: string;
  body: Record<string, unknown>;
  /** The report's `serverReferences`. */
  expected: object[];
  /** Strings the written body must not hold. */
  gone: string[];
  removedMessages?: number[];
}

const hi = { role: 'user', content: 'hi' };

const CASES: Case[] = [
  {
    name: 'previous_response_id',
    body: { model: 'gpt-5', previous_response_id: 'resp_stored', input: [hi] },
    expected: [{ field: 'previous_response_id' }],
    gone: ['previous_response_id', 'resp_stored'],
  },
  {
    name: 'conversation',
    body: { model: 'gpt-5', conversation: { id: 'conv_stored' }, input: [hi] },
    expected: [{ field: 'conversation' }],
    gone: ['"conversation"', 'conv_stored'],
  },
  {
    name: 'a prompt template whose variables hold a file: image',
    body: {
      model: 'gpt-5',
      prompt: {
        id: 'pmpt_operator',
        version: '3',
        variables: { photo: { type: 'input_image', image_url: 'file:///etc/passwd' } },
      },
      input: [hi],
    },
    expected: [{ field: 'prompt' }],
    gone: ['pmpt_operator', 'file:///etc/passwd', '"prompt"'],
  },
  {
    name: 'a tool list whose code interpreter names uploaded files',
    body: {
      model: 'gpt-5',
      tools: [{ type: 'code_interpreter', container: { type: 'auto', file_ids: ['file-stored'] } }],
      input: [hi],
    },
    expected: [{ field: 'tools' }],
    gone: ['file-stored'],
  },
  {
    name: 'a file search over stored vector stores',
    body: {
      model: 'gpt-5',
      tools: [{ type: 'file_search', vector_store_ids: ['vs_operator'] }],
      input: [hi],
    },
    expected: [{ field: 'tools' }],
    gone: ['vs_operator'],
  },
  {
    name: 'an item_reference item',
    body: { model: 'gpt-5', input: [hi, { type: 'item_reference', id: 'msg_stored' }] },
    expected: [{ messageIndex: 1, partIndex: 0, kind: 'item_reference' }],
    gone: ['item_reference', 'msg_stored'],
    removedMessages: [1],
  },
  {
    name: 'an input_file by file_id',
    body: {
      model: 'gpt-5',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'read this' },
            { type: 'input_file', file_id: 'file-stored' },
          ],
        },
      ],
    },
    expected: [{ messageIndex: 0, partIndex: 1, kind: 'file_id' }],
    gone: ['file_id', 'file-stored'],
  },
  {
    name: 'an input_image by file_id',
    body: {
      model: 'gpt-5',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_image', file_id: 'file-img', detail: 'auto' },
            { type: 'input_text', text: 'what is this?' },
          ],
        },
      ],
    },
    expected: [{ messageIndex: 0, partIndex: 0, kind: 'file_id' }],
    gone: ['file_id', 'file-img'],
  },
  {
    name: 'an input_image with both an https URL and a file_id',
    body: {
      model: 'gpt-5',
      input: [
        hi,
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: 'https://example.com/a.png', file_id: 'file-both' },
          ],
        },
      ],
    },
    expected: [{ messageIndex: 1, partIndex: 0, kind: 'file_id' }],
    gone: ['file_id', 'file-both'],
    removedMessages: [1],
  },
  {
    name: 'an input_image by file_id inside a function output',
    body: {
      model: 'gpt-5',
      input: [
        hi,
        { type: 'function_call', call_id: 'c1', name: 'look', arguments: '{}' },
        {
          type: 'function_call_output',
          call_id: 'c1',
          output: [
            { type: 'input_text', text: 'here' },
            { type: 'input_image', file_id: 'file-out' },
          ],
        },
      ],
    },
    expected: [{ messageIndex: 2, partIndex: 0, contentIndex: 1, kind: 'file_id' }],
    gone: ['file_id', 'file-out'],
  },
  {
    name: 'an output for a call stored with the previous response',
    body: {
      model: 'gpt-5',
      previous_response_id: 'resp_stored',
      input: [{ type: 'function_call_output', call_id: 'stored_call', output: '42' }, hi],
    },
    expected: [
      { field: 'previous_response_id' },
      { messageIndex: 0, partIndex: 0, kind: 'stored_call_output' },
    ],
    gone: ['previous_response_id', 'stored_call'],
  },
];

let n = 0;
function inputFile(body: unknown): string {
  const file = path.join(work, `in-${n++}.json`);
  writeFileSync(file, JSON.stringify(body, null, 2));
  return file;
}

describe('sanitize drops server-side references of a Responses request', () => {
  for (const c of CASES) {
    it(`${c.name}: dropped, reported, and --check exits 1`, async () => {
      const file = inputFile(c.body);
      const out = path.join(work, `out-${n++}.json`);
      const r = await runCli(['sanitize', '--report-format', 'json', file, '-o', out]);
      expect(r.code).toBe(0);
      const entry = JSON.parse(r.stderr).files[0];
      expect(entry.changed).toBe(true);
      expect(entry.sanitize.serverReferences).toEqual(c.expected);
      expect(entry.sanitize.removedMessages).toEqual(c.removedMessages ?? []);
      const written = readFileSync(out, 'utf8');
      for (const s of c.gone) expect(written).not.toContain(s);
      // What sanitize kept is still a Responses request.
      expect(JSON.parse(written).model).toBe('gpt-5');
      expect(JSON.parse(written).input.length).toBeGreaterThan(0);

      const check = await runCli(['sanitize', '--check', file]);
      expect(check.code).toBe(1);
      // A second run finds nothing more.
      const again = await runCli(['sanitize', '--check', out]);
      expect(again.code).toBe(0);
    });
  }

  it('lists each drop on a human line, with a summary count', async () => {
    const file = inputFile({
      model: 'gpt-5',
      previous_response_id: 'resp_1',
      prompt: { id: 'pmpt_1' },
      input: [
        hi,
        { role: 'assistant', content: 'hello' },
        {
          role: 'user',
          content: [
            { type: 'input_file', file_id: 'file-1' },
            { type: 'input_text', text: 'and this' },
          ],
        },
        { type: 'item_reference', id: 'msg_1' },
      ],
    });
    const r = await runCli(['sanitize', file, '-o', path.join(work, `out-${n++}.json`)]);
    expect(r.code).toBe(0);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /: changed \(4 server references dropped, 1 empty user message removed\)$/,
    );
    expect(lines.slice(1)).toEqual([
      '  dropped server reference previous_response_id (a client must not load stored items)',
      '  dropped server reference prompt (a client must not load stored items)',
      '  message 2 part 0: dropped file_id (a server-side reference)',
      '  message 3 part 0: dropped item_reference (a server-side reference)',
      '  message 3: removed the user message left empty',
    ]);
  });

  it('leaves a request without references alone', async () => {
    const file = inputFile({ model: 'gpt-5', previous_response_id: null, input: [hi] });
    const r = await runCli(['sanitize', '--check', '--report-format', 'json', file]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stderr).files[0].sanitize.serverReferences).toEqual([]);
  });
});

describe('sanitizeHistory and server-side references', () => {
  it('drops the request-level references an envelope keeps', () => {
    const envelope: Conversation = {
      version: 1,
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
      providerData: {
        'openai-responses': {
          model: 'gpt-5',
          previous_response_id: 'resp_1',
          conversation: 'conv_1',
          prompt: { id: 'pmpt_1', variables: { a: 'b' } },
          store: false,
        },
        anthropic: { container: 'container_1', top_k: 3 },
      },
    };
    const r = sanitizeHistory(envelope);
    expect(r.changed).toBe(true);
    expect(r.report.serverReferences).toEqual([
      { field: 'previous_response_id' },
      { field: 'conversation' },
      { field: 'prompt' },
      { field: 'container' },
    ]);
    expect(r.envelope.providerData).toEqual({
      'openai-responses': { model: 'gpt-5', store: false },
      anthropic: { top_k: 3 },
    });
    expect(r.envelope.messages).toEqual(envelope.messages);
    // The caller's value is not touched.
    expect(
      (envelope.providerData as Record<string, Record<string, unknown>>)['openai-responses']!
        .previous_response_id,
    ).toBe('resp_1');
    expect(sanitizeHistory(r.envelope).changed).toBe(false);
  });

  it('reports none for an array or an envelope without them', () => {
    const messages: Message[] = [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }];
    expect(sanitizeHistory(messages).report.serverReferences).toEqual([]);
    const r = sanitizeHistory({ version: 1, messages, providerData: { x: { model: 'm' } } });
    expect(r.report.serverReferences).toEqual([]);
    expect(r.changed).toBe(false);
  });

  it("drops a message's own kept data that names an uploaded file", () => {
    const messages = [
      {
        role: 'user',
        parts: [{ type: 'text', text: 'hi' }],
        providerData: { 'openai-responses': { attachments: [{ file_id: 'file-stored' }] } },
      },
    ] as unknown as Message[];
    const { messages: out, report } = sanitizeMessages(messages);
    expect(JSON.stringify(out)).not.toContain('file-stored');
    expect(report.providerDataDropped).toEqual([0]);
  });

  it('drops parts that name stored content, at any depth of their providerData', () => {
    const messages: Message[] = [
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'hi' },
          {
            type: 'anthropic:document',
            providerData: { anthropic: { source: { type: 'file', file_id: 'file_1' } } },
          },
          { type: 'other:item_reference', providerData: { other: { id: 'x' } } },
        ],
      },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: '{}' }] },
      {
        role: 'tool',
        parts: [
          {
            type: 'tool-result',
            callId: 'c1',
            content: [
              {
                type: 'tool-result',
                callId: 'n',
                content: [{ type: 'image', providerData: { p: { file_id: 'f' } } }],
              },
            ],
          },
        ],
      },
    ];
    const r = sanitizeMessages(messages);
    expect(r.report.serverReferences).toEqual([
      { messageIndex: 0, partIndex: 1, kind: 'file_id' },
      { messageIndex: 0, partIndex: 2, kind: 'item_reference' },
      { messageIndex: 2, partIndex: 0, contentIndex: 0, kind: 'file_id' },
    ]);
    expect(r.messages[0]!.parts).toEqual([{ type: 'text', text: 'hi' }]);
    // A tool message is never removed: its result stays, emptied of the reference.
    expect(r.messages[2]!.parts[0]!.content).toEqual([]);
  });
});
