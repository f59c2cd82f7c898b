/**
 * Detection of an OpenAI Agents SDK `RunState` (`RunState.to_json()` in Python, snake_case;
 * `RunState.toJSON()` in TypeScript, camelCase): an object with a string `$schemaVersion`, a list
 * of generated items and an original input. No other format has `$schemaVersion`.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';
import { SCHEMA_VERSION } from './hints.js';

/** The field names of the two SDKs' run states. */
export interface StateKeys {
  input: 'original_input' | 'originalInput';
  items: 'generated_items' | 'generatedItems';
  raw: 'raw_item' | 'rawItem';
}

const PYTHON: StateKeys = { input: 'original_input', items: 'generated_items', raw: 'raw_item' };
const TYPESCRIPT: StateKeys = { input: 'originalInput', items: 'generatedItems', raw: 'rawItem' };

/** The field names `value` uses, when it is a run state. */
export function stateKeys(value: JsonValue): StateKeys | undefined {
  if (!isPlainObject(value) || typeof value[SCHEMA_VERSION] !== 'string') return undefined;
  for (const keys of [PYTHON, TYPESCRIPT]) {
    const input = value[keys.input];
    if (Array.isArray(value[keys.items]) && (typeof input === 'string' || Array.isArray(input)))
      return keys;
  }
  return undefined;
}

/** True when `value` is a run state. */
export function detectOpenAIAgents(value: JsonValue): value is JsonObject {
  return stateKeys(value) !== undefined;
}
