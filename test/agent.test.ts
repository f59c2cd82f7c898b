/**
 * The agent library (SPEC §2.5, §4, §6) against a scripted local model
 * server: what each provider is sent (instructions, repaired history,
 * truncated arguments, tools, the trimmed window), what a run returns and
 * stamps, retries, timeouts, failures and their partial conversations,
 * interruption, streaming, and MCP tools from a local stdio server.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AgentConfigError,
  McpStartError,
  ModelRequestError,
  RunError,
  canContinue,
  connectMcpServers,
  createAgent,
  createModel,
  limitHistoryMessages,
  MIN_STORED_SECRET_LENGTH,
  parseCommandLine,
  redactSecrets,
  type AgentTool,
  type McpConnection,
  type ModelClient,
  type ModelResponse,
} from '../src/agent/index.js';
import { isUuid } from '../src/core/ids.js';
import { INTERRUPTED_TEXT, normalizeHistory } from '../src/core/normalize.js';
import type { Message, Part } from '../src/model/types.js';
import { startMockLlm, type MockFault, type MockLlm } from './helpers/mock-llm.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ECHO_SERVER = path.join(ROOT, 'fixtures/mcp/echo-server.mjs');

const OPENAI_KEY = 'sk-test-OPENAI-0123456789abcdef';
const ANTHROPIC_KEY = 'sk-ant-test-ANTHROPIC-0123456789';
const ENV = { OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY };

const R0 = '01900000-0000-7000-8000-000000000001';
const C0 = '01900000-0000-7000-8000-0000000000c0';
const C1 = '01900000-0000-7000-8000-0000000000c1';

const text = (t: string): Part => ({ type: 'text', text: t });

/**
 * A stored history with everything a run must handle: a system message, a
 * call answered, a call left dangling with truncated arguments, an orphan
 * result, and stamps from an earlier run (the newest with C1).
 */
const HISTORY: Message[] = [
  { role: 'system', parts: [text('stored system prompt')] },
  { role: 'user', parts: [text('first question')], runId: R0, conversationId: C0 },
  {
    role: 'assistant',
    parts: [
      { type: 'tool-call', id: 'call_a', name: 'echo', arguments: '{"text":"a"}' },
      { type: 'tool-call', id: 'call_t', name: 'write', arguments: '{"pa' },
    ],
    runId: R0,
    conversationId: C0,
  },
  {
    role: 'tool',
    parts: [{ type: 'tool-result', callId: 'call_a', name: 'echo', content: [text('a')] }],
    runId: R0,
    conversationId: C0,
  },
  { role: 'tool', parts: [{ type: 'tool-result', callId: 'call_zz', content: [text('orphan')] }] },
  { role: 'assistant', parts: [text('ok')], conversationId: C1 },
];

/** The tools the in-process tests offer. */
const echoTool: AgentTool = {
  name: 'echo',
  description: 'Echoes the text.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  execute: async (input) => ({ content: [text(`echo: ${String(input.text)}`)] }),
};
const brokenTool: AgentTool = {
  name: 'broken',
  inputSchema: { type: 'object' },
  execute: async () => {
    throw new Error('disk on fire');
  },
};

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm();
});
afterAll(async () => {
  await mock.close();
});
// Every request any test made must be one the provider accepts (test/helpers/provider-acceptance.ts).
afterEach(() => {
  mock.reset();
  expect(mock.takeViolations(), 'requests the provider would refuse').toEqual([]);
});

function openai(extra: { maxRetries?: number; timeoutMs?: number } = {}): ModelClient {
  return createModel({
    provider: 'openai',
    model: 'gpt-test',
    env: ENV,
    baseURL: mock.openaiBase,
    maxRetries: extra.maxRetries ?? 0,
    ...(extra.timeoutMs === undefined ? {} : { timeoutMs: extra.timeoutMs }),
  });
}

function modelFor(
  provider: 'openai' | 'anthropic',
  extra: { maxRetries?: number; timeoutMs?: number } = {},
): ModelClient {
  return createModel({
    provider,
    model: provider === 'openai' ? 'gpt-test' : 'claude-test',
    env: ENV,
    baseURL: provider === 'openai' ? mock.openaiBase : mock.url,
    maxRetries: extra.maxRetries ?? 0,
    ...(extra.timeoutMs === undefined ? {} : { timeoutMs: extra.timeoutMs }),
  });
}

function anthropic(): ModelClient {
  return createModel({
    provider: 'anthropic',
    model: 'claude-test',
    env: ENV,
    baseURL: mock.url,
    maxRetries: 0,
  });
}

