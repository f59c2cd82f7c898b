/**
 * The requests histlint writes type-check against the providers' official
 * SDK types: `openai` (Chat Completions and Responses), `@anthropic-ai/sdk`,
 * `@google/genai` and `@aws-sdk/client-bedrock-runtime`, all pinned to exact
 * versions (the first two are dependencies; the other two devDependencies,
 * at the newest releases that support Node 20: `@google/genai` 3.x needs
 * Node 22). A set of hand-written v1 conversations covering every part kind
 * is written through each writable format as `convert --lossy` writes it
 * (`format.write` returns the value and the losses; the losses are not
 * checked here, the value is); each written value becomes an
 * object literal assigned to the SDK's request type in a generated `.ts`
 * source, and the TypeScript compiler API checks them in this process. Fresh
 * object literals get excess-property checks at every depth, so a field the
 * SDK does not know is a diagnostic, as is a missing or mistyped one.
 *
 * Request-level fields the SDK requires and a history does not carry are
 * filled in here: `model` everywhere, `max_tokens` for Anthropic, `modelId`
 * for Bedrock. Two wire shapes differ from the SDK's on purpose:
 *
 * - Gemini: the REST body holds `systemInstruction` beside `contents`; the
 *   SDK's `GenerateContentParameters` takes it in `config`. The check moves
 *   it there and rejects any other top-level field. `contents` is checked as
 *   `Content[]` and `systemInstruction` as `Content` (what the writer writes):
 *   the SDK's unions also take parts and strings, loose enough to skip
 *   excess-property checks.
 * - Bedrock: JSON on the wire carries bytes (`source.bytes`,
 *   `reasoningContent.redactedContent`) as base64 strings; the JS SDK takes a
 *   `Uint8Array`. The generated source turns each such string into
 *   `bytes("<base64>")`, declared as returning `Uint8Array`, so the rest of
 *   the shape is checked as written.
 *
 * The `ai-sdk` format has no SDK among these (the Vercel `ai` package is not
 * a dependency), so it is not type-checked here.
 */
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../src/formats/format.js';
import { formatByName } from '../src/formats/index.js';
import { stringifyJson, type JsonObject, type JsonValue } from '../src/model/json.js';
import { isObject } from '../src/model/types.js';
import { ROOT } from './helpers/cli.js';

