/**
 * `histlint run` (SPEC §5.4) end to end, in-process through `main` and once
 * as a spawned bin/histlint.js, against a scripted local model server and a
 * local MCP stdio server: what is written and where, in which format, the
 * identity flags, tools, max-steps and resume, failures, Ctrl-C, the checks
 * made before any request, and that the API key never leaves the process.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isUuid } from '../src/core/ids.js';
import type { Message } from '../src/model/types.js';
import { ROOT, runCli, type CliResult, type RunOptions } from './helpers/cli.js';
import type { MockLlm, MockReply } from './helpers/mock-llm.js';
import { useMockLlm } from './helpers/run-suite.js';

const ECHO_SERVER = path.join(ROOT, 'fixtures/mcp/echo-server.mjs');
const KEY = 'sk-test-CLI-SECRET-abcdef0123456789';
const ANTHROPIC_KEY = 'sk-ant-CLI-SECRET-0123456789abcdef';
const ENV = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY };
const C0 = '01900000-0000-7000-8000-0000000000c0';

let work: string;
let mock: MockLlm;
let counter = 0;
useMockLlm('histlint-run-', (w, m) => {
  work = w;
  mock = m;
});

/** A fresh file name in the work folder. */
function fresh(name: string): string {
  counter += 1;
  return `${counter}-${name}`;
}

function put(name: string, value: unknown): string {
  const file = fresh(name);
  writeFileSync(path.join(work, file), typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

function readJson(
  file: string,
): { version?: number; messages: Message[] } & Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(work, file), 'utf8'));
}

/** `histlint run` against the mock's OpenAI endpoint, no retries, a terminal on standard input. */
function run(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return runCli(
    ['run', '--model', 'test-model', '--base-url', mock.openaiBase, '--max-retries', '0', ...args],
    { cwd: work, env: ENV, stdinIsTTY: true, ...options },
  );
}

/** `histlint run` against the mock as `provider`, no retries unless the args say, a terminal on standard input. */
function runAs(provider: Provider, args: string[], options: RunOptions = {}): Promise<CliResult> {
  const endpoint =
    provider === 'openai'
      ? ['--base-url', mock.openaiBase]
      : ['--provider', 'anthropic', '--base-url', mock.url];
  return runCli(['run', '--model', 'test-model', ...endpoint, '--max-retries', '0', ...args], {
    cwd: work,
    env: ENV,
    stdinIsTTY: true,
    ...options,
  });
}

type Provider = 'openai' | 'anthropic';
const PROVIDERS: Provider[] = ['openai', 'anthropic'];
/** The `--target` whose rules a provider's requests follow. */
const TARGET = { openai: 'openai-chat', anthropic: 'anthropic' } as const;

const mcp = (name: string): string => `"${process.execPath}" "${ECHO_SERVER}" --name ${name}`;

const text = (t: string) => ({ type: 'text', text: t });

function expectNoKey(r: CliResult, files: string[] = []): void {
  for (const s of [
    r.stdout,
    r.stderr,
    ...files.map((f) => readFileSync(path.join(work, f), 'utf8')),
  ]) {
    expect(s).not.toContain(KEY);
    expect(s).not.toContain(ANTHROPIC_KEY);
  }
}

