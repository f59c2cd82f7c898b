/**
 * An agent (SPEC §2.5): its options checked when it is created, its run loop (src/agent/run.ts)
 * loaded on the first run, so that importing the package (which exports `createAgent`) loads none
 * of the run loop, the provider clients or the MCP client.
 */
import type { Message } from '../model/types.js';
import { AgentConfigError } from './errors.js';
import type { AgentOptions, AgentRunOptions, AgentTool, RunResult } from './types.js';

/** The model requests a run may make when no limit is given. */
export const DEFAULT_MAX_STEPS = 10;

/** An agent: a model, instructions, tools and a history processor, ready to run. */
export interface Agent {
  /**
   * Runs one turn on `history`: the prompt may be omitted (a blank one adds
   * nothing) when the history ends with a user message or tool results.
   * Throws {@link RunError}.
   */
  run(history: readonly Message[], prompt?: string, options?: AgentRunOptions): Promise<RunResult>;
}

/** Creates an agent; throws {@link AgentConfigError} for a bad option (a step limit below 1, two tools with one name). */
export function createAgent(options: AgentOptions): Agent {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new AgentConfigError('maxSteps must be a whole number, 1 or more');
  }
  const tools = new Map<string, AgentTool>();
  for (const tool of options.tools ?? []) {
    if (tools.has(tool.name)) throw new AgentConfigError(`two tools are named "${tool.name}"`);
    tools.set(tool.name, tool);
  }
  return {
    run: async (history, prompt, runOptions = {}) =>
      (await import('./run.js')).runAgent(options, maxSteps, tools, history, prompt, runOptions),
  };
}
