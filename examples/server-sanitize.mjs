// A server's step for a history a client sent: read it in whatever format it came in, strip what a
// client must not assert (system prompts, file: and other non-http(s) URLs, fabricated dangling
// calls), and write it back in that same format, with the report of every drop.
//
//   node examples/server-sanitize.mjs < fixtures/examples/client-history.json
import { text } from 'node:stream/consumers';
import {
  detectFormat,
  JsonParseError,
  parseJson,
  sanitizeHistory,
  SourceError,
  stringifyJson,
} from 'histlint';

/** The sanitized history as JSON text in the client's format, that format's name, and the report. */
function sanitizeUpload(body) {
  const value = parseJson(body);
  const format = detectFormat(value);
  const { conversation, context } = format.read(value);
  const { envelope, report } = sanitizeHistory(conversation);
  const { value: clean, losses } = format.write(envelope, context);
  // Written back in its own format a history loses nothing; refuse rather than store less.
  if (losses.length > 0) throw new SourceError(`${format.name} cannot hold the sanitized history`);
  return { history: stringifyJson(clean), format: format.name, report };
}

try {
  const { history, format, report } = sanitizeUpload(await text(process.stdin));
  process.stdout.write(history + '\n');
  process.stderr.write(JSON.stringify({ format, report }) + '\n');
} catch (error) {
  // Not JSON, or not a conversation: the client's mistake (a 400 from a server), in one line.
  if (!(error instanceof JsonParseError || error instanceof SourceError)) throw error;
  process.stderr.write(`refused: ${error.message}\n`);
  process.exitCode = 2;
}
