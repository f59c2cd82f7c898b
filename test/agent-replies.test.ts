/**
 * Provider replies read with the format adapters (a reply is a one-message
 * history): what each reply shape becomes in v1, that the result is valid v1
 * that normalize leaves alone, and that what v1 cannot express goes back to
 * the provider on the next request as the API sent it, for JSON and
 * streamed replies, through the SDKs, against a local server that answers
 * with raw provider bodies.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { anthropicReplyMessage } from '../src/agent/anthropic.js';
import { createAgent, createModel, ModelRequestError, type AgentTool } from '../src/agent/index.js';
import { openaiReplyMessage } from '../src/agent/openai.js';
import { normalizeHistory } from '../src/core/normalize.js';
import type { JsonValue } from '../src/model/json.js';
import { ConversationSchema, MessageSchema } from '../src/model/schema.js';
import type { Message, Part } from '../src/model/types.js';
import { runCli } from './helpers/cli.js';
import { requestViolations } from './helpers/provider-acceptance.js';

const KEYS = {
  OPENAI_API_KEY: 'sk-test-replies-0123456789',
  ANTHROPIC_API_KEY: 'sk-ant-replies-0123',
};

const text = (t: string): Part => ({ type: 'text', text: t });
const user = (t: string): Message => ({ role: 'user', parts: [text(t)] });

/** Valid v1, and normalize has nothing to repair once every call is answered. */
function expectSane(message: Message): void {
  expect(MessageSchema.safeParse(message).success, JSON.stringify(message)).toBe(true);
  const calls = message.parts.filter((p) => p.type === 'tool-call');
  const history: Message[] = [user('q'), message];
  if (calls.length > 0) {
    history.push({
      role: 'tool',
      parts: calls.map((c) => ({
        type: 'tool-result',
        callId: c.id as string,
        content: [text('r')],
      })),
    });
  }
  const n = normalizeHistory(history);
  expect(n.messages[1]).toEqual(message);
}

// ---------------------------------------------------------------------------
// Reply shapes

const SEARCH_RESULT = {
  type: 'web_search_result',
  url: 'https://example.com/w',
  title: 'Weather',
  encrypted_content: 'enc-1',
  page_age: null,
};
const CITATION = {
  type: 'web_search_result_location',
  url: 'https://example.com/w',
  title: 'Weather',
  encrypted_index: 'ei-1',
  cited_text: 'sunny',
};

