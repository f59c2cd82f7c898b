/**
 * Server-side references: what makes a provider load content it stores (an earlier response, a
 * conversation, an operator's prompt template, an item, an uploaded file) into a request. A
 * client that sends one splices stored items in that no one checked: sanitize drops them.
 */
import { setOwn, type JsonObject } from '../model/json.js';
import { keptPartNode } from '../model/provider-data.js';
import type { Part } from '../model/types.js';

/**
 * Request fields, by the name of the format whose kept request data holds them, that load stored
 * content. A Responses `prompt` goes whole: its `id` selects an operator's stored prompt and its
 * `variables` can hold `input_image`/`input_file` URLs and file ids.
 * https://platform.openai.com/docs/api-reference/responses/create
 * https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/code-execution-tool (`container`)
 */
const REQUEST_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'openai-responses': ['previous_response_id', 'conversation', 'prompt'],
  anthropic: ['container'],
};

/** A request field dropped because it loads stored content. */
export interface ServerReferenceField {
  /** The request field, e.g. `previous_response_id`. */
  field: string;
}

/** A part dropped because it names stored content. */
export interface ServerReferencePart {
  /** Input index of the message. */
  messageIndex: number;
  /** Input index of the part in its message. */
  partIndex: number;
  /** Index inside the tool result's `content`, for a drop there. */
  contentIndex?: number;
  /**
   * `item_reference` (a stored item), `file_id` (an uploaded file), or `stored_call_output` (a
   * function output, kept whole, for a call no message of the history holds: a stored one).
   */
  kind: ServerReferenceKind;
}

/** What a dropped part referenced. */
export type ServerReferenceKind = 'item_reference' | 'file_id' | 'stored_call_output';

/** A server-side reference sanitize dropped, at request level or in a part. */
export type ServerReference = ServerReferenceField | ServerReferencePart;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A conversation's kept provider data without the request fields that load stored content, and
 * the names of those dropped (in the order kept). A field set to null loads nothing and stays.
 */
export function withoutServerReferences(providerData: unknown): {
  providerData: unknown;
  dropped: string[];
} {
  if (!isObject(providerData)) return { providerData, dropped: [] };
  const dropped: string[] = [];
  let out: JsonObject | null = null;
  for (const format of Object.keys(providerData)) {
    const fields = REQUEST_FIELDS[format] ?? [];
    const kept = providerData[format];
    if (!isObject(kept)) continue;
    // Any other request field that names uploaded files (a code interpreter's container
    // `file_ids`, a file search's `vector_store_ids`) loads stored content too.
    const found = Object.keys(kept).filter(
      (k) => kept[k] !== null && (fields.includes(k) || holdsFileId(kept[k])),
    );
    if (found.length === 0) continue;
    dropped.push(...found);
    const rest: JsonObject = {};
    for (const k of Object.keys(kept)) if (!found.includes(k)) setOwn(rest, k, kept[k]!);
    out ??= { ...providerData };
    setOwn(out, format, rest);
  }
  return { providerData: out ?? providerData, dropped };
}

/**
 * What a part references on the server, or null: a `<format>:item_reference` part (a stored item
 * carried whole), or a part whose kept provider data holds a string `file_id` at any depth (an
 * OpenAI `input_file`/`input_image` by id, an Anthropic `source: {type: "file"}`).
 */
export function serverReferenceKind(
  part: { type: string; providerData?: unknown },
  callIds?: ReadonlySet<string>,
): ServerReferenceKind | null {
  if (part.type.endsWith(':item_reference')) return 'item_reference';
  if (holdsFileId(part.providerData)) return 'file_id';
  // A Responses reader keeps an output for a call stored on the server whole (the call is in the
  // previous response): without that response, the provider finds no call for it.
  if (callIds !== undefined && part.type.endsWith(':function_call_output')) {
    const callId = keptCallId(part);
    if (callId !== undefined && !callIds.has(callId)) return 'stored_call_output';
  }
  return null;
}

/**
 * The call ids a history holds: its tool calls', and those of calls kept whole
 * (`<format>:<type>` parts whose kept item has a `call_id`; outputs aside).
 */
export function historyCallIds(
  messages: readonly { parts: readonly { type: string; id?: unknown; providerData?: unknown }[] }[],
): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type === 'tool-call' && typeof p.id === 'string') ids.add(p.id);
      else if (p.type.includes(':') && !p.type.endsWith('_output')) {
        const callId = keptCallId(p);
        if (callId !== undefined) ids.add(callId);
      }
    }
  }
  return ids;
}

/** The `call_id` of the item a `<format>:<type>` part keeps whole (in any stored shape). */
function keptCallId(part: { type: string; providerData?: unknown }): string | undefined {
  const format = part.type.slice(0, part.type.indexOf(':'));
  const kept = keptPartNode(part as Part, format);
  return isObject(kept) && typeof kept.call_id === 'string' ? kept.call_id : undefined;
}

/**
 * The server reference of an item of a tool result's `content`: the item itself, or, for a tool
 * result nested there, any part inside it, at any depth. Null when there is none.
 */
export function contentServerReferenceKind(item: unknown): ServerReferenceKind | null {
  const stack: unknown[] = [item];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isObject(node) || typeof node.type !== 'string') continue;
    const found = serverReferenceKind(node as { type: string });
    if (found !== null) return found;
    if (node.type === 'tool-result' && Array.isArray(node.content))
      for (const v of node.content) stack.push(v);
  }
  return null;
}

/** True when kept data holds a string `file_id` anywhere (an explicit stack: any depth). */
export function holdsFileId(data: unknown): boolean {
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const v of node as unknown[]) stack.push(v);
      continue;
    }
    const obj = node as Record<string, unknown>;
    if (Object.hasOwn(obj, 'file_id') && typeof obj.file_id === 'string') return true;
    for (const key of ['file_ids', 'vector_store_ids'])
      if (Array.isArray(obj[key]) && (obj[key] as unknown[]).length > 0) return true;
    for (const key of Object.keys(obj)) stack.push(obj[key]);
  }
  return false;
}
