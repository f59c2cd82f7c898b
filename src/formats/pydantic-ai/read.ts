/**
 * Reads pydantic-ai `ModelMessage` JSON into v1. A `response` is one assistant message; a
 * `request` is one v1 message per run of parts of one role (system-prompt → system,
 * user-prompt → user, tool-return and retry-prompt with a tool name → tool). A retry-prompt
 * with a tool name is a failed tool result (v1 `failed`). What v1 has no field for is kept in
 * providerData with the hints of ./hints.ts; a part v1 cannot express is a kept part.
 */
import { setOwn, stringifyJson, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message, Part } from '../../model/types.js';
import type { Conversation, ReadOptions, ReadResult } from '../format.js';
import { isPlainObject, keepProviderData, keptPart, mergeFields, restOf } from '../kit/kept.js';
import { guessMediaType, mediaPartType } from '../kit/media.js';
import { readContext, type ReadContext } from '../kit/provenance.js';
import { joinPointer, readBase, sourceMap, type FieldSources } from '../kit/source-map.js';
import { notFormat } from '../shared.js';
import { isModelMessage } from './detect.js';
import { FORMAT, HINTS } from './hints.js';

/** What a write of the same format needs: the provenance of what was read. */
export type PydanticContext = ReadContext;

/** A v1 part, where it came from, and the role of the v1 message it belongs in. */
interface Located {
  part: Part;
  pointer: string;
  role: string;
  fields?: FieldSources;
  content?: { pointer: string }[];
}

/** The v1 role a request part belongs to. */
function requestRole(p: JsonObject): string {
  if (p.part_kind === 'system-prompt') return 'system';
  if (p.part_kind === 'tool-return') return 'tool';
  if (p.part_kind === 'retry-prompt' && typeof p.tool_name === 'string') return 'tool';
  return 'user';
}

/** A media item of a user-prompt list as a v1 image or document part, or undefined. */
function readMedia(item: JsonObject): { part: Part; fields: FieldSources } | undefined {
  const kind = item.kind;
  const mt = typeof item.media_type === 'string' ? item.media_type : undefined;
  let part: Part | undefined;
  let fields: Record<string, string> = {};
  let own = ['kind'];
  if (kind === 'binary' && typeof item.data === 'string' && mt !== undefined) {
    part = { type: mediaPartType(mt), data: item.data, mediaType: mt };
    own = ['data', 'media_type', 'kind'];
    fields = { data: 'data', mediaType: 'media_type' };
  } else if (typeof item.url === 'string' && typeof kind === 'string' && kind.endsWith('-url')) {
    part = { type: kind === 'image-url' ? 'image' : 'document', url: item.url };
    // A document needs a media type: pydantic-ai's own, else the one its URL names.
    if (part.type === 'document') part.mediaType = mt ?? guessMediaType(item.url);
    own = ['url', 'kind'];
    fields = { url: 'url' };
  }
  if (part === undefined) return undefined;
  const data: JsonObject = {};
  if (kind === 'audio-url' || kind === 'video-url') setOwn(data, HINTS.kind, kind);
  keepProviderData(part, FORMAT, mergeFields(data, restOf(item, own)));
  return { part, fields };
}

