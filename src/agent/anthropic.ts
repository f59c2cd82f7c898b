/**
 * The `anthropic` provider: the Messages API through the official
 * `@anthropic-ai/sdk`. The request body is written by the anthropic format
 * adapter; the instructions go in the top-level `system` (providers.md §3).
 * The SDK is loaded on the first request.
 */
import type * as AnthropicSdk from '@anthropic-ai/sdk';
import { anthropicFormat } from '../formats/anthropic/index.js';
import type { JsonObject, JsonValue } from '../model/json.js';
import { isObject, type Message } from '../model/types.js';
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

/** `max_tokens` when none is given: the Messages API requires one. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

/** Tool names the Messages API accepts. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The Messages request body for a request (without `stream`). */
export function anthropicRequestBody(
  model: string,
  request: ModelRequest,
  maxOutputTokens?: number,
): JsonObject {
  const written = anthropicFormat.write({ version: 1, messages: wireArguments(request.messages) });
  // A message left with no blocks (an empty reply, or only blank text, which the API refuses and
  // the writer leaves out) is not sent: the API takes no empty message but a final assistant one.
  const messages = ((written.value as JsonObject).messages as JsonValue[]).filter(
    (m) => !(isObject(m) && Array.isArray(m.content) && m.content.length === 0),
  );
  const body: JsonObject = { model, max_tokens: maxOutputTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS };
  if (request.instructions !== '') body.system = request.instructions;
  body.messages = messages;
  const tools = request.tools.map(anthropicTool);
  // The API refuses tool_use blocks in a request that defines no tool of that name.
  const offered = new Set(request.tools.map((t) => t.name));
  for (const m of request.messages) {
    for (const p of m.parts) {
      const name = p.type === 'tool-call' && typeof p.name === 'string' ? p.name : undefined;
      if (name === undefined || offered.has(name) || !TOOL_NAME.test(name)) continue;
      offered.add(name);
      tools.push({
        name,
        description: 'Used earlier in this conversation; not available in this run.',
        input_schema: { type: 'object' },
      });
    }
  }
  if (tools.length > 0) body.tools = tools;
  return body;
}

function anthropicTool(tool: ToolDefinition): JsonObject {
  const out: JsonObject = { name: tool.name };
  if (tool.description !== undefined && tool.description !== '') out.description = tool.description;
  out.input_schema = tool.inputSchema;
  return out;
}

/** The v1 assistant message of a Messages reply's content blocks, read by the anthropic format. */
export function anthropicReplyMessage(
  blocks: readonly JsonValue[],
  rawArguments?: ReadonlyMap<number, string>,
): Message {
  // The API always sends a tool_use's input; a server that leaves it out means none, and the
  // call is still one (read as it came, it would be kept as a block, never answered).
  const content = blocks.map((b) =>
    isObject(b) && b.type === 'tool_use' && !Object.hasOwn(b, 'input') ? { ...b, input: {} } : b,
  );
  return readReply(anthropicFormat, { role: 'assistant', content }, rawArguments);
}

interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

