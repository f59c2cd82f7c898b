/**
 * The providers' turn-order rules as data: where each provider needs the
 * results of a turn's calls, found over the provider turns of
 * ./turns.ts. The target rules report these problems, and normalize with a
 * target repairs exactly what they find (SPEC §3), so the two cannot
 * disagree about what is broken.
 */
import type { Message, Part } from '../model/types.js';
import type { TargetName } from '../names.js';
import { providerTurns, type ProviderView, type Turn } from './turns.js';

/** One problem of a turn-order rule, in the shape a rule reports it. */
export interface TurnOrderProblem {
  /** The rule that reports it, e.g. `openai-chat/tool-results-adjacent`. */
  ruleId: string;
  /** The rule's message template. */
  messageId: string;
  data?: Record<string, string | number>;
  messageIndex: number;
  partIndex?: number;
  /** A path below the part (or the message). */
  path?: (string | number)[];
}

/** The turn-order rules of each target: the ones normalize repairs for it. */
export const TURN_ORDER_RULES: Readonly<Record<TargetName, readonly string[]>> = {
  'openai-chat': ['openai-chat/tool-results-adjacent', 'openai-chat/tool-message-after-call'],
  'openai-responses': ['openai-responses/output-after-call'],
  anthropic: ['anthropic/tool-result-next-turn', 'anthropic/tool-result-first'],
  gemini: ['gemini/function-response-next-turn'],
  bedrock: ['bedrock/tool-result-next-turn', 'bedrock/alternation'],
};

/** A tool call or result of a history with a string id. */
export interface IdAt {
  id: string;
  messageIndex: number;
  partIndex: number;
}

/** The parts of the given messages of one type whose `key` is a string, in order. */
function idsIn(
  messages: readonly Message[],
  indices: readonly number[],
  type: 'tool-call' | 'tool-result',
  key: 'id' | 'callId',
): IdAt[] {
  const out: IdAt[] = [];
  for (const i of indices) {
    messages[i]!.parts.forEach((p, j) => {
      const id = p.type === type ? p[key] : undefined;
      if (typeof id === 'string') out.push({ id, messageIndex: i, partIndex: j });
    });
  }
  return out;
}

/** The tool calls of the given messages that carry a string id, in order. */
export function callsIn(messages: readonly Message[], indices: readonly number[]): IdAt[] {
  return idsIn(messages, indices, 'tool-call', 'id');
}

/** The tool results of the given messages that carry a string `callId`, in order. */
export function resultsIn(messages: readonly Message[], indices: readonly number[]): IdAt[] {
  return idsIn(messages, indices, 'tool-result', 'callId');
}

/** The calls whose id is not in `answered`, each id once (its first call). */
export function unansweredCalls(calls: readonly IdAt[], answered: ReadonlySet<string>): IdAt[] {
  const seen = new Set<string>();
  return calls.filter((call) => {
    if (answered.has(call.id) || seen.has(call.id)) return false;
    seen.add(call.id);
    return true;
  });
}

/** A part of a turn, with its place in the history. */
export interface TurnPart {
  part: Part;
  messageIndex: number;
  partIndex: number;
}

/** The parts of a turn, in order. */
export function turnParts(messages: readonly Message[], turn: Turn): TurnPart[] {
  const out: TurnPart[] = [];
  for (const i of turn.messages) {
    messages[i]!.parts.forEach((part, j) => out.push({ part, messageIndex: i, partIndex: j }));
  }
  return out;
}

/**
 * OpenAI Chat (providers.md §1): every call of an assistant message is
 * answered by the tool messages right after it, before a message of any
 * other role; a tool message follows, possibly after sibling tool messages,
 * the assistant message whose calls hold its id.
 */
