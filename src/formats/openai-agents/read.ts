/**
 * Reads an OpenAI Agents SDK `RunState` into v1 (see docs/formats/openai-agents.md). The
 * conversation is what the SDK sends on resuming: the original input (a string is one user
 * message, a list its input items), then the raw item of each generated item, in order. Those are
 * Responses items, read as the `openai-responses` adapter reads a bare array of items and located
 * where they are in the run state. The TypeScript SDK's own item shapes (`callId`, a
 * `function_call_result` whose `output` is `{type: "text", text}`) are read as the Responses items
 * they stand for. An approval item whose call is already among the items is the same call, asked
 * about: it is read once.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { ReadOptions, ReadResult } from '../format.js';
import { addProviderData, isPlainObject, restOf } from '../kit/kept.js';
import { readThrough } from '../kit/rekey.js';
import type { ItemSource } from '../kit/source-map.js';
import { FORMAT as RESPONSES } from '../openai-responses/hints.js';
import { readResponses } from '../openai-responses/read.js';
import { notFormat } from '../shared.js';
import { stateKeys, type StateKeys } from './detect.js';
import { FORMAT } from './hints.js';

/** One Responses item to read, and where it sits in the run state. */
interface Source extends ItemSource {
  item: JsonValue;
}

/** An object with the key `from` renamed `to`, in its place. */
function renamedKey(obj: JsonObject, from: string, to: string): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) out[k === from ? to : k] = v;
  return out;
}

/**
 * The Responses item a TypeScript SDK item stands for, and its fields' paths: a `function_call`
 * with `callId`, a `function_call_result` with a text `output` (other items are read as they are).
 */
function responsesItem(item: JsonValue, at: ItemSource['at']): Source {
  if (!isPlainObject(item) || typeof item.callId !== 'string' || 'call_id' in item)
    return { item, at };
  if (item.type === 'function_call') {
    return { item: renamedKey(item, 'callId', 'call_id'), at, fields: { call_id: ['callId'] } };
  }
  if (item.type === 'function_call_result') {
    const output = item.output;
    const text = isPlainObject(output) && typeof output.text === 'string' ? output.text : undefined;
    if (typeof output !== 'string' && text === undefined) return { item, at };
    const rest = restOf(item, ['type', 'callId', 'output']) ?? {};
    const read: JsonObject = { type: 'function_call_output', call_id: item.callId, ...rest };
    read.output = text ?? output!;
    const fields = {
      call_id: ['callId'],
      output: text === undefined ? ['output'] : ['output', 'text'],
    };
    return { item: read, at, fields };
  }
  return { item, at };
}

/** The call an item is or asks about: its call id, else its id. */
function callOf(raw: JsonValue | undefined): string | undefined {
  if (!isPlainObject(raw)) return undefined;
  for (const key of ['call_id', 'callId', 'id'])
    if (typeof raw[key] === 'string') return raw[key] as string;
  return undefined;
}

/** The items to read, in order, and each generated item's other fields. */
function sourcesOf(
  state: JsonObject,
  keys: StateKeys,
): { sources: Source[]; wrappers: JsonValue[] } {
  const sources: Source[] = [];
  const input = state[keys.input]!;
  if (typeof input === 'string') {
    sources.push({
      item: { role: 'user', content: input },
      at: [keys.input],
      fields: { content: [] },
    });
  } else {
    (input as JsonValue[]).forEach((item, k) => sources.push(responsesItem(item, [keys.input, k])));
  }
  const seen = new Set<string>();
  const wrappers: JsonValue[] = [];
  (state[keys.items] as JsonValue[]).forEach((generated, j) => {
    if (!isPlainObject(generated)) notFormat(FORMAT, `generated item ${j} is not an object`);
    wrappers.push(restOf(generated, [keys.raw]) ?? {});
    const raw = generated[keys.raw];
    if (raw === undefined) return;
    const call = callOf(raw);
    const approval = generated.type === 'tool_approval_item';
    if (approval && call !== undefined && seen.has(call)) return;
    if (call !== undefined) seen.add(call);
    sources.push(responsesItem(raw, [keys.items, j, keys.raw]));
  });
  return { sources, wrappers };
}

/** Reads a run state into one v1 conversation. */
export function readOpenAIAgents(value: JsonValue, options?: ReadOptions): ReadResult {
  const keys = stateKeys(value);
  if (keys === undefined) {
    notFormat(
      FORMAT,
      'expected a run state: "$schemaVersion", an original input and generated items',
    );
  }
  const state = value as JsonObject;
  const { sources, wrappers } = sourcesOf(state, keys);
  const inner = readResponses(
    sources.map((s) => s.item),
    options,
  );
  const { conversation, locate } = readThrough(inner, RESPONSES, FORMAT, sources);
  const rest = restOf(state, [keys.input, keys.items]);
  addProviderData(conversation, FORMAT, {
    ...(rest === undefined ? {} : { state: rest }),
    ...(wrappers.length === 0 ? {} : { items: wrappers }),
  });
  return { conversation, locate };
}
