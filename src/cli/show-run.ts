/**
 * `histlint show FILE`: one conversation as a readable timeline, every call
 * linked to its result, and the findings beside the message they concern.
 */
import type { ChalkInstance } from 'chalk';
import { loadConfig, ConfigError } from '../config/load.js';
import { analyzePairing } from '../core/pairing.js';
import { detectFormat } from '../formats/detect.js';
import { lintBytes, lintText, type Finding } from '../lint/engine.js';
import { eventLogOf } from '../formats/conversations.js';
import { SeverityResolver } from '../lint/severity.js';
import { kindFromName, readDocument } from '../model/document.js';
import { SourceError } from '../model/errors.js';
import type { JsonValue } from '../model/json.js';
import { parsePointer, valueAt } from '../model/pointer.js';
import { isObject, type Message, type Part } from '../model/types.js';
import { chalkFor } from './color.js';
import { EXIT_OK, EXIT_USAGE, UsageError } from './exit-codes.js';
import { expandInputs, print, readInput, type Io } from './io.js';
import { oneLine } from './options.js';

/** The flags of `histlint show`. */
export interface ShowFlags {
  from?: string;
  pointer?: string;
  stdinFilename?: string;
  color?: boolean;
  config?: string;
  line?: number;
  width?: number;
}

function preview(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > width ? flat.slice(0, width) + '…' : flat);
}

function contentText(content: JsonValue | undefined): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((c) =>
      isObject(c) && c.type === 'text' && typeof c.text === 'string'
        ? c.text
        : isObject(c)
          ? `[${String(c.type)}]`
          : '',
    )
    .join(' ');
}

/** One line describing a part. */
function describePart(part: Part, width: number): string {
  const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');
  switch (part.type) {
    case 'text':
      return `text ${preview(str(part.text), width)}`;
    case 'reasoning': {
      const flags = [
        part.signature !== undefined ? 'signed' : '',
        part.redacted !== undefined ? 'redacted' : '',
      ].filter(Boolean);
      return `reasoning${flags.length ? ` (${flags.join(', ')})` : ''} ${preview(str(part.text), width)}`;
    }
    case 'tool-call':
      return `tool-call ${typeof part.id === 'string' ? part.id : '(no id)'} ${str(part.name) || '(no name)'} ${preview(str(part.arguments), width)}`;
    case 'tool-result':
      return `tool-result ${typeof part.callId === 'string' ? part.callId : '(no callId)'}${part.failed === true ? ' failed' : ''} ${preview(contentText(part.content), width)}`;
    case 'image':
    case 'document': {
      const src =
        typeof part.url === 'string'
          ? part.url
          : typeof part.data === 'string'
            ? `data (${part.data.length} base64 chars)`
            : '?';
      return `${part.type} ${typeof part.mediaType === 'string' ? part.mediaType + ' ' : ''}${preview(src, width)}`;
    }
    default:
      return `${part.type} (unknown part type)`;
  }
}

/** Renders one conversation. */
export function renderTimeline(
  messages: readonly Message[],
  findings: readonly Finding[],
  c: ChalkInstance,
  width = 60,
): string[] {
  const pairing = analyzePairing(messages);
  const linkOf = new Map<string, string>();
  const answered = new Map<string, number>();
  for (const r of pairing.results) {
    if (r.status === 'answer') answered.set(r.callId!, r.position);
  }
  for (const r of pairing.results) {
    const key = `${r.position}/${r.partIndex}`;
    if (r.status === 'answer')
      linkOf.set(key, c.green(`← call in #${pairing.firstCallById.get(r.callId!)!.position}`));
  }
  for (const call of pairing.calls) {
    if (call.id === undefined) continue;
    const at = answered.get(call.id);
    if (at !== undefined)
      linkOf.set(`${call.position}/${call.partIndex}`, c.green(`→ result in #${at}`));
  }
  const byPlace = new Map<string, Finding[]>();
  const general: Finding[] = [];
  for (const f of findings) {
    if (f.messageIndex === undefined) {
      general.push(f);
      continue;
    }
    const key = `${f.messageIndex}/${f.partIndex ?? ''}`;
    const list = byPlace.get(key) ?? [];
    list.push(f);
    byPlace.set(key, list);
  }
  const mark = (f: Finding): string =>
    `${f.severity === 'error' ? c.red('✖') : c.yellow('⚠')} ${f.message} ${c.dim(`(${f.ruleId}, ${f.line}:${f.column})`)}`;
  const out: string[] = [];
  const indexWidth = String(Math.max(messages.length - 1, 0)).length + 1;
  const pad = ' '.repeat(indexWidth + 13);
  messages.forEach((m, i) => {
    const head = `${c.dim(('#' + i).padStart(indexWidth))}  ${c.bold(m.role.padEnd(9))}  `;
    const stamp = [
      typeof m.name === 'string' ? `name=${m.name}` : '',
      typeof m.runId === 'string' ? `run ${m.runId.slice(0, 13)}…` : '',
    ]
      .filter(Boolean)
      .join(' ');
    if (m.parts.length === 0)
      out.push(`${head}${c.dim('(no parts)')}${stamp ? c.dim('  ' + stamp) : ''}`);
    m.parts.forEach((p, j) => {
      const link = linkOf.get(`${i}/${j}`);
      const line = `${j === 0 ? head : pad}${describePart(p, width)}${link ? '  ' + link : ''}${j === 0 && stamp ? c.dim('  ' + stamp) : ''}`;
      out.push(line);
      for (const f of byPlace.get(`${i}/${j}`) ?? []) out.push(`${pad}  ${mark(f)}`);
    });
    for (const f of byPlace.get(`${i}/`) ?? []) out.push(`${pad}  ${mark(f)}`);
  });
  for (const f of general) out.push(mark(f));
  return out;
}

