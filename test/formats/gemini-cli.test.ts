/**
 * The gemini-cli adapter (a session format): an interrupted call repaired in place in both forms
 * (the JSON file and the JSONL lines): its result recorded on the call as a cancelled one, every
 * other message the value read; the repaired recording passes the gemini target and repairs no
 * further; the corpus recordings read, lint and write back unchanged; detection claims nothing of
 * the other corpus folders. The contract cases run in contract.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeHistory } from '../../src/core/normalize.js';
import { geminiCliFormat } from '../../src/formats/gemini-cli/index.js';
import { withMessages } from '../../src/formats/histlint/index.js';
import { lintConversation } from '../../src/lint/api.js';
import { SourceError } from '../../src/model/errors.js';
import { jsonEqual, parseJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { corpusDocuments, expectOwnCorpus } from '../helpers/corpus.js';
import { CORPUS, describeShared } from '../helpers/shared.js';

/** The tools case with its first call's result gone (the CLI was stopped while it ran). */
function interrupted(): JsonObject {
  const file = path.join(ROOT, 'fixtures', 'formats', 'gemini-cli', 'tools', 'source.json');
  const value = parseJson(readFileSync(file, 'utf8')) as JsonObject;
  const messages = value.messages as JsonObject[];
  const calls = messages[1]!.toolCalls as JsonObject[];
  const { result: _, ...call } = calls[0]!;
  messages[1] = { ...messages[1]!, toolCalls: [{ ...call, status: 'executing' }, calls[1]!] };
  return value;
}

/** Reads, repairs for Gemini, writes back. */
function repair(value: JsonValue): { value: JsonValue; changed: boolean } {
  const read = geminiCliFormat.read(value);
  const fixed = normalizeHistory(read.conversation.messages, {
    target: { target: 'gemini', native: false },
  });
  const written = geminiCliFormat.write(
    withMessages(read.conversation, fixed.messages),
    read.context,
  );
  expect(written.losses).toEqual([]);
  return { value: written.value, changed: fixed.changed };
}

const errors = (value: JsonValue): string[] =>
  lintConversation(JSON.stringify(value), { from: 'gemini-cli' })
    .filter((f) => f.severity === 'error')
    .map((f) => f.ruleId);

describe('gemini-cli repair', () => {
  it('records the synthesized result on the interrupted call; every other message is the one read', () => {
    const value = interrupted();
    expect(errors(value)).toContain('dangling-tool-call');
    const { value: out, changed } = repair(value);
    expect(changed).toBe(true);
    const before = value.messages as JsonObject[];
    const after = (out as JsonObject).messages as JsonObject[];
    after.forEach((m, i) => {
      if (i !== 1) expect(m).toBe(before[i]);
    });
    const call = (after[1]!.toolCalls as JsonObject[])[0]!;
    expect(call.status).toBe('cancelled');
    expect(call.result).toEqual([
      {
        functionResponse: {
          id: 'c1',
          name: 'read_file',
          response: { error: 'interrupted before execution; no result was produced' },
        },
      },
    ]);
    expect((after[1]!.toolCalls as JsonObject[])[1]).toBe(
      (before[1]!.toolCalls as JsonObject[])[1],
    );
    expect(errors(out)).toEqual([]);
    expect(repair(out).changed).toBe(false);
  });

  it('repairs the JSONL form on the line of the version read', () => {
    const file = path.join(ROOT, 'fixtures', 'formats', 'gemini-cli', 'bare', 'source.json');
    const lines = parseJson(readFileSync(file, 'utf8')) as JsonObject[];
    const last = lines[5]!;
    const calls = last.toolCalls as JsonObject[];
    const { result: _, ...call } = calls[0]!;
    lines[5] = { ...last, toolCalls: [call] };
    const { value: out } = repair(lines);
    const written = out as JsonValue[];
    written.forEach((l, i) => {
      if (i !== 5) expect(l).toBe(lines[i]);
    });
    expect(((written[5] as JsonObject).toolCalls as JsonObject[])[0]!.status).toBe('cancelled');
    expect(errors(written)).toEqual([]);
  });

  it('refuses what a recording cannot hold, and a write without the read', () => {
    const read = geminiCliFormat.read(interrupted());
    expect(() => geminiCliFormat.write(read.conversation)).toThrow(/written only back/);
    const messages = read.conversation.messages.slice(1);
    expect(() =>
      geminiCliFormat.write(withMessages(read.conversation, messages), read.context),
    ).toThrow(SourceError);
  });

  it('normalize --write repairs the file in place: only the interrupted call changes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'histlint-gemini-cli-'));
    try {
      const text = JSON.stringify(interrupted(), null, 2) + '\n';
      writeFileSync(path.join(dir, 'session.json'), text);
      const r = await runCli(['normalize', '--write', 'session.json'], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      const after = readFileSync(path.join(dir, 'session.json'), 'utf8');
      const removed = text.split('\n').filter((l) => !after.split('\n').includes(l));
      expect(removed).toEqual(['          "status": "executing",']);
      expect((await runCli(['normalize', '--check', 'session.json'], { cwd: dir })).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeShared('gemini-cli on the corpus', 'corpus/gemini-cli', () => {
  it('reads both recordings, lints them clean against gemini, and writes them back unchanged', () => {
    for (const file of readdirSync(path.join(CORPUS, 'gemini-cli'))) {
      const value = corpusDocuments('gemini-cli').find(([w]) => w === `gemini-cli/${file}`)![1];
      expect(geminiCliFormat.detect(value), file).toBe(true);
      const read = geminiCliFormat.read(value);
      expect(read.conversation.messages.length, file).toBeGreaterThan(2);
      expect(errors(value), file).toEqual([]);
      const written = geminiCliFormat.write(read.conversation, read.context).value;
      expect(jsonEqual(written, value), file).toBe(true);
    }
  });

  it('claims nothing of the other corpus folders, and no other format claims it', () => {
    expectOwnCorpus(geminiCliFormat, 'gemini-cli');
  });
});