function usageOf(u: AnthropicUsage | null | undefined): Usage {
  const inputTokens =
    (u?.input_tokens ?? 0) +
    (u?.cache_creation_input_tokens ?? 0) +
    (u?.cache_read_input_tokens ?? 0);
  const outputTokens = u?.output_tokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

type AnthropicModule = typeof AnthropicSdk;

/** A model client for the `anthropic` provider. */
export function createAnthropicClient(settings: ProviderSettings): ModelClient {
  let sdk:
    | Promise<{ mod: AnthropicModule; client: InstanceType<AnthropicModule['Anthropic']> }>
    | undefined;
  const load = () =>
    (sdk ??= import('@anthropic-ai/sdk').then((mod) => ({
      mod,
      client: new mod.Anthropic({
        apiKey: settings.apiKey,
        // Given explicitly, so the SDK never looks for other credentials in the process environment.
        authToken: null,
        baseURL: settings.baseURL,
        maxRetries: settings.maxRetries,
        timeout: settings.timeoutMs,
        fetch: fetchWithBodyTimeout(settings.timeoutMs),
        logLevel: 'off',
      }),
    })));

  return {
    provider: 'anthropic',
    model: settings.model,
    async request(request: ModelRequest, options: ModelCallOptions = {}): Promise<ModelResponse> {
      const body = anthropicRequestBody(settings.model, request, settings.maxOutputTokens);
      const { mod, client } = await load();
      // POST /v1/messages as `messages.create` sends it, without the notices that method writes
      // to the console (a deprecated model name, once per request): a library prints nothing.
      const post = <T>(stream: boolean): Promise<T> =>
        client.post<T>('/v1/messages', {
          body: stream ? { ...body, stream: true } : body,
          stream,
          timeout: settings.timeoutMs,
          signal: options.signal ?? null,
        }) as Promise<T>;
      try {
        if (options.onText === undefined) {
          const reply = await post<AnthropicSdk.Anthropic.Message>(false);
          if (!Array.isArray((reply as { content?: unknown }).content)) {
            throw notAReply(reply, [settings.apiKey]);
          }
          const response: ModelResponse = {
            message: anthropicReplyMessage(reply.content as unknown as JsonValue[]),
            usage: usageOf(reply.usage),
          };
          if (typeof reply.stop_reason === 'string') response.stopReason = reply.stop_reason;
          return response;
        }
        const stream = await post<AsyncIterable<unknown>>(true);
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

interface StreamEvent {
  type: string;
  index?: number;
  message?: { usage?: AnthropicUsage };
  content_block?: JsonObject;
  delta?: {
    type?: string;
    text?: string;
    partial_json?: string;
    thinking?: string;
    signature?: string;
    citation?: JsonValue;
    stop_reason?: string | null;
  };
  usage?: AnthropicUsage;
}

/** Builds the reply from a stream's events, passing text on as it arrives. */
async function collectStream(
  stream: AsyncIterable<unknown>,
  onText: (delta: string) => void,
): Promise<ModelResponse> {
  const blocks: JsonObject[] = [];
  const json: string[] = [];
  // The blocks whose streamed input did not parse, and the text it got.
  const unparsed = new Map<JsonObject, string>();
  const usage: AnthropicUsage = {};
  let stopReason: string | undefined;
  const addUsage = (u: AnthropicUsage | undefined): void => {
    // message_start carries the input side, message_delta the running output total.
    for (const key of Object.keys(u ?? {}) as (keyof AnthropicUsage)[]) {
      const v = u![key];
      if (typeof v === 'number') usage[key] = v;
    }
  };
  for await (const raw of stream) {
    const event = raw as StreamEvent;
    switch (event.type) {
      case 'message_start':
        addUsage(event.message?.usage);
        break;
      case 'content_block_start':
        if (event.content_block !== undefined) {
          blocks[event.index ?? blocks.length] = { ...event.content_block };
          json[event.index ?? blocks.length - 1] = '';
        }
        break;
      case 'content_block_delta': {
        const block = blocks[event.index ?? blocks.length - 1];
        const d = event.delta;
        if (block === undefined || d === undefined) break;
        const own = (key: string): string => (typeof block[key] === 'string' ? block[key] : '');
        if (d.type === 'text_delta' && typeof d.text === 'string') {
          block.text = own('text') + d.text;
          onText(d.text);
        } else if (d.type === 'input_json_delta' && typeof d.partial_json === 'string') {
          json[event.index ?? blocks.length - 1] += d.partial_json;
        } else if (d.type === 'thinking_delta' && typeof d.thinking === 'string') {
          block.thinking = own('thinking') + d.thinking;
        } else if (d.type === 'signature_delta' && typeof d.signature === 'string') {
          block.signature = d.signature;
        } else if (d.type === 'citations_delta' && d.citation !== undefined) {
          // Kept on the text block, as a reply that is not streamed carries them.
          block.citations = [
            ...(Array.isArray(block.citations) ? block.citations : []),
            d.citation,
          ];
        }
        break;
      }
      case 'content_block_stop': {
        const index = event.index ?? blocks.length - 1;
        const block = blocks[index];
        const text = json[index];
        // Tool calls and server tool calls alike stream their input as JSON text.
        if (block !== undefined && text !== undefined && text !== '') {
          try {
            block.input = JSON.parse(text) as JsonValue;
          } catch {
            // Kept as text: the stored arguments then show the stream died mid-arguments.
            unparsed.set(block, text);
          }
        }
        break;
      }
      case 'message_delta':
        addUsage(event.usage);
        if (typeof event.delta?.stop_reason === 'string') stopReason = event.delta.stop_reason;
        break;
      default:
        break;
    }
  }
  // The API always ends a reply with its stop reason; a stream that stops without it was cut short.
  if (stopReason === undefined) {
    throw new ModelRequestError(
      'connection',
      'the reply stream ended before the reply was complete (no stop_reason)',
    );
  }
  const present = blocks.filter((b) => b !== undefined);
  const rawArguments = new Map<number, string>();
  present.forEach((b, i) => {
    const text = unparsed.get(b);
    if (text !== undefined) rawArguments.set(i, text);
  });
  return {
    message: anthropicReplyMessage(present, rawArguments),
    usage: usageOf(usage),
    stopReason,
  };
}
