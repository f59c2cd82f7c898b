/**
 * The copilot-cli adapter (read only): its own fixture cases; a JSONL session told by its first
 * line and linted with findings at their lines (a dangling call at its tool request); what it
 * does not claim; the public session of the corpus read and linted (its executions no assistant
 * message requested are orphan results), and detection that claims nothing of the other corpus
 * folders (and the other formats nothing of it). The contract cases run in contract.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotCliFormat, type CopilotCliContext } from '../../src/formats/copilot-cli/index.js';
import { eventLogOfFirst } from '../../src/formats/detect.js';
import { lintConversation } from '../../src/lint/api.js';
import { ReadOnlyFormatError } from '../../src/model/errors.js';
import { parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../src/model/json.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { corpusDocuments, describeCorpusClaims, describeFixtureCases } from '../helpers/formats.js';
import { CORPUS, describeShared } from '../helpers/shared.js';

describeFixtureCases(copilotCliFormat);

/** The events of a fixture case of the format. */
function fixture(name: string): JsonObject[] {
  const file = path.join(ROOT, 'fixtures', 'formats', 'copilot-cli', name, 'source.json');
  return parseJson(readFileSync(file, 'utf8')) as JsonObject[];
}

/** The tools case without the completion of its second call: the CLI was stopped while it ran. */
function interrupted(): JsonObject[] {
  return fixture('tools').filter(
    (e) =>
      !(
        e.type === 'tool.execution_complete' && (e.data as JsonObject).toolCallId === 'toolu_view01'
      ),
  );
}

/** Events as the text of a session JSONL file. */
const jsonl = (events: readonly JsonValue[]): string =>
  events.map((e) => stringifyJson(e, 0) + '\n').join('');

