/**
 * Small native (version 1) conversations for the lint CLI suites, and a
 * throw-away folder tree to run them in.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A clean conversation: no findings with the default rules. */
export const CLEAN = JSON.stringify(
  {
    version: 1,
    messages: [
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'hello' }] },
    ],
  },
  null,
  2,
);

/** One error: a dangling tool call (message 1, part 0). */
export const DANGLING = JSON.stringify(
  {
    version: 1,
    messages: [
      { role: 'user', parts: [{ type: 'text', text: 'find it' }] },
      {
        role: 'assistant',
        parts: [{ type: 'tool-call', id: 'c1', name: 'search', arguments: '{}' }],
      },
    ],
  },
  null,
  2,
);

/** A Claude Code session (JSONL) whose one tool call has no result. */
export const DANGLING_SESSION =
  [
    {
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      sessionId: 's',
      message: { role: 'user', content: 'go' },
    },
    {
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      sessionId: 's',
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }],
      },
    },
  ]
    .map((e) => JSON.stringify(e))
    .join('\n') + '\n';

/** One warning: an empty user message (message 0). */
export const EMPTY_PARTS = JSON.stringify(
  {
    version: 1,
    messages: [
      { role: 'user', parts: [] },
      { role: 'assistant', parts: [{ type: 'text', text: 'ok' }] },
    ],
  },
  null,
  2,
);

/** One error and one warning in the same file. */
export const ERROR_AND_WARNING = JSON.stringify(
  {
    version: 1,
    messages: [
      { role: 'user', parts: [] },
      {
        role: 'assistant',
        parts: [{ type: 'tool-call', id: 'c1', name: 'search', arguments: '{}' }],
      },
    ],
  },
  null,
  2,
);

/** The same conversations on one line each (for JSONL). */
export function oneLine(json: string): string {
  return JSON.stringify(JSON.parse(json));
}

const roots: string[] = [];

/** Writes a tree of files under a fresh temp folder (its real path) and returns that folder. */
export function makeTree(files: Record<string, string | Uint8Array>): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'histlint-lint-')));
  roots.push(root);
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return root;
}

/** Removes every tree {@link makeTree} made (call from `afterAll`). */
export function removeTrees(): void {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

/** Positions the engine reports, as SPEC §5.3 shapes them. */
export interface JsonReport {
  files: {
    file: string;
    findings: {
      ruleId: string;
      severity: 'error' | 'warn';
      message: string;
      messageIndex?: number;
      partIndex?: number;
      pointer: string;
      line: number;
      column: number;
    }[];
    error?: { message: string; line?: number; column?: number };
  }[];
  errorCount: number;
  warningCount: number;
}

/** Parses a `--format json` report, failing with the text when it is not JSON. */
export function parseReport(text: string): JsonReport {
  try {
    return JSON.parse(text) as JsonReport;
  } catch {
    throw new Error(`not a JSON report:\n${text}`);
  }
}

/** The 1-based line and UTF-16 column of the first occurrence of `needle` in `text`. */
export function positionOf(
  text: string,
  needle: string,
  from = 0,
): { line: number; column: number } {
  const offset = text.indexOf(needle, from);
  if (offset === -1) throw new Error(`${JSON.stringify(needle)} not in the text`);
  return positionAt(text, offset);
}

/** The 1-based line and UTF-16 column of an offset in `text`. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { line, column };
}

/** An AutoGen message list (a read-only format) whose call has no result. */
export const DANGLING_AUTOGEN =
  JSON.stringify(
    [
      { content: 'go', source: 'user', type: 'UserMessage' },
      {
        content: [{ id: 't1', arguments: '{}', name: 'Bash' }],
        thought: null,
        source: 'agent',
        type: 'AssistantMessage',
      },
    ],
    null,
    2,
  ) + '\n';
