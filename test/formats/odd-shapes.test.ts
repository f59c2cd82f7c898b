/**
 * Source fields a reader cannot map (a content that is an object, a tool name that is a number,
 * a Gemini functionResponse.parts that is no list, a "__proto__" field)
 * are kept as they were and come back on write, instead of a writer's default: found by
 * round-trip fuzzing after writers stopped letting kept data override what they set.
 */
import { describe, expect, it } from 'vitest';
import { formatByName } from '../../src/formats/index.js';
import { jsonEqual, parseJson, stringifyJson } from '../../src/model/json.js';

const CASES: [format: string, text: string][] = [
  ['openai-chat', '{"messages":[{"role":"user","content":{"text":"hi"}}]}'],
  [
    'openai-chat',
    '{"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","content":5}]}',
  ],
  ['ai-sdk', '[{"role":"user","content":{"x":1}}]'],
  [
    'ai-sdk',
    '[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"c","toolName":"f","input":{}}]},{"role":"tool","content":[{"type":"tool-result","toolCallId":"c","toolName":"f","output":{"type":"execution-denied","reason":5}}]}]',
  ],
  [
    'ai-sdk',
    '[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"c","toolName":"f","input":{}}]},{"role":"tool","content":[{"type":"tool-result","toolCallId":"c","toolName":5,"output":{"type":"text","value":"x"}}]}]',
  ],
  [
    'gemini',
    '{"contents":[{"role":"model","parts":[{"functionCall":{"id":"f","name":"f","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"id":"f","name":"f","response":{},"parts":{}}}]}]}',
  ],
  [
    'gemini',
    '{"contents":[{"role":"model","parts":[{"text":"x","thought":true,"__proto__":{"p":1}}]}]}',
  ],
  // An empty block, kept whole like any block v1 cannot express.
  ['bedrock', '{"messages":[{"role":"user","content":[{"text":"a"},{}]}]}'],
  ['openai-responses', '{"model":"m","input":[{"role":"user","content":[{}]}]}'],
];

describe('fields a reader cannot map', () => {
  it.each(CASES)('%s: %s comes back as it was', (name, text) => {
    const value = parseJson(text);
    const format = formatByName(name)!;
    const read = format.read(value);
    const written = format.write(read.conversation, read.context);
    expect(written.losses).toEqual([]);
    expect(jsonEqual(written.value, value), stringifyJson(written.value)).toBe(true);
  });
});
