/**
 * The shapes the run loop works with: a model client that answers one
 * request, tools the model may call, and what a run reports (SPEC §2.5).
 */
import type { JsonObject } from '../model/json.js';
import type { Message, Part } from '../model/types.js';

/** Tokens a run (or one request) used, as the provider reported them. */
export interface Usage {
  /** Prompt tokens, cache reads and writes included. */
  inputTokens: number;
  /** Completion tokens, reasoning included. */
  outputTokens: number;
  /** The two added. */
  totalTokens: number;
}

/** A tool as the model is offered it. */
export interface ToolDefinition {
  /** The name the model calls it by (unique within a run). */
  name: string;
  /** What the tool does, for the model. */
  description?: string;
  /** JSON Schema of the arguments object. */
  inputSchema: JsonObject;
}

/** What executing one tool call gave. */
export interface ToolOutcome {
  /** The result's content: text, image and document parts. */
  content: Part[];
  /** A definitive failure of the tool (SPEC §1 `failed`). */
  failed?: boolean;
}

/** What a tool's `execute` receives besides the arguments. */
export interface ToolCallContext {
  /** The call's id. */
  callId: string;
  /** Aborted when the run is interrupted. */
  signal?: AbortSignal;
}

/** A tool the agent can run: its definition plus the code that executes a call. */
export interface AgentTool extends ToolDefinition {
  /** Runs one call; a thrown error becomes a failed result naming it. */
  execute(input: JsonObject, context: ToolCallContext): Promise<ToolOutcome>;
}

/** One request to a model: the resolved instructions, the conversation to send, the tools. */
export interface ModelRequest {
  /** Sent the provider's way (a first system message, or a top-level `system`); empty sends none. */
  instructions: string;
  /** The conversation without system messages, repaired, truncated arguments as they are stored. */
  messages: Message[];
  /** The tools offered. */
  tools: ToolDefinition[];
}

/** Options of one model request. */
export interface ModelCallOptions {
  /** Aborts the request (Ctrl-C). */
  signal?: AbortSignal;
  /** When set, the reply is streamed and each piece of text is passed here as it arrives. */
  onText?: (delta: string) => void;
}

/** A model's answer to one request. */
export interface ModelResponse {
  /** The assistant message, in the v1 model (text, reasoning and tool-call parts). */
  message: Message;
  /** Tokens this request used. */
  usage: Usage;
  /** Why the model stopped, as the provider says it (`stop`, `tool_calls`, `end_turn`, ...). */
  stopReason?: string;
}

/** A provider client for one model: answers requests, or throws a {@link ModelRequestError}. */
export interface ModelClient {
  /** `openai`, `anthropic`, or a custom name. */
  provider: string;
  /** The model name sent with each request. */
  model: string;
  /** Sends one request (retrying as configured) and returns the answer. */
  request(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse>;
}

/** A function that rewrites the supplied history before it is sent (trim, budget). */
export type HistoryProcessor = (messages: readonly Message[]) => Message[] | Promise<Message[]>;

/** What a dynamic instructions function receives. */
export interface InstructionsContext {
  runId: string;
  conversationId: string;
}

/** Returns the dynamic part of the instructions, once per run. */
export type InstructionsFunction = (context: InstructionsContext) => string | Promise<string>;

/** Options of {@link createAgent}. */
export interface AgentOptions {
  /** The model client (see `createModel`). */
  model: ModelClient;
  /** Static instructions; several are joined by a blank line. */
  instructions?: string | readonly string[];
  /** The dynamic part, resolved once per run and joined after the static text by a blank line. */
  dynamicInstructions?: InstructionsFunction;
  /** The tools offered on every request. */
  tools?: readonly AgentTool[];
  /** Shapes the supplied history before it is sent; never what the run returns. */
  historyProcessor?: HistoryProcessor;
  /** Model requests per run (default 10). */
  maxSteps?: number;
}

/** Options of one run. */
export interface AgentRunOptions {
  /** Aborts the run between and during requests and tool calls. */
  signal?: AbortSignal;
  /** Streams the reply text as it arrives; the text of successive replies is set apart by a line break. */
  onText?: (delta: string) => void;
  /** The run's id (default: a new UUIDv7). */
  runId?: string;
  /** The conversation's id (default: donated by the newest history message that has one, else new). */
  conversationId?: string;
}

/** What a completed run returns. */
export interface RunResult {
  /** The whole supplied history, repaired, then everything the run added. */
  messages: Message[];
  runId: string;
  conversationId: string;
  /** Usage summed over every request. */
  usage: Usage;
  /** The text of the final reply. */
  text: string;
  /** Model requests made. */
  requests: number;
  /** Tool calls executed. */
  toolExecutions: number;
}

/** Where a run failed. */
export type RunStage = 'instructions' | 'history' | 'prompt' | 'request' | 'max-steps' | 'aborted';

/** What a failed run had completed: resume-ready history and its counts. */
export interface RunPartial {
  /** The history, repaired, through the last completed model turn. */
  messages: Message[];
  usage: Usage;
  requests: number;
  toolExecutions: number;
  runId: string;
  conversationId: string;
}
