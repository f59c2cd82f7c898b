/**
 * The adk adapter (read only): its fixture cases, what is specific to a session (events without
 * content or partial ones left out, a content without a role, camelCase and snake_case), the
 * public session of the corpus read, and detection both ways. The contract cases run in
 * contract.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { adkFormat } from '../../src/formats/adk/index.js';
import { lintConversation } from '../../src/lint/api.js';
import { ReadOnlyFormatError } from '../../src/model/errors.js';
import type { JsonObject, JsonValue } from '../../src/model/json.js';
import { corpusDocuments, describeCorpusClaims, describeFixtureCases } from '../helpers/formats.js';
import { describeShared } from '../helpers/shared.js';

describeFixtureCases(adkFormat);

/** A session of `events`. */
function session(events: JsonValue[]): JsonObject {
  return { id: 's', app_name: 'app', user_id: 'u', state: {}, events };
}

const said = (author: string, parts: JsonValue[], role?: string): JsonObject => ({
  author,
  content: role === undefined ? { parts } : { parts, role },
  id: `ev-${author}`,
});

describe('adk', () => {
  it('is read only, checked against gemini', () => {
    expect(adkFormat.readOnly).toBe(true);
    expect(adkFormat.target).toBe('gemini');
    const read = adkFormat.read(session([]));
    expect(read.conversation.messages).toEqual([]);
    expect(() => adkFormat.write(read.conversation, read.context)).toThrow(ReadOnlyFormatError);
  });

  it('leaves out events without content and partial ones, and locates the rest at their event', () => {
    const value = session([
      said('user', [{ text: 'hi' }], 'user'),
      { author: 'agent', actions: { state_delta: { a: 1 } }, id: 'ev-state' },
      { ...said('agent', [{ text: 'hel' }], 'model'), partial: true },
      said('agent', [{ text: 'hello' }], 'model'),
    ]);
    const read = adkFormat.read(value);
    expect(read.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(read.locate(1)).toBe('/events/3/content');
    expect(read.locate(1, 0)).toBe('/events/3/content/parts/0');
    // The events left out are kept whole, in order, with the others' fields.
    const kept = (read.conversation.providerData as JsonObject).adk as JsonObject;
    expect((kept.events as JsonValue[])[1]).toEqual((value.events as JsonValue[])[1]);
  });

  it('reads a content without a role as its author speaks', () => {
    const read = adkFormat.read(
      session([said('user', [{ text: 'q' }]), said('bot', [{ text: 'a' }])]),
    );
    expect(read.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('reports an interrupted call at its part, and a paired one clean', () => {
    const call = said('bot', [{ function_call: { id: 'c1', name: 'f', args: {} } }], 'model');
    const findings = lintConversation(
      JSON.stringify(session([said('user', [{ text: 'go' }], 'user'), call])),
    );
    const dangling = findings.find((f) => f.ruleId === 'dangling-tool-call')!;
    expect(dangling.pointer).toBe('/events/1/content/parts/0');
    const answer = said(
      'bot',
      [{ function_response: { id: 'c1', name: 'f', response: { ok: 1 } } }],
      'user',
    );
    const paired = session([said('user', [{ text: 'go' }], 'user'), call, answer]);
    expect(lintConversation(JSON.stringify(paired)).map((f) => f.ruleId)).toEqual([]);
  });

  it('does not claim other shapes', () => {
    expect(adkFormat.detect({ id: 's', events: [] })).toBe(false);
    expect(adkFormat.detect({ ...session([]), events: [{ content: { parts: [] } }] })).toBe(false);
    expect(adkFormat.detect({ contents: [] })).toBe(false);
    expect(() => adkFormat.read({ events: [] })).toThrow(/not adk/);
  });
});

describeShared('adk on the corpus', 'corpus/adk-session', () => {
  it('reads the public session (it has no events yet) and keeps its fields', () => {
    const docs = corpusDocuments('adk-session');
    expect(docs.length).toBe(1);
    const [where, value] = docs[0]!;
    expect(adkFormat.detect(value), where).toBe(true);
    const read = adkFormat.read(value);
    expect(read.conversation.messages).toEqual([]);
    const kept = (read.conversation.providerData as JsonObject).adk as JsonObject;
    expect((kept.session as JsonObject).app_name).toBe('trip_planner_agent');
  });
});

describeCorpusClaims(adkFormat, 'adk-session');
