/**
 * lintConversation: the library's one-call lint, with the CLI's defaults.
 */
import { describe, expect, it } from 'vitest';
import { lintConversation, resolveRules } from '../src/index.js';

const DANGLING = JSON.stringify(
  {
    version: 1,
    messages: [
      { role: 'system', parts: [{ type: 'text', text: 's' }] },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: '{}' }] },
    ],
  },
  null,
  2,
);

describe('lintConversation', () => {
  it('reports with the default severities, and line and column in the text', () => {
    const findings = lintConversation(DANGLING);
    expect(findings.map((f) => [f.ruleId, f.severity, f.line, f.column])).toEqual([
      ['dangling-tool-call', 'error', 16, 9],
    ]);
  });

  it('takes severities over the defaults', () => {
    const findings = lintConversation(DANGLING, {
      rules: { 'system-message': 'warn', 'dangling-tool-call': 'off' },
    });
    expect(findings.map((f) => [f.ruleId, f.severity])).toEqual([['system-message', 'warn']]);
  });

  it("checks a provider's rules only under its target: the file's own by default", () => {
    // A tool message after a user message: OpenAI rejects it, histlint's pairing accepts it.
    const chat = JSON.stringify([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'user', content: 'well?' },
      { role: 'tool', tool_call_id: 'x', content: 'ok' },
    ]);
    const ids = (options: Parameters<typeof lintConversation>[1]): string[] =>
      lintConversation(chat, options).map((f) => f.ruleId);
    const rejected = ['openai-chat/tool-results-adjacent', 'openai-chat/tool-message-after-call'];
    expect(ids({})).toEqual(rejected);
    expect(ids({ target: 'auto' })).toEqual(rejected);
    expect(ids({ target: 'none' })).toEqual([]);
    // A v1 history has no provider of its own: only a forced target checks one.
    const v1 = JSON.stringify({
      version: 1,
      messages: [{ role: 'assistant', parts: [{ type: 'text', text: '' }] }],
    });
    expect(lintConversation(v1).map((f) => f.ruleId)).toEqual([]);
    expect(lintConversation(v1, { target: 'anthropic' }).map((f) => f.ruleId)).toContain(
      'anthropic/empty-text',
    );
    // The rules that may run include every provider's; the target picks among them.
    expect([...resolveRules({}).keys()].some((id) => id.startsWith('anthropic/'))).toBe(true);
  });

  it('reads any supported format', () => {
    const chat = JSON.stringify([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
    ]);
    expect(lintConversation(chat).map((f) => f.ruleId)).toEqual(['dangling-tool-call']);
  });
});
