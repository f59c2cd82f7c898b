/**
 * A scripted local model server for the run tests: POST /v1/chat/completions
 * (OpenAI Chat Completions) and POST /v1/messages (Anthropic Messages), each
 * as JSON or, when the request asks for `stream: true`, as server-sent
 * events, well enough for the official SDKs. Every request's body and
 * headers are recorded. It listens on 127.0.0.1 on a random port.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A tool call the scripted model makes. */
export interface MockToolCall {
  id?: string;
  name: string;
  /** The arguments text (OpenAI) or, parsed, the input object (Anthropic). */
  arguments: string;
}

/** One scripted answer. */
export type MockReply =
  | {
      text?: string;
      toolCalls?: MockToolCall[];
      /** Reported token usage (default 10 in, 5 out). */
      usage?: { input: number; output: number };
    }
  | {
      /** An HTTP error with a JSON error body. */
      status: number;
      message?: string;
      /** Put the request's auth headers into the error message (a badly behaved gateway). */
      echoHeaders?: boolean;
    }
  /** Never answer. */
  | { hang: true }
  /** Close the connection without answering. */
  | { drop: true };

/** A request the server received. */
export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body. */
  body: Record<string, unknown> & { messages?: Record<string, unknown>[] };
  raw: string;
}

/** A running mock server. */
export interface MockLlm {
  /** `http://127.0.0.1:PORT`: the Anthropic base URL. */
  url: string;
  /** `http://127.0.0.1:PORT/v1`: the OpenAI base URL. */
  openaiBase: string;
  requests: RecordedRequest[];
  /** Queues answers, used in order; a function sees the request. */
  script(...replies: (MockReply | ((req: RecordedRequest) => MockReply))[]): void;
  /** The answer once the queue is empty (default: a 500 error). */
  setFallback(reply: MockReply): void;
  /** Forgets recorded requests and queued answers. */
  reset(): void;
  close(): Promise<void>;
}

function openaiJson(reply: Extract<MockReply, { text?: string }>, model: string): unknown {
  const calls = reply.toolCalls ?? [];
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: reply.text ?? null,
    refusal: null,
  };
  if (calls.length > 0) {
    message.tool_calls = calls.map((c, i) => ({
      id: c.id ?? `call_${i}`,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  const usage = reply.usage ?? { input: 10, output: 5 };
  return {
    id: 'chatcmpl-mock',
    object: 'chat.completion',
    created: 1700000000,
    model,
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
    },
  };
}

function halves(text: string): string[] {
  const mid = Math.ceil(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)].filter((s) => s !== '');
}

function openaiSse(reply: Extract<MockReply, { text?: string }>, model: string): string {
  const base = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1700000000, model };
  const chunks: unknown[] = [];
  const delta = (d: unknown, finish: string | null = null) =>
    chunks.push({
      ...base,
      choices: [{ index: 0, delta: d, logprobs: null, finish_reason: finish }],
    });
  delta({ role: 'assistant', content: '' });
  for (const piece of halves(reply.text ?? '')) delta({ content: piece });
  (reply.toolCalls ?? []).forEach((c, i) => {
    delta({
      tool_calls: [
        {
          index: i,
          id: c.id ?? `call_${i}`,
          type: 'function',
          function: { name: c.name, arguments: '' },
        },
      ],
    });
    for (const piece of halves(c.arguments)) {
      delta({ tool_calls: [{ index: i, function: { arguments: piece } }] });
    }
  });
  delta({}, (reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop');
  const usage = reply.usage ?? { input: 10, output: 5 };
  chunks.push({
    ...base,
    choices: [],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
    },
  });
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
}

function anthropicBlocks(reply: Extract<MockReply, { text?: string }>): unknown[] {
  const blocks: unknown[] = [];
  if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text });
  (reply.toolCalls ?? []).forEach((c, i) => {
    let input: unknown;
    try {
      input = JSON.parse(c.arguments);
    } catch {
      input = {};
    }
    blocks.push({ type: 'tool_use', id: c.id ?? `toolu_${i}`, name: c.name, input });
  });
  return blocks;
}

