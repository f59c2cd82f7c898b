/**
 * The conversation format, version 1 (SPEC §1): the types the operations
 * work on and the basic-shape check. The zod model is in ./schema.ts (kept
 * apart so reading and linting never load zod).
 */
import { JsonNumber, type JsonObject, type JsonValue } from './json.js';

/** The message roles of version 1. */
export const ROLES = ['system', 'user', 'assistant', 'tool'] as const;

/** The part types of version 1; any other `type` is an unknown part, carried through. */
export const PART_TYPES = [
  'text',
  'image',
  'document',
  'tool-call',
  'tool-result',
  'reasoning',
] as const;

/** The part types allowed inside a tool result's `content`. */
export const CONTENT_PART_TYPES = ['text', 'image', 'document'] as const;

/** A version 1 part type. */
export type PartType = (typeof PART_TYPES)[number];

/** A part as the operations see it: a `type` and whatever else it carries. */
export interface Part extends JsonObject {
  type: string;
}

/** A message as the operations see it: a `role`, its parts, and any other fields. */
export interface Message extends JsonObject {
  role: string;
  parts: Part[];
}

/**
 * Checks the basic shape every operation needs (SPEC §2): an array of
 * message objects, each with a string `role` and an array `parts` of objects
 * with a string `type`. Returns a description of the first problem, or null.
 */
export function shapeProblem(messages: JsonValue): string | null {
  if (!Array.isArray(messages)) return 'messages is not an array';
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isObject(m)) return `message ${i} is not an object`;
    if (typeof m.role !== 'string') return `message ${i} has no string "role"`;
    const parts = m.parts;
    if (!Array.isArray(parts)) return `message ${i} has no "parts" array`;
    for (let j = 0; j < parts.length; j++) {
      const p = parts[j];
      if (!isObject(p)) return `message ${i} part ${j} is not an object`;
      if (typeof p.type !== 'string') return `message ${i} part ${j} has no string "type"`;
    }
  }
  return null;
}

/** True when a value is a JSON object (not an array, not null). */
export function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);
}

/**
 * The label a format reader gives a content block that has no string `type`
 * (it is kept whole as the part type `<format>:invalid`): the provider
 * rejects such a block, and `unknown-part-type` reports it even in its own
 * format.
 */
export const UNTYPED_BLOCK = 'invalid';
