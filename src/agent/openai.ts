/**
 * The `openai` provider: Chat Completions through the official `openai`
 * package, at any base URL, so it talks to OpenAI and to the compatible
 * servers (vLLM, llama.cpp, Ollama, LM Studio, gateways). The request body
 * is written by the openai-chat format adapter (providers.md §1); the SDK is
 * loaded on the first request.
 */
import type * as OpenAISdk from 'openai';
import { openaiChatFormat } from '../formats/openai-chat/index.js';
import type { JsonObject, JsonValue } from '../model/json.js';
import type { Message } from '../model/types.js';
import { ModelRequestError } from './errors.js';
import { fetchWithBodyTimeout } from './fetch.js';
import { wireArguments } from './history.js';
import { notAReply, toModelRequestError } from './provider-errors.js';
import type { ProviderSettings } from './providers.js';
import { readReply } from './replies.js';
import type {
  ModelCallOptions,
  ModelClient,
  ModelRequest,
  ModelResponse,
  ToolDefinition,
  Usage,
} from './types.js';

/** The Chat Completions request body for a request (without `stream`). */
export function openaiRequestBody(
  model: string,
  request: ModelRequest,
  maxOutputTokens?: number,
): JsonObject {
  const written = openaiChatFormat.write({ version: 1, messages: wireArguments(request.messages) });
  const chat = (written.value as JsonObject).messages as JsonValue[];
  const messages: JsonValue[] =
    request.instructions === ''
      ? chat
      : [{ role: 'system', content: request.instructions }, ...chat];
  const body: JsonObject = { model, messages };
  if (request.tools.length > 0) body.tools = request.tools.map(openaiTool);
  if (maxOutputTokens !== undefined) body.max_completion_tokens = maxOutputTokens;
  return body;
}

function openaiTool(tool: ToolDefinition): JsonObject {
  const fn: JsonObject = { name: tool.name };
  if (tool.description !== undefined && tool.description !== '') fn.description = tool.description;
  fn.parameters = tool.inputSchema;
  return { type: 'function', function: fn };
}

/** The fields of a Chat Completions assistant message (or of the sum of a stream's deltas) a reply is built from. */
interface ChatReply {
  content?: unknown;
  refusal?: unknown;
  reasoning_content?: unknown;
  tool_calls?: unknown;
}

/** The v1 assistant message of a Chat Completions reply, read by the openai-chat format. */
export function openaiReplyMessage(reply: ChatReply): Message {
  return readReply(openaiChatFormat, chatMessage(reply));
}

/**
 * The assistant message of a reply as a Chat history holds it, with the fields the agent
 * answers from: a refusal becomes a refusal content part (how a request carries one back, and
 * text in v1), empty fields are left out, and a call without a `type` is a function call.
 */
function chatMessage(reply: ChatReply): JsonObject {
  const message: JsonObject = { role: 'assistant' };
  if (typeof reply.reasoning_content === 'string' && reply.reasoning_content !== '') {
    // Servers that return reasoning this way (DeepSeek, Kimi) want it back on the same message.
    message.reasoning_content = reply.reasoning_content;
  }
  const calls = Array.isArray(reply.tool_calls) ? (reply.tool_calls as JsonValue[]) : [];
  let content: JsonValue =
    typeof reply.content === 'string' || Array.isArray(reply.content)
      ? (reply.content as JsonValue)
      : null;
  if (typeof reply.refusal === 'string' && reply.refusal !== '') {
    const refusal: JsonObject = { type: 'refusal', refusal: reply.refusal };
    if (Array.isArray(content)) content = [...content, refusal];
    else if (content === null || content === '') content = [refusal];
    else content = [{ type: 'text', text: content }, refusal];
  }
  // No content is null beside calls (what a request carries) and no text without them.
  message.content = content ?? (calls.length > 0 ? null : '');
  if (calls.length > 0) {
    message.tool_calls = calls.map((c) =>
      isObject(c) && c.type === undefined && isObject(c.function) ? { ...c, type: 'function' } : c,
    );
  }
  return message;
}

