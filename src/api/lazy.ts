/**
 * The library's async functions whose modules load on their first call, so that
 * `import ... from 'histlint'` loads none of them: the CLI (commander, chalk, every command), the
 * file walk, the lint pool and the MCP client.
 * Each wrapper has its implementation's own type; the `await import()` adds nothing to the
 * promise its caller waits for anyway.
 */
import type * as Cli from '../cli/main.js';
import type * as Mcp from '../agent/mcp.js';
import type * as Files from '../lint/files.js';

/** Runs the CLI on `io` and resolves to its exit code (src/cli/main.ts, loaded on the first call). */
export const main: typeof Cli.main = async (io) => (await import('../cli/main.js')).main(io);

/**
 * Lints files, folders, globs and texts (src/lint/files.ts, loaded on the first call with the
 * file walk and the worker pool).
 */
export const lintFiles: typeof Files.lintFiles = async (inputs, options) =>
  (await import('../lint/files.js')).lintFiles(inputs, options);

/**
 * Starts MCP servers and lists their tools (src/agent/mcp.ts, loaded on the first call; the MCP
 * SDK loads inside it).
 */
export const connectMcpServers: typeof Mcp.connectMcpServers = async (specs, options) =>
  (await import('../agent/mcp.js')).connectMcpServers(specs, options);
