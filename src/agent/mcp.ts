/**
 * Tools from MCP servers over stdio, through `@modelcontextprotocol/sdk`:
 * each server is started, its tools listed and offered under names unique
 * across servers, and each call answered with the server's result. A tool
 * error, a server that died and a call that timed out all become failed
 * results that name the server; none of them stops the run.
 */
import type { JsonObject, JsonValue } from '../model/json.js';
import type { Part } from '../model/types.js';
import { McpStartError } from './errors.js';
import type { AgentTool, ToolOutcome } from './types.js';

/** One MCP server to start: a command and its arguments, run without a shell. */
export interface McpServerSpec {
  command: string;
  args: readonly string[];
  /** How errors name the server (default: the command line). */
  label?: string;
}

/** Options of {@link connectMcpServers}. */
export interface McpConnectOptions {
  /** The environment the servers' variables are picked from: only the few the MCP SDK deems safe (PATH, HOME, ...), never an API key. */
  env: Readonly<Record<string, string | undefined>>;
  /** The servers' working folder. */
  cwd?: string;
  /** How long a server may take to answer a tool call, in milliseconds (default 60 s). */
  timeoutMs?: number;
  /** How long a server may take to start and list its tools, in milliseconds (default 60 s). */
  startTimeoutMs?: number;
  /** Receives what a server writes to its standard error. */
  onStderr?: (label: string, text: string) => void;
  /** The client name and version sent in the MCP handshake. */
  clientInfo?: { name: string; version: string };
  /** Stops waiting for the servers to start (Ctrl-C): the start fails, and the servers are closed. */
  signal?: AbortSignal;
}

/** Running MCP servers and their tools. */
export interface McpConnection {
  /** Every server's tools, names unique across servers. */
  tools: AgentTool[];
  /** Stops every server. */
  close(): Promise<void>;
}

/** The default timeout of a server's start, and of each tool call. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** MCP JSON-RPC error codes the SDK raises itself. */
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

/** Tool names both providers accept. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Splits `COMMAND ARGS` into words as a POSIX shell would for plain words:
 * whitespace separates, single quotes keep everything, double quotes keep
 * everything but `\"` and `\\`, a backslash outside quotes escapes the next
 * character. Nothing is expanded. Throws on an unterminated quote.
 */
export function parseCommandLine(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && (text[i + 1] === '"' || text[i + 1] === '\\')) {
        word += text[++i];
      } else word += c;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== null) throw new Error(`unterminated ${quote} quote in "${text}"`);
  if (inWord) words.push(word);
  return words;
}

/** A name both providers accept, made unique among `taken`. */
function uniqueName(name: string, taken: Set<string>): string {
  let base = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  if (base === '') base = 'tool';
  let candidate = base;
  for (let n = 2; taken.has(candidate) || !TOOL_NAME.test(candidate); n++) {
    const suffix = `_${n}`;
    candidate = base.slice(0, 64 - suffix.length) + suffix;
  }
  taken.add(candidate);
  return candidate;
}

/** An MCP content item as a v1 content part. */
function contentPart(item: Record<string, unknown>): Part {
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  switch (item.type) {
    case 'text':
      return { type: 'text', text: str(item.text) ?? '' };
    case 'image':
      if (str(item.data) !== undefined && str(item.mimeType) !== undefined) {
        return { type: 'image', data: item.data as string, mediaType: item.mimeType as string };
      }
      break;
    case 'audio':
      if (str(item.data) !== undefined && str(item.mimeType) !== undefined) {
        return { type: 'document', data: item.data as string, mediaType: item.mimeType as string };
      }
      break;
    case 'resource': {
      const r = (item.resource ?? {}) as Record<string, unknown>;
      if (str(r.text) !== undefined) return { type: 'text', text: r.text as string };
      if (str(r.blob) !== undefined) {
        const part: Part = {
          type: 'document',
          data: r.blob as string,
          mediaType: str(r.mimeType) ?? 'application/octet-stream',
        };
        if (str(r.uri) !== undefined) part.name = r.uri as string;
        return part;
      }
      break;
    }
    case 'resource_link':
      return { type: 'text', text: `resource: ${str(item.uri) ?? ''}` };
    default:
      break;
  }
  return { type: 'text', text: JSON.stringify(item) };
}