/** Every message the request body holds, as sent. */
function sent(i: number): Record<string, unknown>[] {
  return mock.requests[i]!.body.messages!;
}

async function runError(p: Promise<unknown>): Promise<RunError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(RunError);
    return e as RunError;
  }
  throw new Error('the run did not fail');
}

describe('what the openai provider sends', () => {
  it('instructions first, no history system message, the history repaired, truncated arguments wrapped, tools, the prompt last', async () => {
    mock.script({ text: 'hello there' });
    const agent = createAgent({
      model: openai(),
      instructions: ['Be brief.', '', 'Answer in English.'],
      dynamicInstructions: () => 'Today is Tuesday.',
      tools: [echoTool],
    });
    const result = await agent.run(HISTORY, 'second question');
    expect(mock.requests).toHaveLength(1);
    const body = mock.requests[0]!.body;
    expect(body.model).toBe('gpt-test');
    expect(sent(0)).toEqual([
      { role: 'system', content: 'Be brief.\n\nAnswer in English.\n\nToday is Tuesday.' },
      { role: 'user', content: 'first question' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'echo', arguments: '{"text":"a"}' } },
          {
            id: 'call_t',
            type: 'function',
            function: { name: 'write', arguments: '{"truncated_args":"{\\"pa"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_t', content: INTERRUPTED_TEXT },
      { role: 'tool', tool_call_id: 'call_a', content: 'a' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'second question' },
    ]);
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'echo',
          description: 'Echoes the text.',
          parameters: { type: 'object', properties: { text: { type: 'string' } } },
        },
      },
    ]);
    expect(mock.requests[0]!.raw).not.toContain('stored system prompt');
    expect(mock.requests[0]!.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(result.text).toBe('hello there');
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
  });

  it('sends no system message at all when the instructions are empty, and no tools when there are none', async () => {
    mock.script({ text: 'x' });
    await createAgent({ model: openai(), instructions: '  ', dynamicInstructions: () => '' }).run(
      [],
      'hi',
    );
    expect(sent(0)).toEqual([{ role: 'user', content: 'hi' }]);
    expect(mock.requests[0]!.body).not.toHaveProperty('tools');
  });
});

describe('what the anthropic provider sends', () => {
  it('instructions in the top-level system, results first in the next user turn, truncated arguments as an object', async () => {
    mock.script({ text: 'fine' });
    const agent = createAgent({ model: anthropic(), instructions: 'Be brief.', tools: [echoTool] });
    await agent.run(HISTORY, 'next');
    const body = mock.requests[0]!.body;
    expect(mock.requests[0]!.path).toBe('/v1/messages');
    expect(body.system).toBe('Be brief.');
    expect(body.max_tokens).toBe(4096);
    expect(sent(0)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'first question' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_a', name: 'echo', input: { text: 'a' } },
          { type: 'tool_use', id: 'call_t', name: 'write', input: { truncated_args: '{"pa' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'call_t',
            content: [{ type: 'text', text: INTERRUPTED_TEXT }],
          },
          { type: 'tool_result', tool_use_id: 'call_a', content: [{ type: 'text', text: 'a' }] },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
    ]);
    // The offered tool, then a stand-in for the history's tool the API would otherwise refuse.
    expect((body.tools as { name: string }[]).map((t) => t.name)).toEqual(['echo', 'write']);
    expect(mock.requests[0]!.raw).not.toContain('stored system prompt');
    expect(mock.requests[0]!.headers.authorization).toBe(`Bearer ${ANTHROPIC_KEY}`);
  });
});

describe('the history processor', () => {
  it('shapes only what is sent; the result holds the whole history, repaired, plus the run', async () => {
    const long: Message[] = [];
    for (let i = 0; i < 30; i++) {
      long.push({ role: i % 2 === 0 ? 'user' : 'assistant', parts: [text(`m${i}`)] });
    }
    mock.script({ text: 'done' });
    const agent = createAgent({ model: openai(), historyProcessor: limitHistoryMessages(10) });
    const result = await agent.run(long, 'go on');
    expect(sent(0).map((m) => m.content)).toEqual([
      ...long.slice(20).map((m) => String(m.parts[0]!.text)),
      'go on',
    ]);
    expect(result.messages.slice(0, 30)).toEqual(long);
    expect(result.messages).toHaveLength(32);
  });

  it('a processor that fails stops the run before any request, without a partial', async () => {
    const agent = createAgent({ model: openai(), historyProcessor: limitHistoryMessages(1) });
    const only: Message[] = [
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'c', name: 'x', arguments: '{}' }] },
      { role: 'tool', parts: [{ type: 'tool-result', callId: 'c', content: [] }] },
    ];
    const e = await runError(agent.run(only, 'hi'));
    expect(e.stage).toBe('history');
    expect(e.partial).toBeUndefined();
    expect(mock.requests).toHaveLength(0);
  });
});