/** Reads one user-prompt part into v1 parts. */
function readUserPrompt(p: JsonObject, pointer: string): Located[] {
  const rest = restOf(p, ['content', 'part_kind']);
  const content = p.content;
  if (typeof content === 'string') {
    const part = keepProviderData({ type: 'text', text: content }, FORMAT, rest);
    return [{ part, pointer, role: 'user', fields: { text: 'content' } }];
  }
  if (!Array.isArray(content) || content.length === 0)
    return [{ part: keptPart(FORMAT, p, 'user-prompt'), pointer, role: 'user' }];
  return content.map((item, k) => {
    const at = joinPointer(pointer, 'content', k);
    const hint: JsonObject =
      k === 0 ? mergeFields({ [HINTS.list]: true }, rest) : { [HINTS.item]: true };
    if (typeof item === 'string') {
      return {
        part: keepProviderData({ type: 'text', text: item }, FORMAT, hint),
        pointer: at,
        role: 'user',
      };
    }
    const media = isPlainObject(item) ? readMedia(item) : undefined;
    if (media === undefined) {
      const label = isPlainObject(item) && typeof item.kind === 'string' ? item.kind : 'item';
      return { part: keptPart(FORMAT, item, label, hint), pointer: at, role: 'user' };
    }
    const pd = media.part.providerData as JsonObject | undefined;
    const own = pd?.[FORMAT] as JsonObject | undefined;
    if (pd !== undefined) delete media.part.providerData;
    keepProviderData(media.part, FORMAT, mergeFields(hint, own));
    return { part: media.part, pointer: at, role: 'user', fields: media.fields };
  });
}

/** A tool result's content value as v1 content parts, and the hint a non-string needs. */
function resultContent(content: JsonValue | undefined): { parts: Part[]; json: boolean } {
  if (typeof content === 'string') return { parts: [{ type: 'text', text: content }], json: false };
  if (content === undefined) return { parts: [], json: false };
  return { parts: [{ type: 'text', text: stringifyJson(content, 0) }], json: true };
}

/** Reads one request part. */
function readRequestPart(p: JsonObject, pointer: string): Located[] {
  const kind = p.part_kind;
  if (kind === 'system-prompt' && typeof p.content === 'string') {
    const part = keepProviderData(
      { type: 'text', text: p.content },
      FORMAT,
      restOf(p, ['content', 'part_kind']),
    );
    return [{ part, pointer, role: 'system', fields: { text: 'content' } }];
  }
  if (kind === 'user-prompt') return readUserPrompt(p, pointer);
  const tool =
    kind === 'tool-return' || (kind === 'retry-prompt' && typeof p.tool_name === 'string');
  if (tool && typeof p.tool_call_id === 'string') {
    const { parts, json } = resultContent(p.content);
    const part: Part = { type: 'tool-result', callId: p.tool_call_id };
    if (typeof p.tool_name === 'string') part.name = p.tool_name;
    part.content = parts;
    if (kind === 'retry-prompt') part.failed = true;
    const data: JsonObject = json ? { [HINTS.content]: 'json' } : {};
    keepProviderData(
      part,
      FORMAT,
      mergeFields(data, restOf(p, ['tool_name', 'content', 'tool_call_id', 'part_kind'])),
    );
    const fields = { callId: 'tool_call_id', name: 'tool_name', content: 'content' };
    return [
      {
        part,
        pointer,
        role: 'tool',
        fields,
        content: parts.map(() => ({ pointer: joinPointer(pointer, 'content') })),
      },
    ];
  }
  if (kind === 'retry-prompt' && typeof p.content === 'string') {
    const data = mergeFields({ [HINTS.part]: 'retry-prompt' }, restOf(p, ['content', 'part_kind']));
    const part = keepProviderData({ type: 'text', text: p.content }, FORMAT, data);
    return [{ part, pointer, role: 'user', fields: { text: 'content' } }];
  }
  return [
    {
      part: keptPart(FORMAT, p, typeof kind === 'string' ? kind : 'part'),
      pointer,
      role: requestRole(p),
    },
  ];
}