function openaiChatProblems(messages: readonly Message[], view: ProviderView): TurnOrderProblem[] {
  const out: TurnOrderProblem[] = [];
  const turns = providerTurns(messages, view);
  const isTool = (t: Turn): boolean => t.messages.every((i) => messages[i]!.role === 'tool');
  // The assistant turn whose tool messages are being read, and its call ids.
  let owner: { index: number; ids: Set<string> } | undefined;
  turns.forEach((turn, t) => {
    if (!isTool(turn)) {
      const calls = turn.role === 'assistant' ? callsIn(messages, turn.messages) : [];
      owner =
        calls.length > 0
          ? { index: turn.messages[0]!, ids: new Set(calls.map((c) => c.id)) }
          : undefined;
      if (calls.length === 0) return;
      let next = t + 1;
      const run: number[] = [];
      while (next < turns.length && isTool(turns[next]!)) run.push(...turns[next++]!.messages);
      // A history that ends here leaves the calls pending: dangling-tool-call reports them.
      if (next >= turns.length) return;
      const answered = new Set(resultsIn(messages, run).map((r) => r.id));
      const at = turns[next]!.messages[0]!;
      for (const call of unansweredCalls(calls, answered)) {
        out.push({
          ruleId: 'openai-chat/tool-results-adjacent',
          messageId: 'unanswered',
          data: { id: call.id, role: messages[at]!.role, next: at },
          messageIndex: call.messageIndex,
          partIndex: call.partIndex,
        });
      }
      return;
    }
    for (const i of turn.messages) {
      messages[i]!.parts.forEach((p, j) => {
        // Results without a callId are missing-call-id's business.
        if (p.type !== 'tool-result' || typeof p.callId !== 'string') return;
        if (owner === undefined) {
          out.push({
            ruleId: 'openai-chat/tool-message-after-call',
            messageId: 'noCall',
            data: { callId: p.callId },
            messageIndex: i,
            partIndex: j,
            path: ['callId'],
          });
        } else if (!owner.ids.has(p.callId)) {
          out.push({
            ruleId: 'openai-chat/tool-message-after-call',
            messageId: 'notFound',
            data: { callId: p.callId, owner: owner.index },
            messageIndex: i,
            partIndex: j,
            path: ['callId'],
          });
        }
      });
    }
  });
  return out;
}

/**
 * The next-turn pairing of Anthropic and Bedrock (providers.md §3, §5):
 * every call of an assistant turn has a result in the user turn right after
 * it (reported once per id, as `missing`), and every result of a user turn
 * answers a call of the assistant turn right before it (`unexpected`). A
 * turn of the other role in between (two assistant turns in a row, as
 * Bedrock keeps them) answers nothing. A history that ends with an
 * assistant turn leaves its calls pending: dangling-tool-call reports them.
 */
function nextTurnProblems(
  messages: readonly Message[],
  turns: readonly Turn[],
  ruleId: string,
  unexpected: string,
): TurnOrderProblem[] {
  const out: TurnOrderProblem[] = [];
  turns.forEach((turn, t) => {
    if (turn.role === 'assistant') {
      const next = turns[t + 1];
      if (next === undefined) return;
      const answered = new Set(
        next.role === 'user' ? resultsIn(messages, next.messages).map((r) => r.id) : [],
      );
      for (const call of unansweredCalls(callsIn(messages, turn.messages), answered)) {
        out.push({
          ruleId,
          messageId: 'missing',
          data: { id: call.id },
          messageIndex: call.messageIndex,
          partIndex: call.partIndex,
        });
      }
      return;
    }
    const previous = turns[t - 1];
    const calls = new Set(
      previous?.role === 'assistant' ? callsIn(messages, previous.messages).map((c) => c.id) : [],
    );
    for (const result of resultsIn(messages, turn.messages)) {
      if (calls.has(result.id)) continue;
      out.push({
        ruleId,
        messageId: unexpected,
        data: { id: result.id },
        messageIndex: result.messageIndex,
        partIndex: result.partIndex,
        path: ['callId'],
      });
    }
  });
  return out;
}

/**
 * Anthropic (providers.md §3): next-turn pairing over the API's merged
 * turns, and the `tool_result` blocks of a user turn first, before any text
 * or image (one problem per turn: moving the other content after the
 * results fixes them all).
 */
function anthropicProblems(messages: readonly Message[], view: ProviderView): TurnOrderProblem[] {
  const turns = providerTurns(messages, view);
  const out = nextTurnProblems(messages, turns, 'anthropic/tool-result-next-turn', 'unexpected');
  for (const turn of turns) {
    if (turn.role !== 'user') continue;
    let before: string | undefined;
    for (const { part, messageIndex, partIndex } of turnParts(messages, turn)) {
      if (part.type !== 'tool-result') {
        before ??= part.type;
        continue;
      }
      if (before === undefined) continue;
      out.push({
        ruleId: 'anthropic/tool-result-first',
        messageId: 'notFirst',
        data: { id: typeof part.callId === 'string' ? part.callId : '', before },
        messageIndex,
        partIndex,
      });
      break;
    }
  }
  return out;
}