describe('identity (SPEC §2.5)', () => {
  it('stamps only what the run adds; the newest history id is donated; repair results carry none', async () => {
    mock.script({ text: 'answer' });
    const result = await createAgent({ model: openai() }).run(HISTORY, 'q');
    expect(isUuid(result.runId)).toBe(true);
    expect(result.conversationId).toBe(C1);
    const m = result.messages;
    // History as stored (orphan dropped, synthesized result inserted), stamps untouched.
    expect(m[0]).toEqual(HISTORY[0]);
    expect(m[1]).toEqual(HISTORY[1]);
    expect(m[2]).toEqual(HISTORY[2]);
    expect(m[3]).toEqual({
      role: 'tool',
      parts: [
        { type: 'tool-result', callId: 'call_t', name: 'write', content: [text(INTERRUPTED_TEXT)] },
      ],
    });
    expect(m[4]).toEqual(HISTORY[3]);
    expect(m[5]).toEqual(HISTORY[5]);
    expect(m.slice(6)).toEqual([
      { role: 'user', parts: [text('q')], runId: result.runId, conversationId: C1 },
      { role: 'assistant', parts: [text('answer')], runId: result.runId, conversationId: C1 },
    ]);
  });

  it('runId is fresh per run unless given; a given conversationId wins; a history without ids gets a new one', async () => {
    mock.script({ text: 'a' }, { text: 'b' }, { text: 'c' });
    const agent = createAgent({ model: openai() });
    const first = await agent.run([], 'one');
    const second = await agent.run(first.messages, 'two');
    expect(isUuid(first.conversationId)).toBe(true);
    expect(second.conversationId).toBe(first.conversationId);
    expect(second.runId).not.toBe(first.runId);
    const fork = await agent.run(second.messages, 'three', {
      runId: 'trace-42',
      conversationId: C0,
    });
    expect(fork.runId).toBe('trace-42');
    expect(fork.conversationId).toBe(C0);
    // Earlier runs' messages keep their own stamps.
    expect(fork.messages.slice(0, 4)).toEqual(second.messages);
    expect(
      fork.messages.slice(4).every((x) => x.runId === 'trace-42' && x.conversationId === C0),
    ).toBe(true);
  });
});

