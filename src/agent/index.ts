/**
 * The agent module: one run on a repaired history (SPEC §2.5). The CLI
 * loads it with `import()` when `histlint run` starts; the provider SDKs
 * and the MCP SDK are loaded only when first used.
 */
export { createAgent, DEFAULT_MAX_STEPS } from './agent.js';
export type { Agent } from './agent.js';
export {
  AgentConfigError,
  createRedactingStream,
  McpStartError,
  MIN_STORED_SECRET_LENGTH,
  ModelRequestError,
  RunError,
  redactSecrets,
} from './errors.js';
export type { RedactOptions } from './errors.js';
export { canContinue, limitHistoryMessages, limitHistoryTokens } from './history.js';
export { connectMcpServers, DEFAULT_TOOL_TIMEOUT_MS, parseCommandLine } from './mcp.js';
export type { McpConnectOptions, McpConnection, McpServerSpec } from './mcp.js';
export {
  apiKeyVariable,
  createModel,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  PROVIDERS,
} from './providers.js';
export type { ModelOptions, ProviderName } from './providers.js';
export type {
  AgentOptions,
  AgentRunOptions,
  AgentTool,
  HistoryProcessor,
  InstructionsContext,
  InstructionsFunction,
  ModelCallOptions,
  ModelClient,
  ModelRequest,
  ModelResponse,
  RunPartial,
  RunResult,
  RunStage,
  ToolCallContext,
  ToolDefinition,
  ToolOutcome,
  Usage,
} from './types.js';
