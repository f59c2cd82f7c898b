/**
 * Writes a v1 conversation as pydantic-ai `ModelMessage` JSON: an assistant message is one
 * `response`; a run of other messages is one `request` (a message whose `$request` hint says so
 * starts a new one). Ids, signatures and the kind of `args` are written back as read; kept
 * fields fill in what v1 has no place for, and never a wire field.
 */
import { parseJson, setOwn, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message, Part } from '../../model/types.js';
import { providerDataOf } from '../../model/provider-data.js';
import type { Conversation, Loss, WriteResult } from '../format.js';
import { writeBody, writesBare } from '../kit/envelope.js';
import { isKeptPart, keptNode } from '../kit/kept.js';
import { callNames, conversationLosses, messageLosses } from '../shared.js';
import { FORMAT, HINTS } from './hints.js';

/** The kept data of a v1 object, or undefined. */
const keptOf = (o: JsonObject): JsonObject | undefined => providerDataOf(o, FORMAT);

/** A part object: the writer's own fields, then the kept ones. */
function partOf(p: Part, own: Record<string, JsonValue | undefined>): JsonObject {
  return writeBody(keptOf(p), own);
}

/** A v1 image or document part as a user-prompt media item. */
function mediaItem(p: Part): JsonObject {
  const kept = keptOf(p);
  const hinted = kept?.[HINTS.kind];
  if (typeof p.data === 'string') {
    return writeBody(kept, { data: p.data, media_type: p.mediaType as string, kind: 'binary' });
  }
  const kind =
    typeof hinted === 'string' ? hinted : p.type === 'image' ? 'image-url' : 'document-url';
  return writeBody(kept, { url: p.url as string, kind });
}

/** A tool result's content as the value pydantic-ai stores. */
function resultValue(p: Part): JsonValue {
  const content = Array.isArray(p.content) ? (p.content as Part[]) : [];
  const texts = content.filter((c) => c.type === 'text');
  if (keptOf(p)?.[HINTS.content] === 'json' && texts.length === 1 && content.length === 1) {
    try {
      return parseJson(texts[0]!.text as string);
    } catch {
      // Edited into text that is no JSON: written as the text.
    }
  }
  if (content.length === 1 && texts.length === 1) return texts[0]!.text as string;
  if (content.length === 0) return '';
  return content.map((c) => (c.type === 'text' ? (c.text as string) : mediaItem(c)));
}

/** The request parts of one non-assistant v1 message. */
function requestParts(
  m: Message,
  i: number,
  names: Map<string, string>,
  losses: Loss[],
): JsonObject[] {
  const out: JsonObject[] = [];
  /** The user-prompt whose list content the next `$item` part joins. */
  let list: JsonValue[] | undefined;
  const ownMessage = keptOf(m) !== undefined || m.parts.some((p) => keptOf(p) !== undefined);
  // A user message not read here is one user-prompt, its content a string or a list.
  if (m.role === 'user' && !ownMessage && m.parts.length > 0) {
    const items = m.parts.map((p) => (p.type === 'text' ? (p.text as string) : mediaItem(p)));
    const content = items.length === 1 && typeof items[0] === 'string' ? items[0] : items;
    return [{ content, part_kind: 'user-prompt' }];
  }
  m.parts.forEach((p, j) => {
    const where = { messageIndex: i, partIndex: j };
    if (isKeptPart(p, FORMAT)) {
      const node = keptNode(p, FORMAT, losses, where);
      if (node === undefined) return;
      const kept = keptOf(p)!;
      if (kept[HINTS.item] === true && list !== undefined) list.push(node);
      else out.push(node as JsonObject);
      return;
    }
    const kept = keptOf(p);
    if (p.type === 'tool-result') {
      const name = typeof p.name === 'string' ? p.name : names.get(p.callId as string);
      const content = resultValue(p);
      const own =
        p.failed === true
          ? {
              content,
              tool_name: name,
              tool_call_id: p.callId as string,
              part_kind: 'retry-prompt',
            }
          : {
              tool_name: name ?? '',
              content,
              tool_call_id: p.callId as string,
              part_kind: 'tool-return',
            };
      out.push(partOf(p, own));
      return;
    }
    if (p.type === 'text' && m.role === 'system') {
      out.push(partOf(p, { content: p.text as string, part_kind: 'system-prompt' }));
      return;
    }
    if (p.type === 'text' && kept?.[HINTS.part] === 'retry-prompt') {
      out.push(partOf(p, { content: p.text as string, part_kind: 'retry-prompt' }));
      return;
    }
    if (p.type === 'text' || p.type === 'image' || p.type === 'document') {
      const item = p.type === 'text' ? (p.text as string) : mediaItem(p);
      if (kept?.[HINTS.item] === true && list !== undefined) {
        list.push(item);
        return;
      }
      if (kept?.[HINTS.list] === true || p.type !== 'text') {
        list = [item];
        // The user-prompt's own kept fields ride on its first item.
        const fields = p.type === 'text' ? kept : undefined;
        out.push(writeBody(fields, { content: list, part_kind: 'user-prompt' }));
        return;
      }
      out.push(partOf(p, { content: item, part_kind: 'user-prompt' }));
      return;
    }
    losses.push({ ...where, what: `${p.type} part in a ${m.role} message` });
  });
  return out;
}

