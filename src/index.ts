/**
 * histlint's public API. Every export is named here; nothing is re-exported wholesale.
 *
 * `import { sanitizeHistory } from 'histlint'` stays light for serverless cold starts: no SDK,
 * tokenizer, zod, commander, CLI or agent run loop is loaded (test/library-import.test.ts checks
 * which code loads). ES modules evaluate everything the entry imports, so what is heavy is
 * reached on first use only:
 * - An async function from a heavy module (the CLI, a worker pool, a file walk, the MCP client) is
 *   exported from src/api/lazy.ts: a wrapper typed `typeof Module.fn` whose body awaits `import()`
 *   of its module and calls it (`main`, `lintFiles`, `connectMcpServers`).
 * - A sync function, a class or another value is imported as is, so its module must be light:
 *   `createAgent` and `createModel` check their options and load the run loop and the provider's
 *   client on the first run or request, the tokenizer loads on first use, and the zod schemas are
 *   built on first use (src/model/schema.ts).
 */
export { main } from './api/lazy.js';
export type { Io, InputStream, OutputStream } from './cli/io.js';

export { JsonNumber, JsonParseError, parseJson, stringifyJson, jsonEqual } from './model/json.js';
export type { JsonValue, JsonObject, ParseJsonOptions } from './model/json.js';
export { SourceError, HistlintInputError } from './model/errors.js';
export { readDocument, serializeDocument, decodeUtf8 } from './formats/kit/document.js';
export type { SourceDocument, SourceUnit, JsonlLine } from './formats/kit/document.js';
export { locatePointers, LineIndex } from './model/positions.js';
export type { SourcePosition } from './model/positions.js';
export { parsePointer, toPointer, valueAt, replaceAt } from './model/pointer.js';
export { ConversationSchema, EnvelopeSchema, MessageSchema, PartSchema } from './model/schema.js';
export { PART_TYPES, ROLES, shapeProblem } from './model/types.js';
export type { Message, Part } from './model/types.js';
export type {
  MessageV1,
  ConversationV1,
  TextPart,
  ImagePart,
  DocumentPart,
  ToolCallPart,
  ToolResultPart,
  ReasoningPart,
} from './model/schema.js';

export { INTERRUPTED_TEXT } from './core/normalize.js';
export { normalizeHistory, sanitizeHistory, trimHistory, budgetHistory } from './api/history.js';
export type { WithEnvelope } from './api/history.js';
export type {
  HistoryRepair,
  NormalizeOptions,
  NormalizeResult,
  SynthesizedResult,
  DroppedResult,
  TruncatedCall,
  RepairSelection,
  MovedResult,
  MergedMessage,
} from './core/normalize.js';
export type { ProviderView } from './core/turns.js';
export type {
  SanitizeReport,
  SanitizeResult,
  SanitizeOptions,
  UnsafePart,
  DroppedCall,
  DroppedSystemMessage,
} from './core/sanitize.js';
export type {
  ServerReference,
  ServerReferenceField,
  ServerReferencePart,
  ServerReferenceKind,
} from './core/server-refs.js';
export { TrimError } from './core/trim.js';
export type { TrimReport, TrimResult, TrimOptions, BudgetOptions } from './core/trim.js';
export { loadTokenCounter, messageTokens } from './core/tokens.js';
export type { TokenCounter, TokenizerName } from './core/tokens.js';
export { newId, isUuid } from './core/ids.js';
export { urlScheme } from './core/url.js';
export { analyzePairing } from './core/pairing.js';
export type {
  Pairing,
  CallRef,
  ResultRef,
  PairingOptions,
  ResultStatus,
  IdUse,
} from './core/pairing.js';

export { createAgent } from './agent/agent.js';
export { AgentConfigError, McpStartError, ModelRequestError, RunError } from './agent/errors.js';
export { limitHistoryMessages, limitHistoryTokens } from './agent/history.js';
export { createModel } from './agent/providers.js';
export { connectMcpServers } from './api/lazy.js';
export type { Agent } from './agent/agent.js';
export type { McpConnectOptions, McpConnection, McpServerSpec } from './agent/mcp.js';
export type { ModelOptions } from './agent/providers.js';
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
} from './agent/types.js';

export { lintConversation, resolveRules } from './lint/api.js';
export type { LintConversationOptions } from './lint/api.js';
export { lintText, lintBytes } from './lint/engine.js';
export { lintFiles } from './api/lazy.js';
export type {
  FileConfig,
  LintInput,
  LintTextInput,
  LintFileRef,
  LintFilesOptions,
  LintFilesResult,
  LintProgress,
} from './lint/files.js';
export type {
  Finding,
  FileResult,
  LintOptions,
  EnabledRules,
  FindingSeverity,
} from './lint/engine.js';
export { RULES, ruleById, ruleDocsUrl } from './rules/index.js';
export type {
  Rule,
  RuleMeta,
  Severity,
  Fixable,
  LintSubject,
  RuleContext,
  Report,
} from './rules/rule.js';
export { REPORTERS } from './reporters/index.js';
export type { Reporter, ReporterContext, LintResults } from './reporters/types.js';
export { FORMATS, formatByName } from './formats/index.js';
export { detectFormat } from './formats/detect.js';
export type {
  ConversationFormat,
  Conversation,
  ReadResult,
  WriteResult,
  Loss,
  Locator,
} from './formats/format.js';
export { dropUnsafeMedia, dropSystemMessages } from './core/sanitize.js';