describe('tools and steps', () => {
  it('executes calls, appends results, sums usage over requests', async () => {
    mock.script(
      {
        toolCalls: [
          { id: 'c1', name: 'echo', arguments: '{"text":"x"}' },
          { id: 'c2', name: 'broken', arguments: '{}' },
          { id: 'c3', name: 'nope', arguments: '{}' },
          { id: 'c4', name: 'echo', arguments: '{"text":' },
        ],
        usage: { input: 100, output: 20 },
      },
      { text: 'all done', usage: { input: 150, output: 7 } },
    );
    const agent = createAgent({ model: openai(), tools: [echoTool, brokenTool] });
    const result = await agent.run([], 'use tools');
    expect(result.requests).toBe(2);
    expect(result.toolExecutions).toBe(2);
    expect(result.usage).toEqual({ inputTokens: 250, outputTokens: 27, totalTokens: 277 });
    const tool = result.messages[2]!;
    expect(tool.role).toBe('tool');
    expect(tool.runId).toBe(result.runId);
    expect(tool.parts).toEqual([
      { type: 'tool-result', callId: 'c1', name: 'echo', content: [text('echo: x')] },
      {
        type: 'tool-result',
        callId: 'c2',
        name: 'broken',
        content: [text('tool "broken" failed: disk on fire')],
        failed: true,
      },
      {
        type: 'tool-result',
        callId: 'c3',
        name: 'nope',
        content: [text('not run: there is no tool named "nope"')],
        failed: true,
      },
      {
        type: 'tool-result',
        callId: 'c4',
        name: 'echo',
        content: [text('not run: the arguments are not the text of a JSON object')],
        failed: true,
      },
    ]);
    // The second request carried the results back, the truncated call wrapped.
    const second = sent(1);
    expect(second.filter((m) => m.role === 'tool')).toHaveLength(4);
    expect(JSON.stringify(second)).toContain('{\\"truncated_args\\":\\"{\\\\\\"text\\\\\\":\\"}');
    expect(result.text).toBe('all done');
  });

  it('a call id the conversation already used, or that repeats in a reply, is replaced, so every result stays paired', async () => {
    const call = (id: string, t: string): Part => ({
      type: 'tool-call',
      id,
      name: 'echo',
      arguments: JSON.stringify({ text: t }),
    });
    // A model that numbers its calls from call_0 every turn, and twice in one reply.
    const replies: Part[][] = [
      [call('call_0', 'a'), call('dup', 'b'), call('dup', 'c')],
      [call('call_0', 'd')],
      [text('done')],
    ];
    const model: ModelClient = {
      provider: 'test',
      model: 'fake',
      async request(): Promise<ModelResponse> {
        return {
          message: { role: 'assistant', parts: replies.shift()! },
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        };
      },
    };
    const history: Message[] = [
      { role: 'user', parts: [text('earlier')] },
      { role: 'assistant', parts: [call('call_0', 'old')] },
      {
        role: 'tool',
        parts: [{ type: 'tool-result', callId: 'call_0', name: 'echo', content: [text('old')] }],
      },
    ];
    const result = await createAgent({ model, tools: [echoTool] }).run(history, 'go');
    expect(result.messages.slice(0, 3)).toEqual(history);
    const calls = result.messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool-call');
    const ids = calls.map((p) => p.id);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    // Each result answers its own call; the run's calls get their own text back.
    const results = result.messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool-result');
    for (const c of calls.slice(1)) {
      const answer = results.filter((r) => r.callId === c.id);
      expect(answer).toHaveLength(1);
      expect(answer[0]!.content).toEqual([
        text(`echo: ${(JSON.parse(String(c.arguments)) as { text: string }).text}`),
      ]);
    }
    // Nothing for a repair to do.
    expect(normalizeHistory(result.messages).messages).toEqual(result.messages);
  });

  it('max-steps: a RunError whose partial answers the last calls with failed "not run" results, and resumes', async () => {
    const call = { toolCalls: [{ id: 'loop', name: 'echo', arguments: '{"text":"again"}' }] };
    mock.script(call, { toolCalls: [{ id: 'loop2', name: 'echo', arguments: '{"text":"more"}' }] });
    const agent = createAgent({ model: openai(), tools: [echoTool], maxSteps: 2 });
    const e = await runError(agent.run([], 'loop forever'));
    expect(e.stage).toBe('max-steps');
    const partial = e.partial!;
    expect(partial.requests).toBe(2);
    expect(partial.toolExecutions).toBe(1);
    expect(partial.runId).toBe(e.runId);
    const last = partial.messages.at(-1)!;
    expect(last.role).toBe('tool');
    expect(last.runId).toBe(e.runId);
    expect(last.parts).toEqual([
      {
        type: 'tool-result',
        callId: 'loop2',
        name: 'echo',
        content: [text('not run: the run stopped at its limit of 2 model requests (max-steps)')],
        failed: true,
      },
    ]);
    expect(partial.messages).toHaveLength(5);
    // Resuming needs no prompt: the partial ends with tool results.
    expect(canContinue(partial.messages)).toBe(true);
    mock.script({ text: 'stopped looping' });
    const resumed = await agent.run(partial.messages, undefined);
    expect(resumed.conversationId).toBe(partial.conversationId);
    expect(resumed.messages.slice(0, 5)).toEqual(partial.messages);
    expect(resumed.text).toBe('stopped looping');
    expect(sent(2).at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'loop2' });
  });

  it('a run without a prompt on a history that cannot continue fails at stage prompt', async () => {
    const e = await runError(createAgent({ model: openai() }).run(HISTORY));
    expect(e.stage).toBe('prompt');
    expect(mock.requests).toHaveLength(0);
  });
});

