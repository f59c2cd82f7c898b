/**
 * A provider's reply read as a history of one message, by the same format
 * adapter that writes the requests: what v1 has no field for is kept the
 * way that adapter keeps it, so the next request sends it back as the API
 * sent it.
 */
import type { ConversationFormat } from '../formats/format.js';
import type { JsonObject } from '../model/json.js';
import { SourceError } from '../model/errors.js';
import type { Message, Part } from '../model/types.js';
import { ModelRequestError } from './errors.js';

/**
 * The v1 assistant message of a reply: `message` as `format` stores an assistant message.
 * `rawArguments` gives, by part index, arguments text the message cannot carry (a streamed
 * input that did not parse), which the tool call keeps as it came.
 */
export function readReply(
  format: ConversationFormat,
  message: JsonObject,
  rawArguments?: ReadonlyMap<number, string>,
): Message {
  let read: Message;
  try {
    // One message read gives one message.
    read = format.read([message]).conversation.messages[0]!;
  } catch (e) {
    // Blocks that are no blocks (not objects, a type that is not a string): not a reply.
    if (e instanceof SourceError) {
      throw new ModelRequestError(
        'protocol',
        `the server sent a reply that cannot be read (${e.message})`,
      );
    }
    throw e;
  }
  const parts = read.parts.map((p, i): Part => {
    if (p.type !== 'tool-call') return p;
    const text = rawArguments?.get(i);
    const call = text === undefined ? p : { ...p, arguments: text };
    // v1 requires a call's name; a server that sends none (a bad gateway) names no tool.
    return typeof call.name === 'string' ? call : { ...call, name: '' };
  });
  // An empty text block says nothing, and the APIs refuse blank text when it is sent back.
  return {
    ...read,
    role: 'assistant',
    parts: parts.filter((p) => !(p.type === 'text' && p.text === '')),
  };
}