/** A tool call's outcome from an MCP `CallToolResult`. */
function outcomeOf(result: Record<string, unknown>): ToolOutcome {
  const items = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [];
  const content = items.map(contentPart);
  if (content.length === 0 && result.structuredContent !== undefined) {
    content.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  const outcome: ToolOutcome = { content };
  if (result.isError === true) outcome.failed = true;
  return outcome;
}

function failure(text: string): ToolOutcome {
  return { content: [{ type: 'text', text }], failed: true };
}

/** Starts each server, lists its tools; throws {@link McpStartError} (after stopping the ones started) when one fails. */
export async function connectMcpServers(
  specs: readonly McpServerSpec[],
  options: McpConnectOptions,
): Promise<McpConnection> {
  const closers: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    await Promise.all(closers.map((c) => c().catch(() => undefined)));
  };
  if (specs.length === 0) return { tools: [], close };
  const [{ Client }, stdio] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
  ]);
  const timeout = options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const startTimeout = options.startTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const env: Record<string, string> = {};
  for (const key of stdio.DEFAULT_INHERITED_ENV_VARS) {
    const v = options.env[key];
    // Exported shell functions are skipped, as the SDK does.
    if (v !== undefined && !v.startsWith('()')) env[key] = v;
  }
  const taken = new Set<string>();
  const tools: AgentTool[] = [];
  try {
    for (const spec of specs) {
      const label = spec.label ?? [spec.command, ...spec.args].join(' ');
      const transport = new stdio.StdioClientTransport({
        command: spec.command,
        args: [...spec.args],
        env,
        stderr: 'pipe',
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      });
      const onStderr = options.onStderr;
      transport.stderr?.on('data', (chunk: Buffer | string) => {
        onStderr?.(label, chunk.toString());
      });
      const client = new Client(options.clientInfo ?? { name: 'histlint', version: '0' });
      let closed = false;
      client.onclose = () => {
        closed = true;
      };
      closers.push(() => client.close());
      let listed: Record<string, unknown>[] = [];
      try {
        const waiting = {
          timeout: startTimeout,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        };
        options.signal?.throwIfAborted();
        await client.connect(transport, waiting);
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor === undefined ? {} : { cursor }, waiting);
          listed = listed.concat(page.tools as unknown as Record<string, unknown>[]);
          cursor = page.nextCursor;
        } while (cursor !== undefined);
      } catch (e) {
        throw new McpStartError(label, firstLine(e));
      }
      for (const t of listed) {
        const original = String(t.name);
        const name = uniqueName(original, taken);
        const schema = (t.inputSchema ?? { type: 'object' }) as JsonValue;
        const tool: AgentTool = {
          name,
          inputSchema: schema as JsonObject,
          async execute(input, context) {
            if (closed) {
              return failure(
                `MCP server "${label}" is not running (it exited or closed its connection); "${original}" was not run`,
              );
            }
            try {
              const result = await client.callTool(
                { name: original, arguments: input },
                undefined,
                {
                  timeout,
                  ...(context.signal === undefined ? {} : { signal: context.signal }),
                },
              );
              return outcomeOf(result as Record<string, unknown>);
            } catch (e) {
              const code = (e as { code?: unknown }).code;
              if (code === REQUEST_TIMEOUT) {
                return failure(
                  `MCP server "${label}" did not answer "${original}" within ${timeout / 1000}s`,
                );
              }
              if (code === CONNECTION_CLOSED || closed) {
                return failure(
                  `MCP server "${label}" closed its connection while running "${original}" (it may have exited)`,
                );
              }
              return failure(`MCP server "${label}" failed to run "${original}": ${firstLine(e)}`);
            }
          },
        };
        if (typeof t.description === 'string') tool.description = t.description;
        tools.push(tool);
      }
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { tools, close };
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
}