/** Runs `histlint show`; returns the exit code. */
export async function runShow(file: string | undefined, flags: ShowFlags, io: Io): Promise<number> {
  const c = chalkFor(flags.color, io.env, io.stdout);
  let args: string[];
  if (file === undefined) {
    if (io.stdin.isTTY === true)
      throw new UsageError('show needs a file (or "-" for standard input)');
    args = ['-'];
  } else args = [file];
  const inputs = await expandInputs(
    args,
    io,
    flags.stdinFilename === undefined ? {} : { stdinName: flags.stdinFilename },
  );
  if (inputs.length !== 1) throw new UsageError('show takes one file');
  const input = inputs[0]!;
  let loaded;
  try {
    loaded = await loadConfig(io.cwd, flags.config);
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  let pointer: string[];
  try {
    pointer = parsePointer(flags.pointer ?? loaded.config.pointer ?? '');
  } catch (e) {
    throw new UsageError(`--pointer: ${oneLine(e)}`);
  }
  const from = flags.from ?? loaded.config.from;
  const rules = new SeverityResolver(
    loaded.config,
    loaded.dir,
    new Map(),
    loaded.config.target,
  ).forFile(input.absolute);
  try {
    const bytes = await readInput(input, io);
    const doc = readDocument(bytes, kindFromName(input.absolute ?? flags.stdinFilename ?? ''));
    const out: string[] = [];
    let shown = 0;
    const events = eventLogOf(doc, { pointer, ...(from === undefined ? {} : { from }) });
    if (events !== null) {
      // One conversation over the whole file: findings come from linting the file as a whole.
      const { messages } = detectFormat(events, from ?? 'claude-code').read(events).conversation;
      const findings = lintBytes(input.display, bytes, {
        rules,
        pointer,
        ...(from === undefined ? {} : { from }),
      }).findings;
      out.push(
        c.underline(input.display) +
          c.dim(`  claude-code, ${messages.length} messages, ${findings.length} findings`),
      );
      out.push(...renderTimeline(messages, findings, c, flags.width ?? 60), '');
      print(io.stdout, out.join('\n'));
      return EXIT_OK;
    }
    for (const unit of doc.units) {
      if (flags.line !== undefined && unit.line !== flags.line) continue;
      shown++;
      const where = unit.line === undefined ? input.display : `${input.display}:${unit.line}`;
      if (unit.error !== undefined) throw unit.error;
      const target = valueAt(unit.value!, pointer);
      if (target === undefined) throw new SourceError(`nothing at pointer "${flags.pointer}"`);
      const format = detectFormat(target, from);
      const { messages } = format.read(target).conversation;
      const findings = lintText(
        unit.text,
        { rules, pointer, ...(from === undefined ? {} : { from }) },
        unit.line,
      );
      const errors = findings.filter((f) => f.severity === 'error').length;
      const warnings = findings.length - errors;
      out.push(
        c.underline(where) +
          c.dim(
            `  ${format.name}, ${messages.length} message${messages.length === 1 ? '' : 's'}, ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`,
          ),
      );
      out.push(...renderTimeline(messages, findings, c, flags.width ?? 60), '');
    }
    if (flags.line !== undefined && shown === 0)
      throw new UsageError(`${input.display} has no conversation on line ${flags.line}`);
    print(io.stdout, out.join('\n'));
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    const pos = e.line !== undefined ? `:${e.line}:${e.column ?? 1}` : '';
    print(io.stderr, `${input.display}${pos}: error: ${e.message}\n`);
    return EXIT_USAGE;
  }
}