/** Bedrock (providers.md §5): next-turn pairing, and turns that strictly alternate. */
function bedrockProblems(messages: readonly Message[], view: ProviderView): TurnOrderProblem[] {
  const turns = providerTurns(messages, view);
  const out = nextTurnProblems(messages, turns, 'bedrock/tool-result-next-turn', 'extra');
  for (let t = 1; t < turns.length; t++) {
    const turn = turns[t]!;
    const previous = turns[t - 1]!;
    if (turn.role !== previous.role) continue;
    out.push({
      ruleId: 'bedrock/alternation',
      messageId: 'repeated',
      data: { role: turn.role, previous: previous.messages.at(-1)! },
      messageIndex: turn.messages[0]!,
    });
  }
  return out;
}

/**
 * Gemini (providers.md §4): the function responses answering a call turn
 * (model contents in a row, as Gemini 3 accepted) sit in the content right
 * after it, or in the run of response contents right after it (parallel
 * calls answered one content each, which Gemini accepts), as many as the
 * turn has calls; a response content comes right after a call turn.
 */
function geminiProblems(messages: readonly Message[], view: ProviderView): TurnOrderProblem[] {
  const out: TurnOrderProblem[] = [];
  const contents = providerTurns(messages, view);
  const count = (turn: Turn, type: string): TurnPart[] =>
    turnParts(messages, turn).filter((p) => p.part.type === type);
  const ruleId = 'gemini/function-response-next-turn';
  let k = 0;
  while (k < contents.length) {
    const content = contents[k]!;
    if (content.role === 'user') {
      if (count(content, 'tool-result').length > 0)
        out.push({ ruleId, messageId: 'orphan', messageIndex: content.messages[0]! });
      k++;
      continue;
    }
    const run: Turn = { role: 'assistant', messages: [] };
    while (k < contents.length && contents[k]!.role === 'assistant')
      run.messages.push(...contents[k++]!.messages);
    const calls = count(run, 'tool-call');
    const first = contents[k];
    // No calls, or the history ends with pending calls (dangling-tool-call's business).
    if (calls.length === 0 || first === undefined) continue;
    const next: Turn = { role: 'user', messages: [...first.messages] };
    k++;
    const isResponses = (t: Turn): boolean => t.messages.every((i) => messages[i]!.role === 'tool');
    if (isResponses(first))
      while (k < contents.length && isResponses(contents[k]!))
        next.messages.push(...contents[k++]!.messages);
    const responses = count(next, 'tool-result').length;
    if (responses === 0) {
      out.push({
        ruleId,
        messageId: 'missing',
        data: { calls: calls.length },
        messageIndex: calls[0]!.messageIndex,
        partIndex: calls[0]!.partIndex,
      });
    } else if (responses !== calls.length) {
      out.push({
        ruleId,
        messageId: 'count',
        data: { calls: calls.length, responses },
        messageIndex: next.messages[0]!,
      });
    }
  }
  return out;
}

/**
 * OpenAI Responses (providers.md §2): a `function_call_output` needs its
 * `function_call` earlier in `input` (a lone output whose call lives on the
 * server is read as a kept item, not as a result). Outputs may come anywhere
 * after their call: OpenAI accepts calls and outputs interleaved.
 */
function responsesProblems(messages: readonly Message[]): TurnOrderProblem[] {
  const out: TurnOrderProblem[] = [];
  const called = new Set<string>();
  const later = new Set<string>();
  for (const m of messages)
    for (const p of m.parts)
      if (p.type === 'tool-call' && typeof p.id === 'string') later.add(p.id);
  messages.forEach((m, i) => {
    m.parts.forEach((p, j) => {
      if (p.type === 'tool-call' && typeof p.id === 'string') called.add(p.id);
      if (p.type !== 'tool-result' || typeof p.callId !== 'string' || called.has(p.callId)) return;
      out.push({
        ruleId: 'openai-responses/output-after-call',
        messageId: later.has(p.callId) ? 'before' : 'noCall',
        data: { callId: p.callId },
        messageIndex: i,
        partIndex: j,
        path: ['callId'],
      });
    });
  });
  return out;
}

/** The problems of `view`'s turn-order rules on a history, in order of the checks. */
export function turnOrderProblems(
  messages: readonly Message[],
  view: ProviderView,
): TurnOrderProblem[] {
  switch (view.target) {
    case 'openai-chat':
      return openaiChatProblems(messages, view);
    case 'openai-responses':
      return responsesProblems(messages);
    case 'anthropic':
      return anthropicProblems(messages, view);
    case 'bedrock':
      return bedrockProblems(messages, view);
    case 'gemini':
      return geminiProblems(messages, view);
    default:
      return [];
  }
}
