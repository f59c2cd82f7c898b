/**
 * The run loop (SPEC §2.5): resolve the instructions once, shape and repair
 * what is sent, append the prompt, then ask the model and execute its tool
 * calls until it answers without calls or the step limit is reached. The
 * result is the whole supplied history, repaired, plus what the run added,
 * and only what the run added carries its ids.
 */
import { newId } from '../core/ids.js';
import { normalizeHistory } from '../core/normalize.js';
import { isSystemPrompt } from '../core/sanitize.js';
import type { JsonObject } from '../model/json.js';
import type { Message, Part } from '../model/types.js';
import { ModelRequestError, RunError } from './errors.js';
import { canContinue, donatedConversationId } from './history.js';
import type {
  AgentOptions,
  AgentRunOptions,
  AgentTool,
  RunPartial,
  RunResult,
  RunStage,
  Usage,
} from './types.js';

const ZERO: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

function messageOf(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split('\n')[0]!;
}

function textPart(text: string): Part {
  return { type: 'text', text };
}

function textOf(message: Message): string {
  return message.parts
    .filter((p) => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('');
}

/** Static parts first, then the dynamic one, joined by a blank line; empty parts add nothing. */
async function resolveInstructions(
  options: AgentOptions,
  ids: { runId: string; conversationId: string },
): Promise<string> {
  const given = options.instructions;
  const parts = (typeof given === 'string' ? [given] : [...(given ?? [])]).filter(
    (s) => s.trim() !== '',
  );
  if (options.dynamicInstructions !== undefined) {
    const dynamic = await options.dynamicInstructions(ids);
    if (dynamic.trim() !== '') parts.push(dynamic);
  }
  return parts.join('\n\n');
}

/** A tool-result part. */
function resultPart(call: Part, content: Part[], failed: boolean): Part {
  const part: Part = { type: 'tool-result', callId: call.id as string };
  if (typeof call.name === 'string') part.name = call.name;
  part.content = content;
  if (failed) part.failed = true;
  return part;
}

/** The arguments of a call as an object, or undefined when they are not the text of one. */
function callInput(call: Part): JsonObject | undefined {
  if (typeof call.arguments !== 'string') return undefined;
  try {
    const v: unknown = JSON.parse(call.arguments);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** The run itself, loaded by {@link createAgent}'s `run` on its first call. */
export async function runAgent(
  options: AgentOptions,
  maxSteps: number,
  tools: ReadonlyMap<string, AgentTool>,
  history: readonly Message[],
  prompt: string | undefined,
  runOptions: AgentRunOptions,
): Promise<RunResult> {
  const runId = runOptions.runId ?? newId();
  const conversationId = runOptions.conversationId ?? donatedConversationId(history) ?? newId();
  const ids = { runId, conversationId };
  const { signal } = runOptions;
  // Successive replies' streamed text is set apart by a line break.
  let streamedTurn = false;
  let needsBreak = false;
  const onText =
    runOptions.onText === undefined
      ? undefined
      : (delta: string): void => {
          if (needsBreak) runOptions.onText!('\n');
          needsBreak = false;
          streamedTurn = true;
          runOptions.onText!(delta);
        };
  const stamp = (m: Message): Message => ({ ...m, runId, conversationId });

  // The result starts from the whole history, repaired; the processor shapes only what is sent.
  const full = normalizeHistory(history).messages;
  const added: Message[] = [];
  let usage = ZERO;
  let requests = 0;
  let toolExecutions = 0;
  let turns = 0;
  // How much of `added` belongs to completed turns (a reply, and its tool results once all are in).
  let checkpoint = 0;

  const partial = (): RunPartial | undefined =>
    turns === 0
      ? undefined
      : {
          messages: [...full, ...added.slice(0, checkpoint)],
          usage,
          requests,
          toolExecutions,
          runId,
          conversationId,
        };
  const fail = (stage: RunStage, message: string, cause?: unknown): RunError =>
    new RunError(stage, message, ids, partial(), cause);
  const interrupted = (): RunError => fail('aborted', 'interrupted');

  if (signal?.aborted) throw interrupted();

  let instructions: string;
  try {
    instructions = await resolveInstructions(options, ids);
  } catch (e) {
    throw fail('instructions', `instructions: ${messageOf(e)}`, e);
  }

  let window: Message[];
  try {
    window =
      options.historyProcessor === undefined
        ? history.slice()
        : await options.historyProcessor(history);
  } catch (e) {
    throw fail('history', `history processor: ${messageOf(e)}`, e);
  }
  // Every system message of the history gives way to the instructions, sent the provider's way;
  // a role a provider would also take as one (`developer`, ` System `) is one (sanitize's test).
  const sent = normalizeHistory(window).messages.filter((m) => !isSystemPrompt(m));

  // A blank prompt adds nothing (a provider may refuse blank text), like blank instructions.
  if (prompt !== undefined && prompt.trim() !== '') {
    added.push(stamp({ role: 'user', parts: [textPart(prompt)] }));
  } else if (!canContinue(sent)) {
    throw fail(
      'prompt',
      'a prompt is needed: the history does not end with a user message or tool results',
    );
  }
  checkpoint = added.length;

  const definitions = [...tools.values()].map(({ name, description, inputSchema }) =>
    description === undefined ? { name, inputSchema } : { name, description, inputSchema },
  );

  const execute = async (call: Part): Promise<Part> => {
    const name = typeof call.name === 'string' ? call.name : '';
    const tool = tools.get(name);
    if (tool === undefined) {
      return resultPart(call, [textPart(`not run: there is no tool named "${name}"`)], true);
    }
    const input = callInput(call);
    if (input === undefined) {
      return resultPart(
        call,
        [textPart('not run: the arguments are not the text of a JSON object')],
        true,
      );
    }
    toolExecutions++;
    try {
      const outcome = await tool.execute(input, {
        callId: call.id as string,
        ...(signal === undefined ? {} : { signal }),
      });
      return resultPart(call, outcome.content, outcome.failed === true);
    } catch (e) {
      return resultPart(call, [textPart(`tool "${name}" failed: ${messageOf(e)}`)], true);
    }
  };

  while (true) {
    if (signal?.aborted) throw interrupted();
    let response;
    try {
      response = await options.model.request(
        { instructions, messages: [...sent, ...added], tools: definitions },
        {
          ...(signal === undefined ? {} : { signal }),
          ...(onText === undefined ? {} : { onText }),
        },
      );
    } catch (e) {
      if (signal?.aborted || (e instanceof ModelRequestError && e.kind === 'aborted')) {
        throw interrupted();
      }
      throw fail('request', `request ${requests + 1} failed: ${messageOf(e)}`, e);
    }
    requests++;
    turns++;
    needsBreak = streamedTurn;
    streamedTurn = false;
    usage = addUsage(usage, response.usage);
    const reply = stamp({ ...response.message, role: 'assistant' });
    // A call needs an id of its own: a call without one (a few servers omit it) cannot be
    // paired, two calls of one reply with one id count as one call, and one the conversation
    // already used (some servers reuse `call_0` every turn) pairs right in order but mixes up
    // tools that pair by id alone (reused-call-id). Each gets a fresh id here.
    const used = callIds(full, added);
    reply.parts = reply.parts.map((p) => {
      if (p.type !== 'tool-call') return p;
      if (typeof p.id === 'string' && p.id !== '' && !used.has(p.id)) {
        used.add(p.id);
        return p;
      }
      const id = `call_${newId().replace(/-/g, '')}`;
      used.add(id);
      return { ...p, id };
    });
    added.push(reply);
    checkpoint = added.length;

    const calls = reply.parts.filter((p) => p.type === 'tool-call');
    if (calls.length === 0) {
      return {
        messages: [...full, ...added],
        runId,
        conversationId,
        usage,
        text: textOf(reply),
        requests,
        toolExecutions,
      };
    }
    if (requests >= maxSteps) {
      const why = `not run: the run stopped at its limit of ${maxSteps} model request${maxSteps === 1 ? '' : 's'} (max-steps)`;
      added.push(
        stamp({ role: 'tool', parts: calls.map((c) => resultPart(c, [textPart(why)], true)) }),
      );
      checkpoint = added.length;
      throw fail(
        'max-steps',
        `reached the limit of ${maxSteps} model request${maxSteps === 1 ? '' : 's'} with tool calls still to run`,
      );
    }
    const results = await Promise.all(calls.map(execute));
    // A batch cut short is not kept: the partial ends at the reply, and resuming repairs its calls.
    if (signal?.aborted) throw interrupted();
    added.push(stamp({ role: 'tool', parts: results }));
    checkpoint = added.length;
  }
}

/** The ids of every tool call in these lists of messages. */
function callIds(...lists: readonly (readonly Message[])[]): Set<string> {
  const ids = new Set<string>();
  for (const list of lists)
    for (const m of list)
      for (const p of m.parts)
        if (p.type === 'tool-call' && typeof p.id === 'string') ids.add(p.id);
  return ids;
}