describe('anthropic reply blocks in v1', () => {
  const cases: { name: string; blocks: JsonValue[]; parts: Part[] }[] = [
    { name: 'text', blocks: [{ type: 'text', text: 'hi' }], parts: [text('hi')] },
    {
      name: 'text with citations (kept for the next request)',
      blocks: [{ type: 'text', text: 'sunny', citations: [CITATION] }],
      parts: [
        { type: 'text', text: 'sunny', providerData: { anthropic: { citations: [CITATION] } } },
      ],
    },
    {
      name: 'several tool_use blocks',
      blocks: [
        { type: 'tool_use', id: 't1', name: 'a', input: { x: 1 } },
        { type: 'tool_use', id: 't2', name: 'b', input: {} },
      ],
      parts: [
        { type: 'tool-call', id: 't1', name: 'a', arguments: '{"x":1}' },
        { type: 'tool-call', id: 't2', name: 'b', arguments: '{}' },
      ],
    },
    {
      name: 'thinking with its signature',
      blocks: [
        { type: 'thinking', thinking: 'hmm', signature: 'sig' },
        { type: 'text', text: 'ok' },
      ],
      parts: [{ type: 'reasoning', text: 'hmm', signature: 'sig' }, text('ok')],
    },
    {
      name: 'redacted_thinking',
      blocks: [{ type: 'redacted_thinking', data: 'opaque' }],
      parts: [{ type: 'reasoning', text: '', redacted: 'opaque' }],
    },
    {
      name: 'server_tool_use and web_search_tool_result: kept whole',
      blocks: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [SEARCH_RESULT] },
      ],
      parts: [
        {
          type: 'anthropic:server_tool_use',
          providerData: {
            anthropic: {
              part: {
                type: 'server_tool_use',
                id: 'srvtoolu_1',
                name: 'web_search',
                input: { query: 'q' },
              },
            },
          },
        },
        {
          type: 'anthropic:web_search_tool_result',
          providerData: {
            anthropic: {
              part: {
                type: 'web_search_tool_result',
                tool_use_id: 'srvtoolu_1',
                content: [SEARCH_RESULT],
              },
            },
          },
        },
      ],
    },
    {
      name: 'an unknown block type: kept whole, a "$" field as it is',
      blocks: [{ type: 'future_block', value: 1, $hint: 2 }],
      parts: [
        {
          type: 'anthropic:future_block',
          providerData: { anthropic: { part: { type: 'future_block', value: 1, $hint: 2 } } },
        },
      ],
    },
    { name: 'empty content', blocks: [], parts: [] },
    {
      name: 'an empty text block says nothing',
      blocks: [
        { type: 'text', text: '' },
        { type: 'tool_use', id: 't', name: 'a', input: {} },
      ],
      parts: [{ type: 'tool-call', id: 't', name: 'a', arguments: '{}' }],
    },
    {
      name: 'tool_use whose input is not an object: its JSON text, marked',
      blocks: [
        { type: 'tool_use', id: 't1', name: 'a', input: 'str' },
        { type: 'tool_use', id: 't2', name: 'a', input: [1, 2] },
      ],
      parts: [
        {
          type: 'tool-call',
          id: 't1',
          name: 'a',
          arguments: '"str"',
          providerData: { anthropic: { $inputRaw: true } },
        },
        {
          type: 'tool-call',
          id: 't2',
          name: 'a',
          arguments: '[1,2]',
          providerData: { anthropic: { $inputRaw: true } },
        },
      ],
    },
    {
      name: 'tool_use without input, name or id: still a call',
      blocks: [{ type: 'tool_use' }],
      parts: [{ type: 'tool-call', name: '', arguments: '{}' }],
    },
    {
      name: 'a field the API added to a block is kept',
      blocks: [{ type: 'tool_use', id: 't', name: 'a', input: {}, caller: { type: 'direct' } }],
      parts: [
        {
          type: 'tool-call',
          id: 't',
          name: 'a',
          arguments: '{}',
          providerData: { anthropic: { caller: { type: 'direct' } } },
        },
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const message = anthropicReplyMessage(structuredClone(c.blocks));
      expect(message).toEqual({ role: 'assistant', parts: c.parts });
      expectSane(message);
    });
  }

  it('blocks that are not blocks are a protocol error', () => {
    for (const blocks of [[null], [{ type: 7 }]]) {
      expect(() => anthropicReplyMessage(blocks)).toThrow(ModelRequestError);
      expect(() => anthropicReplyMessage(blocks)).toThrow(
        expect.objectContaining({ kind: 'protocol' }),
      );
    }
  });
});

describe('openai reply messages in v1', () => {
  const call = (id: string, name: string, args: unknown) => ({
    id,
    type: 'function',
    function: { name, arguments: args },
  });
  const cases: { name: string; reply: Record<string, unknown>; message: Message }[] = [
    {
      name: 'text, with the null fields a reply carries',
      reply: { role: 'assistant', content: 'hi', refusal: null, annotations: [] },
      message: { role: 'assistant', parts: [text('hi')] },
    },
    {
      name: 'content null and several tool_calls',
      reply: {
        role: 'assistant',
        content: null,
        tool_calls: [call('c1', 'a', '{"x":1}'), call('c2', 'b', '{}')],
      },
      message: {
        role: 'assistant',
        parts: [
          { type: 'tool-call', id: 'c1', name: 'a', arguments: '{"x":1}' },
          { type: 'tool-call', id: 'c2', name: 'b', arguments: '{}' },
        ],
      },
    },
    {
      name: 'a refusal: text, written back as a refusal part',
      reply: { role: 'assistant', content: null, refusal: 'no' },
      message: {
        role: 'assistant',
        parts: [
          { type: 'text', text: 'no', providerData: { 'openai-chat': { $type: 'refusal' } } },
        ],
      },
    },
    {
      name: 'content and a refusal',
      reply: { role: 'assistant', content: 'hm', refusal: 'no' },
      message: {
        role: 'assistant',
        parts: [
          text('hm'),
          { type: 'text', text: 'no', providerData: { 'openai-chat': { $type: 'refusal' } } },
        ],
      },
    },
    {
      name: 'content as an array of parts',
      reply: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      message: { role: 'assistant', parts: [text('a'), text('b')] },
    },
    {
      name: 'arguments that are not JSON: kept byte for byte',
      reply: { role: 'assistant', content: null, tool_calls: [call('c1', 'a', '{"pa')] },
      message: {
        role: 'assistant',
        parts: [{ type: 'tool-call', id: 'c1', name: 'a', arguments: '{"pa' }],
      },
    },
    {
      name: 'arguments sent as an object: their JSON text, marked',
      reply: { role: 'assistant', content: null, tool_calls: [call('c1', 'a', { x: 1 })] },
      message: {
        role: 'assistant',
        parts: [
          {
            type: 'tool-call',
            id: 'c1',
            name: 'a',
            arguments: '{"x":1}',
            providerData: { 'openai-chat': { $arguments: 'json' } },
          },
        ],
      },
    },
    {
      name: 'reasoning_content: a reasoning part written back to that field; empty is none',
      reply: { role: 'assistant', content: 'ok', reasoning_content: 'think' },
      message: {
        role: 'assistant',
        parts: [
          {
            type: 'reasoning',
            text: 'think',
            providerData: { 'openai-chat': { $field: 'reasoning_content' } },
          },
          text('ok'),
        ],
      },
    },
    {
      name: 'empty reasoning_content and empty content beside a call add nothing',
      reply: {
        role: 'assistant',
        content: '',
        reasoning_content: '',
        tool_calls: [call('c1', 'a', '{}')],
      },
      message: {
        role: 'assistant',
        parts: [{ type: 'tool-call', id: 'c1', name: 'a', arguments: '{}' }],
      },
    },
    {
      name: 'a call without type or id is a function call',
      reply: {
        role: 'assistant',
        content: null,
        tool_calls: [{ function: { name: 'a', arguments: '{}' } }],
      },
      message: { role: 'assistant', parts: [{ type: 'tool-call', name: 'a', arguments: '{}' }] },
    },
    {
      name: 'nothing at all',
      reply: { role: 'assistant', content: null },
      message: { role: 'assistant', parts: [] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const message = openaiReplyMessage(structuredClone(c.reply));
      expect(message).toEqual(c.message);
      expectSane(message);
    });
  }
});

