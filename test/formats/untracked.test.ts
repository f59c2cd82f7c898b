/**
 * Lint reads each conversation untracked first (no source map, no provenance: see ReadOptions in
 * src/formats/format.ts) and reads it again, tracked, only when a finding needs a pointer. That
 * is sound only if both reads give the same conversation: checked here for every format on every
 * fixture it reads and, when ../shared is there, on every corpus conversation.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/formats/index.js';
import type { ConversationFormat } from '../../src/formats/format.js';
import { jsonEqual, parseJson, type JsonValue } from '../../src/model/json.js';
import { SourceError } from '../../src/model/errors.js';
import { ROOT } from '../helpers/cli.js';
import { corpusConversations } from '../helpers/corpus.js';
import { jsonFilesBelow } from '../helpers/formats.js';
import { describeShared } from '../helpers/shared.js';

/** Where the untracked read of a value differs from the tracked one ('' when they agree). */
function difference(format: ConversationFormat, value: JsonValue): string {
  let tracked;
  try {
    tracked = format.read(value);
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    // Not this format: the untracked read must refuse it too.
    try {
      format.read(value, { untracked: true });
    } catch (again) {
      if (again instanceof SourceError) return '';
    }
    return 'the untracked read accepts what the tracked one refuses';
  }
  const untracked = format.read(value, { untracked: true });
  return jsonEqual(
    tracked.conversation as unknown as JsonValue,
    untracked.conversation as unknown as JsonValue,
  )
    ? ''
    : 'the conversations differ';
}

describe.each(FORMATS.map((f) => [f.name, f] as const))('%s', (_name, format) => {
  it('reads every fixture untracked as it reads it tracked', () => {
    const files = FORMATS.flatMap((f) =>
      jsonFilesBelow(path.join(ROOT, 'fixtures', 'formats', f.name)),
    );
    expect(files.length).toBeGreaterThan(0);
    const wrong: string[] = [];
    let read = 0;
    for (const file of files) {
      const value = parseJson(readFileSync(file, 'utf8'));
      const d = difference(format, value);
      if (d !== '') wrong.push(`${path.relative(ROOT, file)}: ${d}`);
      if (format.detect(value)) read++;
    }
    expect(wrong).toEqual([]);
    expect(read, 'some fixture is this format').toBeGreaterThan(0);
  });
});

describeShared('untracked reads of the shared corpus', 'corpus', () => {
  it('read every corpus conversation as the tracked reads do', () => {
    const wrong: string[] = [];
    for (const c of corpusConversations()) {
      const d = difference(c.format, c.value);
      if (d !== '') wrong.push(`${c.where} (${c.format.name}): ${d}`);
    }
    expect(wrong).toEqual([]);
  });

  it('finds, for the untracked read, no source map left to consult', () => {
    // The reason the engine reads again: an untracked read's locate names only the list.
    const c = corpusConversations().find((x) => x.format.name === 'anthropic')!;
    const read = c.format.read(c.value, { untracked: true });
    expect(read.locate(0, 0)).toBe(read.locate());
  });
});