/** A small PNG, a PDF header and some text, base64. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PD4+CmVuZG9iagp0cmFpbGVyCjw8Pj4KJSVFT0YK';
const TXT = 'aGVsbG8gd29ybGQK';

/** Hand-written v1 conversations: together they use every part kind and field. */
const CONVERSATIONS: Record<string, Conversation> = {
  'text and system prompt': {
    version: 1,
    messages: [
      { role: 'system', parts: [{ type: 'text', text: 'You are terse.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Hello' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'Hi.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Two lines, please.' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'text', text: 'First line.' },
          { type: 'text', text: 'Second line.' },
        ],
      },
      { role: 'user', parts: [{ type: 'text', text: 'Bye' }] },
    ],
  },
  'images and documents': {
    version: 1,
    messages: [
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'Compare these.' },
          { type: 'image', url: 'https://example.com/cat.png' },
          { type: 'image', data: PNG, mediaType: 'image/png' },
          { type: 'image', data: PNG, mediaType: 'image/jpeg' },
          { type: 'document', data: PDF, mediaType: 'application/pdf', name: 'report' },
          { type: 'document', data: TXT, mediaType: 'text/plain', name: 'notes' },
          { type: 'document', url: 'https://example.com/paper.pdf', mediaType: 'application/pdf' },
        ],
      },
      { role: 'assistant', parts: [{ type: 'text', text: 'They differ.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'How?' }] },
    ],
  },
  'tool loop': {
    version: 1,
    messages: [
      { role: 'system', parts: [{ type: 'text', text: 'Use the tools.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'text', text: 'Looking it up.' },
          {
            type: 'tool-call',
            id: 'call_1',
            name: 'get_weather',
            arguments: '{"city":"Paris"}',
          },
          { type: 'tool-call', id: 'call_2', name: 'get_weather', arguments: '{"city":"Ro' },
          { type: 'tool-call', id: 'call_3', name: 'snapshot', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        parts: [
          {
            type: 'tool-result',
            callId: 'call_1',
            name: 'get_weather',
            content: [{ type: 'text', text: '18 C, cloudy' }],
          },
          {
            type: 'tool-result',
            callId: 'call_2',
            name: 'get_weather',
            content: [{ type: 'text', text: 'arguments were not valid JSON' }],
            failed: true,
          },
          {
            type: 'tool-result',
            callId: 'call_3',
            name: 'snapshot',
            content: [
              { type: 'text', text: 'the radar' },
              { type: 'image', data: PNG, mediaType: 'image/png' },
              { type: 'document', data: PDF, mediaType: 'application/pdf', name: 'forecast' },
            ],
          },
        ],
      },
      { role: 'assistant', parts: [{ type: 'text', text: 'Paris: 18 C. Rome: unknown.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Try Rome again.' }] },
    ],
  },
  'truncated arguments': {
    version: 1,
    messages: [
      { role: 'user', parts: [{ type: 'text', text: 'Go.' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'tool-call', id: 'call_a', name: 'write_file', arguments: '' },
          { type: 'tool-call', id: 'call_b', name: 'write_file', arguments: 'null' },
          { type: 'tool-call', id: 'call_c', name: 'write_file', arguments: '[1,2]' },
        ],
      },
      {
        role: 'tool',
        parts: [
          { type: 'tool-result', callId: 'call_a', name: 'write_file', content: [] },
          {
            type: 'tool-result',
            callId: 'call_b',
            name: 'write_file',
            content: [{ type: 'text', text: 'no' }],
            failed: true,
          },
          {
            type: 'tool-result',
            callId: 'call_c',
            name: 'write_file',
            content: [{ type: 'text', text: 'no' }],
            failed: false,
          },
        ],
      },
      { role: 'user', parts: [{ type: 'text', text: 'Again.' }] },
    ],
  },
  reasoning: {
    version: 1,
    messages: [
      { role: 'user', parts: [{ type: 'text', text: 'What is 6 x 7?' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'Multiply.', signature: 'EqQBCkgIARABGAIiQL' },
          { type: 'reasoning', text: '', redacted: 'EmwKAhgBEgy3va3pzix' },
          { type: 'tool-call', id: 'toolu_01', name: 'calc', arguments: '{"expr":"6*7"}' },
        ],
      },
      {
        role: 'tool',
        parts: [
          {
            type: 'tool-result',
            callId: 'toolu_01',
            name: 'calc',
            content: [{ type: 'text', text: '42' }],
          },
        ],
      },
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'Done.' },
          { type: 'text', text: '42' },
        ],
      },
      { role: 'user', parts: [{ type: 'text', text: 'Thanks' }] },
    ],
  },
};

/** How one format's written value becomes a typed declaration. */
interface Target {
  format: string;
  /** The import line of the SDK type. */
  imports: string;
  /** The type the value is assigned to. */
  type: string;
  /** The value as the SDK takes it: request-level fields filled in, wire-only shapes moved. */
  request(value: JsonValue): JsonObject;
  /** Keys whose string values are bytes in the SDK (written as `bytes("...")`). */
  bytesKeys?: ReadonlySet<string>;
}

function asObject(value: JsonValue, format: string): JsonObject {
  if (!isObject(value)) {
    throw new Error(`${format} wrote ${JSON.stringify(value).slice(0, 80)}, not a request object`);
  }
  return value;
}

