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

  it("switches on a target's rules only with the target", () => {
    expect([...resolveRules({}).keys()].some((id) => id.includes('/'))).toBe(false);
    expect(
      [...resolveRules({}, 'anthropic').keys()]
        .filter((id) => id.includes('/'))
        .every((id) => id.startsWith('anthropic/')),
    ).toBe(true);
    expect(
      [...resolveRules({}, 'anthropic').keys()].some((id) => id.startsWith('anthropic/')),
    ).toBe(true);
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
