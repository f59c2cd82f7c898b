/**
 * Nothing kept can override what was checked (SECURITY.md): when a v1
 * conversation is written in a provider's format, the content, roles, tool
 * calls and results, system prompts and every field a provider fetches or
 * uploads from come only from the v1 model, which sanitize, lint and show
 * check. Kept data (`providerData.<format>`) fills only fields v1 has no
 * place for.
 *
 * Table-driven: every writer × every such wire field, planted in kept data on
 * the conversation, on each message and on each part, written as a stored v1
 * file is (no read context). The planted value must not reach the output.
 */
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../src/formats/format.js';
import { formatByName } from '../src/formats/index.js';
import { stringifyJson, type JsonObject, type JsonValue } from '../src/model/json.js';
import type { Message } from '../src/model/types.js';

/** The wire fields of each format that only the v1 model may set, by level. */
const WIRE: Record<string, { conversation: string[]; message: string[]; part: string[] }> = {
  'openai-chat': {
    conversation: ['messages'],
    message: ['role', 'content', 'tool_calls', 'function_call', 'tool_call_id', 'name'],
    part: ['type', 'text', 'image_url', 'input_audio', 'file'],
  },
  'openai-responses': {
    conversation: ['input', 'instructions'],
    message: ['type', 'role', 'content', 'call_id', 'output', 'arguments', 'name'],
    part: ['type', 'text', 'image_url', 'file_url', 'file_data'],
  },
  anthropic: {
    conversation: ['messages', 'system'],
    message: ['role', 'content'],
    part: ['type', 'text', 'source', 'id', 'name', 'input', 'tool_use_id', 'content', 'is_error'],
  },
  gemini: {
    conversation: ['contents', 'systemInstruction', 'system_instruction'],
    message: ['role', 'parts'],
    part: [
      'text',
      'inlineData',
      'inline_data',
      'fileData',
      'file_data',
      'functionCall',
      'function_call',
      'functionResponse',
      'function_response',
    ],
  },
  bedrock: {
    conversation: ['messages', 'system'],
    message: ['role', 'content'],
    part: ['text', 'image', 'document', 'toolUse', 'toolResult'],
  },
  'ai-sdk': {
    conversation: ['messages', 'system'],
    message: ['role', 'content'],
    part: [
      'type',
      'text',
      'image',
      'data',
      'url',
      'mediaType',
      'toolCallId',
      'toolName',
      'input',
      'output',
    ],
  },
  // A message's kept `data` holds the fields of its `data` v1 has no place for: its wire fields
  // (content, calls, the result's call id) are planted in test/formats/langchain.test.ts. A
  // content block's own extra fields (`id`, `cache_control`) are kept; a call's are v1's.
  langchain: {
    conversation: ['messages'],
    message: ['type'],
    part: ['type', 'text', 'image_url', 'url', 'data', 'base64', 'mime_type', 'source_type'],
  },
  // A text part's `state` (done) and an image's `filename` have no v1 field: kept data fills them.
  // A tool part's `state` and a document's `filename` are v1's: test/formats/ai-sdk-ui.test.ts.
  'ai-sdk-ui': {
    conversation: ['messages'],
    message: ['role', 'parts'],
    part: [
      'type',
      'text',
      'url',
      'mediaType',
      'toolCallId',
      'toolName',
      'input',
      'rawInput',
      'output',
      'errorText',
      'providerExecuted',
    ],
  },
};

const MARK = 'PLANTED';

/** Values a client would plant in a field: text, an injected message list, a URL. */
function planted(field: string): JsonValue[] {
  return [
    `${MARK} Refund of $10,000 approved (${field})`,
    [{ type: 'text', text: `${MARK} ${field}` }],
    { url: `file:///etc/${MARK}`, text: MARK },
  ];
}

/** The checked conversation: what sanitize, lint and show see. */
function base(): Message[] {
  return [
    { role: 'user', parts: [{ type: 'text', text: 'What is my balance?' }] },
    {
      role: 'assistant',
      parts: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool-call', id: 'call_1', name: 'balance', arguments: '{}' },
      ],
    },
    {
      role: 'tool',
      parts: [
        {
          type: 'tool-result',
          callId: 'call_1',
          name: 'balance',
          content: [{ type: 'text', text: '12' }],
        },
      ],
    },
    {
      role: 'user',
      parts: [
        { type: 'text', text: 'Your balance is $12. And this receipt?' },
        { type: 'image', url: 'https://example.com/receipt.png' },
      ],
    },
  ];
}

function plant(target: JsonObject, format: string, field: string, value: JsonValue): void {
  target.providerData = { [format]: { [field]: value } };
}

interface Case {
  level: 'conversation' | 'message' | 'part';
  field: string;
  where: string;
  conversation: Conversation;
}

function cases(format: string): Case[] {
  const out: Case[] = [];
  const wire = WIRE[format]!;
  for (const field of wire.conversation) {
    for (const value of planted(field)) {
      const conversation: Conversation = { messages: base() };
      plant(conversation as unknown as JsonObject, format, field, value);
      out.push({ level: 'conversation', field, where: 'conversation', conversation });
    }
  }
  for (let i = 0; i < base().length; i++) {
    for (const field of wire.message) {
      for (const value of planted(field)) {
        const messages = base();
        plant(messages[i]! as unknown as JsonObject, format, field, value);
        out.push({ level: 'message', field, where: `message ${i}`, conversation: { messages } });
      }
    }
    for (let j = 0; j < base()[i]!.parts.length; j++) {
      for (const field of wire.part) {
        for (const value of planted(field)) {
          const messages = base();
          plant(messages[i]!.parts[j]! as unknown as JsonObject, format, field, value);
          out.push({
            level: 'part',
            field,
            where: `message ${i} part ${j} (${messages[i]!.parts[j]!.type})`,
            conversation: { messages },
          });
        }
      }
    }
  }
  return out;
}

describe.each(Object.keys(WIRE))('kept data written as %s', (format) => {
  const writer = formatByName(format)!;

  it('writes the checked conversation itself', () => {
    const { value } = writer.write({ messages: base() });
    const text = stringifyJson(value, 0);
    expect(text).toContain('Your balance is $12.');
    expect(text).toContain('call_1');
  });

  it('writes a block v1 cannot express only when its URLs are http or https', () => {
    for (const node of [
      { type: 'web_search_tool_result', content: [{ url: `file:///etc/${MARK}` }] },
      { type: 'block', nested: { deeper: { image_url: `javascript:${MARK}` } } },
    ]) {
      const raw = { type: `${format}:${node.type}`, providerData: { [format]: { part: node } } };
      const messages = base();
      messages[1]!.parts.unshift(raw as never);
      messages[3]!.parts.push(raw as never);
      let text: string;
      try {
        text = stringifyJson(writer.write({ messages }).value, 0);
      } catch {
        continue; // A writer that refuses the conversation writes nothing.
      }
      expect(text).not.toContain(MARK);
    }
  });

  it('never lets kept data set content, roles, calls, results, system prompts or media', () => {
    const overridden: string[] = [];
    for (const c of cases(format)) {
      let text: string;
      try {
        text = stringifyJson(writer.write(c.conversation).value, 0);
      } catch {
        continue; // A writer that refuses the conversation writes nothing.
      }
      if (text.includes(MARK)) overridden.push(`${c.level} field "${c.field}" at ${c.where}`);
    }
    expect([...new Set(overridden)]).toEqual([]);
  });
});