/** The response parts of one assistant message. */
function responseParts(m: Message, i: number, losses: Loss[]): JsonObject[] {
  const out: JsonObject[] = [];
  m.parts.forEach((p, j) => {
    const where = { messageIndex: i, partIndex: j };
    if (isKeptPart(p, FORMAT)) {
      const node = keptNode(p, FORMAT, losses, where);
      if (node !== undefined) out.push(node as JsonObject);
      return;
    }
    if (p.type === 'text') out.push(partOf(p, { content: p.text as string, part_kind: 'text' }));
    else if (p.type === 'tool-call') {
      const mode = keptOf(p)?.[HINTS.args];
      const text = typeof p.arguments === 'string' ? p.arguments : '';
      let args: JsonValue = text;
      if (mode === 'null' && text === '') args = null;
      else if (mode === 'object') {
        try {
          args = parseJson(text);
        } catch {
          args = text;
        }
      }
      out.push(
        partOf(p, {
          tool_name: p.name as string,
          args,
          tool_call_id: p.id as string,
          part_kind: 'tool-call',
        }),
      );
    } else if (p.type === 'reasoning') {
      const own: Record<string, JsonValue | undefined> = { content: (p.text as string) ?? '' };
      if (typeof p.signature === 'string') own.signature = p.signature;
      own.part_kind = 'thinking';
      out.push(partOf(p, own));
    } else losses.push({ ...where, what: `${p.type} part in a response` });
  });
  return out;
}

/** Writes a v1 conversation as a list of pydantic-ai model messages. */
export function writePydanticAi(conversation: Conversation, _context?: unknown): WriteResult {
  const losses: Loss[] = conversationLosses(conversation, FORMAT);
  // Always a bare list; conversation fields kept beside it have no place and are losses.
  writesBare(undefined, conversation, FORMAT, { fallback: true, losses });
  const names = callNames(conversation.messages);
  const out: JsonValue[] = [];
  let request: { parts: JsonObject[] } | undefined;
  conversation.messages.forEach((m, i) => {
    losses.push(...messageLosses(m, i, FORMAT));
    const kept = keptOf(m);
    if (m.role === 'assistant') {
      request = undefined;
      out.push(writeBody(kept, { parts: responseParts(m, i, losses), kind: 'response' }));
      return;
    }
    const parts = requestParts(m, i, names, losses);
    if (request === undefined || kept?.[HINTS.request] === 'new') {
      const body = writeBody(kept, { parts, kind: 'request' });
      request = body as { parts: JsonObject[] };
      out.push(body);
      return;
    }
    request.parts.push(...parts);
    // Kept request fields of a later message fill in what the request does not have.
    if (kept !== undefined)
      for (const k of Object.keys(kept))
        if (!k.startsWith('$') && !Object.hasOwn(request, k))
          setOwn(request as JsonObject, k, kept[k]!);
  });
  return { value: out, losses };
}
