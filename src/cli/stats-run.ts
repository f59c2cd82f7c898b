/**
 * `histlint stats`: per file and in total, messages by role, tool calls,
 * results, dangling calls and orphan results, tokens (by the README's
 * counting rule) and bytes.
 */
import { analyzePairing } from '../core/pairing.js';
import { loadTokenCounter, messageTokens, type TokenizerName } from '../core/tokens.js';
import {
  ConversationStream,
  mapConversations,
  type ConversationChange,
  type MapOptions,
  type UnitResult,
} from '../formats/conversations.js';
import {
  JsonlReader,
  kindFromName,
  readDocument,
  type SourceDocument,
} from '../formats/kit/document.js';
import { SourceError } from '../model/errors.js';
import type { Message } from '../model/types.js';
import path from 'node:path';
import { cliConfigs, readSettings, readSettingsFor } from './config.js';
import { EXIT_OK, EXIT_USAGE, UsageError } from './exit-codes.js';
import {
  expandInputs,
  openInputStream,
  print,
  printAll,
  readJsonlOrWhole,
  type ChunkSource,
  type Io,
} from './io.js';
import { Spool } from './safe-write.js';
import { oneLine, pointerTokens } from './options.js';
import { displayWidth, terminalSafe } from './terminal-text.js';

/** The flags of `histlint stats`. */
export interface StatsFlags {
  /** `--no-gitignore` makes it false: folder walks read what .gitignore ignores. */
  gitignore?: boolean;
  from?: string;
  pointer?: string;
  /** `--config`: where `from` and `pointer` default from. */
  config?: string;
  stdinFilename?: string;
  format?: 'text' | 'json';
  tokenizer?: TokenizerName;
  ignore?: string[];
  errorOnUnmatchedPattern?: boolean;
}

/** Messages by role; `other` counts roles outside the v1 four (lint reports them). */
export interface RoleCounts {
  user: number;
  assistant: number;
  tool: number;
  system: number;
  other: number;
}

/** Counts of one file (or the total). */
export interface FileStats {
  file: string;
  conversations: number;
  messages: number;
  roles: RoleCounts;
  toolCalls: number;
  toolResults: number;
  /** Calls with an id and no result after them (what normalize would answer). */
  dangling: number;
  /** Results whose call is absent. */
  orphans: number;
  tokens: number;
  /** Size of the input in bytes. */
  bytes: number;
  /** JSONL lines that could not be read (the counts are of the other lines); absent when none. */
  unreadLines?: number[];
}

/** A file stats could not read, as `--format json` lists it. */
export interface FailedStats {
  file: string;
  error: { message: string; line?: number; column?: number };
}

function emptyStats(file: string): FileStats {
  return {
    file,
    conversations: 0,
    messages: 0,
    roles: { user: 0, assistant: 0, tool: 0, system: 0, other: 0 },
    toolCalls: 0,
    toolResults: 0,
    dangling: 0,
    orphans: 0,
    tokens: 0,
    bytes: 0,
  };
}

function addInto(total: FileStats, row: FileStats): void {
  total.conversations += row.conversations;
  total.messages += row.messages;
  for (const k of Object.keys(total.roles) as (keyof RoleCounts)[]) total.roles[k] += row.roles[k];
  total.toolCalls += row.toolCalls;
  total.toolResults += row.toolResults;
  total.dangling += row.dangling;
  total.orphans += row.orphans;
  total.tokens += row.tokens;
  total.bytes += row.bytes;
}

/** The text table: one row per file, a rule, the total. */
function table(rows: readonly FileStats[], total: FileStats): string {
  const header = [
    'file',
    'conv',
    'messages',
    'user/asst/tool/sys',
    'calls',
    'results',
    'dangling',
    'orphans',
    'tokens',
    'bytes',
  ];
  const cells = (r: FileStats): string[] => [
    terminalSafe(r.file),
    String(r.conversations),
    String(r.messages),
    // Roles outside the four show as a fifth count, so the columns still add up.
    [r.roles.user, r.roles.assistant, r.roles.tool, r.roles.system]
      .concat(r.roles.other > 0 ? [r.roles.other] : [])
      .join('/'),
    String(r.toolCalls),
    String(r.toolResults),
    String(r.dangling),
    String(r.orphans),
    String(r.tokens),
    String(r.bytes),
  ];
  const body = [...rows, total].map(cells);
  // Columns as a terminal shows them: a wide character (日本語) takes two.
  const widths = header.map((h, k) => Math.max(h.length, ...body.map((b) => displayWidth(b[k]!))));
  const pad = (cell: string, k: number): string => ' '.repeat(widths[k]! - displayWidth(cell));
  const fmt = (row: string[]): string =>
    row.map((cell, k) => (k === 0 ? cell + pad(cell, k) : pad(cell, k) + cell)).join('  ');
  return [
    fmt(header),
    ...body.slice(0, -1).map(fmt),
    '-'.repeat(widths.reduce((a, b) => a + b + 2, -2)),
    fmt(body[body.length - 1]!),
  ].join('\n');
}

/** A file (or JSONL line) that could not be read: its line of the report, and its JSON entry's error. */
function failure(
  file: string,
  error: unknown,
  unitLine?: number,
): { text: string; entry: FailedStats['error'] } {
  const e = error instanceof SourceError ? error : undefined;
  const line = unitLine ?? e?.line;
  const column = e?.column;
  const where = line === undefined ? '' : `:${line}${column === undefined ? '' : `:${column}`}`;
  return {
    text: `${terminalSafe(file)}${where}: error: ${oneLine(error)}\n`,
    entry: {
      message: oneLine(error),
      ...(line === undefined ? {} : { line }),
      ...(line === undefined || column === undefined ? {} : { column }),
    },
  };
}

