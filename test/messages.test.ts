/**
 * Issue 19's readable messages, piece by piece: `--rule` spellings, the JSON
 * or JSONL decision for standard input, and the conversation found below a
 * value that is none.
 */
import { describe, expect, it } from 'vitest';
import { parseRuleFlags, severityOf } from '../src/cli/rule-flags.js';
import { UsageError } from '../src/cli/exit-codes.js';
import { ruleDocsPage } from '../src/cli/package-info.js';
import { nestedConversation, notConversationDetail } from '../src/formats/detect.js';
import { inputKind } from '../src/formats/kit/document.js';
import type { JsonValue } from '../src/model/json.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('parseRuleFlags', () => {
  it('takes =, :, warning and 0|1|2', () => {
    expect([
      ...parseRuleFlags([
        'empty-message=warning',
        'unversioned:2',
        'dangling-tool-call=0',
        'schema:off',
        'unsafe-url=1',
        'anthropic/empty-text:error',
      ]),
    ]).toEqual([
      ['empty-message', 'warn'],
      ['unversioned', 'error'],
      ['dangling-tool-call', 'off'],
      ['schema', 'off'],
      ['unsafe-url', 'warn'],
      ['anthropic/empty-text', 'error'],
    ]);
  });

  it('refuses other severities and names the closest rule for an unknown id', () => {
    expect(severityOf('3')).toBeUndefined();
    expect(() => parseRuleFlags(['empty-message=loud'])).toThrow(UsageError);
    expect(() => parseRuleFlags(['empty-mesage=off'])).toThrow(
      'unknown rule "empty-mesage"; did you mean "empty-message"?',
    );
    expect(() => parseRuleFlags(['zzzzzzzz=off'])).toThrow(/unknown rule "zzzzzzzz" \(see/);
  });
});

describe('inputKind', () => {
  const lines = '{"version": 1, "messages": []}\n{"version": 1, "messages": []}\n';
  it('follows a telling name', () => {
    expect(inputKind(bytes(lines), 'x.json')).toBe('json');
    expect(inputKind(bytes('{"a": 1}'), 'x.jsonl')).toBe('jsonl');
    expect(inputKind(bytes('{"a": 1}'), 'x.NDJSON')).toBe('jsonl');
  });
  it('else reads the bytes: JSONL when the whole is no JSON but its first line is', () => {
    expect(inputKind(bytes(lines))).toBe('jsonl');
    expect(inputKind(bytes(lines), 'notes.txt')).toBe('jsonl');
    expect(inputKind(bytes('{\n  "version": 1,\n  "messages": []\n}\n'))).toBe('json');
    expect(inputKind(bytes('{"version": 1, "messages": []}\n'))).toBe('json');
    expect(inputKind(bytes('{ broken\n{ also\n'))).toBe('json');
    expect(inputKind(Uint8Array.from([0xff, 0xfe, 0x7b]))).toBe('json');
  });
});

describe('nestedConversation', () => {
  const anthropic = {
    model: 'm',
    max_tokens: 8,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  };
  it('finds one and two levels down, and names the --pointer', () => {
    expect(nestedConversation({ request: anthropic } as JsonValue)).toMatchObject({
      format: { name: 'anthropic' },
      tokens: ['request'],
    });
    const two = { log: [{ at: 1 }, anthropic] } as JsonValue;
    expect(nestedConversation(two)?.tokens).toEqual(['log', '1']);
    expect(notConversationDetail(two, '/x', 'auto', 'not a conversation')).toBe(
      'no conversation here; found an anthropic request at /x/log/1: try --pointer /x/log/1',
    );
  });
  it('looks no deeper than two levels, and only for the --from format when one is named', () => {
    expect(nestedConversation({ a: { b: { c: anthropic } } } as JsonValue)).toBeUndefined();
    expect(nestedConversation({ request: anthropic } as JsonValue, 'gemini')).toBeUndefined();
    // A broken v1 envelope's own list is not pointed at as a bare Chat history.
    const broken = { version: 1, messages: [{ role: 'user', content: 'hi' }] } as JsonValue;
    expect(nestedConversation(broken)).toBeUndefined();
    expect(nestedConversation({ request: broken } as JsonValue)).toBeUndefined();
    expect(
      notConversationDetail({ request: anthropic } as JsonValue, '', 'gemini', 'not gemini: x'),
    ).toBe('not gemini: x');
  });
});

describe('ruleDocsPage', () => {
  it('reads a shipped page and nothing outside docs/rules', () => {
    expect(ruleDocsPage('format-mismatch')?.split('\n')[0]).toBe('# `format-mismatch`');
    expect(ruleDocsPage('../README')).toBeUndefined();
    expect(ruleDocsPage('no-such-rule')).toBeUndefined();
  });
});
