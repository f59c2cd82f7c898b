/**
 * Reads an AutoGen message list into v1 (see docs/formats/autogen.md): a `SystemMessage` is a
 * system message, a `UserMessage` a user one (its string, or its list of strings, other items
 * kept), an `AssistantMessage` an assistant one (its `thought` a reasoning part first, then its
 * text or its function calls), a `FunctionExecutionResultMessage` a tool message of results.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Message, Part } from '../../model/types.js';
import type { ReadOptions, ReadResult } from '../format.js';
import { keepProviderData, keptPart, restOf } from '../kit/kept.js';
import { envelopeData, readEnvelope } from '../kit/envelope.js';
import { joinPointer, sourceMap, type SourceMap } from '../kit/source-map.js';
import { makeConversation, notFormat } from '../shared.js';
import { isAutoGenMessage } from './detect.js';
import { FORMAT } from './hints.js';

const ROLES: Record<string, string> = {
  SystemMessage: 'system',
  UserMessage: 'user',
  AssistantMessage: 'assistant',
  FunctionExecutionResultMessage: 'tool',
};

/** A text part at `at`. */
function text(map: SourceMap, i: number, parts: Part[], value: string, at: string): void {
  map.part(i, parts.length, at);
  parts.push({ type: 'text', text: value });
}

/** The items of a content list: strings are text, function calls and results their parts, the rest kept. */
function readItem(
  m: JsonObject,
  item: JsonValue,
  map: SourceMap,
  i: number,
  parts: Part[],
  at: string,
): void {
  if (typeof item === 'string') return text(map, i, parts, item, at);
  const o = item as JsonObject;
  if (
    m.type === 'AssistantMessage' &&
    typeof o?.name === 'string' &&
    typeof o.id === 'string' &&
    typeof o.arguments === 'string'
  ) {
    const part: Part = { type: 'tool-call', id: o.id, name: o.name, arguments: o.arguments };
    keepProviderData(part, FORMAT, restOf(o, ['id', 'name', 'arguments']));
    map.part(i, parts.length, at, { id: 'id', name: 'name', arguments: 'arguments' });
    parts.push(part);
    return;
  }
  if (
    m.type === 'FunctionExecutionResultMessage' &&
    typeof o?.call_id === 'string' &&
    typeof o.content === 'string'
  ) {
    const part: Part = { type: 'tool-result', callId: o.call_id };
    if (typeof o.name === 'string') part.name = o.name;
    part.content = [{ type: 'text', text: o.content }];
    if (o.is_error === true) part.failed = true;
    const known = [
      'call_id',
      'content',
      ...(typeof o.name === 'string' ? ['name'] : []),
      ...(o.is_error === true ? ['is_error'] : []),
    ];
    keepProviderData(part, FORMAT, restOf(o, known));
    const entry = map.part(i, parts.length, at, {
      callId: 'call_id',
      name: 'name',
      content: 'content',
    });
    entry.contentPointer = joinPointer(at, 'content');
    parts.push(part);
    return;
  }
  map.part(i, parts.length, at);
  parts.push(keptPart(FORMAT, item, 'item'));
}

/** Reads an AutoGen message list (bare, or an object's `messages`). */
export function readAutoGen(value: JsonValue, options?: ReadOptions): ReadResult {
  const envelope = readEnvelope(value, FORMAT, 'messages', {}, options);
  const base = envelope.base;
  const map = sourceMap(base, value, options);
  const messages: Message[] = envelope.list.map((m, i) => {
    if (!isAutoGenMessage(m)) notFormat(FORMAT, `message ${i} has no AutoGen "type"`);
    const at = joinPointer(base, i);
    map.message(i, at);
    const parts: Part[] = [];
    const known = ['type', 'content'];
    if (m.type === 'AssistantMessage' && typeof m.thought === 'string') {
      map.part(i, 0, joinPointer(at, 'thought'));
      parts.push({ type: 'reasoning', text: m.thought });
      known.push('thought');
    }
    const content = m.content;
    if (typeof content === 'string') text(map, i, parts, content, joinPointer(at, 'content'));
    else if (Array.isArray(content))
      content.forEach((item, k) => readItem(m, item, map, i, parts, joinPointer(at, 'content', k)));
    else known.pop();
    const message: Message = { role: ROLES[m.type as string]!, parts };
    keepProviderData(message, FORMAT, restOf(m, known));
    return message;
  });
  const kept = envelopeData(envelope, ['messages']);
  return { conversation: makeConversation(messages, FORMAT, kept), locate: map.locate };
}
