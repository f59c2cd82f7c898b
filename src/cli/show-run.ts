/**
 * `histlint show FILE`: one conversation as a readable timeline, every call
 * linked to its result, and the findings beside the message they concern;
 * `--format json` gives the same timeline as data.
 */
import path from 'node:path';
import { cliConfigs, readSettingsFor } from './config.js';
import { detectFormat } from '../formats/detect.js';
import { targetFor, type ConversationFormat } from '../formats/format.js';
import { countFindings, lintBytes, lintText, type Finding } from '../lint/engine.js';
import { ConversationStream, eventLogIn } from '../formats/conversations.js';
import { SeverityResolver } from '../lint/severity.js';
import {
  JsonlReader,
  kindFromName,
  readDocument,
  type SourceDocument,
  type SourceUnit,
} from '../formats/kit/document.js';
import { SourceError } from '../model/errors.js';
import type { JsonValue } from '../model/json.js';
import { toPointer, valueAt } from '../model/pointer.js';
import type { Message } from '../model/types.js';
import { chalkFor } from './color.js';
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
import { pointerTokens } from './options.js';
import { parseRuleFlags } from './rule-flags.js';
import { terminalSafe } from './terminal-text.js';
import {
  buildTimeline,
  renderTimeline,
  type TimelineMessage,
  type TimelineWidth,
} from './timeline.js';

/** The flags of `histlint show`. */
export interface ShowFlags {
  /** `--no-gitignore` makes it false: folder walks read what .gitignore ignores. */
  gitignore?: boolean;
  from?: string;
  pointer?: string;
  stdinFilename?: string;
  color?: boolean;
  config?: string;
  line?: number;
  width?: number;
  format?: 'text' | 'json';
  /** `--target` (default: the config's `target`, else `auto`). */
  target?: string;
  /** `--rule ID=severity` flags. */
  rule?: string[];
}

/** One conversation as `show --format json` prints it. */
export interface ShownConversation {
  file: string;
  /** The JSONL line (JSONL files only). */
  line?: number;
  /** The format it was read as. */
  format: string;
  /** The provider whose acceptance rules were checked (`null`: none). */
  target: string | null;
  messages: TimelineMessage[];
  /** As in the lint JSON report (SPEC §5.3). */
  findings: Finding[];
  errorCount: number;
  warningCount: number;
}

/** One conversation read and linted, before it is rendered. */
interface Shown {
  file: string;
  line?: number;
  format: string;
  target: string | null;
  messages: readonly Message[];
  findings: Finding[];
}

