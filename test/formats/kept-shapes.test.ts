/**
 * One kept-block shape (src/formats/kit/kept.ts): a block v1 cannot express is read as
 * `{part: node}` by every format now, and v1 files stored by earlier versions, in the shapes
 * those wrote (the block's fields spread and escaped, `$empty` for `{}`, claude-code's
 * `{block}`), still read and write back the same. The fixtures in fixtures/kept-shapes/<case>/
 * were made by the version before the one shape: `source.json` the stored value, `v1.json` what
 * that version read, `written.json` what it wrote back from that v1 file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writesAnyConversation } from '../../src/formats/format.js';
import { formatByName } from '../../src/formats/index.js';
import { keptPartNode } from '../../src/formats/kit/kept.js';
import { parseJson, type JsonValue } from '../../src/model/json.js';
import { type Message, type Part } from '../../src/model/types.js';
import { providerDataOf } from '../../src/model/provider-data.js';
import { ROOT } from '../helpers/cli.js';

const DIR = path.join(ROOT, 'fixtures', 'kept-shapes');
const cases = readdirSync(DIR).sort();
const json = (c: string, file: string): JsonValue =>
  parseJson(readFileSync(path.join(DIR, c, file), 'utf8'));

/** Every kept part of `format` in a conversation's messages. */
function keptParts(messages: readonly Message[], format: string): Part[] {
  return messages.flatMap((m) => m.parts).filter((p) => p.type.startsWith(`${format}:`));
}

describe.each(cases)('%s', (name) => {
  const format = formatByName(name.replace(/-escaped$/, ''))!;
  const before = json(name, 'v1.json') as { messages: Message[] };

  it('is a case of a known format, with old-shape kept parts', () => {
    expect(format).toBeDefined();
    expect(keptParts(before.messages, format.name).length).toBeGreaterThan(0);
  });

  it('reads every kept part as the one shape now', () => {
    const { conversation } = format.read(json(name, 'source.json'));
    const parts = keptParts(conversation.messages, format.name);
    expect(parts.length).toBe(keptParts(before.messages, format.name).length);
    for (const p of parts) {
      const data = providerDataOf(p, format.name)!;
      expect(Object.keys(data).filter((k) => !k.startsWith('$') || k.startsWith('$$'))).toEqual([
        'part',
      ]);
    }
  });

  it('finds the same node in the stored old shape as in the new read', () => {
    const { conversation } = format.read(json(name, 'source.json'));
    const now = keptParts(conversation.messages, format.name).map((p) =>
      keptPartNode(p, format.name),
    );
    const old = keptParts(before.messages, format.name).map((p) => keptPartNode(p, format.name));
    expect(old).toEqual(now);
  });

  // A read-only format (claude-code) has no writer, so its case has no written.json.
  it.runIf(writesAnyConversation(format))(
    'writes a v1 file of the old shape back as that version did',
    () => {
      const { value, losses } = format.write(before as never);
      expect(losses).toEqual([]);
      expect(value).toEqual(json(name, 'written.json'));
    },
  );
});