describe('failures, retries and partial conversations', () => {
  it('429 then success: retried and done', async () => {
    mock.script({ status: 429, message: 'slow down' }, { text: 'after retry' });
    const result = await createAgent({ model: openai({ maxRetries: 2 }) }).run([], 'hi');
    expect(result.text).toBe('after retry');
    expect(mock.requests).toHaveLength(2);
    expect(mock.requests[1]!.headers['x-stainless-retry-count']).toBe('1');
  });

  it('500 forever: every retry is spent, then a RunError with no partial (the first request failed)', async () => {
    mock.setFallback({ status: 500, message: 'the server is sad' });
    const e = await runError(createAgent({ model: openai({ maxRetries: 2 }) }).run([], 'hi'));
    expect(mock.requests).toHaveLength(3);
    expect(e.stage).toBe('request');
    expect(e.message).toContain('500');
    expect(e.message).toContain('the server is sad');
    expect(e.partial).toBeUndefined();
  });

  it('a request that never answers times out', async () => {
    mock.script({ hang: true });
    const t0 = Date.now();
    const e = await runError(createAgent({ model: openai({ timeoutMs: 300 }) }).run([], 'hi'));
    expect(e.stage).toBe('request');
    expect(e.message).toMatch(/timed out/);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('a dropped connection is a request failure', async () => {
    mock.setFallback({ drop: true });
    const e = await runError(createAgent({ model: anthropic() }).run([], 'hi'));
    expect(e.stage).toBe('request');
    expect(e.message).toMatch(/connection/i);
  });

  it('a failure after a completed turn gives a resume-ready partial through that turn', async () => {
    mock.script({ toolCalls: [{ id: 'k1', name: 'echo', arguments: '{"text":"1"}' }] });
    mock.setFallback({ status: 500 });
    const agent = createAgent({ model: openai(), tools: [echoTool] });
    const e = await runError(agent.run(HISTORY, 'go'));
    expect(e.stage).toBe('request');
    const partial = e.partial!;
    expect(partial.requests).toBe(1);
    expect(partial.toolExecutions).toBe(1);
    expect(partial.usage.inputTokens).toBe(10);
    expect(partial.conversationId).toBe(C1);
    // The repaired history, the prompt, the reply and its executed results.
    expect(partial.messages).toHaveLength(6 + 3);
    expect(partial.messages.slice(-3).map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    mock.reset();
    mock.script({ text: 'resumed' });
    const resumed = await agent.run(partial.messages);
    expect(resumed.messages.slice(0, 9)).toEqual(partial.messages);
    expect(resumed.text).toBe('resumed');
  });

  it('errors never carry the API key, even when the server echoes the request headers', async () => {
    mock.setFallback({ status: 401, echoHeaders: true, message: 'bad key' });
    for (const model of [openai(), anthropic()]) {
      const e = await runError(createAgent({ model }).run([], 'hi'));
      expect(mock.requests.at(-1)!.headers.authorization).toContain('sk-');
      const shown = `${e.message} ${String((e.cause as Error).message)} ${JSON.stringify(e)}`;
      expect(shown).toContain('bad key');
      expect(shown).toContain('[redacted]');
      expect(shown).not.toContain(OPENAI_KEY);
      expect(shown).not.toContain(ANTHROPIC_KEY);
    }
  });

  it('redactSecrets: any key in errors and logs; in stored text, short placeholders stay', () => {
    expect(redactSecrets('key none here', ['none'])).toBe('key [redacted] here');
    const stored = { minLength: MIN_STORED_SECRET_LENGTH };
    expect(redactSecrets('key none here', ['none'], stored)).toBe('key none here');
    expect(redactSecrets('a sk-0123456789 b "sk-0123456789"', ['sk-0123456789'], stored)).toBe(
      'a [redacted] b "[redacted]"',
    );
  });
});

describe('interruption', () => {
  it('an abort during the first request: stage aborted, no partial', async () => {
    mock.script({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const e = await runError(
      createAgent({ model: openai() }).run([], 'hi', { signal: controller.signal }),
    );
    expect(e.stage).toBe('aborted');
    expect(e.partial).toBeUndefined();
  });

  it('an abort during a later request keeps the completed turns', async () => {
    const controller = new AbortController();
    mock.script({ toolCalls: [{ id: 'a1', name: 'echo', arguments: '{"text":"1"}' }] }, () => {
      setTimeout(() => controller.abort(), 50);
      return { hang: true };
    });
    const e = await runError(
      createAgent({ model: anthropic(), tools: [echoTool] }).run([], 'hi', {
        signal: controller.signal,
      }),
    );
    expect(e.stage).toBe('aborted');
    expect(e.partial!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  for (const provider of ['openai', 'anthropic'] as const) {
    it(`${provider}: an abort inside a tool batch ends the partial at the reply; resuming repairs its calls`, async () => {
      const controller = new AbortController();
      const slowTool: AgentTool = {
        name: 'slow',
        inputSchema: { type: 'object' },
        execute: () =>
          new Promise((resolve) => {
            controller.abort();
            setTimeout(() => resolve({ content: [text('late')] }), 20);
          }),
      };
      mock.script({ toolCalls: [{ id: 's1', name: 'slow', arguments: '{}' }] });
      const agent = createAgent({ model: modelFor(provider), tools: [slowTool] });
      const e = await runError(agent.run([], 'hi', { signal: controller.signal }));
      expect(e.stage).toBe('aborted');
      expect(e.partial!.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      mock.script({ text: 'ok' });
      const resumed = await agent.run(e.partial!.messages);
      expect(resumed.messages[2]).toEqual({
        role: 'tool',
        parts: [
          { type: 'tool-result', callId: 's1', name: 'slow', content: [text(INTERRUPTED_TEXT)] },
        ],
      });
    });
  }
});

describe('faults on the wire (every SDK path: JSON and streamed)', () => {
  const cases: {
    fault: MockFault;
    stream: boolean;
    kind: ModelRequestError['kind'];
    message: RegExp;
  }[] = [
    { fault: 'reset', stream: false, kind: 'connection', message: /broke off mid-reply/ },
    { fault: 'reset', stream: true, kind: 'connection', message: /broke off mid-reply/ },
    { fault: 'malformed', stream: false, kind: 'protocol', message: /not JSON/ },
    { fault: 'malformed', stream: true, kind: 'protocol', message: /not JSON/ },
    {
      fault: 'end',
      stream: true,
      kind: 'connection',
      message: /ended before the reply was complete/,
    },
    { fault: 'stall', stream: false, kind: 'timeout', message: /the reply stopped arriving/ },
    { fault: 'stall', stream: true, kind: 'timeout', message: /the reply stopped arriving/ },
    { fault: 'error-event', stream: false, kind: 'protocol', message: /reported an error: \w+: / },
    { fault: 'error-event', stream: true, kind: 'http', message: /reported an error: \w+: / },
  ];
  for (const provider of ['openai', 'anthropic'] as const) {
    for (const c of cases) {
      it(`${provider}: ${c.fault}${c.stream ? ' mid-stream' : ' in a JSON reply'}: a ${c.kind} failure, the partial through the last turn, resumable`, async () => {
        mock.script(
          { toolCalls: [{ id: 'w1', name: 'echo', arguments: '{"text":"1"}' }] },
          { fault: c.fault, after: 3 },
        );
        const agent = createAgent({
          model: modelFor(provider, { timeoutMs: 300 }),
          tools: [echoTool],
        });
        const options = c.stream ? { onText: () => {} } : {};
        const e = await runError(agent.run([], 'hi', options));
        expect(e.stage).toBe('request');
        expect(e.message).toMatch(c.message);
        expect(e.cause).toBeInstanceOf(ModelRequestError);
        expect((e.cause as ModelRequestError).kind).toBe(c.kind);
        expect(e.partial!.requests).toBe(1);
        expect(e.partial!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
        expect(JSON.stringify(e.partial!.messages)).not.toContain('never');
        mock.script({ text: 'back again' });
        const resumed = await agent.run(e.partial!.messages, undefined, options);
        expect(resumed.messages.slice(0, 3)).toEqual(e.partial!.messages);
        expect(resumed.text).toBe('back again');
      });
    }
  }
});

describe('replies a provider would refuse to get back', () => {
  it('anthropic: an empty reply is kept, but not sent back (the API takes no empty message)', async () => {
    mock.script({}, { text: 'second' });
    const agent = createAgent({ model: anthropic() });
    const first = await agent.run([], 'hi');
    expect(first.messages[1]).toMatchObject({ role: 'assistant', parts: [] });
    const second = await agent.run(first.messages, 'again');
    expect(second.text).toBe('second');
    expect(sent(1).map((m) => m.role)).toEqual(['user', 'user']);
  });

  it('a blank prompt adds nothing', async () => {
    for (const model of [openai(), anthropic()]) {
      const e = await runError(createAgent({ model }).run([], '   '));
      expect(e.stage).toBe('prompt');
      mock.script({ text: 'answered' });
      const r = await createAgent({ model }).run([{ role: 'user', parts: [text('q')] }], ' \n');
      expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    }
    expect(mock.requests).toHaveLength(2);
  });
});

describe('a library prints nothing', () => {
  it('anthropic: no console notice for a model the SDK calls deprecated', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      mock.script({ text: 'quiet' }, { text: 'quiet' });
      const model = createModel({
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        env: ENV,
        baseURL: mock.url,
        maxRetries: 0,
      });
      await createAgent({ model }).run([], 'hi');
      await createAgent({ model }).run([], 'hi', { onText: () => {} });
      expect(warn).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });
});

describe('the mock refuses what the provider would refuse', () => {
  const post = (url: string, body: unknown): Promise<Response> =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('a dangling call, an orphan result, results out of place, undeclared tools: a 400, recorded', async () => {
    const chat = await post(`${mock.openaiBase}/chat/completions`, {
      model: 'm',
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'user', content: 'between' },
        { role: 'tool', tool_call_id: 'c1', content: 'late' },
      ],
    });
    expect(chat.status).toBe(400);
    const messages = await post(`${mock.url}/v1/messages`, {
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'first' },
            { type: 'tool_result', tool_use_id: 't1', content: 'r' },
          ],
        },
      ],
    });
    expect(messages.status).toBe(400);
    expect(((await messages.json()) as { error: { type: string } }).error.type).toBe(
      'invalid_request_error',
    );
    const seen = mock.takeViolations();
    expect(seen.map((v) => v.path)).toEqual(['/v1/chat/completions', '/v1/messages']);
    expect(seen[0]!.problems.join('\n')).toMatch(/openai-chat\/tool-results-adjacent/);
    expect(seen[0]!.problems.join('\n')).toMatch(/openai-chat\/tool-message-after-call/);
    expect(seen[1]!.problems.join('\n')).toMatch(/anthropic\/tool-result-first/);
    expect(seen[1]!.problems.join('\n')).toMatch(/tool_use names "f", which tools does not define/);
  });
});

describe('streaming', () => {
  for (const provider of ['openai', 'anthropic'] as const) {
    it(`${provider}: text arrives in pieces; tool calls are assembled from the stream`, async () => {
      mock.script(
        {
          text: 'let me check',
          toolCalls: [{ id: 'st1', name: 'echo', arguments: '{"text":"s"}' }],
        },
        { text: 'streamed answer' },
      );
      const pieces: string[] = [];
      const agent = createAgent({
        model: provider === 'openai' ? openai() : anthropic(),
        tools: [echoTool],
      });
      const result = await agent.run([], 'hi', { onText: (d) => pieces.push(d) });
      expect(mock.requests.every((r) => r.body.stream === true)).toBe(true);
      expect(pieces.join('')).toBe('let me check\nstreamed answer');
      expect(pieces.length).toBeGreaterThan(2);
      expect(result.messages[1]!.parts).toEqual([
        text('let me check'),
        { type: 'tool-call', id: 'st1', name: 'echo', arguments: '{"text":"s"}' },
      ]);
      expect(result.messages[2]!.parts[0]).toMatchObject({
        callId: 'st1',
        content: [text('echo: s')],
      });
      expect(result.usage).toEqual({ inputTokens: 20, outputTokens: 10, totalTokens: 30 });
      expect(result.text).toBe('streamed answer');
    });
  }
});

describe('models and agents that cannot be set up', () => {
  it('a missing key names the variable; an unknown provider is refused', () => {
    expect(() => createModel({ provider: 'openai', model: 'm', env: {} })).toThrow(
      /OPENAI_API_KEY/,
    );
    expect(() =>
      createModel({ provider: 'anthropic', model: 'm', env: { OPENAI_API_KEY: 'x' } }),
    ).toThrow(/ANTHROPIC_API_KEY/);
    expect(() =>
      createModel({ provider: 'openai', model: 'm', env: ENV, apiKeyEnv: 'MY_KEY' }),
    ).toThrow(AgentConfigError);
    expect(() => createModel({ provider: 'gemini', model: 'm', env: ENV })).toThrow(
      /unknown provider "gemini"/,
    );
  });

  it('two tools with one name and a step limit of 0 are refused', () => {
    expect(() => createAgent({ model: openai(), tools: [echoTool, echoTool] })).toThrow(
      /two tools are named "echo"/,
    );
    expect(() => createAgent({ model: openai(), maxSteps: 0 })).toThrow(AgentConfigError);
  });

  it('a custom model client works without any SDK', async () => {
    const seen: number[] = [];
    const model: ModelClient = {
      provider: 'test',
      model: 'fake',
      async request(req): Promise<ModelResponse> {
        seen.push(req.messages.length);
        return {
          message: { role: 'assistant', parts: [text('fake reply')] },
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        };
      },
    };
    const result = await createAgent({ model }).run([], 'hi');
    expect(result.text).toBe('fake reply');
    expect(seen).toEqual([1]);
  });
});

describe('MCP tools over stdio', () => {
  let connection: McpConnection;
  beforeAll(async () => {
    connection = await connectMcpServers(
      [
        { command: process.execPath, args: [ECHO_SERVER, '--name', 'one'], label: 'one' },
        { command: process.execPath, args: [ECHO_SERVER, '--name', 'two'], label: 'two' },
      ],
      { env: { ...process.env, OPENAI_API_KEY: OPENAI_KEY }, timeoutMs: 1500 },
    );
  });
  afterAll(async () => {
    await connection.close();
  });
  const tool = (name: string): AgentTool => connection.tools.find((t) => t.name === name)!;

  it('lists every server tool with names unique across servers', () => {
    const names = connection.tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['echo', 'fail', 'hang', 'crash', 'echo_2', 'fail_2', 'crash_2']),
    );
    expect(tool('echo').description).toBe('Echoes the text back.');
    expect(tool('echo').inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
    });
  });

  it('routes each name to its server; a tool error is a failed result', async () => {
    expect(await tool('echo').execute({ text: 'hi' }, { callId: 'c' })).toEqual({
      content: [text('one: hi')],
    });
    expect(await tool('echo_2').execute({ text: 'hi' }, { callId: 'c' })).toEqual({
      content: [text('two: hi')],
    });
    expect(await tool('fail').execute({ reason: 'because' }, { callId: 'c' })).toEqual({
      content: [text('failed on purpose: because')],
      failed: true,
    });
  });

  it('servers get a minimal environment, never the API key', async () => {
    const out = await tool('env').execute({}, { callId: 'c' });
    expect(JSON.stringify(out)).not.toContain('OPENAI_API_KEY');
  });

  it('a call that times out and a server that dies give failed results naming the server', async () => {
    const hung = await tool('hang').execute({}, { callId: 'c' });
    expect(hung.failed).toBe(true);
    expect(JSON.stringify(hung.content)).toMatch(/MCP server \\"one\\" did not answer \\"hang\\"/);
    const crashed = await tool('crash_2').execute({}, { callId: 'c' });
    expect(crashed.failed).toBe(true);
    expect(JSON.stringify(crashed.content)).toContain('MCP server \\"two\\"');
    const after = await tool('echo_2').execute({ text: 'x' }, { callId: 'c' });
    expect(after.failed).toBe(true);
    expect(JSON.stringify(after.content)).toContain('is not running');
    // The other server is unaffected.
    expect((await tool('echo').execute({ text: 'y' }, { callId: 'c' })).failed).toBeUndefined();
  });

  it('a server that cannot start is an McpStartError naming it', async () => {
    await expect(
      connectMcpServers([{ command: '/nonexistent/mcp-server', args: [], label: 'ghost' }], {
        env: {},
        timeoutMs: 2000,
      }),
    ).rejects.toThrow(McpStartError);
  });

  it('parseCommandLine splits like a shell, without expanding anything', () => {
    expect(parseCommandLine(`node "my server.mjs" --name 'a b' x\\ y $HOME`)).toEqual([
      'node',
      'my server.mjs',
      '--name',
      'a b',
      'x y',
      '$HOME',
    ]);
    expect(() => parseCommandLine('node "open')).toThrow(/unterminated/);
  });
});