/** Terminal columns when standard output is a terminal that reports them. */
function terminalColumns(io: Io): number | undefined {
  const columns = io.stdout.columns;
  return io.stdout.isTTY === true && typeof columns === 'number' && columns > 0
    ? columns
    : undefined;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Runs `histlint show`; returns the exit code. */
export async function runShow(file: string | undefined, flags: ShowFlags, io: Io): Promise<number> {
  let args: string[];
  if (file === undefined) {
    if (io.stdin.isTTY === true)
      throw new UsageError('show needs a file (or "-" for standard input)');
    args = ['-'];
  } else args = [file];
  const configs = cliConfigs(io.cwd, flags.config);
  const root = await configs.root();
  // A folder or a glob is walked as lint walks it; it must come to one file.
  const inputs = await expandInputs(args, io, {
    ...(flags.stdinFilename === undefined ? {} : { stdinName: flags.stdinFilename }),
    ignore: [{ patterns: root.config.ignore ?? [], base: root.dir }],
    expandDirectories: true,
    gitignore: flags.gitignore !== false,
  });
  if (inputs.length === 0) throw new UsageError('show needs a file');
  if (inputs.length > 1) {
    const names = `${terminalSafe(inputs[0]!.display)}, ${terminalSafe(inputs[1]!.display)}`;
    throw new UsageError(
      `show takes one file; ${terminalSafe(args[0]!)} holds ${inputs.length} (${names}${inputs.length > 2 ? ', …' : ''})`,
    );
  }
  const input = inputs[0]!;
  // The file's own config (the nearest above it); standard input is matched by its --stdin-filename, as lint does.
  const where =
    input.absolute ??
    (flags.stdinFilename === undefined ? undefined : path.resolve(io.cwd, flags.stdinFilename));
  const loaded = await configs.forFile(where);
  const read = await readSettingsFor(configs, where, flags);
  const pointer = pointerTokens(read.pointer);
  const from = read.from;
  const targetChoice = read.target ?? 'auto';
  const rules = new SeverityResolver(
    loaded.config,
    loaded.dir,
    parseRuleFlags(flags.rule ?? []),
    loaded.overrideDirs,
  ).forFile(where);
  const c = chalkFor(flags.color, io.env, io.stdout);
  const columns = terminalColumns(io);
  const width: TimelineWidth =
    flags.width !== undefined ? { text: flags.width } : columns !== undefined ? { columns } : {};
  const lintOptions = {
    rules,
    pointer,
    target: targetChoice,
    ...(from === undefined ? {} : { from }),
  };
  // Rendered as each conversation is read, and printed once the whole input is: an input that
  // fails part-way prints nothing (in memory while small, in a temp file past a few megabytes).
  const out = new Spool();
  let count = 0;
  const show = (s: Shown): void => {
    if (flags.format === 'json') {
      const conversation: ShownConversation = {
        file: s.file,
        ...(s.line === undefined ? {} : { line: s.line }),
        format: s.format,
        target: s.target,
        messages: buildTimeline(s.messages),
        findings: s.findings,
        ...countFindings(s.findings),
      };
      // As `JSON.stringify({ conversations }, null, 2)` lays it out: two levels deep.
      const text = JSON.stringify(conversation, null, 2).replace(/\n/g, '\n    ');
      out.write(`${count++ === 0 ? '{\n  "conversations": [\n' : ',\n'}    ${text}`);
      return;
    }
    const where = terminalSafe(s.line === undefined ? s.file : `${s.file}:${s.line}`);
    const { errorCount, warningCount } = countFindings(s.findings);
    const lines = [
      c.underline(where) +
        c.dim(
          `  ${s.format}, target ${s.target ?? 'none'}, ${plural(s.messages.length, 'message')}, ${plural(errorCount, 'error')}, ${plural(warningCount, 'warning')}`,
        ),
      ...renderTimeline(s.messages, s.findings, c, width),
    ];
    out.write(`${count++ === 0 ? '' : '\n'}${lines.join('\n')}\n`);
  };
  // A JSONL line that cannot be read is reported; the others are still shown (exit 2).
  let unreadable = 0;
  const report = (e: SourceError): void => {
    const pos = e.line !== undefined ? `:${e.line}:${e.column ?? 1}` : '';
    print(io.stderr, `${terminalSafe(input.display)}${pos}: error: ${terminalSafe(e.message)}\n`);
  };
  // One conversation of a document (a JSON file, or a JSONL line).
  const showUnit = (unit: SourceUnit, jsonl: boolean): void => {
    if (flags.line !== undefined && unit.line !== flags.line) return;
    if (unit.error !== undefined) {
      // The one line asked for, or a whole JSON file, that cannot be read: nothing to show.
      if (flags.line !== undefined || !jsonl || !(unit.error instanceof SourceError))
        throw unit.error;
      report(unit.error);
      unreadable++;
      return;
    }
    const target = valueAt(unit.value!, pointer);
    if (target === undefined)
      throw new SourceError(`nothing at pointer ${JSON.stringify(toPointer(pointer))}`);
    const format = detectFormat(target, from);
    const { messages } = format.read(target).conversation;
    const findings = lintText(unit.text, lintOptions, unit.line);
    show({
      file: input.display,
      ...(unit.line === undefined ? {} : { line: unit.line }),
      format: format.name,
      target: targetFor(targetChoice, format),
      messages,
      findings,
    });
  };
  // A session is one conversation over all its lines: no line holds one of its own.
  const showLog = (
    doc: SourceDocument,
    bytes: Uint8Array | undefined,
    events: JsonValue[],
    format: ConversationFormat,
  ): void => {
    if (flags.line !== undefined)
      throw new UsageError(
        `--line: ${input.display} is one conversation over all its lines (a Claude Code session)`,
      );
    // A line it could not read is missing from the conversation: said, and exit 2.
    for (const unit of doc.units) {
      if (unit.error === undefined) continue;
      report(unit.error);
      unreadable++;
    }
    const { messages } = format.read(events).conversation;
    // One conversation over the whole file: findings come from linting the file as a whole.
    // Without a line too long to read they could be false, so there are none (as lint says).
    const findings =
      bytes === undefined ? [] : lintBytes(input.display, bytes, lintOptions).findings;
    show({
      file: input.display,
      format: format.name,
      target: targetFor(targetChoice, format),
      messages,
      findings,
    });
  };
  let source: ChunkSource | undefined;
  try {
    source = await openInputStream(input, io);
    const kind = kindFromName(input.absolute ?? flags.stdinFilename ?? '');
    let reader: JsonlReader | undefined;
    const stream = new ConversationStream(
      { pointer, ...(from === undefined ? {} : { from }), keepBytes: true },
      {
        line(line) {
          if (line.unit !== undefined) showUnit(line.unit, true);
        },
        log(doc, bytes) {
          const log = eventLogIn(doc, { pointer, ...(from === undefined ? {} : { from }) })!;
          showLog(doc, bytes, log.events, log.format);
        },
      },
    );
    const bytes = await readJsonlOrWhole(
      source,
      kind,
      () => (reader = new JsonlReader((line) => stream.push(line))),
    );
    if (bytes === null) {
      reader!.end();
      stream.end(reader!.bom);
    } else {
      const doc = readDocument(bytes, kind);
      const log = eventLogIn(doc, { pointer, ...(from === undefined ? {} : { from }) });
      if (log !== null) showLog(doc, bytes, log.events, log.format);
      else for (const unit of doc.units) showUnit(unit, doc.kind === 'jsonl');
    }
    if (flags.line !== undefined && count === 0)
      throw new UsageError(`${input.display} has no conversation on line ${flags.line}`);
  } catch (e) {
    out.discard();
    if (!(e instanceof SourceError)) throw e;
    report(e);
    return EXIT_USAGE;
  } finally {
    await source?.close();
  }
  const exit = unreadable > 0 ? EXIT_USAGE : EXIT_OK;
  if (flags.format === 'json' && count === 0) out.write('{\n  "conversations": []\n}\n');
  else if (flags.format === 'json') out.write('\n  ]\n}\n');
  try {
    await printAll(io.stdout, out.texts());
  } finally {
    out.discard();
  }
  return exit;
}
