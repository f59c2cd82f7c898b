/**
 * The openai-agents adapter (read only): its fixture cases, what is specific to a run state (the
 * TypeScript SDK's item shapes, an approval asked about a call already read, a string original
 * input), the public run states of the corpus read and linted, and detection both ways. The
 * contract cases run in contract.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { openaiAgentsFormat } from '../../src/formats/openai-agents/index.js';
import { lintConversation } from '../../src/lint/api.js';
import { ReadOnlyFormatError } from '../../src/model/errors.js';
import { parseJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import { corpusDocuments, describeCorpusClaims, describeFixtureCases } from '../helpers/formats.js';
import { describeShared } from '../helpers/shared.js';

describeFixtureCases(openaiAgentsFormat);

/** A Python SDK run state of `items` after the input `input`. */
function state(items: JsonValue[], input: JsonValue = 'go'): JsonObject {
  return { $schemaVersion: '1.16', original_input: input, generated_items: items };
}

const call = (id: string, name = 'lookup'): JsonObject => ({
  agent: { name: 'a' },
  raw_item: { arguments: '{}', call_id: id, name, type: 'function_call' },
  type: 'tool_call_item',
});

const output = (id: string, text: string): JsonObject => ({
  agent: { name: 'a' },
  raw_item: { call_id: id, output: text, type: 'function_call_output' },
  type: 'tool_call_output_item',
});

/** The rule ids lint gives a run state, with options. */
function rules(value: JsonValue, options: Parameters<typeof lintConversation>[1] = {}): string[] {
  return lintConversation(JSON.stringify(value), options).map((f) => f.ruleId);
}

describe('openai-agents', () => {
  it('is read only, checked against openai-responses', () => {
    expect(openaiAgentsFormat.readOnly).toBe(true);
    expect(openaiAgentsFormat.target).toBe('openai-responses');
    const read = openaiAgentsFormat.read(state([]));
    expect(() => openaiAgentsFormat.write(read.conversation, read.context)).toThrow(
      ReadOnlyFormatError,
    );
  });

  it('reads a string original input as one user message, located at it', () => {
    const read = openaiAgentsFormat.read(state([], 'hello'));
    expect(read.conversation.messages).toMatchObject([
      { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
    ]);
    expect(read.locate(0)).toBe('/original_input');
    expect(read.locate(0, 0)).toBe('/original_input');
  });

  it('reports an unanswered call at its raw item, and a pending approval only without --leave-pending', () => {
    const pending = state([
      call('c1', 'refund'),
      { ...call('c1', 'refund'), type: 'tool_approval_item' },
    ]);
    const read = openaiAgentsFormat.read(pending);
    // The approval asks about the call already read: one call, not two.
    expect(read.conversation.messages.map((m) => m.parts.length)).toEqual([1, 1]);
    const findings = lintConversation(JSON.stringify(pending));
    const dangling = findings.find((f) => f.ruleId === 'dangling-tool-call')!;
    expect(dangling.pointer).toBe('/generated_items/0/raw_item');
    expect(rules(pending, { leavePending: true })).not.toContain('dangling-tool-call');
  });

  it('reads an approval item whose call is not among the items as that call', () => {
    const read = openaiAgentsFormat.read(state([{ ...call('c9'), type: 'tool_approval_item' }]));
    expect(read.conversation.messages[1]!.parts[0]).toMatchObject({ type: 'tool-call', id: 'c9' });
  });

  it('reads a paired call clean, and an output without its call as an orphan', () => {
    expect(rules(state([call('c1'), output('c1', 'ok')]))).toEqual([]);
    const orphan = lintConversation(JSON.stringify(state([output('c2', 'late')])));
    expect(orphan.map((f) => f.ruleId)).toContain('orphan-tool-result');
    expect(orphan.find((f) => f.ruleId === 'orphan-tool-result')!.pointer).toBe(
      '/generated_items/0/raw_item',
    );
  });

  it('reads the TypeScript SDK’s items (callId, function_call_result) and places their fields', () => {
    const ts: JsonObject = {
      $schemaVersion: '1.4',
      originalInput: 'go',
      generatedItems: [
        {
          type: 'tool_call_item',
          rawItem: { type: 'function_call', callId: 'k1', name: 'f', arguments: '{}' },
        },
        {
          type: 'tool_call_output_item',
          rawItem: {
            type: 'function_call_result',
            callId: 'k1',
            name: 'f',
            status: 'completed',
            output: { type: 'text', text: 'done' },
          },
        },
      ],
    };
    const read = openaiAgentsFormat.read(ts);
    const [, assistant, tool] = read.conversation.messages;
    expect(assistant!.parts[0]).toMatchObject({ type: 'tool-call', id: 'k1', name: 'f' });
    expect(tool!.parts[0]).toMatchObject({
      type: 'tool-result',
      callId: 'k1',
      content: [{ type: 'text', text: 'done' }],
    });
    expect(read.locate(1, 0, ['id'])).toBe('/generatedItems/0/rawItem/callId');
    expect(read.locate(2, 0, ['callId'])).toBe('/generatedItems/1/rawItem/callId');
    expect(rules(ts)).toEqual([]);
  });

  it('keeps the run state’s other fields and each item’s wrapper on the conversation', () => {
    const value = parseJson(
      JSON.stringify({ ...state([output('c1', 'x')]), max_turns: 3, trace: null }),
    );
    const kept = openaiAgentsFormat.read(value).conversation.providerData as JsonObject;
    expect(kept['openai-agents']).toEqual({
      state: { $$schemaVersion: '1.16', max_turns: 3, trace: null },
      items: [{ agent: { name: 'a' }, type: 'tool_call_output_item' }],
    });
  });

  it('does not claim other shapes', () => {
    expect(openaiAgentsFormat.detect({ original_input: 'x', generated_items: [] })).toBe(false);
    expect(openaiAgentsFormat.detect({ $schemaVersion: '1.0', generated_items: [] })).toBe(false);
    expect(openaiAgentsFormat.detect([])).toBe(false);
    expect(() => openaiAgentsFormat.read({ input: [] })).toThrow(/not openai-agents/);
  });
});

describeShared('openai-agents on the corpus', 'corpus/openai-agents-runstate', () => {
  it('reads every public run state and lints it without a not-a-conversation', () => {
    const states = corpusDocuments('openai-agents-runstate').filter(([w]) =>
      w.endsWith('run_state'),
    );
    expect(states.length).toBe(9);
    for (const [where, value] of states) {
      expect(openaiAgentsFormat.detect(value), where).toBe(true);
      openaiAgentsFormat.read(value);
      expect(rules(value), where).not.toContain('not-a-conversation');
    }
    // The pending approval of the resume fixture is a pending call, not a broken history.
    const resume = states.find(([w]) => w.endsWith(':9 run_state'))![1];
    expect(rules(resume)).toContain('dangling-tool-call');
    expect(rules(resume, { leavePending: true })).toEqual([]);
  });
});

describeCorpusClaims(openaiAgentsFormat, 'openai-agents-runstate');