/** Lints a session file (its events as JSONL) with the CLI; the JSON report's findings. */
async function lintSession(events: readonly JsonValue[]): Promise<JsonObject[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'histlint-copilot-'));
  try {
    writeFileSync(path.join(dir, 'session.jsonl'), jsonl(events));
    const r = await runCli(['lint', '-f', 'json', 'session.jsonl'], { cwd: dir });
    const files = (parseJson(r.stdout) as JsonObject).files as JsonObject[];
    expect(files[0]!.target).toBeNull();
    return files[0]!.findings as JsonObject[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The 0-based line a finding's pointer names (`/N/...`). */
const lineOf = (pointer: unknown): number => Number((pointer as string).split('/')[1]);

describe('copilot-cli', () => {
  it('is read only, with no target of its own', () => {
    expect(copilotCliFormat.readOnly).toBe(true);
    expect(copilotCliFormat.target).toBeUndefined();
    expect(copilotCliFormat.document).toBe('event-log');
    const read = copilotCliFormat.read(fixture('text'));
    expect(() => copilotCliFormat.write(read.conversation)).toThrow(ReadOnlyFormatError);
  });

  it('tells a session file by its first line', () => {
    for (const name of ['text', 'tools', 'media', 'kept', 'subagent']) {
      const first = fixture(name)[0]!;
      expect(copilotCliFormat.detect([first]), name).toBe(true);
      expect(eventLogOfFirst(first)?.name, name).toBe('copilot-cli');
    }
  });

  it('reports a call with no completed execution as dangling, at its tool request', async () => {
    const events = interrupted();
    const findings = await lintSession(events);
    expect(findings.map((f) => f.ruleId)).toEqual(['dangling-tool-call']);
    const dangling = findings[0]!;
    const n = lineOf(dangling.pointer);
    expect((events[n]!.data as JsonObject).messageId).toBe('msg-tools-1');
    expect(dangling.pointer).toMatch(/^\/\d+\/data\/toolRequests\/1(\/|$)/);
    expect(dangling.line).toBe(n + 1);
  });

  it('places every message at the line of its event', () => {
    const events = fixture('tools');
    const read = copilotCliFormat.read(events);
    const types = read.conversation.messages.map((_, i) => events[lineOf(read.locate(i))]!.type);
    expect(types).toEqual([
      'system.message',
      'user.message',
      'assistant.message',
      'tool.execution_complete',
      'assistant.message',
    ]);
    // Each result of a run is at its own completion's line.
    expect([read.locate(3, 0), read.locate(3, 1)]).toEqual(['/8/data', '/9/data']);
    const skipped = (read.context as CopilotCliContext).skippedEvents;
    expect(skipped.map((n) => events[n]!.type)).toEqual([
      'session.start',
      'session.model_change',
      'assistant.turn_start',
      'tool.execution_start',
      'tool.execution_start',
      'assistant.turn_end',
      'assistant.turn_start',
      'assistant.turn_end',
    ]);
  });

  it('reads a custom tool’s raw-text input as {"input": ...}: no truncated-arguments warning', () => {
    const read = copilotCliFormat.read(fixture('failed-execution'));
    const calls = read.conversation.messages.flatMap((m) =>
      m.parts.filter((p) => p.type === 'tool-call'),
    );
    const patch = calls.find((c) => c.name === 'apply_patch')!;
    expect(JSON.parse(patch.arguments as string)).toEqual({
      input: '*** Begin Patch\n*** Update File: a.txt\n-old\n+new\n*** End Patch',
    });
    const findings = lintConversation(jsonl(fixture('failed-execution')), {
      from: 'copilot-cli',
    });
    expect(findings.map((f) => f.ruleId)).not.toContain('truncated-arguments');
  });

  it('does not claim other shapes, and reads none of them', () => {
    expect(copilotCliFormat.detect([])).toBe(false);
    expect(copilotCliFormat.detect(fixture('text')[0]!)).toBe(false);
    const first = fixture('text')[0]!;
    // An envelope without its id, a type that is not dotted, a role beside the event: not events.
    const { id: _, ...noId } = first;
    expect(copilotCliFormat.detect([noId])).toBe(false);
    expect(copilotCliFormat.detect([{ ...first, type: 'user' }])).toBe(false);
    expect(copilotCliFormat.detect([{ ...first, parentId: 3 }])).toBe(false);
    expect(copilotCliFormat.detect([{ role: 'user', content: 'hi' }])).toBe(false);
    expect(() => copilotCliFormat.read({ messages: [] })).toThrow(/not copilot-cli/);
    expect(() => copilotCliFormat.read([{ role: 'user' }])).toThrow(/not copilot-cli/);
  });
});

describeShared('copilot-cli on the corpus', 'corpus/copilot-cli', () => {
  const files = readdirSync(path.join(CORPUS, 'copilot-cli')).sort();

  it.each(files)(
    '%s: told by its first line, read, orphan results linted at their lines',
    (file) => {
      const events = corpusDocuments('copilot-cli').find(([w]) => w === `copilot-cli/${file}`)![1];
      const list = events as JsonObject[];
      expect(eventLogOfFirst(list[0]!)?.name).toBe('copilot-cli');
      const read = copilotCliFormat.read(events);
      expect(read.conversation.messages.length).toBeGreaterThan(0);
      const findings = lintConversation(stringifyJson(events, 0), { from: 'copilot-cli' });
      expect(findings.filter((f) => f.ruleId === 'not-a-conversation')).toEqual([]);
      // Executions no assistant message requested (the tool calls of `tool.execution_start` alone).
      const requested = new Set(
        list.flatMap((e) =>
          e.type === 'assistant.message'
            ? (((e.data as JsonObject).toolRequests ?? []) as JsonObject[]).map((t) => t.toolCallId)
            : [],
        ),
      );
      const unrequested = list.flatMap((e, n) =>
        e.type === 'tool.execution_complete' && !requested.has((e.data as JsonObject).toolCallId)
          ? [n]
          : [],
      );
      const orphans = findings.filter((f) => f.ruleId === 'orphan-tool-result');
      expect(orphans.map((f) => lineOf(f.pointer))).toEqual(unrequested);
    },
  );
});

describeCorpusClaims(copilotCliFormat, 'copilot-cli');
