/**
 * The autogen adapter (read only): its own fixture cases, the public AutoGen sample of the corpus
 * read and linted, and detection that claims nothing of the other corpus folders (and the other
 * formats nothing of it). The contract cases run in contract.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { autogenFormat } from '../../src/formats/autogen/index.js';
import { detectFormat } from '../../src/formats/detect.js';
import { lintConversation } from '../../src/lint/api.js';
import { ReadOnlyFormatError } from '../../src/model/errors.js';
import type { JsonValue } from '../../src/model/json.js';
import { corpusDocuments, expectOwnCorpus } from '../helpers/corpus.js';
import { describeFixtureCases } from '../helpers/formats.js';
import { describeShared } from '../helpers/shared.js';

describeFixtureCases(autogenFormat);

describe('autogen', () => {
  it('is read only, checked against openai-chat', () => {
    expect(autogenFormat.readOnly).toBe(true);
    expect(autogenFormat.target).toBe('openai-chat');
    const read = autogenFormat.read([{ content: 'hi', source: 'user', type: 'UserMessage' }]);
    expect(() => autogenFormat.write(read.conversation, read.context)).toThrow(ReadOnlyFormatError);
  });

  it('reads an error result as failed and reports a call without its result', () => {
    const history: JsonValue = [
      { content: 'go', source: 'user', type: 'UserMessage' },
      {
        content: [{ id: 'c1', arguments: '{}', name: 'run' }],
        thought: null,
        source: 'agent',
        type: 'AssistantMessage',
      },
    ];
    const read = autogenFormat.read(history);
    expect(read.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const findings = lintConversation(JSON.stringify(history));
    expect(findings.map((f) => f.ruleId)).toContain('dangling-tool-call');
    const at = findings.find((f) => f.ruleId === 'dangling-tool-call')!;
    expect(at.pointer).toBe('/1/content/0');
  });

  it('does not claim other formats’ messages, nor an empty list', () => {
    expect(autogenFormat.detect([])).toBe(false);
    expect(autogenFormat.detect({ messages: [] })).toBe(false);
    expect(autogenFormat.detect([{ role: 'user', content: 'hi' }])).toBe(false);
    // One message of another shape among AutoGen ones: not an AutoGen list.
    expect(
      autogenFormat.detect([
        { content: 'hi', type: 'UserMessage' },
        { role: 'assistant', content: 'hello' },
      ]),
    ).toBe(false);
    expect(() => autogenFormat.read({ contents: [] })).toThrow(/not autogen/);
  });
});

describeShared('autogen on the corpus', 'corpus/autogen', () => {
  it('reads the public AutoGen history and lints it against openai-chat', () => {
    const docs = corpusDocuments('autogen');
    expect(docs.length).toBeGreaterThan(0);
    for (const [where, value] of docs) {
      expect(detectFormat(value).name, where).toBe('autogen');
      const read = autogenFormat.read(value);
      expect(read.conversation.messages.length, where).toBeGreaterThan(0);
      const findings = lintConversation(JSON.stringify(value));
      expect(
        findings.filter((f) => f.ruleId === 'not-a-conversation'),
        where,
      ).toEqual([]);
    }
  });

  it('claims nothing of the other corpus folders, and no other format claims it', () => {
    expectOwnCorpus(autogenFormat, 'autogen');
  });
});