const TARGETS: Target[] = [
  {
    format: 'openai-chat',
    imports:
      "import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';",
    type: 'ChatCompletionCreateParamsNonStreaming',
    request: (v) => ({ model: 'gpt-5-mini', ...asObject(v, 'openai-chat') }),
  },
  {
    format: 'openai-responses',
    imports:
      "import type { ResponseCreateParamsNonStreaming } from 'openai/resources/responses/responses';",
    type: 'ResponseCreateParamsNonStreaming',
    request: (v) => ({ model: 'gpt-5-mini', ...asObject(v, 'openai-responses') }),
  },
  {
    format: 'anthropic',
    imports:
      "import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';",
    type: 'MessageCreateParamsNonStreaming',
    request: (v) => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      ...asObject(v, 'anthropic'),
    }),
  },
  {
    format: 'gemini',
    // `contents` is a loose union (a Content, Parts, strings or lists of them) that
    // skips excess-property checks; the writer always writes a Content[] (and a
    // Content as systemInstruction), so check those.
    imports: [
      "import type { Content, GenerateContentConfig, GenerateContentParameters } from '@google/genai';",
      'type GeminiRequest = Omit<GenerateContentParameters, "contents" | "config"> & {',
      '  contents: Content[];',
      '  config?: Omit<GenerateContentConfig, "systemInstruction"> & { systemInstruction?: Content };',
      '};',
    ].join('\n'),
    type: 'GeminiRequest',
    request: (v) => {
      const { contents, systemInstruction, ...rest } = asObject(v, 'gemini');
      const extra = Object.keys(rest);
      if (extra.length > 0) throw new Error(`gemini wrote top-level fields ${extra.join(', ')}`);
      return {
        model: 'gemini-2.5-flash',
        contents: contents!,
        ...(systemInstruction === undefined ? {} : { config: { systemInstruction } }),
      };
    },
  },
  {
    format: 'bedrock',
    imports: "import type { ConverseCommandInput } from '@aws-sdk/client-bedrock-runtime';",
    type: 'ConverseCommandInput',
    request: (v) => ({
      modelId: 'anthropic.claude-sonnet-4-5-v1:0',
      ...asObject(v, 'bedrock'),
    }),
    bytesKeys: new Set(['bytes', 'redactedContent']),
  },
];

/** A JSON value as TypeScript source; strings under `bytesKeys` become `bytes("...")`. */
function toSource(value: JsonValue, bytesKeys: ReadonlySet<string>, indent = ''): string {
  if (!Array.isArray(value) && !isObject(value)) return stringifyJson(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + toSource(v, bytesKeys, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([k, v]) => {
    const text =
      typeof v === 'string' && bytesKeys.has(k)
        ? `bytes(${JSON.stringify(v)})`
        : toSource(v, bytesKeys, inner);
    return `${inner}${JSON.stringify(k)}: ${text}`;
  });
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

/** The generated source of one format: one typed constant per conversation. */
function sourceFor(target: Target): string {
  const format = formatByName(target.format)!;
  const lines = [
    '// Generated by test/sdk-types.test.ts: each constant is a request histlint wrote.',
    target.imports,
  ];
  if (target.bytesKeys !== undefined) {
    lines.push('/** Bytes as the SDK takes them; the JSON wire form is the base64 text. */');
    lines.push('declare function bytes(base64: string): Uint8Array;');
  }
  Object.entries(CONVERSATIONS).forEach(([name, conversation], k) => {
    const { value } = format.write(structuredClone(conversation));
    const request = target.request(value);
    lines.push(`/** ${name} */`);
    lines.push(
      `export const request${k}: ${target.type} = ${toSource(request, target.bytesKeys ?? new Set())};`,
    );
  });
  return lines.join('\n') + '\n';
}

/**
 * Type-checks in-memory sources (nothing is written to disk) at paths under
 * test/, so the SDKs resolve from node_modules, with strict NodeNext options
 * like the project's; returns the diagnostics of each file, rendered with
 * the line they point at.
 */
function typeCheck(sources: Map<string, string>): Map<string, string[]> {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
  };
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getSourceFile = (name, languageVersion, onError, shouldCreate) => {
    const text = sources.get(path.resolve(name));
    return text !== undefined
      ? ts.createSourceFile(name, text, languageVersion, true)
      : getSourceFile(name, languageVersion, onError, shouldCreate);
  };
  host.fileExists = (name) => sources.has(path.resolve(name)) || fileExists(name);
  host.readFile = (name) => sources.get(path.resolve(name)) ?? readFile(name);
  const program = ts.createProgram([...sources.keys()], options, host);
  const out = new Map<string, string[]>([...sources.keys()].map((f) => [f, []]));
  const diagnostics = [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()];
  for (const d of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]) {
    out.set('(program)', [
      ...(out.get('(program)') ?? []),
      ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    ]);
  }
  for (const d of diagnostics) {
    const file = d.file === undefined ? '(program)' : path.resolve(d.file.fileName);
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    let where = '';
    if (d.file !== undefined && d.start !== undefined) {
      const { line } = d.file.getLineAndCharacterOfPosition(d.start);
      where = `line ${line + 1}: ${d.file.text.split('\n')[line]!.trim()}\n`;
    }
    out.set(file, [...(out.get(file) ?? []), `${where}${text}`]);
  }
  return out;
}

