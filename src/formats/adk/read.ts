/**
 * Reads a Google ADK `Session` into v1 (see docs/formats/adk.md). The conversation is the content
 * of each event, in order: Gemini contents (`{role, parts}`), read as the `gemini` adapter reads a
 * bare `contents` array, and located at their event (`/events/N/content/...`). An event without
 * content (a state change, a transfer), and a partial one (a streamed chunk, which a session
 * service does not keep), is not part of it. A content without a role speaks as its author: `user`
 * for the user, the model for an agent.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { ReadOptions, ReadResult } from '../format.js';
import { addProviderData, isPlainObject, restOf } from '../kit/kept.js';
import { readThrough } from '../kit/rekey.js';
import type { ItemSource } from '../kit/source-map.js';
import { FORMAT as GEMINI } from '../gemini/hints.js';
import { readGemini } from '../gemini/read.js';
import { notFormat } from '../shared.js';
import { detectAdk } from './detect.js';
import { FORMAT } from './hints.js';

/** True for an event whose content is part of the conversation. */
function readsContent(event: JsonObject): event is JsonObject & { content: JsonObject } {
  return (
    isPlainObject(event.content) && Array.isArray(event.content.parts) && event.partial !== true
  );
}

/** Reads a session into one v1 conversation. */
export function readAdk(value: JsonValue, options?: ReadOptions): ReadResult {
  if (!detectAdk(value)) {
    notFormat(FORMAT, 'expected an ADK session: "id", "app_name", "user_id" and "events"');
  }
  const events = value.events as JsonObject[];
  const contents: JsonValue[] = [];
  const sources: ItemSource[] = [];
  const kept: JsonValue[] = events.map((event, j) => {
    if (!readsContent(event)) return event;
    const content = event.content;
    const role =
      typeof content.role === 'string' ? undefined : event.author === 'user' ? 'user' : 'model';
    contents.push(role === undefined ? content : { role, ...content });
    sources.push({
      at: ['events', j, 'content'],
      ...(role === undefined ? {} : { fields: { role: [] } }),
    });
    return restOf(event, ['content']) ?? {};
  });
  const { conversation, locate } = readThrough(
    readGemini(contents, options),
    GEMINI,
    FORMAT,
    sources,
  );
  const session = restOf(value, ['events']);
  addProviderData(conversation, FORMAT, {
    ...(session === undefined ? {} : { session }),
    ...(kept.length === 0 ? {} : { events: kept }),
  });
  return { conversation, locate };
}
