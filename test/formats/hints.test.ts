/**
 * Every `$` hint a format's reader writes into its kept data is declared in that format's
 * `hints.ts` (the `hints` list of its registry entry): a hint nobody declared is a key nobody
 * documents, types or reads on purpose. Each format's reads of its fixtures
 * (fixtures/formats/<format>/: the contract cases and its own) and, when ../shared is there, of the
 * shared corpus are walked: the conversation, every message, every part and a
 * tool result's content parts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/formats/index.js';
import type { ConversationFormat } from '../../src/formats/format.js';
import { parseJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import { isObject } from '../../src/model/types.js';
import { providerDataOf } from '../../src/model/provider-data.js';
import { ROOT } from '../helpers/cli.js';
import { corpusConversations } from '../helpers/corpus.js';
import { jsonFilesBelow } from '../helpers/formats.js';
import { describeShared } from '../helpers/shared.js';

/** The `$` keys (not `$$`, escaped source fields) of `format`'s kept data on `obj`. */
function hintsOn(obj: JsonObject, format: string): string[] {
  const pd = providerDataOf(obj, format);
  if (pd === undefined) return [];
  return Object.keys(pd).filter((k) => k.startsWith('$') && !k.startsWith('$$'));
}

/** Every hint key a read of `value` as `format` writes, with where. */
function hintsOfRead(format: ConversationFormat, value: JsonValue): Map<string, string> {
  const found = new Map<string, string>();
  const note = (obj: JsonObject, where: string): void => {
    for (const k of hintsOn(obj, format.name)) if (!found.has(k)) found.set(k, where);
  };
  const { conversation } = format.read(value);
  note(conversation, 'conversation');
  const walkPart = (p: JsonValue, where: string): void => {
    if (!isObject(p)) return;
    note(p, where);
    if (Array.isArray(p.content)) p.content.forEach((c, k) => walkPart(c, `${where}/content/${k}`));
  };
  conversation.messages.forEach((m, i) => {
    note(m, `message ${i}`);
    m.parts.forEach((p, j) => walkPart(p, `message ${i} part ${j}`));
  });
  return found;
}

/** The fixtures of `format` it detects. */
function samples(format: ConversationFormat): { where: string; value: JsonValue }[] {
  const out: { where: string; value: JsonValue }[] = [];
  for (const file of jsonFilesBelow(path.join(ROOT, 'fixtures', 'formats', format.name))) {
    let value: JsonValue;
    try {
      value = parseJson(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    if (format.detect(value)) out.push({ where: path.relative(ROOT, file), value });
  }
  return out;
}

/** The hints a read of `samples` writes that `format` does not declare. */
function undeclared(
  format: ConversationFormat,
  samples: readonly { where: string; value: JsonValue }[],
): string[] {
  const declared = new Set(format.hints);
  const out: string[] = [];
  for (const s of samples) {
    for (const [key, where] of hintsOfRead(format, s.value))
      if (!declared.has(key)) out.push(`${key} (${s.where}, ${where})`);
  }
  return out;
}

describe.each(FORMATS.map((f) => [f.name, f] as const))('%s', (_name, format) => {
  it('declares its hints', () => {
    expect(Array.isArray(format.hints), 'the registry entry lists the hints of hints.ts').toBe(
      true,
    );
  });

  it('writes no hint it does not declare, on its fixtures', () => {
    const list = samples(format);
    expect(list.length).toBeGreaterThan(0);
    expect(undeclared(format, list)).toEqual([]);
  });
});

describeShared('hints on the shared corpus', 'corpus', () => {
  const all = corpusConversations();
  it.each(FORMATS.map((f) => [f.name, f] as const))(
    '%s writes no hint it does not declare',
    (_name, format) => {
      const list = all.filter((c) => c.format.name === format.name);
      expect(undeclared(format, list)).toEqual([]);
    },
  );
});
