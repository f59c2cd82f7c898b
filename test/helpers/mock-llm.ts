/**
 * A scripted local model server for the run tests: POST /v1/chat/completions
 * (OpenAI Chat Completions) and POST /v1/messages (Anthropic Messages), each
 * as JSON or, when the request asks for `stream: true`, as server-sent
 * events, well enough for the official SDKs. Every request's body and
 * headers are recorded, and every body is checked against the provider's
 * acceptance rules (./provider-acceptance.ts): a request the provider would
 * refuse gets the provider's 400 and is listed in `violations`, which the
 * suites assert empty after each test. Faults can be scripted: HTTP errors,
 * a hang, a dropped connection, and replies that break on the way (a reset
 * or a clean end mid-stream, a malformed event, an error event, a stall).
 * It listens on 127.0.0.1 on a random port.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { requestViolations } from './provider-acceptance.js';

/** A tool call the scripted model makes. */
export interface MockToolCall {
  id?: string;
  name: string;
  /** The arguments text (OpenAI) or, parsed, the input object (Anthropic). */
  arguments: string;
}

/** A model answer. */
export interface MockAnswer {
  text?: string;
  toolCalls?: MockToolCall[];
  /** Reported token usage (default 10 in, 5 out). */
  usage?: { input: number; output: number };
}

/**
 * How a reply breaks on the way. For a stream, the first `after` events are
 * sent, then: `reset` destroys the connection; `end` closes the stream
 * cleanly without the rest; `stall` sends nothing more; `malformed` sends an
 * event whose data is not JSON (then the rest); `error-event` sends the
 * provider's mid-stream error event. For a JSON reply, half the body is sent
 * before `reset`, `end` or `stall`; `malformed` sends a body that is not
 * JSON; `error-event` is a 200 holding an error object.
 */
export type MockFault = 'reset' | 'end' | 'stall' | 'malformed' | 'error-event';

/** One scripted answer. */
export type MockReply =
  | MockAnswer
  | {
      fault: MockFault;
      /** Stream events sent before the fault (default 2). */
      after?: number;
      /** The answer being sent (default: a text and a tool call). */
      reply?: MockAnswer;
    }
  | {
      /** An HTTP error with a JSON error body. */
      status: number;
      message?: string;
      /** The error's type (default `api_error` for Anthropic, `server_error` for OpenAI). */
      type?: string;
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

/** A request the provider would have refused, and why. */
export interface Violation {
  /** Its index in `requests`. */
  request: number;
  path: string;
  problems: string[];
}

/** A running mock server. */
export interface MockLlm {
  /** `http://127.0.0.1:PORT`: the Anthropic base URL. */
  url: string;
  /** `http://127.0.0.1:PORT/v1`: the OpenAI base URL. */
  openaiBase: string;
  requests: RecordedRequest[];
  /** Requests the provider would have refused (answered with its 400); kept across `reset`. */
  violations: Violation[];
  /** Returns the violations seen so far and forgets them. */
  takeViolations(): Violation[];
  /** Queues answers, used in order; a function sees the request. */
  script(...replies: (MockReply | ((req: RecordedRequest) => MockReply))[]): void;
  /** The answer once the queue is empty (default: a 500 error). */
  setFallback(reply: MockReply): void;
  /** Forgets recorded requests and queued answers (not the violations). */
  reset(): void;
  close(): Promise<void>;
}

function openaiJson(reply: MockAnswer, model: string): unknown {
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

/** The SSE events of a Chat Completions stream, each with its blank line. */
function openaiSse(reply: MockAnswer, model: string): string[] {
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
  return [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'];
}

function anthropicBlocks(reply: MockAnswer): unknown[] {
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

function anthropicJson(reply: MockAnswer, model: string): unknown {
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

/** The SSE events of a Messages stream, each with its blank line. */
function anthropicSse(reply: MockAnswer, model: string): string[] {
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
  return events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`);
}

/** The provider's error body. */
function errorBody(anthropic: boolean, message: string, type?: string): unknown {
  return anthropic
    ? { type: 'error', error: { type: type ?? 'api_error', message } }
    : { error: { message, type: type ?? 'server_error', code: null } };
}

/** A default answer for a fault: some text and a tool call, so a cut can land in either. */
const FAULTY_ANSWER: MockAnswer = {
  text: 'this reply breaks',
  toolCalls: [{ id: 'never_1', name: 'echo', arguments: '{"text":"never"}' }],
};

/** Sends a reply that breaks on the way (see {@link MockFault}). */
function sendFault(
  res: ServerResponse,
  socket: Socket,
  reply: Extract<MockReply, { fault: MockFault }>,
  anthropic: boolean,
  stream: boolean,
  model: string,
): void {
  const answer = reply.reply ?? FAULTY_ANSWER;
  const cut = (): void => {
    // A moment for the client to read what was sent, then a TCP reset.
    setTimeout(() => socket.resetAndDestroy(), 100);
  };
  if (!stream) {
    const body = JSON.stringify(
      anthropic ? anthropicJson(answer, model) : openaiJson(answer, model),
    );
    const half = body.slice(0, Math.floor(body.length / 2));
    switch (reply.fault) {
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(half);
        return;
      case 'error-event':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(errorBody(anthropic, 'mock failure inside a 200')));
        return;
      case 'end':
        // Chunked, so a clean end is a complete (if truncated) body.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(half);
        return;
      case 'reset':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(half, cut);
        return;
      case 'stall':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(half);
        return;
    }
  }
  const events = anthropic ? anthropicSse(answer, model) : openaiSse(answer, model);
  const after = Math.min(reply.after ?? 2, events.length);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const head = events.slice(0, after).join('');
  switch (reply.fault) {
    case 'reset':
      res.write(head, cut);
      return;
    case 'end':
      res.end(head);
      return;
    case 'stall':
      res.write(head);
      return;
    case 'malformed': {
      const broken = anthropic
        ? 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","te\n\n'
        : 'data: {"id":"chatcmpl-mock","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"conte\n\n';
      res.end(head + broken + events.slice(after).join(''));
      return;
    }
    case 'error-event': {
      const error = anthropic
        ? `event: error\ndata: ${JSON.stringify(errorBody(true, 'Overloaded', 'overloaded_error'))}\n\n`
        : `data: ${JSON.stringify(errorBody(false, 'mock failure mid-stream'))}\n\n`;
      res.end(head + error);
      return;
    }
  }
}

/** Starts a mock server. */
export async function startMockLlm(): Promise<MockLlm> {
  const requests: RecordedRequest[] = [];
  const violations: Violation[] = [];
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
      // The provider refuses what breaks its rules before anything else happens.
      const problems = requestViolations(path, raw);
      if (problems.length > 0) {
        violations.push({ request: requests.length - 1, path, problems });
        send(res, 400, errorBody(anthropic, problems.join('; '), 'invalid_request_error'));
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
        // Retries come at once, so tests stay fast.
        send(res, reply.status, errorBody(anthropic, message, reply.type), {
          'retry-after-ms': '1',
        });
        return;
      }
      const model = typeof body.model === 'string' ? body.model : 'mock';
      if ('fault' in reply) {
        sendFault(res, req.socket, reply, anthropic, body.stream === true, model);
        return;
      }
      if (body.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end((openai ? openaiSse(reply, model) : anthropicSse(reply, model)).join(''));
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
    violations,
    takeViolations() {
      return violations.splice(0);
    },
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