/** Reads one response part. */
function readResponsePart(p: JsonObject, pointer: string): Located {
  const kind = p.part_kind;
  const role = 'assistant';
  if (kind === 'text' && typeof p.content === 'string') {
    const part = keepProviderData(
      { type: 'text', text: p.content },
      FORMAT,
      restOf(p, ['content', 'part_kind']),
    );
    return { part, pointer, role, fields: { text: 'content' } };
  }
  if (
    kind === 'tool-call' &&
    typeof p.tool_name === 'string' &&
    typeof p.tool_call_id === 'string'
  ) {
    const args = p.args;
    const data: JsonObject = {};
    let text = '';
    if (typeof args === 'string') text = args;
    else if (args === null || args === undefined) setOwn(data, HINTS.args, 'null');
    else {
      text = stringifyJson(args, 0);
      setOwn(data, HINTS.args, 'object');
    }
    const part: Part = {
      type: 'tool-call',
      id: p.tool_call_id,
      name: p.tool_name,
      arguments: text,
    };
    keepProviderData(
      part,
      FORMAT,
      mergeFields(data, restOf(p, ['tool_name', 'args', 'tool_call_id', 'part_kind'])),
    );
    return {
      part,
      pointer,
      role,
      fields: { id: 'tool_call_id', name: 'tool_name', arguments: 'args' },
    };
  }
  if (kind === 'thinking' && typeof p.content === 'string') {
    const part: Part = { type: 'reasoning', text: p.content };
    const mapped = ['content', 'part_kind'];
    const fields: Record<string, string> = { text: 'content' };
    if (typeof p.signature === 'string') {
      part.signature = p.signature;
      mapped.push('signature');
      fields.signature = 'signature';
    }
    keepProviderData(part, FORMAT, restOf(p, mapped));
    return { part, pointer, role, fields };
  }
  return { part: keptPart(FORMAT, p, typeof kind === 'string' ? kind : 'part'), pointer, role };
}

/** A deep copy of kept fields, so no two v1 messages share an object. */
function copyOf<T extends JsonValue | undefined>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => copyOf(x)) as T;
  if (!isPlainObject(v)) return v;
  const out: JsonObject = {};
  for (const k of Object.keys(v)) setOwn(out, k, copyOf(v[k]!));
  return out as T;
}

/** Reads pydantic-ai model messages into v1; throws the one-line `not pydantic-ai` error otherwise. */
export function readPydanticAi(value: JsonValue, options?: ReadOptions): ReadResult {
  if (!Array.isArray(value)) notFormat(FORMAT, 'not a list of model messages');
  const base = readBase('', options);
  const ctx: PydanticContext = readContext(FORMAT, options);
  const map = sourceMap(base, value, options);
  const messages: Message[] = [];
  let lastWasRequest = false;
  value.forEach((m, k) => {
    if (!isModelMessage(m)) notFormat(FORMAT, `message ${k} is not a request or response`);
    const msg = m as JsonObject & { parts: JsonObject[] };
    const pointer = joinPointer(base, k);
    const kept = restOf(msg, ['parts']);
    const groups: { role: string; parts: Located[] }[] = [];
    msg.parts.forEach((p, n) => {
      const at = joinPointer(pointer, 'parts', n);
      const located = msg.kind === 'response' ? [readResponsePart(p, at)] : readRequestPart(p, at);
      for (const l of located) {
        const last = groups.at(-1);
        if (last !== undefined && last.role === l.role) last.parts.push(l);
        else groups.push({ role: l.role, parts: [l] });
      }
    });
    if (groups.length === 0)
      groups.push({ role: msg.kind === 'response' ? 'assistant' : 'user', parts: [] });
    groups.forEach((g, n) => {
      const message: Message = { role: g.role, parts: g.parts.map((l) => l.part) };
      // Every v1 message of a request keeps the request's fields (the writer writes them once),
      // so they stay when a repair drops the message that comes first.
      const data: JsonObject =
        n === 0 && msg.kind === 'request' && lastWasRequest ? { [HINTS.request]: 'new' } : {};
      keepProviderData(message, FORMAT, mergeFields(data, n === 0 ? kept : copyOf(kept)));
      const i = messages.length;
      map.message(i, pointer);
      g.parts.forEach((l, j) => {
        const entry = map.part(i, j, l.pointer, l.fields);
        l.content?.forEach((c, q) => map.child(entry, q, c.pointer));
        ctx.read.add(l.part);
      });
      ctx.read.add(message);
      messages.push(message);
    });
    lastWasRequest = msg.kind === 'request';
  });
  const conversation: Conversation = { version: 1, messages };
  return { conversation, context: ctx, locate: map.locate };
}