function anthropicJson(reply: Extract<MockReply, { text?: string }>, model: string): unknown {
  const usage = reply.usage ?? { input: 10, output: 5 };
  return {
    id: 'msg_mock',
    type: 'message',
    role: 'assistant',
    model,
    content: anthropicBlocks(reply),
    stop_reason: (reply.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

function anthropicSse(reply: Extract<MockReply, { text?: string }>, model: string): string {
  const usage = reply.usage ?? { input: 10, output: 5 };
  const events: [string, unknown][] = [];
  events.push([
    'message_start',
    {
      type: 'message_start',
      message: {
        id: 'msg_mock',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: 1 },
      },
    },
  ]);
  let index = 0;
  if (reply.text !== undefined) {
    events.push([
      'content_block_start',
      { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    ]);
    for (const piece of halves(reply.text)) {
      events.push([
        'content_block_delta',
        { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
      ]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  }
  (reply.toolCalls ?? []).forEach((c, i) => {
    events.push([
      'content_block_start',
      {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: c.id ?? `toolu_${i}`, name: c.name, input: {} },
      },
    ]);
    for (const piece of halves(c.arguments)) {
      events.push([
        'content_block_delta',
        {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: piece },
        },
      ]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  });
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: {
        stop_reason: (reply.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn',
        stop_sequence: null,
      },
      usage: { output_tokens: usage.output },
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join('');
}

/** Starts a mock server. */
export async function startMockLlm(): Promise<MockLlm> {
  const requests: RecordedRequest[] = [];
  let queue: (MockReply | ((req: RecordedRequest) => MockReply))[] = [];
  let fallback: MockReply = { status: 500, message: 'no scripted reply' };
  const sockets = new Set<Socket>();

  const send = (res: ServerResponse, status: number, body: unknown, headers = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: RecordedRequest['body'] = {};
      try {
        body = JSON.parse(raw) as RecordedRequest['body'];
      } catch {
        // Recorded as {} so a test sees the raw text.
      }
      const path = (req.url ?? '').split('?')[0]!;
      const record: RecordedRequest = { path, headers: req.headers, body, raw };
      requests.push(record);
      const openai = path === '/v1/chat/completions';
      const anthropic = path === '/v1/messages';
      if (req.method !== 'POST' || (!openai && !anthropic)) {
        send(res, 404, { error: { message: `no route ${req.method} ${path}` } });
        return;
      }
      const next = queue.shift() ?? fallback;
      const reply = typeof next === 'function' ? next(record) : next;
      if ('hang' in reply) return;
      if ('drop' in reply) {
        req.socket.destroy();
        return;
      }
      if ('status' in reply) {
        let message = reply.message ?? `mock error ${reply.status}`;
        if (reply.echoHeaders) {
          message += ` (request headers: authorization=${String(req.headers.authorization)} x-api-key=${String(req.headers['x-api-key'])})`;
        }
        const error = anthropic
          ? { type: 'error', error: { type: 'api_error', message } }
          : { error: { message, type: 'server_error', code: null } };
        // Retries come at once, so tests stay fast.
        send(res, reply.status, error, { 'retry-after-ms': '1' });
        return;
      }
      const model = typeof body.model === 'string' ? body.model : 'mock';
      if (body.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(openai ? openaiSse(reply, model) : anthropicSse(reply, model));
        return;
      }
      send(res, 200, openai ? openaiJson(reply, model) : anthropicJson(reply, model));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    openaiBase: `${url}/v1`,
    requests,
    script(...replies) {
      queue.push(...replies);
    },
    setFallback(reply) {
      fallback = reply;
    },
    reset() {
      requests.length = 0;
      queue = [];
      fallback = { status: 500, message: 'no scripted reply' };
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