/**
 * Shape gaps between a writer and the SDK types that are known and reported
 * (src/formats is fixed separately): each names its format and the
 * diagnostic it explains. A gap that no longer occurs fails the test, so the
 * entry is removed once the writer is fixed.
 */
const KNOWN_GAPS: { format: string; diagnostic: RegExp; why: string }[] = [];

/** The first object inside the first array of objects in a value (a message, an item). */
function firstListedObject(value: JsonValue): JsonObject | undefined {
  if (Array.isArray(value) && isObject(value[0])) return value[0];
  if (!Array.isArray(value) && !isObject(value)) return undefined;
  for (const v of Object.values(value)) {
    const found = firstListedObject(v);
    if (found !== undefined) return found;
  }
  return undefined;
}

describe('written requests type-check against the official SDK types', () => {
  const dir = path.join(ROOT, 'test', '__sdk-types__');
  const files = new Map(TARGETS.map((t) => [path.join(dir, `${t.format}.ts`), t] as const));
  const sources = new Map([...files].map(([file, t]) => [file, sourceFor(t)]));
  // Negative controls: the same requests with a field no SDK type has, one level down.
  const controls = new Map(
    TARGETS.map((t) => {
      const request = t.request(
        formatByName(t.format)!.write(structuredClone(CONVERSATIONS.reasoning!)).value,
      );
      firstListedObject(request)!.histlintUnknownField = true;
      const text = [
        t.imports,
        ...(t.bytesKeys === undefined
          ? []
          : ['declare function bytes(base64: string): Uint8Array;']),
        `export const control: ${t.type} = ${toSource(request, t.bytesKeys ?? new Set())};`,
      ].join('\n');
      return [path.join(dir, `${t.format}.control.ts`), text] as const;
    }),
  );
  let results: Map<string, string[]> | undefined;
  const check = () => (results ??= typeCheck(new Map([...sources, ...controls])));

  it('covers every part kind and field of the v1 model', () => {
    const seen = new Set<string>();
    const visit = (part: JsonObject) => {
      for (const key of Object.keys(part)) seen.add(`${String(part.type)}.${key}`);
      if (Array.isArray(part.content)) part.content.forEach((c) => visit(c as JsonObject));
    };
    for (const c of Object.values(CONVERSATIONS)) {
      for (const m of c.messages) {
        seen.add(`role:${m.role}`);
        m.parts.forEach((p) => visit(p));
      }
    }
    for (const want of [
      'role:system',
      'role:user',
      'role:assistant',
      'role:tool',
      'text.text',
      'image.url',
      'image.data',
      'image.mediaType',
      'document.url',
      'document.data',
      'document.mediaType',
      'document.name',
      'tool-call.id',
      'tool-call.name',
      'tool-call.arguments',
      'tool-result.callId',
      'tool-result.name',
      'tool-result.content',
      'tool-result.failed',
      'reasoning.text',
      'reasoning.signature',
      'reasoning.redacted',
    ]) {
      expect(seen, want).toContain(want);
    }
  });

  it('sets up the compiler without errors', () => {
    expect(check().get('(program)') ?? []).toEqual([]);
  });

  for (const [file, target] of files) {
    it(`${target.format} requests are ${target.type} values`, () => {
      const gaps = KNOWN_GAPS.filter((g) => g.format === target.format);
      const diagnostics = check().get(file)!;
      const unexplained = diagnostics.filter((d) => !gaps.some((g) => g.diagnostic.test(d)));
      expect(unexplained, `${target.format}: diagnostics in the generated source`).toEqual([]);
      for (const gap of gaps) {
        expect(
          diagnostics.some((d) => gap.diagnostic.test(d)),
          `known gap no longer occurs, remove it from KNOWN_GAPS: ${gap.why}`,
        ).toBe(true);
      }
    });
  }

  for (const [file, text] of controls) {
    it(`catches a field the SDK does not know (${path.basename(file)})`, () => {
      const diagnostics = check().get(file)!;
      expect(
        diagnostics.some((d) => d.includes('histlintUnknownField')),
        text,
      ).toBe(true);
    });
  }

  it('types Bedrock bytes as Uint8Array, so the base64 text is replaced', () => {
    const bedrock = TARGETS.find((t) => t.format === 'bedrock')!;
    const source = sources.get(path.join(dir, 'bedrock.ts'))!;
    expect(source).toContain('bytes("');
    expect(bedrock.bytesKeys).toEqual(new Set(['bytes', 'redactedContent']));
  });
});
