/**
 * `histlint run` sends no stored system prompt (SPEC §2.5): every system or
 * developer message of the history, however its role is spelled, gives way to
 * the run's instructions, for histories in every format that can hold one and
 * for both providers. What is written keeps the stored history as it was.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import type { MockLlm, RecordedRequest } from './helpers/mock-llm.js';
import { useMockLlm } from './helpers/run-suite.js';

const ENV = {
  OPENAI_API_KEY: 'sk-test-system-prompts-0123456789',
  ANTHROPIC_API_KEY: 'sk-ant-system-prompts-0123456789',
};
const INSTRUCTIONS = 'Answer in one line.';

let work: string;
let mock: MockLlm;
let counter = 0;
useMockLlm('histlint-run-system-', (w, m) => {
  work = w;
  mock = m;
});

const text = (t: string) => ({ type: 'text', text: t });

/** A stored history holding system prompts, each with a text that must not be sent. */
interface Shape {
  name: string;
  /** `--from`, where detection alone would not read the history this way. */
  from?: string;
  history: unknown;
  /** The texts of its stored system and developer messages. */
  stored: string[];
}

const SHAPES: Shape[] = [
  {
    name: 'v1: a developer message and roles spelled " System " and " DEVELOPER "',
    history: {
      version: 1,
      messages: [
        { role: 'developer', parts: [text('STORED-V1-DEVELOPER')] },
        { role: 'user', parts: [text('q1')] },
        { role: 'assistant', parts: [text('a1')] },
        { role: ' System ', parts: [text('STORED-V1-SPACED-SYSTEM')] },
        { role: ' DEVELOPER ', parts: [text('STORED-V1-SPACED-DEVELOPER')] },
        { role: 'user', parts: [text('q2')] },
        { role: 'assistant', parts: [text('a2')] },
      ],
    },
    stored: ['STORED-V1-DEVELOPER', 'STORED-V1-SPACED-SYSTEM', 'STORED-V1-SPACED-DEVELOPER'],
  },
  {
    name: 'v1: a system message whose providerData keeps the developer role',
    history: {
      version: 1,
      messages: [
        {
          role: 'system',
          parts: [text('STORED-V1-HINTED')],
          providerData: { 'openai-chat': { $role: 'developer' } },
        },
        { role: 'user', parts: [text('q1')] },
        { role: 'assistant', parts: [text('a1')] },
      ],
    },
    stored: ['STORED-V1-HINTED'],
  },
  {
    name: 'anthropic: the top-level system and an inline " Developer" message',
    from: 'anthropic',
    history: {
      model: 'claude-x',
      max_tokens: 100,
      system: 'STORED-ANTHROPIC-TOP',
      messages: [
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: [{ type: 'text', text: 'a1' }] },
        { role: ' Developer', content: 'STORED-ANTHROPIC-INLINE' },
        { role: 'user', content: 'q2' },
        { role: 'assistant', content: 'a2' },
      ],
    },
    stored: ['STORED-ANTHROPIC-TOP', 'STORED-ANTHROPIC-INLINE'],
  },
  {
    name: 'bedrock: system blocks and an inline "System" message',
    from: 'bedrock',
    history: {
      modelId: 'anthropic.claude-x',
      system: [{ text: 'STORED-BEDROCK-TOP' }],
      messages: [
        { role: 'user', content: [{ text: 'q1' }] },
        { role: 'assistant', content: [{ text: 'a1' }] },
        { role: 'System', content: [{ text: 'STORED-BEDROCK-INLINE' }] },
        { role: 'user', content: [{ text: 'q2' }] },
        { role: 'assistant', content: [{ text: 'a2' }] },
      ],
    },
    stored: ['STORED-BEDROCK-TOP', 'STORED-BEDROCK-INLINE'],
  },
  {
    name: 'openai-chat: a developer message',
    history: {
      model: 'gpt-x',
      messages: [
        { role: 'developer', content: 'STORED-CHAT-DEVELOPER' },
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: 'a1' },
      ],
    },
    stored: ['STORED-CHAT-DEVELOPER'],
  },
  {
    name: 'openai-chat: roles spelled " DEVELOPER " and "SYSTEM"',
    from: 'openai-chat',
    history: {
      model: 'gpt-x',
      messages: [
        { role: ' DEVELOPER ', content: 'STORED-CHAT-SPACED-DEVELOPER' },
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: 'a1' },
        { role: 'SYSTEM', content: 'STORED-CHAT-UPPER-SYSTEM' },
      ],
    },
    stored: ['STORED-CHAT-SPACED-DEVELOPER', 'STORED-CHAT-UPPER-SYSTEM'],
  },
];