// ---------------------------------------------------------------------------
// Two turns through the SDKs

/** One scripted answer: a JSON body, or the data of each server-sent event. */
type Answer = { json: unknown } | { events: { event?: string; data: unknown }[] };

interface RawServer {
  url: string;
  requests: { path: string; body: Record<string, unknown>; raw: string }[];
  script(...answers: Answer[]): void;
  close(): Promise<void>;
}

/** A server that answers each request with the next scripted raw body. */
async function startRawServer(): Promise<RawServer> {
  const queue: Answer[] = [];
  const requests: RawServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (s: string) => (raw += s));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', body: JSON.parse(raw) as Record<string, unknown>, raw });
      const answer = queue.shift();
      if (answer === undefined) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'nothing scripted' } }));
      } else if ('json' in answer) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.json));
      } else {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          answer.events
            .map(
              (e) =>
                `${e.event === undefined ? '' : `event: ${e.event}\n`}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`,
            )
            .join(''),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...answers) => queue.push(...answers),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let server: RawServer;
beforeAll(async () => {
  server = await startRawServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
});

const echo: AgentTool = {
  name: 'echo',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  execute: async (input) => ({ content: [text(`echo: ${String(input.text)}`)] }),
};

/** A Messages reply with these blocks. */
function messagesReply(content: unknown[], stop = 'end_turn'): unknown {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

/** The Messages stream of a reply with these blocks, each streamed the way the API streams it. */
function messagesStream(content: Record<string, unknown>[], stop: string): Answer {
  const events: { event: string; data: unknown }[] = [];
  const add = (event: string, data: Record<string, unknown>) =>
    events.push({ event, data: { type: event, ...data } });
  add('message_start', {
    message: { ...(messagesReply([], stop) as object), content: [], stop_reason: null },
  });
  content.forEach((b, index) => {
    const delta = (d: unknown) => add('content_block_delta', { index, delta: d });
    if (b.type === 'text') {
      add('content_block_start', { index, content_block: { type: 'text', text: '' } });
      delta({ type: 'text_delta', text: b.text });
      for (const citation of (b.citations as unknown[] | undefined) ?? []) {
        delta({ type: 'citations_delta', citation });
      }
    } else if (b.type === 'thinking') {
      add('content_block_start', { index, content_block: { type: 'thinking', thinking: '' } });
      delta({ type: 'thinking_delta', thinking: b.thinking });
      delta({ type: 'signature_delta', signature: b.signature });
    } else if ('input' in b) {
      add('content_block_start', { index, content_block: { ...b, input: {} } });
      const json = JSON.stringify(b.input);
      delta({ type: 'input_json_delta', partial_json: json.slice(0, 5) });
      delta({ type: 'input_json_delta', partial_json: json.slice(5) });
    } else {
      add('content_block_start', { index, content_block: b });
    }
    add('content_block_stop', { index });
  });
  add('message_delta', {
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  add('message_stop', {});
  return { events };
}

/** A first reply with every kind of block the agent keeps, and a call to run. */
const KEPT_BLOCKS: Record<string, unknown>[] = [
  { type: 'thinking', thinking: 'Let me look.', signature: 'sig-1' },
  { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'weather' } },
  { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [SEARCH_RESULT] },
  { type: 'text', text: 'It is sunny.', citations: [CITATION] },
  { type: 'future_block', opaque: { a: [1, 2] } },
  { type: 'tool_use', id: 'toolu_1', name: 'echo', input: { text: 'hi' } },
];

describe('a reply with kept blocks goes back to the provider as the API sent it', () => {
  for (const stream of [false, true]) {
    it(`anthropic${stream ? ', streamed' : ''}: the next request holds every block unchanged`, async () => {
      server.script(
        stream
          ? messagesStream(KEPT_BLOCKS, 'tool_use')
          : { json: messagesReply(KEPT_BLOCKS, 'tool_use') },
        stream
          ? messagesStream([{ type: 'text', text: 'done' }], 'end_turn')
          : { json: messagesReply([{ type: 'text', text: 'done' }]) },
      );
      const model = createModel({
        provider: 'anthropic',
        model: 'claude-test',
        env: KEYS,
        baseURL: server.url,
        maxRetries: 0,
      });
      const agent = createAgent({ model, tools: [echo] });
      const result = await agent.run([], 'weather?', stream ? { onText: () => {} } : {});
      expect(result.text).toBe('done');
      expect(server.requests).toHaveLength(2);
      const second = server.requests[1]!;
      const messages = second.body.messages as Record<string, unknown>[];
      expect(messages[1]).toEqual({ role: 'assistant', content: KEPT_BLOCKS });
      expect(messages[2]).toEqual({
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [{ type: 'text', text: 'echo: hi' }],
          },
        ],
      });
      expect(requestViolations(second.path, second.raw)).toEqual([]);
      // What the run returns is valid v1, and normalize has nothing to repair in it.
      expect(ConversationSchema.safeParse(result.messages).success).toBe(true);
      expect(normalizeHistory(result.messages).changed).toBe(false);
      expect(result.messages[1]!.parts.map((p) => p.type)).toEqual([
        'reasoning',
        'anthropic:server_tool_use',
        'anthropic:web_search_tool_result',
        'text',
        'anthropic:future_block',
        'tool-call',
      ]);
    });
  }

  it('anthropic, streamed: a tool input that does not parse keeps its text; the next request wraps it', async () => {
    const reply = messagesStream(
      [{ type: 'tool_use', id: 'toolu_1', name: 'echo', input: {} }],
      'tool_use',
    );
    // The input's JSON text, cut short.
    const events = (reply as { events: { data: Record<string, unknown> }[] }).events;
    for (const e of events) {
      if (e.data.type === 'content_block_delta')
        e.data.delta = { type: 'input_json_delta', partial_json: '{"te' };
    }
    server.script(reply, messagesStream([{ type: 'text', text: 'done' }], 'end_turn'));
    const model = createModel({
      provider: 'anthropic',
      model: 'claude-test',
      env: KEYS,
      baseURL: server.url,
      maxRetries: 0,
    });
    const result = await createAgent({ model, tools: [echo] }).run([], 'go', { onText: () => {} });
    expect(result.messages[1]!.parts).toEqual([
      { type: 'tool-call', id: 'toolu_1', name: 'echo', arguments: '{"te{"te' },
    ]);
    const sentBack = (server.requests[1]!.body.messages as Record<string, unknown>[])[1];
    expect(sentBack).toEqual({
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_1', name: 'echo', input: { truncated_args: '{"te{"te' } },
      ],
    });
  });

  /** A Chat Completions reply holding this message. */
  const completion = (message: Record<string, unknown>, finish: string): unknown => ({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1700000000,
    model: 'gpt-test',
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });

  it('openai: reasoning_content and the calls come back on the same message', async () => {
    const calls = [
      { id: 'call_1', type: 'function', function: { name: 'echo', arguments: '{"text":"hi"}' } },
    ];
    server.script(
      {
        json: completion(
          {
            role: 'assistant',
            content: null,
            refusal: null,
            reasoning_content: 'Let me call echo.',
            tool_calls: calls,
            annotations: [],
          },
          'tool_calls',
        ),
      },
      { json: completion({ role: 'assistant', content: 'done', refusal: null }, 'stop') },
    );
    const model = createModel({
      provider: 'openai',
      model: 'gpt-test',
      env: KEYS,
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
    });
    const result = await createAgent({ model, tools: [echo] }).run([], 'go');
    expect(result.text).toBe('done');
    const messages = server.requests[1]!.body.messages as Record<string, unknown>[];
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'Let me call echo.',
      tool_calls: calls,
    });
    expect(requestViolations(server.requests[1]!.path, server.requests[1]!.raw)).toEqual([]);
    expect(ConversationSchema.safeParse(result.messages).success).toBe(true);
  });

  it('openai, streamed: calls whose later chunks carry no type are function calls on the next request', async () => {
    const chunk = (delta: unknown, finish: string | null = null) => ({
      data: {
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'gpt-test',
        choices: [{ index: 0, delta, finish_reason: finish }],
      },
    });
    server.script(
      {
        events: [
          chunk({ role: 'assistant', content: null, reasoning_content: 'hm' }),
          chunk({
            tool_calls: [{ index: 0, id: 'call_1', function: { name: 'echo', arguments: '' } }],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"text":"hi"}' } }] }),
          chunk({}, 'tool_calls'),
          { data: '[DONE]' },
        ],
      },
      { events: [chunk({ content: 'done' }), chunk({}, 'stop'), { data: '[DONE]' }] },
    );
    const model = createModel({
      provider: 'openai',
      model: 'gpt-test',
      env: KEYS,
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
    });
    const result = await createAgent({ model, tools: [echo] }).run([], 'go', { onText: () => {} });
    expect(result.text).toBe('done');
    const messages = server.requests[1]!.body.messages as Record<string, unknown>[];
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'hm',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'echo', arguments: '{"text":"hi"}' } },
      ],
    });
  });

  it('openai: a refusal is the run text, and goes back as a refusal part', async () => {
    server.script(
      {
        json: completion(
          { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
          'stop',
        ),
      },
      { json: completion({ role: 'assistant', content: 'ok', refusal: null }, 'stop') },
    );
    const model = createModel({
      provider: 'openai',
      model: 'gpt-test',
      env: KEYS,
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
    });
    const agent = createAgent({ model });
    const first = await agent.run([], 'do it');
    expect(first.text).toBe('I cannot help with that.');
    await agent.run(first.messages, 'why?');
    const messages = server.requests[1]!.body.messages as Record<string, unknown>[];
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'refusal', refusal: 'I cannot help with that.' }],
    });
    expect(requestViolations(server.requests[1]!.path, server.requests[1]!.raw)).toEqual([]);
  });
});