describe('module boundaries (STYLE.md)', () => {
  const read = (f: string): string => readFileSync(path.join(ROOT, f), 'utf8');
  const files = [
    'agent.ts',
    'anthropic.ts',
    'errors.ts',
    'fetch.ts',
    'history.ts',
    'index.ts',
    'mcp.ts',
    'openai.ts',
    'provider-errors.ts',
    'providers.ts',
    'types.ts',
  ].map((f) => `src/agent/${f}`);

  it('src/agent imports only core, formats, model, itself and the SDKs; never node:fs or process', () => {
    const offenders: string[] = [];
    for (const file of files) {
      const source = read(file);
      for (const m of source.matchAll(/(?:from\s*|import\s*\(\s*)'([^']+)'/g)) {
        const spec = m[1]!;
        const ok =
          /^\.\/[a-z-]+\.js$/.test(spec) ||
          /^\.\.\/(core|formats|model)\//.test(spec) ||
          /^(openai|@anthropic-ai\/sdk|@modelcontextprotocol\/sdk(\/.*)?)$/.test(spec);
        if (!ok) offenders.push(`${file} imports ${spec}`);
      }
      const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      if (/\bprocess\b/.test(code)) offenders.push(`${file} references process`);
    }
    expect(offenders).toEqual([]);
  });

  it('the CLI loads the agent lazily: no static import of it from main or the command', () => {
    for (const file of ['src/cli/main.ts', 'src/cli/commands/run.ts']) {
      const statics = [...read(file).matchAll(/^import\s+(type\s)?[^;]*?from\s*'([^']+)'/gm)]
        .filter((m) => m[1] === undefined)
        .map((m) => m[2]!);
      expect(statics.filter((s) => /agent/.test(s))).toEqual([]);
    }
    expect(read('src/cli/commands/run.ts')).toContain("await import('../agent-run.js')");
    expect(read('src/cli/agent-run.ts')).toContain("await import('../agent/index.js')");
  });
});
