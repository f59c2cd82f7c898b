/**
 * The conversations of the shared corpus (../shared/corpus, SOURCES.md), as
 * the suites that check histlint against real histories read them: the
 * recorded provider requests (pydantic-ai, one per line, with the provider's
 * verdict), the tau-bench GPT-4o trajectories (accepted turn by turn), and
 * the Claude Code sessions (one conversation per file).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { detectFormat } from '../../src/formats/detect.js';
import type { ConversationFormat } from '../../src/formats/format.js';
import { FORMATS } from '../../src/formats/index.js';
import { SourceError } from '../../src/model/errors.js';
import { parseJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import { CORPUS } from './shared.js';

/** One conversation of the corpus. */
export interface CorpusConversation {
  /** `folder/file:line` (or `folder/file` for a whole file). */
  where: string;
  /** The conversation value, as a provider received it or as stored. */
  value: JsonValue;
  /** The format it reads as. */
  format: ConversationFormat;
  /** True when the provider accepted it (the recorded verdict; every turn of a trajectory or session). */
  accepted: boolean;
}

function read(file: string): string {
  return readFileSync(file, 'utf8');
}

function lines(file: string): { text: string; line: number }[] {
  return read(file)
    .split('\n')
    .map((text, k) => ({ text, line: k + 1 }))
    .filter((l) => l.text.trim() !== '');
}

function entry(where: string, value: JsonValue, accepted: boolean): CorpusConversation[] {
  try {
    return [{ where, value, format: detectFormat(value, undefined), accepted }];
  } catch (e) {
    if (e instanceof SourceError) return [];
    throw e;
  }
}

/**
 * Every conversation of the corpus that histlint reads. Claude Code sessions
 * the SOURCES call broken on purpose (`claude-code-log__edge_cases`) or
 * unsigned (`claude-code-transcripts__sample_session.json`) are not marked
 * accepted.
 */
export function corpusConversations(): CorpusConversation[] {
  const out: CorpusConversation[] = [];
  if (!existsSync(CORPUS)) return out;
  for (const folder of readdirSync(CORPUS).sort()) {
    const dir = path.join(CORPUS, folder);
    if (!statSync(dir).isDirectory()) continue;
    for (const file of readdirSync(dir).sort()) {
      const full = path.join(dir, file);
      const where = `${folder}/${file}`;
      if (file.startsWith('pydantic-ai__') && file.endsWith('.jsonl')) {
        for (const l of lines(full)) {
          const record = parseJson(l.text) as JsonObject;
          out.push(
            ...entry(`${where}:${l.line}`, record.request!, record.provider_accepted === true),
          );
        }
      } else if (file.startsWith('tau-bench__')) {
        for (const l of lines(full)) {
          const record = parseJson(l.text) as JsonObject;
          out.push(...entry(`${where}:${l.line}`, record.messages!, true));
        }
      } else if (folder === 'claude-code-jsonl') {
        const value: JsonValue = file.endsWith('.jsonl')
          ? lines(full).map((l) => parseJson(l.text))
          : parseJson(read(full));
        const broken = file.includes('edge_cases') || file.endsWith('sample_session.json');
        out.push(...entry(where, value, !broken));
      }
    }
  }
  return out;
}

/**
 * Every JSON document of a corpus folder as detection meets one, named `folder/file` (a line:
 * `folder/file:N`): each `.json` file, each `.jsonl` file's lines as one array (what an event
 * log is read as) and each of its lines alone (what a file of one conversation a line is).
 */
export function corpusDocuments(folder: string): [string, JsonValue][] {
  const dir = path.join(CORPUS, folder);
  return readdirSync(dir)
    .sort()
    .flatMap((file): [string, JsonValue][] => {
      const where = `${folder}/${file}`;
      if (file.endsWith('.json')) return [[where, parseJson(read(path.join(dir, file)))]];
      if (!file.endsWith('.jsonl')) return [];
      const values = lines(path.join(dir, file)).map((l): [string, JsonValue] => [
        `${where}:${l.line}`,
        parseJson(l.text),
      ]);
      return [[where, values.map(([, v]) => v)], ...values];
    });
}

/**
 * Detection keeps to its own corpus folder both ways: `format` claims no document of the other
 * folders, and no other format claims a document of `own`.
 */
export function expectOwnCorpus(format: ConversationFormat, own: string): void {
  const others = readdirSync(CORPUS).filter(
    (f) => f !== own && statSync(path.join(CORPUS, f)).isDirectory(),
  );
  for (const folder of others)
    for (const [where, value] of corpusDocuments(folder))
      expect(format.detect(value), `${format.name} claims ${where}`).toBe(false);
  for (const [where, value] of corpusDocuments(own))
    for (const f of FORMATS.filter((x) => x !== format))
      expect(f.detect(value), `${f.name} claims ${where}`).toBe(false);
}