describe('histlint run with kept blocks', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'histlint-replies-'));
  });
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  const blocks = KEPT_BLOCKS.filter((b) => b.type !== 'tool_use');
  const runArgs = [
    'run',
    '--provider',
    'anthropic',
    '--model',
    'claude-test',
    '--base-url',
    '',
    '--max-retries',
    '0',
  ];
  const args = (...more: string[]) => {
    const a = [...runArgs, ...more];
    a[a.indexOf('--base-url') + 1] = server.url;
    return a;
  };

  it('standard output is valid v1; run on it again, the blocks are sent as they came', async () => {
    server.script(
      { json: messagesReply(blocks) },
      { json: messagesReply([{ type: 'text', text: 'again' }]) },
    );
    const r1 = await runCli(args('--prompt', 'weather?'), {
      cwd: work,
      env: KEYS,
      stdinIsTTY: true,
    });
    expect(r1.code, r1.stderr).toBe(0);
    const out = JSON.parse(r1.stdout) as { version: number; messages: Message[] };
    expect(ConversationSchema.safeParse(out).success).toBe(true);
    writeFileSync(path.join(work, 'v1.json'), r1.stdout);
    const r2 = await runCli(args('v1.json', '--prompt', 'more?'), {
      cwd: work,
      env: KEYS,
      stdinIsTTY: true,
    });
    expect(r2.code, r2.stderr).toBe(0);
    const messages = server.requests[1]!.body.messages as Record<string, unknown>[];
    expect(messages[1]).toEqual({ role: 'assistant', content: blocks });
  });

  it('--write on an anthropic history writes the blocks back as the API sent them', async () => {
    writeFileSync(
      path.join(work, 'chat.json'),
      JSON.stringify([
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
      ]),
    );
    server.script({ json: messagesReply(blocks) });
    const r = await runCli(
      args('chat.json', '--from', 'anthropic', '--prompt', 'weather?', '--write'),
      {
        cwd: work,
        env: KEYS,
        stdinIsTTY: true,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const written = JSON.parse(readFileSync(path.join(work, 'chat.json'), 'utf8')) as unknown[];
    expect(written.at(-1)).toEqual({ role: 'assistant', content: blocks });
  });
});
