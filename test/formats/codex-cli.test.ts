/**
 * The Codex CLI rollout reader and writer: the corpus rollout reads, locates and writes back
 * unchanged; an interrupted rollout is repaired in place (normalize, then write): the new output
 * line after its call, every other line the very object read, twice the same.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexCliFormat, type CodexCliContext } from '../../src/formats/codex-cli/index.js';
import { SourceError } from '../../src/model/errors.js';
import { lintConversation, normalizeHistory, type Conversation } from '../../src/index.js';
import { parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { CORPUS, describeShared } from '../helpers/shared.js';
import { describeCorpusClaims } from '../helpers/formats.js';

const ROLLOUTS = path.join(CORPUS, 'codex-rollout');

function jsonl(file: string): JsonValue[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parseJson(line));
}

/** A tools rollout interrupted after its first call (the output never written), then resumed by a prompt. */
function interrupted(): JsonValue[] {
  const file = path.join(ROOT, 'fixtures', 'formats', 'codex-cli', 'tools', 'source.json');
  const lines = parseJson(readFileSync(file, 'utf8')) as JsonValue[];
  const prompt = { ...(lines[1] as JsonObject), timestamp: '2025-11-04T09:12:00.000Z' };
  return [...lines.slice(0, 7), prompt];
}

/** Normalize the rollout, then write it back. */
function repair(lines: JsonValue[]): JsonValue[] {
  const read = codexCliFormat.read(lines);
  const once = normalizeHistory(read.conversation);
  return codexCliFormat.write(once.envelope as Conversation, read.context).value as JsonValue[];
}

describe('codex-cli lint', () => {
  it('places a finding at the rollout line of its item, not the file start', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'histlint-codex-'));
    try {
      const text = interrupted()
        .map((l) => stringifyJson(l, 0) + '\n')
        .join('');
      writeFileSync(path.join(dir, 'rollout.jsonl'), text);
      const r = await runCli(['lint', '-f', 'json', 'rollout.jsonl'], { cwd: dir });
      const file = (parseJson(r.stdout) as JsonObject).files as JsonObject[];
      const findings = file[0]!.findings as JsonObject[];
      const dangling = findings.find((f) => f.ruleId === 'dangling-tool-call')!;
      expect(dangling.pointer).toMatch(/^\/\d+\/payload/);
      const line = Number((dangling.pointer as string).split('/')[1]) + 1;
      expect(dangling.line).toBe(line);
      expect(line).toBeGreaterThan(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('codex-cli repair', () => {
  it('inserts the synthesized output right after its call, every other line kept', () => {
    const lines = interrupted();
    const out = repair(lines);
    expect(out.length).toBe(lines.length + 1);
    out.slice(0, 7).forEach((e, i) => expect(e).toBe(lines[i]));
    out.slice(8).forEach((e, i) => expect(e).toBe(lines[i + 7]));
    const added = out[7] as JsonObject;
    expect(added.type).toBe('response_item');
    expect(added.timestamp).toBe((lines[6] as JsonObject).timestamp);
    const payload = added.payload as JsonObject;
    expect(payload.type).toBe('function_call_output');
    expect(payload.call_id).toBe('call_tests01');
  });

  it('gives a rollout that passes the openai-responses rules, and repairs it no further', () => {
    const out = repair(interrupted());
    const ids = lintConversation(stringifyJson(out, 0), { target: 'openai-responses' }).map(
      (f) => f.ruleId,
    );
    expect(ids).toEqual([]);
    const again = repair(out);
    again.forEach((e, i) => expect(e).toBe(out[i]));
    expect(again.length).toBe(out.length);
  });

  it('repairs an interrupted apply_patch (custom_tool_call) with a custom_tool_call_output', () => {
    const file = path.join(ROOT, 'fixtures', 'formats', 'codex-cli', 'tools', 'source.json');
    const all = parseJson(readFileSync(file, 'utf8')) as JsonObject[];
    const at = all.findIndex((l) => (l.payload as JsonObject).type === 'custom_tool_call_output');
    const lines: JsonValue[] = [...all.slice(0, at), ...all.slice(at + 1)];
    const before = lintConversation(stringifyJson(lines, 0)).map((f) => f.ruleId);
    expect(before).toContain('dangling-tool-call');
    const out = repair(lines);
    expect(out.length).toBe(lines.length + 1);
    // The call and the agent's message after it are one assistant turn: the output follows it.
    const added = out.findIndex((l) => !lines.includes(l));
    expect(added).toBe(lines.length);
    const payload = (out[added] as JsonObject).payload as JsonObject;
    expect(payload.type).toBe('custom_tool_call_output');
    expect(payload.call_id).toBe('call_patch01');
    expect(typeof payload.output).toBe('string');
    out.slice(0, added).forEach((e, i) => expect(e).toBe(lines[i]));
    expect(lintConversation(stringifyJson(out, 0)).map((f) => f.ruleId)).toEqual([]);
  });

  it('keeps the lines read in its context, and writes only back to them', () => {
    const lines = interrupted();
    const read = codexCliFormat.read(lines);
    expect((read.context as CodexCliContext).events).toBe(lines);
    expect(() => codexCliFormat.write(read.conversation)).toThrow(SourceError);
  });
});

describeShared('codex-cli corpus', 'corpus/codex-rollout', () => {
  const files = readdirSync(ROLLOUTS).sort();
  for (const file of files) {
    it(`${file}: detected by its first line, read, linted clean, written back unchanged`, () => {
      const lines = jsonl(path.join(ROLLOUTS, file));
      expect(codexCliFormat.detect([lines[0]!])).toBe(true);
      const read = codexCliFormat.read(lines);
      expect(read.conversation.messages.length).toBeGreaterThan(0);
      expect(read.locate(1)).toMatch(/^\/\d+\/payload$/);
      const ids = lintConversation(stringifyJson(lines, 0)).map((f) => f.ruleId);
      expect(ids.filter((id) => id.startsWith('openai-responses/'))).toEqual([]);
      const out = repair(lines);
      expect(out.length).toBe(lines.length);
      out.forEach((e, i) => expect(e).toBe(lines[i]));
    });
  }
});

describeCorpusClaims(codexCliFormat, 'codex-rollout');
