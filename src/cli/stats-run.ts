/**
 * `histlint stats`: messages, tool calls, results and tokens per file and in
 * total (tokens by the README's counting rule).
 */
import { loadTokenCounter, messageTokens, type TokenizerName } from '../core/tokens.js';
import { mapConversations } from '../formats/conversations.js';
import { kindFromName, readDocument } from '../model/document.js';
import { SourceError } from '../model/errors.js';
import { parsePointer } from '../model/pointer.js';
import { EXIT_OK, EXIT_USAGE, UsageError } from './exit-codes.js';
import { expandInputs, print, readInput, type Io } from './io.js';
import { oneLine } from './options.js';

/** The flags of `histlint stats`. */
export interface StatsFlags {
  from?: string;
  pointer?: string;
  stdinFilename?: string;
  format?: 'text' | 'json';
  tokenizer?: TokenizerName;
}

/** Counts of one file (or the total). */
export interface FileStats {
  file: string;
  conversations: number;
  messages: number;
  toolCalls: number;
  toolResults: number;
  tokens: number;
}

/** Runs `histlint stats`; returns the exit code. */
export async function runStats(
  patterns: readonly string[],
  flags: StatsFlags,
  io: Io,
): Promise<number> {
  if (patterns.length === 0)
    throw new UsageError('stats needs file patterns (or "-" for standard input)');
  let pointer: string[];
  try {
    pointer = parsePointer(flags.pointer ?? '');
  } catch (e) {
    throw new UsageError(`--pointer: ${oneLine(e)}`);
  }
  const inputs = await expandInputs(
    patterns,
    io,
    flags.stdinFilename === undefined ? {} : { stdinName: flags.stdinFilename },
  );
  const count = await loadTokenCounter(flags.tokenizer ?? 'o200k_base');
  const rows: FileStats[] = [];
  let exit = EXIT_OK;
  for (const input of inputs) {
    const row: FileStats = {
      file: input.display,
      conversations: 0,
      messages: 0,
      toolCalls: 0,
      toolResults: 0,
      tokens: 0,
    };
    try {
      const doc = readDocument(
        await readInput(input, io),
        kindFromName(input.absolute ?? flags.stdinFilename ?? ''),
      );
      const { units } = mapConversations(
        doc,
        { pointer, writing: false, ...(flags.from === undefined ? {} : { from: flags.from }) },
        (messages) => {
          row.conversations++;
          row.messages += messages.length;
          for (const m of messages) {
            row.tokens += messageTokens(m, count);
            for (const p of m.parts) {
              if (p.type === 'tool-call') row.toolCalls++;
              else if (p.type === 'tool-result') row.toolResults++;
            }
          }
          return { messages, changed: false };
        },
      );
      let failed = 0;
      for (const u of units) {
        if (u.error === undefined) continue;
        failed++;
        const e = u.error as SourceError;
        const line = u.line ?? e.line;
        print(
          io.stderr,
          `${input.display}${line !== undefined ? `:${line}` : ''}: error: ${oneLine(e)}\n`,
        );
        exit = EXIT_USAGE;
      }
      if (failed > 0 && failed === units.length) continue;
    } catch (e) {
      if (!(e instanceof SourceError)) throw e;
      print(io.stderr, `${input.display}: error: ${e.message}\n`);
      exit = EXIT_USAGE;
      continue;
    }
    rows.push(row);
  }
  const total: FileStats = {
    file: 'total',
    conversations: 0,
    messages: 0,
    toolCalls: 0,
    toolResults: 0,
    tokens: 0,
  };
  for (const r of rows) {
    total.conversations += r.conversations;
    total.messages += r.messages;
    total.toolCalls += r.toolCalls;
    total.toolResults += r.toolResults;
    total.tokens += r.tokens;
  }
  if (flags.format === 'json') {
    print(
      io.stdout,
      JSON.stringify({ files: rows, total, tokenizer: flags.tokenizer ?? 'o200k_base' }, null, 2) +
        '\n',
    );
    return exit;
  }
  const header = ['file', 'conversations', 'messages', 'tool calls', 'results', 'tokens'];
  const body = [...rows, total].map((r) => [
    r.file,
    ...[r.conversations, r.messages, r.toolCalls, r.toolResults, r.tokens].map(String),
  ]);
  const widths = header.map((h, k) => Math.max(h.length, ...body.map((b) => b[k]!.length)));
  const fmt = (cells: string[]): string =>
    cells
      .map((cell, k) => (k === 0 ? cell.padEnd(widths[k]!) : cell.padStart(widths[k]!)))
      .join('  ');
  const lines = [
    fmt(header),
    ...body.slice(0, -1).map(fmt),
    '-'.repeat(widths.reduce((a, b) => a + b + 2, -2)),
    fmt(body[body.length - 1]!),
  ];
  print(io.stdout, lines.join('\n') + '\n');
  return exit;
}