type Provider = 'openai' | 'anthropic';

function put(name: string, value: unknown): string {
  counter += 1;
  const file = `${counter}-${name}`;
  writeFileSync(path.join(work, file), JSON.stringify(value));
  return file;
}

function runAs(provider: Provider, args: string[]) {
  const endpoint =
    provider === 'openai'
      ? ['--base-url', mock.openaiBase]
      : ['--provider', 'anthropic', '--base-url', mock.url];
  return runCli(['run', '--model', 'test-model', ...endpoint, '--max-retries', '0', ...args], {
    cwd: work,
    env: ENV,
    stdinIsTTY: true,
  });
}

/** A role a provider reads as the system prompt, however it is spelled. */
const SYSTEM_ROLE = /^\s*(system|developer)\s*$/i;

/** The system and developer prompts a request carries, as text. */
function systemPrompts(request: RecordedRequest): string[] {
  const messages = request.body.messages ?? [];
  const inline = messages
    .filter((m) => typeof m.role === 'string' && SYSTEM_ROLE.test(m.role))
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
  const top = request.body.system;
  return top === undefined
    ? inline
    : [typeof top === 'string' ? top : JSON.stringify(top), ...inline];
}

describe('histlint run: a stored system prompt is never sent', () => {
  for (const provider of ['openai', 'anthropic'] as const) {
    for (const shape of SHAPES) {
      for (const instructions of [true, false]) {
        it(`${provider}, ${shape.name}, ${instructions ? 'with' : 'without'} --instructions`, async () => {
          const file = put('history.json', shape.history);
          const before = readFileSync(path.join(work, file), 'utf8');
          counter += 1;
          const out = `${counter}-out.json`;
          mock.script({ text: 'first answer' }, { text: 'second answer' });
          const args = [file, '--prompt', 'next question', '-o', out];
          if (shape.from !== undefined) args.push('--from', shape.from);
          if (instructions) args.push('--instructions', INSTRUCTIONS);
          const r = await runAs(provider, args);
          expect(r.code, r.stderr).toBe(0);
          expect(mock.requests).toHaveLength(1);
          const request = mock.requests[0]!;
          expect(systemPrompts(request)).toEqual(instructions ? [INSTRUCTIONS] : []);
          if (provider === 'openai' && instructions) {
            expect(request.body.messages![0]).toEqual({ role: 'system', content: INSTRUCTIONS });
          }
          for (const stored of shape.stored) expect(request.raw).not.toContain(stored);
          // Only what is sent changes: the stored prompts are written back where they were.
          const written = readFileSync(path.join(work, out), 'utf8');
          for (const stored of shape.stored) expect(written).toContain(stored);
          expect(readFileSync(path.join(work, file), 'utf8')).toBe(before);
        });
      }
    }
  }

  it('v1: the stored messages are written back unchanged, the run after them', async () => {
    const shape = SHAPES[0]!;
    const file = put('v1.json', shape.history);
    mock.script({ text: 'answer' });
    const r = await runAs('openai', [
      file,
      '--prompt',
      'p',
      '--instructions',
      INSTRUCTIONS,
      '--write',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const written = JSON.parse(readFileSync(path.join(work, file), 'utf8')) as {
      messages: unknown[];
    };
    const stored = (shape.history as { messages: unknown[] }).messages;
    expect(written.messages.slice(0, stored.length)).toEqual(stored);
    expect(written.messages).toHaveLength(stored.length + 2);
  });

  it('a history ending with a user message and then a spelled-out system prompt needs no --prompt', async () => {
    const file = put('pending.json', {
      version: 1,
      messages: [
        { role: 'user', parts: [text('waiting')] },
        { role: ' system ', parts: [text('STORED-TRAILING-SYSTEM')] },
      ],
    });
    counter += 1;
    mock.script({ text: 'answered' });
    const r = await runAs('openai', [file, '-o', `${counter}-out.json`]);
    expect(r.code, r.stderr).toBe(0);
    expect(mock.requests[0]!.body.messages).toEqual([{ role: 'user', content: 'waiting' }]);
  });
});