describe('histlint run: output', () => {
  it('a new conversation: a v1 envelope on standard output, stamped, and a summary on standard error', async () => {
    mock.script({ text: 'Hello!' });
    const r = await run(['--prompt', 'hi']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { version: number; messages: Message[] };
    expect(out.version).toBe(1);
    const [user, reply] = out.messages;
    expect(user).toMatchObject({ role: 'user', parts: [text('hi')] });
    expect(reply).toMatchObject({ role: 'assistant', parts: [text('Hello!')] });
    expect(isUuid(user!.runId as string)).toBe(true);
    expect(isUuid(user!.conversationId as string)).toBe(true);
    expect(reply!.runId).toBe(user!.runId);
    expect(r.stderr).toMatch(/done: 1 request, 0 tool executions, tokens 10 in \/ 5 out/);
    expect(r.stdout.endsWith('}\n')).toBe(true);
  });

  it('an empty piped standard input also starts a new conversation; "-" reads a history from it', async () => {
    mock.script({ text: 'one' }, { text: 'two' });
    const r1 = await run(['--prompt', 'hi'], { stdinIsTTY: false, stdin: '' });
    expect(r1.code).toBe(0);
    const first = JSON.parse(r1.stdout) as { messages: Message[] };
    const r2 = await run(['-', '--prompt', 'again'], { stdinIsTTY: false, stdin: r1.stdout });
    expect(r2.code).toBe(0);
    const second = JSON.parse(r2.stdout) as { messages: Message[] };
    expect(second.messages.slice(0, 2)).toEqual(first.messages);
    expect(second.messages[2]!.conversationId).toBe(first.messages[0]!.conversationId);
    expect(sent(1).map((m) => m.content)).toEqual(['hi', 'one', 'again']);
  });

  it('instructions (repeatable, then the file, a blank line between) replace the stored system message; --write keeps the openai-chat format', async () => {
    const file = put('chat.json', {
      model: 'gpt-x',
      messages: [
        { role: 'system', content: 'old system prompt' },
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: 'a1' },
      ],
    });
    const extra = put('extra.md', 'From the file.\n');
    mock.script({ text: 'a2' });
    const r = await run([
      file,
      '--prompt',
      'q2',
      '--instructions',
      'Rule one.',
      '--instructions',
      'Rule two.',
      '--instructions-file',
      extra,
      '--write',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(sent(0)).toEqual([
      { role: 'system', content: 'Rule one.\n\nRule two.\n\nFrom the file.' },
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
    ]);
    expect(mock.requests[0]!.raw).not.toContain('old system prompt');
    expect(readJson(file)).toEqual({
      model: 'gpt-x',
      messages: [
        { role: 'system', content: 'old system prompt' },
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: 'a1' },
        { role: 'user', content: 'q2' },
        { role: 'assistant', content: 'a2' },
      ],
    });
    // The format has no place for the run's ids, and the run says so.
    expect(r.stderr).toMatch(/note: the openai-chat format cannot keep .*runId/);
  });

  it('--write --max-messages 10 sends only the window and keeps every stored message', async () => {
    const stored: Message[] = [];
    for (let i = 0; i < 40; i++) {
      stored.push({
        role: i % 2 === 0 ? 'user' : 'assistant',
        parts: [text(`m${i}`)],
        conversationId: C0,
      });
    }
    const file = put('long.json', { version: 1, messages: stored, metadata: { kept: true } });
    mock.script({ text: 'short answer' });
    const r = await run([file, '--max-messages', '10', '--prompt', 'next', '--write']);
    expect(r.code).toBe(0);
    expect(sent(0).map((m) => m.content)).toEqual([
      ...stored.slice(30).map((m) => String(m.parts[0]!.text)),
      'next',
    ]);
    const written = readJson(file);
    expect(written.metadata).toEqual({ kept: true });
    expect(written.messages).toHaveLength(42);
    expect(written.messages.slice(0, 40)).toEqual(stored);
    expect(written.messages.slice(40).every((m) => m.conversationId === C0)).toBe(true);
  });

  it('--write holds the history from its read: a second writer is refused, and a history changed meanwhile is kept (the result goes to standard output)', async () => {
    const file = put('held.json', {
      version: 1,
      messages: [{ role: 'user', parts: [text('q1')] }],
    });
    const before = readFileSync(path.join(work, file), 'utf8');
    const barrier = path.join(work, fresh('barrier'));
    process.env.HISTLINT_TEST_REPLACE_BARRIER = barrier;
    try {
      mock.script({ text: 'a1' });
      const running = run([file, '--write']);
      for (let i = 0; i < 3000 && !existsSync(`${barrier}.waiting`); i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      // Paid for and waiting to be written: another histlint may not write the file now.
      const other = await runCli(['normalize', '--write', file], { cwd: work });
      expect(other.code).toBe(2);
      expect(other.stderr).toBe(
        `${file}: error: not written: being written by histlint pid ${process.pid}\n`,
      );
      // Another program may: its content is kept.
      writeFileSync(path.join(work, file), before.replace('q1', 'q1, edited'));
      writeFileSync(barrier, '');
      const r = await running;
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        'histlint run: the result could not be written: it changed after histlint read it',
      );
      expect(readFileSync(path.join(work, file), 'utf8')).toContain('q1, edited');
      expect(JSON.parse(r.stdout).messages.map((m: Message) => m.parts[0]!.text)).toEqual([
        'q1',
        'a1',
      ]);
    } finally {
      delete process.env.HISTLINT_TEST_REPLACE_BARRIER;
    }
  });

  it('--max-tokens bounds the window by tokens', async () => {
    const stored: Message[] = [];
    for (let i = 0; i < 20; i++) stored.push({ role: 'user', parts: [text(`message ${i}`)] });
    const file = put('tokens.json', { version: 1, messages: stored });
    mock.script({ text: 'ok' });
    const r = await run([file, '--max-tokens', '20', '--prompt', 'p', '-o', fresh('out.json')]);
    expect(r.code).toBe(0);
    // Each message costs 4 + 3 tokens: two fit in 20.
    expect(sent(0).map((m) => m.content)).toEqual(['message 18', 'message 19', 'p']);
  });

  it('streams the reply to standard error when it is a terminal, and only then', async () => {
    mock.script({ text: 'streamed words here' }, { text: 'not streamed' });
    const tty = await run(['--prompt', 'hi'], { stderrIsTTY: true });
    expect(tty.code).toBe(0);
    expect(mock.requests[0]!.body.stream).toBe(true);
    expect(tty.stderr).toContain('streamed words here\n');
    const pipe = await run(['--prompt', 'hi']);
    expect(mock.requests[1]!.body.stream).toBeUndefined();
    expect(pipe.stderr).not.toContain('not streamed');
  });

  it('--provider anthropic: the instructions in the top-level system', async () => {
    mock.script({ text: 'from claude' });
    const r = await runCli(
      [
        'run',
        '--provider',
        'anthropic',
        '--model',
        'claude-test',
        '--base-url',
        mock.url,
        '--prompt',
        'hi',
        '--instructions',
        'Be kind.',
      ],
      { cwd: work, env: ENV, stdinIsTTY: true },
    );
    expect(r.code).toBe(0);
    expect(mock.requests[0]!.path).toBe('/v1/messages');
    expect(mock.requests[0]!.body.system).toBe('Be kind.');
    expect(mock.requests[0]!.headers.authorization).toBe(`Bearer ${ANTHROPIC_KEY}`);
    expect(JSON.parse(r.stdout).messages[1].parts).toEqual([text('from claude')]);
  });

  it('the prompt is optional when the history ends with a user message', async () => {
    const file = put('pending.json', [{ role: 'user', parts: [text('waiting')] }]);
    mock.script({ text: 'answered' });
    const r = await run([file, '-o', fresh('o.json')]);
    expect(r.code).toBe(0);
    expect(sent(0)).toEqual([{ role: 'user', content: 'waiting' }]);
  });
});

/** Every message of request `i`. */
function sent(i: number): Record<string, unknown>[] {
  return mock.requests[i]!.body.messages!;
}

describe('histlint run: identity', () => {
  const history = (): string =>
    put('ids.json', {
      version: 1,
      messages: [
        { role: 'user', parts: [text('q')], conversationId: C0, runId: 'old-run' },
        { role: 'assistant', parts: [text('a')], conversationId: C0, runId: 'old-run' },
      ],
    });

  it('the history donates its conversation id; --run-id names the run', async () => {
    mock.script({ text: 'r' });
    const out = fresh('o.json');
    const r = await run([history(), '--prompt', 'p', '--run-id', 'trace-1', '-o', out]);
    expect(r.code).toBe(0);
    const m = readJson(out).messages;
    expect(m.slice(0, 2).map((x) => [x.runId, x.conversationId])).toEqual([
      ['old-run', C0],
      ['old-run', C0],
    ]);
    expect(m.slice(2).map((x) => [x.runId, x.conversationId])).toEqual([
      ['trace-1', C0],
      ['trace-1', C0],
    ]);
  });

  it('--conversation-id wins; --fork mints a new one; both together are a usage error', async () => {
    mock.script({ text: 'r' }, { text: 'r' });
    const other = '01900000-0000-7000-8000-0000000000ff';
    const o1 = fresh('o.json');
    expect(
      (await run([history(), '--prompt', 'p', '--conversation-id', other, '-o', o1])).code,
    ).toBe(0);
    expect(
      readJson(o1)
        .messages.slice(2)
        .map((x) => x.conversationId),
    ).toEqual([other, other]);
    const o2 = fresh('o.json');
    expect((await run([history(), '--prompt', 'p', '--fork', '-o', o2])).code).toBe(0);
    const forked = readJson(o2).messages;
    expect(forked[0]!.conversationId).toBe(C0);
    const id = forked[2]!.conversationId as string;
    expect(isUuid(id)).toBe(true);
    expect(id).not.toBe(C0);
    const both = await run([history(), '--prompt', 'p', '--fork', '--conversation-id', other]);
    expect(both.code).toBe(2);
  });
});

describe('histlint run: MCP tools', () => {
  it('offers every server tool under unique names, executes calls, writes failed results for a failing tool and a dead server', async () => {
    mock.script(
      {
        toolCalls: [
          { id: 'm1', name: 'echo', arguments: '{"text":"hi"}' },
          { id: 'm2', name: 'echo_2', arguments: '{"text":"yo"}' },
          { id: 'm3', name: 'fail', arguments: '{"reason":"test"}' },
        ],
      },
      { toolCalls: [{ id: 'm4', name: 'crash_2', arguments: '{}' }] },
      { toolCalls: [{ id: 'm5', name: 'echo_2', arguments: '{"text":"still there?"}' }] },
      { text: 'tools done' },
    );
    const out = fresh('tools.json');
    const r = await run([
      '--prompt',
      'use them',
      '--mcp',
      mcp('one'),
      '--mcp',
      mcp('two'),
      '-o',
      out,
    ]);
    expect(r.code).toBe(0);
    const names = (mock.requests[0]!.body.tools as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(names).toEqual(expect.arrayContaining(['echo', 'fail', 'crash', 'echo_2', 'crash_2']));
    expect(new Set(names).size).toBe(names.length);
    const m = readJson(out).messages;
    expect(m.map((x) => x.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(m[2]!.parts).toEqual([
      { type: 'tool-result', callId: 'm1', name: 'echo', content: [text('one: hi')] },
      { type: 'tool-result', callId: 'm2', name: 'echo_2', content: [text('two: yo')] },
      {
        type: 'tool-result',
        callId: 'm3',
        name: 'fail',
        content: [text('failed on purpose: test')],
        failed: true,
      },
    ]);
    expect(m[4]!.parts[0]).toMatchObject({ callId: 'm4', failed: true });
    const crashText = (m[4]!.parts[0]!.content as { text: string }[])[0]!.text;
    expect(crashText).toContain(`MCP server "${mcp('two')}" closed its connection`);
    expect(m[6]!.parts[0]).toMatchObject({ callId: 'm5', failed: true });
    expect(JSON.stringify(m[6]!.parts[0])).toContain('is not running');
    expect(m.slice(2).every((x) => typeof x.runId === 'string')).toBe(true);
    expect(r.stderr).toMatch(/4 requests, 5 tool executions/);
    // The results went back to the model.
    expect(
      sent(1)
        .filter((x) => x.role === 'tool')
        .map((x) => x.content),
    ).toEqual(['one: hi', 'two: yo', 'failed on purpose: test']);
  });

  it('a tool that hangs past --tool-timeout gives a failed result naming the server', async () => {
    mock.script({ toolCalls: [{ id: 'h1', name: 'hang', arguments: '{}' }] }, { text: 'gave up' });
    const out = fresh('hang.json');
    const r = await run([
      '--prompt',
      'x',
      '--mcp',
      mcp('slowpoke'),
      '--tool-timeout',
      '0.5',
      '-o',
      out,
    ]);
    expect(r.code).toBe(0);
    const result = readJson(out).messages[2]!.parts[0]!;
    expect(result.failed).toBe(true);
    expect(JSON.stringify(result)).toMatch(/did not answer \\"hang\\" within 0.5s/);
  });

  it('a server that cannot start is exit 2 before any request', async () => {
    const r = await run(['--prompt', 'x', '--mcp', '/nonexistent/server --flag']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('MCP server "/nonexistent/server --flag"');
    expect(mock.requests).toHaveLength(0);
    const quote = await run(['--prompt', 'x', '--mcp', 'node "unterminated']);
    expect(quote.code).toBe(2);
    expect(quote.stderr).toMatch(/--mcp: unterminated/);
  });
});

describe('histlint run: failure and resume', () => {
  for (const provider of PROVIDERS) {
    it(`${provider}: max-steps: exit 3, the partial written with failed "not run" results; running on it resumes`, async () => {
      mock.script(
        { toolCalls: [{ id: 't1', name: 'echo', arguments: '{"text":"1"}' }] },
        { toolCalls: [{ id: 't2', name: 'echo', arguments: '{"text":"2"}' }] },
      );
      const out = fresh('steps.json');
      const r = await runAs(provider, [
        '--prompt',
        'loop',
        '--mcp',
        mcp('one'),
        '--max-steps',
        '2',
        '-o',
        out,
      ]);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/failed at stage max-steps/);
      expect(r.stderr).toMatch(/2 requests, 1 tool execution, tokens 20 in \/ 10 out/);
      expect(r.stderr).toContain(`partial conversation written to ${out}`);
      const partial = readJson(out).messages;
      expect(partial.map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'tool',
      ]);
      expect(partial[4]!.parts).toEqual([
        {
          type: 'tool-result',
          callId: 't2',
          name: 'echo',
          content: [text('not run: the run stopped at its limit of 2 model requests (max-steps)')],
          failed: true,
        },
      ]);
      mock.script({ text: 'resumed fine' });
      const again = await runAs(provider, [out, '--write']);
      expect(again.code).toBe(0);
      const resumed = readJson(out).messages;
      expect(resumed.slice(0, 5)).toEqual(partial);
      expect(resumed[5]).toMatchObject({ role: 'assistant', parts: [text('resumed fine')] });
      expect(resumed[5]!.conversationId).toBe(partial[0]!.conversationId);
      expect(resumed[5]!.runId).not.toBe(partial[0]!.runId);
    });
  }

  it('the first request fails: exit 3, stage and counts printed, nothing written, the history untouched', async () => {
    mock.setFallback({ status: 500, message: 'upstream exploded' });
    const file = put('untouched.json', {
      version: 1,
      messages: [{ role: 'user', parts: [text('q')] }],
    });
    const before = readFileSync(path.join(work, file), 'utf8');
    const r = await run([file, '--prompt', 'p', '--write']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /failed at stage request: request 1 failed: 500 server_error: upstream exploded/,
    );
    expect(r.stderr).toMatch(
      /0 requests, 0 tool executions, tokens 0 in \/ 0 out; nothing completed/,
    );
    expect(readFileSync(path.join(work, file), 'utf8')).toBe(before);
    const out = fresh('none.json');
    const r2 = await run(['--prompt', 'p', '-o', out]);
    expect(r2.code).toBe(3);
    expect(existsSync(path.join(work, out))).toBe(false);
    expect(r2.stdout).toBe('');
  });

  it('--timeout and --max-retries: a hanging server times out, a dropped connection is retried', async () => {
    mock.script({ hang: true });
    const t0 = Date.now();
    const slow = await run(['--prompt', 'p', '--timeout', '0.3']);
    expect(slow.code).toBe(3);
    expect(slow.stderr).toMatch(/request 1 failed: request timed out after 0.3s/);
    expect(Date.now() - t0).toBeLessThan(10_000);
    mock.reset();
    mock.script({ drop: true }, { text: 'second try' });
    const dropped = await run(['--prompt', 'p', '--max-retries', '1']);
    expect(dropped.code).toBe(0);
    expect(mock.requests).toHaveLength(2);
    expect(JSON.parse(dropped.stdout).messages[1].parts).toEqual([text('second try')]);
  });

  it('a failure after a completed turn writes the partial to standard output by default', async () => {
    mock.script({ toolCalls: [{ id: 'u1', name: 'missing_tool', arguments: '{}' }] });
    mock.setFallback({ status: 503 });
    const r = await run(['--prompt', 'p']);
    expect(r.code).toBe(3);
    const partial = JSON.parse(r.stdout) as { messages: Message[] };
    expect(partial.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(r.stderr).toContain('partial conversation written to standard output');
  });

  it('Ctrl-C (the abort signal): exit 130, the partial written', async () => {
    const controller = new AbortController();
    mock.script({ toolCalls: [{ id: 'x1', name: 'echo', arguments: '{"text":"1"}' }] }, () => {
      setTimeout(() => controller.abort(), 50);
      return { hang: true };
    });
    const out = fresh('interrupted.json');
    const r = await run(['--prompt', 'p', '--mcp', mcp('one'), '-o', out], {
      signal: controller.signal,
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/failed at stage aborted/);
    expect(readJson(out).messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('Ctrl-C while an MCP server starts: exit 130 at once, no request sent', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    // A server that never answers the handshake: without the signal, the start waits 60 s.
    const silent = `"${process.execPath}" -e "setInterval(() => {}, 1000)"`;
    const r = await run(['--prompt', 'p', '--mcp', silent], { signal: controller.signal });
    expect(r.code).toBe(130);
    expect(r.stderr).toBe(
      'histlint run: interrupted while the MCP servers started; no request was sent\n',
    );
    expect(mock.requests).toHaveLength(0);
  });

  it('Ctrl-C on a spawned histlint: exit 130, the partial written', async () => {
    const out = fresh('sigint.json');
    let child: ReturnType<typeof spawn> | undefined;
    mock.script({ toolCalls: [{ id: 'z1', name: 'nothing', arguments: '{}' }] }, () => {
      setTimeout(() => child?.kill('SIGINT'), 50);
      return { hang: true };
    });
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      child = spawn(
        process.execPath,
        [
          path.join(ROOT, 'bin/histlint.js'),
          'run',
          '--model',
          'm',
          '--base-url',
          mock.openaiBase,
          '--prompt',
          'p',
          '-o',
          out,
        ],
        { cwd: work, env: { PATH: process.env.PATH ?? '', OPENAI_API_KEY: KEY }, stdio: 'pipe' },
      );
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
      child.stdin!.end();
    });
    expect(result.code).toBe(130);
    expect(readJson(out).messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(result.stderr).not.toContain(KEY);
  });
});

/** A fault the server commits on the request after the completed turns. */
interface FaultCase {
  name: string;
  /** Completed model turns before the fault (each calls echo and fail). */
  turns: number;
  /** What the server answers after those turns (it keeps answering so when `fallback`). */
  fault: MockReply;
  fallback?: boolean;
  args: string[];
  /** Stream the reply (standard error is a terminal). */
  stream: boolean;
  /** Requests the server saw in the failed run. */
  requests: number;
  message: RegExp;
}

const LOST = 'lost in transit';

const FAULTS: FaultCase[] = [
  {
    name: '500 after 2 good requests, retries spent',
    turns: 2,
    fault: { status: 500, message: 'upstream exploded' },
    fallback: true,
    args: ['--max-retries', '1'],
    stream: false,
    requests: 4,
    message: /request 3 failed: 500 \w+: upstream exploded/,
  },
  {
    name: 'a connection reset mid-stream (not retried: its text was shown)',
    turns: 1,
    fault: { fault: 'reset', after: 3, reply: { text: LOST } },
    args: ['--max-retries', '2'],
    stream: true,
    requests: 2,
    message: /request 2 failed: the connection broke off mid-reply/,
  },
  {
    name: 'a malformed SSE event',
    turns: 1,
    fault: { fault: 'malformed', after: 3, reply: { text: LOST } },
    args: [],
    stream: true,
    requests: 2,
    message: /request 2 failed: the server sent a reply that is not JSON/,
  },
  {
    name: 'a timeout: the server never answers',
    turns: 1,
    fault: { hang: true },
    args: ['--timeout', '0.3'],
    stream: false,
    requests: 2,
    message: /request 2 failed: request timed out after 0.3s/,
  },
  {
    name: 'a timeout: the stream stalls mid-reply',
    turns: 1,
    fault: { fault: 'stall', after: 3, reply: { text: LOST } },
    args: ['--timeout', '0.3'],
    stream: true,
    requests: 2,
    message: /request 2 failed: request timed out after 0.3s: the reply stopped arriving/,
  },
  {
    name: 'a stream that ends cleanly before the reply is complete',
    turns: 1,
    fault: { fault: 'end', after: 3, reply: { text: LOST } },
    args: [],
    stream: true,
    requests: 2,
    message: /request 2 failed: the reply stream ended before the reply was complete/,
  },
  {
    name: "the provider's error event mid-stream",
    turns: 1,
    fault: { fault: 'error-event', after: 3, reply: { text: LOST } },
    args: [],
    stream: true,
    requests: 2,
    message: /request 2 failed: the server reported an error: \w+: /,
  },
];

/** A turn that calls a tool that works and one that fails. */
function toolTurn(k: number): MockReply {
  return {
    toolCalls: [
      { id: `call_e${k}`, name: 'echo', arguments: `{"text":"turn ${k}"}` },
      { id: `call_f${k}`, name: 'fail', arguments: `{"reason":"turn ${k}"}` },
    ],
  };
}

describe('histlint run: faults, partial conversations and resume', () => {
  for (const provider of PROVIDERS) {
    for (const c of FAULTS) {
      it(`${provider}: ${c.name}: exit 3, the partial through the last completed turn, and a resume`, async () => {
        for (let k = 1; k <= c.turns; k++) mock.script(toolTurn(k));
        if (c.fallback === true) mock.setFallback(c.fault);
        else mock.script(c.fault);
        const out = fresh(`${provider}-fault.json`);
        const r = await runAs(
          provider,
          ['--prompt', 'go', '--mcp', mcp('one'), ...c.args, '-o', out],
          { stderrIsTTY: c.stream },
        );
        expect(r.code, r.stderr).toBe(3);
        expect(mock.requests).toHaveLength(c.requests);
        expect(mock.requests.every((q) => (q.body.stream === true) === c.stream)).toBe(true);
        expect(r.stderr).toMatch(/failed at stage request: /);
        expect(r.stderr).toMatch(c.message);
        const tools = 2 * c.turns;
        expect(r.stderr).toContain(
          `${c.turns} request${c.turns === 1 ? '' : 's'}, ${tools} tool executions`,
        );
        expect(r.stderr).toContain(`partial conversation written to ${out}`);
        // What streamed before the fault was shown, and is not in the partial.
        if (c.stream && 'fault' in c.fault) expect(r.stderr).toContain('lost in');
        const partial = readJson(out).messages;
        expect(partial.map((m) => m.role)).toEqual([
          'user',
          ...Array.from({ length: c.turns }, () => ['assistant', 'tool']).flat(),
        ]);
        expect(JSON.stringify(partial)).not.toContain('lost in');
        expect(partial.at(-1)!.parts).toEqual([
          {
            type: 'tool-result',
            callId: `call_e${c.turns}`,
            name: 'echo',
            content: [text(`one: turn ${c.turns}`)],
          },
          {
            type: 'tool-result',
            callId: `call_f${c.turns}`,
            name: 'fail',
            content: [text(`failed on purpose: turn ${c.turns}`)],
            failed: true,
          },
        ]);
        expectNoKey(r, [out]);

        // The server recovers; running on the partial continues it, no prompt needed.
        mock.reset();
        mock.script({ text: 'resumed fine' });
        const again = await runAs(provider, [out, '--mcp', mcp('one'), '--write']);
        expect(again.code, again.stderr).toBe(0);
        const resumed = readJson(out).messages;
        expect(resumed.slice(0, partial.length)).toEqual(partial);
        expect(resumed.slice(partial.length)).toMatchObject([
          { role: 'assistant', parts: [text('resumed fine')] },
        ]);
        expect(resumed.at(-1)!.conversationId).toBe(partial[0]!.conversationId);
        // The results went back to the model as the last thing sent.
        expect(JSON.stringify(sent(0).at(-1))).toContain(`failed on purpose: turn ${c.turns}`);
        // The resumed conversation pairs cleanly, under the provider's own rules too.
        const lint = await runCli(['lint', '--target', TARGET[provider], out], { cwd: work });
        expect(lint.code, lint.stdout).toBe(0);
      });
    }

    it(`${provider}: a fault in the first request writes nothing`, async () => {
      mock.script({ fault: 'reset', after: 3, reply: { text: LOST } });
      const out = fresh('nothing.json');
      const r = await runAs(provider, ['--prompt', 'go', '-o', out], { stderrIsTTY: true });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/nothing completed, nothing written/);
      expect(existsSync(path.join(work, out))).toBe(false);
    });

    it(`${provider}: Ctrl-C mid-stream: exit 130, the half reply left out, and a resume`, async () => {
      const controller = new AbortController();
      mock.script(toolTurn(1), () => {
        setTimeout(() => controller.abort(), 100);
        return { fault: 'stall', after: 3, reply: { text: LOST } };
      });
      const out = fresh('ctrl-c.json');
      const r = await runAs(provider, ['--prompt', 'go', '--mcp', mcp('one'), '-o', out], {
        stderrIsTTY: true,
        signal: controller.signal,
      });
      expect(r.code).toBe(130);
      expect(r.stderr).toMatch(/failed at stage aborted/);
      expect(r.stderr).toContain('lost in');
      const partial = readJson(out).messages;
      expect(partial.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
      mock.reset();
      mock.script({ text: 'after the interruption' });
      const again = await runAs(provider, [out, '--write']);
      expect(again.code, again.stderr).toBe(0);
      expect(readJson(out).messages.slice(0, 3)).toEqual(partial);
    });
  }
});

describe('histlint run: refused before any request (exit 2)', () => {
  it('a missing API key names the variable', async () => {
    const r = await run(['--prompt', 'p'], { env: {} });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('OPENAI_API_KEY');
    const custom = await run(['--prompt', 'p', '--api-key-env', 'MY_GATEWAY_KEY']);
    expect(custom.code).toBe(2);
    expect(custom.stderr).toContain('MY_GATEWAY_KEY');
    const claude = await run(['--prompt', 'p', '--provider', 'anthropic'], {
      env: { OPENAI_API_KEY: KEY },
    });
    expect(claude.code).toBe(2);
    expect(claude.stderr).toContain('ANTHROPIC_API_KEY');
    expect(mock.requests).toHaveLength(0);
  });

  it('--api-key-env reads the key from the variable it names', async () => {
    mock.script({ text: 'ok' });
    const r = await run(['--prompt', 'p', '--api-key-env', 'MY_GATEWAY_KEY'], {
      env: { MY_GATEWAY_KEY: 'gw-key-0123456789' },
    });
    expect(r.code).toBe(0);
    expect(mock.requests[0]!.headers.authorization).toBe('Bearer gw-key-0123456789');
  });

  it('an unknown provider, an unreadable or invalid history, a missing --model, bad flags', async () => {
    const notJson = put('bad.json', '{"messages": [');
    const notConversation = put('other.json', { hello: 'world' });
    const endsWithAssistant = put('done.json', [
      { role: 'user', parts: [text('q')] },
      { role: 'assistant', parts: [text('a')] },
    ]);
    const twoLines = put('two.jsonl', '[]\n[]\n');
    const cases: [string[], RegExp][] = [
      [['--prompt', 'p', '--provider', 'gemini'], /gemini/],
      [['missing.json', '--prompt', 'p'], /missing\.json: no such file/],
      [[notJson, '--prompt', 'p'], new RegExp(notJson)],
      [[notConversation, '--prompt', 'p'], /not a conversation/],
      [[endsWithAssistant], /needs --prompt/],
      [[], /needs --prompt to start a conversation/],
      [[twoLines, '--prompt', 'p'], /one conversation/],
      [['--prompt', 'p', '--max-messages', '3', '--max-tokens', '9'], /cannot be combined/],
      [['--prompt', 'p', '--write'], /--write needs a history file/],
      [['--prompt', 'p', '--instructions-file', 'nope.md'], /nope\.md: no such file/],
      [['--prompt', 'p', '--max-steps', '0'], /max-steps/],
      // Longer than node's timers hold: it would fire at once.
      [['--prompt', 'p', '--timeout', '3000000'], /--timeout.*at most 2147483 seconds/],
      [['--prompt', 'p', '--tool-timeout', '3000000'], /--tool-timeout.*at most 2147483 seconds/],
    ];
    for (const [args, pattern] of cases) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(pattern);
    }
    const noModel = await runCli(['run', '--prompt', 'p'], {
      cwd: work,
      env: ENV,
      stdinIsTTY: true,
    });
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain('--model');
    expect(mock.requests).toHaveLength(0);
  });

  it('-o naming the history, a folder, or a path through a file: exit 2 before any request', async () => {
    const history = put('mine.json', [{ role: 'user', parts: [text('q')] }]);
    const before = readFileSync(path.join(work, history), 'utf8');
    const aFile = put('plain.txt', 'x');
    const folder = fresh('out-folder');
    mkdirSync(path.join(work, folder));
    const cases: [string[], string][] = [
      [[history, '-o', history], `-o ${history} is one of the inputs`],
      [['--prompt', 'p', '-o', folder], `cannot write ${folder}: is a directory, not a file`],
      [
        ['--prompt', 'p', '-o', `${aFile}/out.json`],
        `cannot write ${aFile}/out.json: a part of the path is not a directory`,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`histlint: error: ${message}`);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(mock.requests).toHaveLength(0);
    expect(readFileSync(path.join(work, history), 'utf8')).toBe(before);
  });

  it('a result that cannot be written after the run goes to standard output instead', async () => {
    // A link to a file in a folder that does not exist passes the checks, and fails the write.
    const out = fresh('dangling.json');
    symlinkSync(path.join('no-such-folder', 'x.json'), path.join(work, out));
    mock.script({ text: 'paid for' });
    const r = await run(['--prompt', 'p', '-o', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'the result could not be written: no such file; the conversation is on standard output instead',
    );
    expect(JSON.parse(r.stdout).messages.at(-1).parts).toEqual([text('paid for')]);
  });
});

describe('histlint run: secrets', () => {
  it('the key appears in no output and no written file, even when the server echoes it', async () => {
    mock.script({
      text: `I saw your key: ${KEY}`,
      toolCalls: [{ id: 'k1', name: 'missing', arguments: '{}' }],
    });
    mock.setFallback({ status: 401, echoHeaders: true, message: 'invalid key' });
    const out = fresh('leak.json');
    const r = await run(['--prompt', 'p', '-o', out, '--max-retries', '1']);
    expect(r.code).toBe(3);
    // A 401 is not retried.
    expect(mock.requests).toHaveLength(2);
    expect(mock.requests[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.stderr).toContain('invalid key');
    expect(r.stderr).toContain('[redacted]');
    expectNoKey(r, [out]);
    expect(readFileSync(path.join(work, out), 'utf8')).toContain('I saw your key: [redacted]');

    mock.reset();
    mock.script({ text: `streamed ${KEY}` });
    const tty = await run(['--prompt', 'p'], { stderrIsTTY: true });
    expect(tty.code).toBe(0);
    expectNoKey(tty);
  });

  it('the history a run starts from is written back as it was, even where it holds the key', async () => {
    // A key made of digits: the stored history holds it as a number and in the user's own text.
    const key = '123456789012';
    const stored = {
      version: 1,
      metadata: { ticket: 123456789012 },
      messages: [
        { role: 'user', parts: [text('my ticket is 123456789012')] },
        {
          role: 'assistant',
          parts: [{ type: 'tool-call', id: 'c1', name: 'lookup', arguments: '{"n":123456789012}' }],
        },
        {
          role: 'tool',
          parts: [{ type: 'tool-result', callId: 'c1', name: 'lookup', content: [text('ok')] }],
        },
      ],
    };
    const file = put('own.json', stored);
    mock.script({ text: 'the key is 123456789012' });
    const r = await run([file, '--write'], { env: { OPENAI_API_KEY: key } });
    expect(r.code, r.stderr).toBe(0);
    const written = readJson(file);
    expect(written.metadata).toEqual(stored.metadata);
    expect(written.messages.slice(0, 3)).toEqual(stored.messages);
    // What the run added has the key taken out, and the file is still JSON.
    expect(written.messages[3]!.parts).toEqual([text('the key is [redacted]')]);
  });

  it('a long error message cut short shows no part of the key', async () => {
    // The message is cut at 500 characters; some of these paddings put the cut inside the key.
    for (let pad = 420; pad <= 500; pad += 8) {
      mock.reset();
      mock.setFallback({ status: 400, echoHeaders: true, message: 'x'.repeat(pad) });
      const r = await run(['--prompt', 'p', '--max-retries', '0']);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('x'.repeat(pad > 480 ? 400 : pad));
      expect(r.stderr).not.toContain(KEY.slice(0, 12));
      expectNoKey(r);
    }
  });
});