/** Runs `histlint stats`; returns the exit code. */
export async function runStats(
  patterns: readonly string[],
  flags: StatsFlags,
  io: Io,
): Promise<number> {
  if (patterns.length === 0)
    throw new UsageError('stats needs file patterns (or "-" for standard input)');
  const { ignore: configIgnore } = await readSettings(io.cwd, flags);
  // Each file's from and pointer: the flags, else its own config's (the nearest above it).
  const configs = cliConfigs(io.cwd, flags.config);
  pointerTokens(flags.pointer); // a malformed --pointer is a usage error before any file
  const inputs = await expandInputs(patterns, io, {
    ...(flags.stdinFilename === undefined ? {} : { stdinName: flags.stdinFilename }),
    // Like lint: the config's ignore (from its folder), then --ignore (from the working folder).
    ignore: [configIgnore, { patterns: flags.ignore ?? [], base: io.cwd }],
    errorOnUnmatched: flags.errorOnUnmatchedPattern !== false,
    expandDirectories: true,
    gitignore: flags.gitignore !== false,
  });
  const countTokens = await loadTokenCounter(flags.tokenizer ?? 'o200k_base');
  const rows: FileStats[] = [];
  const listed: (FileStats | FailedStats)[] = [];
  let exit = EXIT_OK;
  /** Reports a file that could not be read; returns its JSON entry's error. */
  const fail = (file: string, error: unknown): FailedStats['error'] => {
    const { text, entry } = failure(file, error);
    print(io.stderr, text);
    exit = EXIT_USAGE;
    return entry;
  };
  for (const input of inputs) {
    const row = emptyStats(input.display);
    const count = (messages: Message[]): ConversationChange => {
      row.conversations++;
      row.messages += messages.length;
      for (const m of messages) {
        const role = m.role;
        if (role === 'user' || role === 'assistant' || role === 'tool' || role === 'system')
          row.roles[role]++;
        else row.roles.other++;
        row.tokens += messageTokens(m, countTokens);
        for (const p of m.parts) {
          if (p.type === 'tool-call') row.toolCalls++;
          else if (p.type === 'tool-result') row.toolResults++;
        }
      }
      const pairing = analyzePairing(messages);
      row.dangling += pairing.unanswered.length;
      for (const r of pairing.results) if (r.status === 'orphan') row.orphans++;
      return { messages, changed: false };
    };
    const read = await readSettingsFor(
      configs,
      input.absolute ??
        (flags.stdinFilename === undefined ? undefined : path.resolve(io.cwd, flags.stdinFilename)),
      flags,
    );
    const options: MapOptions = {
      pointer: pointerTokens(read.pointer),
      writing: false,
      ...(read.from === undefined ? {} : { from: read.from }),
    };
    // The lines that could not be read are said once the file is read: a file that cannot be
    // read at all (bytes that are not UTF-8 on a later line) says only that.
    const errors = new Spool();
    let units = 0;
    let bad = 0;
    let first: FailedStats['error'] | undefined;
    const unreadLines: number[] = [];
    const tally = (results: UnitResult<ConversationChange>[]): void => {
      for (const u of results) {
        units++;
        if (u.error === undefined) continue;
        bad++;
        const error = failure(input.display, u.error, u.line);
        errors.write(error.text);
        first ??= error.entry;
        if (u.line !== undefined) unreadLines.push(u.line);
      }
    };
    let source: ChunkSource | undefined;
    try {
      source = await openInputStream(input, io);
      const kind = kindFromName(input.absolute ?? flags.stdinFilename ?? '');
      let reader: JsonlReader | undefined;
      const stream = new ConversationStream(options, {
        line(line) {
          if (line.unit === undefined) return;
          const doc: SourceDocument = {
            kind: 'jsonl',
            bom: false,
            eol: '\n',
            units: [line.unit],
            lines: [],
          };
          tally(mapConversations(doc, { ...options, perLine: true }, count).units);
        },
        log: (doc) => tally(mapConversations(doc, options, count).units),
      });
      const bytes = await readJsonlOrWhole(
        source,
        kind,
        () => (reader = new JsonlReader((line) => stream.push(line))),
      );
      if (bytes !== null) {
        row.bytes = bytes.length;
        tally(mapConversations(readDocument(bytes, kind), options, count).units);
      } else {
        row.bytes = reader!.end();
        stream.end(reader!.bom);
      }
    } catch (e) {
      errors.discard();
      if (!(e instanceof SourceError)) throw e;
      listed.push({ file: input.display, error: fail(input.display, e) });
      continue;
    } finally {
      await source?.close();
    }
    await printAll(io.stderr, errors.texts());
    errors.discard();
    if (bad > 0) exit = EXIT_USAGE;
    if (bad > 0 && bad === units) {
      listed.push({ file: input.display, error: first! });
      continue;
    }
    // Some JSONL lines could not be read: the file counts what could, and says which could not.
    if (bad > 0) row.unreadLines = unreadLines;
    rows.push(row);
    listed.push(row);
  }
  const total = emptyStats('total');
  for (const r of rows) addInto(total, r);
  if (flags.format === 'json') {
    print(
      io.stdout,
      JSON.stringify(
        { files: listed, total, tokenizer: flags.tokenizer ?? 'o200k_base' },
        null,
        2,
      ) + '\n',
    );
    return exit;
  }
  print(io.stdout, table(rows, total) + '\n');
  return exit;
}