function usageOf(
  u: { prompt_tokens?: number; completion_tokens?: number } | null | undefined,
): Usage {
  const inputTokens = u?.prompt_tokens ?? 0;
  const outputTokens = u?.completion_tokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

type OpenAIModule = typeof OpenAISdk;

/** A model client for the `openai` provider. */
export function createOpenAIClient(settings: ProviderSettings): ModelClient {
  let sdk: Promise<{ mod: OpenAIModule; client: InstanceType<OpenAIModule['OpenAI']> }> | undefined;
  const load = () =>
    (sdk ??= import('openai').then((mod) => ({
      mod,
      client: new mod.OpenAI({
        apiKey: settings.apiKey,
        baseURL: settings.baseURL,
        maxRetries: settings.maxRetries,
        timeout: settings.timeoutMs,
        fetch: fetchWithBodyTimeout(settings.timeoutMs),
        // Everything the SDK would read from the process environment is given here instead.
        organization: settings.env.OPENAI_ORG_ID ?? null,
        project: settings.env.OPENAI_PROJECT_ID ?? null,
        adminAPIKey: null,
        webhookSecret: null,
        logLevel: 'off',
      }),
    })));

  return {
    provider: 'openai',
    model: settings.model,
    async request(request: ModelRequest, options: ModelCallOptions = {}): Promise<ModelResponse> {
      const body = openaiRequestBody(settings.model, request, settings.maxOutputTokens);
      const { mod, client } = await load();
      try {
        if (options.onText === undefined) {
          const completion = await client.chat.completions.create(
            body as never as OpenAISdk.OpenAI.ChatCompletionCreateParamsNonStreaming,
            { signal: options.signal },
          );
          // A 200 whose body is no completion (an error object, say) is not a reply.
          const choices = (completion as { choices?: unknown }).choices;
          if (!Array.isArray(choices) || !isObject(choices[0]) || !isObject(choices[0].message)) {
            throw notAReply(completion, [settings.apiKey]);
          }
          const first = completion.choices[0]!;
          const reply = first.message as ChatReply;
          const response: ModelResponse = {
            message: openaiReplyMessage(reply),
            usage: usageOf(completion.usage),
          };
          if (typeof first.finish_reason === 'string') response.stopReason = first.finish_reason;
          return response;
        }
        const stream = await client.chat.completions.create(
          {
            ...(body as never as OpenAISdk.OpenAI.ChatCompletionCreateParamsStreaming),
            stream: true,
            stream_options: { include_usage: true },
          },
          { signal: options.signal },
        );
        const response = await collectStream(stream, options.onText);
        // The SDK ends a stream quietly when the caller aborts it.
        if (options.signal?.aborted === true)
          throw new ModelRequestError('aborted', 'request aborted');
        return response;
      } catch (e) {
        throw toModelRequestError(e, mod, [settings.apiKey], settings.timeoutMs, options.signal);
      }
    },
  };
}

interface StreamChunk {
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  choices?: {
    delta?: {
      content?: string | null;
      refusal?: string | null;
      reasoning_content?: string | null;
      tool_calls?: {
        index?: number;
        id?: string;
        function?: { name?: string; arguments?: string };
      }[];
    };
    finish_reason?: string | null;
  }[];
}

/** Adds up a stream's deltas into one reply, passing text on as it arrives. */
async function collectStream(
  stream: AsyncIterable<unknown>,
  onText: (delta: string) => void,
): Promise<ModelResponse> {
  let content = '';
  let refusal = '';
  let reasoning = '';
  let usage: Usage = usageOf(undefined);
  let stopReason: string | undefined;
  const calls: { id?: string; type: 'function'; function: { name: string; arguments: string } }[] =
    [];
  for await (const raw of stream) {
    const chunk = raw as StreamChunk;
    if (chunk.usage) usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    if (choice === undefined) continue;
    const delta = choice.delta ?? {};
    if (typeof delta.reasoning_content === 'string') reasoning += delta.reasoning_content;
    if (typeof delta.content === 'string' && delta.content !== '') {
      content += delta.content;
      onText(delta.content);
    }
    if (typeof delta.refusal === 'string') refusal += delta.refusal;
    for (const tc of delta.tool_calls ?? []) {
      const index = tc.index ?? calls.length;
      const slot = (calls[index] ??= { type: 'function', function: { name: '', arguments: '' } });
      if (typeof tc.id === 'string' && tc.id !== '') slot.id = tc.id;
      if (typeof tc.function?.name === 'string') slot.function.name += tc.function.name;
      if (typeof tc.function?.arguments === 'string')
        slot.function.arguments += tc.function.arguments;
    }
    if (typeof choice.finish_reason === 'string') stopReason = choice.finish_reason;
  }
  // Every server says why a reply ended; a stream that stops without saying it was cut short.
  if (stopReason === undefined) {
    throw new ModelRequestError(
      'connection',
      'the reply stream ended before the reply was complete (no finish_reason)',
    );
  }
  const response: ModelResponse = {
    message: openaiReplyMessage({
      content,
      refusal,
      reasoning_content: reasoning,
      tool_calls: calls.filter((c) => c !== undefined),
    }),
    usage,
  };
  response.stopReason = stopReason;
  return response;
}

/** A JSON object (as the SDK parsed it). */
function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
