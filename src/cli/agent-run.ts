/**
 * The runner behind `histlint run` (SPEC §5.4): checks everything that can
 * be checked before the first request (flags, the API key variable, the
 * history, the instructions file, the MCP servers), runs the agent, and
 * writes the resulting conversation, or the partial one of a failed run,
 * where the flags say. Everything it prints passes through a filter that
 * removes the API key, and so does every value the run adds to the
 * conversation (there, a key of 8 characters or more); what the history held
 * before the run is the user's, and is written as it was.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Agent, AgentRunOptions, HistoryProcessor, RunPartial } from '../agent/index.js';
import { normalizeHistory } from '../core/normalize.js';
import { mapConversations } from '../formats/conversations.js';
import type { ConversationFormat, Loss } from '../formats/format.js';
import {
  kindFromName,
  readDocument,
  serializeDocument,
  type SourceDocument,
} from '../formats/kit/document.js';
import { describeFsError, SourceError } from '../model/errors.js';
import { setOwn, stringifyJson, type JsonObject, type JsonValue } from '../model/json.js';
import { isObject, type Message } from '../model/types.js';
import {
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_RUN_FAILED,
  EXIT_USAGE,
  UsageError,
} from './exit-codes.js';
import { InputPaths, print, readInput, readStdin, type InputRef, type Io } from './io.js';
import {
  clearStaleTemps,
  describeWriteError,
  openForReplace,
  RefusedWrite,
  writeAtomic,
  type Replaceable,
} from './safe-write.js';
import { oneLine, pointerTokens } from './options.js';
import { packageVersion } from './package-info.js';

/** The flags of `histlint run`. */
export interface RunFlags {
  prompt?: string;
  provider: string;
  model: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  instructions?: string[];
  instructionsFile?: string;
  mcp?: string[];
  maxSteps: number;
  maxRetries: number;
  timeout?: number;
  toolTimeout?: number;
  maxOutputTokens?: number;
  maxMessages?: number;
  maxTokens?: number;
  tokenizer?: 'o200k_base' | 'cl100k_base';
  runId?: string;
  conversationId?: string;
  fork?: boolean;
  outputFile?: string;
  write?: boolean;
  /** `--break-links`: `--write` replaces a history that has other hard links. */
  breakLinks?: boolean;
  from?: string;
  pointer?: string;
  stdinFilename?: string;
  color?: boolean;
}

/** The history a run starts from, and how to write a conversation back in its format. */
interface LoadedHistory {
  messages: Message[];
  /** The input, or undefined for a new conversation. */
  input?: InputRef;
  /** With --write: the input, opened to be replaced. */
  replaceable?: Replaceable;
  /** Serializes a conversation in the history's format; `losses` is what that format cannot carry. */
  serialize(messages: Message[]): { text: string; losses: Loss[]; format: string };
}

function checkFlags(history: string | undefined, flags: RunFlags): void {
  if (flags.maxMessages !== undefined && flags.maxTokens !== undefined) {
    throw new UsageError('--max-messages and --max-tokens cannot be combined');
  }
  if (flags.tokenizer !== undefined && flags.maxTokens === undefined) {
    throw new UsageError('--tokenizer applies to --max-tokens only');
  }
  if (flags.outputFile !== undefined && flags.write === true) {
    throw new UsageError('-o and --write cannot be combined');
  }
  if (flags.write === true && (history === undefined || history === '-')) {
    throw new UsageError('--write needs a history file to replace; use -o FILE');
  }
  if (flags.fork === true && flags.conversationId !== undefined) {
    throw new UsageError('--fork and --conversation-id cannot be combined');
  }
  for (const [flag, value] of [
    ['--run-id', flags.runId],
    ['--conversation-id', flags.conversationId],
    ['--model', flags.model],
  ] as const) {
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} is empty`);
  }
}

/** A new conversation: written as a v1 envelope. */
function newConversation(): LoadedHistory {
  return {
    messages: [],
    serialize: (messages) => ({
      text: stringifyJson({ version: 1, messages }, 2) + '\n',
      losses: [],
      format: 'histlint',
    }),
  };
}

async function loadHistory(
  history: string | undefined,
  flags: RunFlags,
  io: Io,
  held: { file?: Replaceable },
): Promise<LoadedHistory> {
  if (history === undefined && io.stdin.isTTY === true) return newConversation();
  const input: InputRef =
    history === undefined || history === '-'
      ? { display: flags.stdinFilename ?? '<stdin>' }
      : { display: history, absolute: path.resolve(io.cwd, history) };
  let bytes: Uint8Array;
  try {
    if (flags.write === true && input.absolute !== undefined) {
      // Refused now, before any request is paid for, when the file cannot be replaced safely.
      await clearStaleTemps(path.dirname(await fs.realpath(input.absolute)));
      held.file = await openForReplace(input.absolute, { breakLinks: flags.breakLinks });
      bytes = held.file.bytes;
    } else {
      bytes = input.absolute === undefined ? await readStdin(io) : await readInput(input, io);
    }
  } catch (e) {
    throw new UsageError(
      `${input.display}: ${e instanceof RefusedWrite ? `not written: ${e.message}` : e instanceof SourceError ? e.message : describeWriteError(e)}`,
    );
  }
  // Nothing piped in (e.g. `< /dev/null` in CI) starts a new conversation, as a terminal would.
  if (history === undefined && Buffer.from(bytes).toString('utf8').trim() === '') {
    return newConversation();
  }
  const pointer = pointerTokens(flags.pointer);
  let doc: SourceDocument;
  try {
    doc = readDocument(bytes, kindFromName(input.absolute ?? flags.stdinFilename ?? ''));
  } catch (e) {
    throw new UsageError(`${input.display}: ${oneLine(e)}`);
  }
  const options = {
    pointer,
    writing: true,
    ...(flags.from === undefined ? {} : { from: flags.from }),
  };
  let read: { messages: Message[]; format: ConversationFormat } | undefined;
  const { units } = mapConversations(doc, options, (messages, format) => {
    read = { messages, format };
    return { messages, changed: false };
  });
  if (units.length !== 1) {
    throw new UsageError(
      `${input.display}: run takes one conversation; this file holds ${units.length}`,
    );
  }
  const unit = units[0]!;
  if (unit.error !== undefined || read === undefined) {
    const e = unit.error;
    const where =
      e instanceof SourceError && e.line !== undefined ? `:${e.line}:${e.column ?? 1}` : '';
    throw new UsageError(`${input.display}${where}: ${oneLine(e)}`);
  }
  const format = read.format;
  return {
    messages: read.messages,
    input,
    ...(held.file === undefined ? {} : { replaceable: held.file }),
    serialize(messages) {
      const out = mapConversations(doc, { ...options, to: format, lossy: true }, () => ({
        messages,
        changed: true,
      }));
      const result = out.units[0]!;
      if (result.error !== undefined) throw result.error;
      return {
        text: serializeDocument(doc, out.values),
        // The run's own ids are dropped, not lost, by a format with no place for them; say so too.
        losses: [
          ...(result.losses ?? []),
          ...(result.dropped ?? [])
            .filter((d) => d.what === 'ids')
            .map((d) => ({ what: d.keys.join(', '), keys: d.keys, dropped: 'ids' as const })),
        ],
        format: format.name,
      };
    },
  };
}

async function readInstructionsFile(file: string, io: Io): Promise<string> {
  const absolute = path.resolve(io.cwd, file);
  try {
    const bytes = await readInput({ display: file, absolute }, io);
    // A file's final line end is not part of the instructions.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/\s+$/, '');
  } catch (e) {
    throw new UsageError(`--instructions-file ${file}: ${oneLine(e)}`);
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function countsLine(p: {
  requests: number;
  toolExecutions: number;
  usage: { inputTokens: number; outputTokens: number };
}): string {
  return (
    `${plural(p.requests, 'request')}, ${plural(p.toolExecutions, 'tool execution')}, ` +
    `tokens ${p.usage.inputTokens} in / ${p.usage.outputTokens} out`
  );
}

/** Runs `histlint run`; returns the exit code. */
export async function runAgentCommand(
  history: string | undefined,
  flags: RunFlags,
  io: Io,
): Promise<number> {
  checkFlags(history, flags);
  const held: { file?: Replaceable } = {};
  try {
    return await runWithHistory(history, flags, io, held);
  } finally {
    // --write holds the history's lock from its read to the rename, or until the run ends.
    await held.file?.release();
  }
}

async function runWithHistory(
  history: string | undefined,
  flags: RunFlags,
  io: Io,
  held: { file?: Replaceable },
): Promise<number> {
  const agentModule = await import('../agent/index.js');
  const {
    AgentConfigError,
    McpStartError,
    RunError,
    apiKeyVariable,
    canContinue,
    connectMcpServers,
    createAgent,
    createModel,
    createRedactingStream,
    limitHistoryMessages,
    limitHistoryTokens,
    MIN_STORED_SECRET_LENGTH,
    parseCommandLine,
    redactSecrets,
  } = agentModule;

  // The key is only ever read from the environment given to main.
  const variable = apiKeyVariable(flags.provider, flags.apiKeyEnv);
  const secrets = [io.env[variable] ?? ''];
  const clean = (text: string): string => redactSecrets(text, secrets);
  // A short key (a placeholder like "none") is a word in a stored conversation, not a secret.
  const cleanStored = (text: string): string =>
    redactSecrets(text, secrets, { minLength: MIN_STORED_SECRET_LENGTH });
  const say = (text: string): void => print(io.stderr, clean(text));

  let model;
  try {
    model = createModel({
      provider: flags.provider,
      model: flags.model,
      env: io.env,
      ...(flags.apiKeyEnv === undefined ? {} : { apiKeyEnv: flags.apiKeyEnv }),
      ...(flags.baseUrl === undefined ? {} : { baseURL: flags.baseUrl }),
      maxRetries: flags.maxRetries,
      ...(flags.timeout === undefined ? {} : { timeoutMs: flags.timeout * 1000 }),
      ...(flags.maxOutputTokens === undefined ? {} : { maxOutputTokens: flags.maxOutputTokens }),
    });
  } catch (e) {
    if (e instanceof AgentConfigError) throw new UsageError(clean(e.message));
    throw e;
  }

  const loaded = await loadHistory(history, flags, io, held);
  if (flags.outputFile !== undefined) await checkOutputFile(flags.outputFile, loaded, io);
  if (
    (flags.prompt ?? '').trim() === '' &&
    !canContinue(normalizeHistory(loaded.messages).messages)
  ) {
    throw new UsageError(
      loaded.messages.length === 0
        ? 'run needs --prompt to start a conversation'
        : 'run needs --prompt: the history does not end with a user message or tool results',
    );
  }
  const fileInstructions =
    flags.instructionsFile === undefined
      ? undefined
      : await readInstructionsFile(flags.instructionsFile, io);

  let historyProcessor: HistoryProcessor | undefined;
  if (flags.maxMessages !== undefined) historyProcessor = limitHistoryMessages(flags.maxMessages);
  else if (flags.maxTokens !== undefined) {
    const { loadTokenCounter } = await import('../core/tokens.js');
    historyProcessor = limitHistoryTokens(
      flags.maxTokens,
      await loadTokenCounter(flags.tokenizer ?? 'o200k_base'),
    );
  }

  const specs = (flags.mcp ?? []).map((line) => {
    let words: string[];
    try {
      words = parseCommandLine(line);
    } catch (e) {
      throw new UsageError(`--mcp: ${oneLine(e)}`);
    }
    if (words.length === 0) throw new UsageError('--mcp: an empty command');
    return { command: words[0]!, args: words.slice(1), label: line };
  });
  let connection;
  try {
    connection = await connectMcpServers(specs, {
      env: io.env,
      cwd: io.cwd,
      ...(flags.toolTimeout === undefined ? {} : { timeoutMs: flags.toolTimeout * 1000 }),
      clientInfo: { name: 'histlint', version: packageVersion() },
      ...(io.signal === undefined ? {} : { signal: io.signal }),
      onStderr: (label, text) => {
        const lines = text.replace(/\n$/, '').split('\n');
        say(lines.map((l) => `[mcp ${label}] ${l}\n`).join(''));
      },
    });
  } catch (e) {
    if (io.signal?.aborted === true) {
      say('histlint run: interrupted while the MCP servers started; no request was sent\n');
      return EXIT_INTERRUPTED;
    }
    if (e instanceof McpStartError) throw new UsageError(clean(e.message));
    throw e;
  }

  try {
    let agent: Agent;
    try {
      agent = createAgent({
        model,
        ...(flags.instructions === undefined ? {} : { instructions: flags.instructions }),
        ...(fileInstructions === undefined ? {} : { dynamicInstructions: () => fileInstructions }),
        tools: connection.tools,
        ...(historyProcessor === undefined ? {} : { historyProcessor }),
        maxSteps: flags.maxSteps,
      });
    } catch (e) {
      if (e instanceof AgentConfigError) throw new UsageError(clean(e.message));
      throw e;
    }

    let streamed = false;
    const runOptions: AgentRunOptions = {
      ...(io.signal === undefined ? {} : { signal: io.signal }),
      ...(flags.runId === undefined ? {} : { runId: flags.runId }),
    };
    if (flags.fork === true) runOptions.conversationId = (await import('../core/ids.js')).newId();
    else if (flags.conversationId !== undefined) runOptions.conversationId = flags.conversationId;
    // The reply streams to a terminal; anywhere else it is in the written conversation.
    const stream = createRedactingStream(secrets, (t) => print(io.stderr, t));
    if (io.stderr.isTTY === true) {
      runOptions.onText = (delta) => {
        streamed = true;
        stream.write(delta);
      };
    }
    const endStream = (): void => {
      stream.end();
      if (streamed) say('\n');
      streamed = false;
    };

    try {
      const result = await agent.run(loaded.messages, flags.prompt, runOptions);
      endStream();
      let where: string | undefined;
      try {
        where = await emit(loaded, result.messages, flags, io, cleanStored, say);
      } catch (w) {
        say(`histlint run: the result could not be written: ${oneLine(w)}\n`);
        return EXIT_USAGE;
      }
      say(
        `histlint run: done: ${countsLine(result)} (run ${result.runId}, conversation ${result.conversationId})${where === undefined ? '' : `; written to ${where}`}\n`,
      );
      return EXIT_OK;
    } catch (e) {
      endStream();
      if (!(e instanceof RunError)) throw e;
      const exit = e.stage === 'aborted' ? EXIT_INTERRUPTED : EXIT_RUN_FAILED;
      say(`histlint run: failed at stage ${e.stage}: ${e.message}\n`);
      const partial: RunPartial | undefined = e.partial;
      const counts = countsLine(
        partial ?? {
          requests: 0,
          toolExecutions: 0,
          usage: { inputTokens: 0, outputTokens: 0 },
        },
      );
      if (partial === undefined) {
        say(`  ${counts}; nothing completed, nothing written (run ${e.runId})\n`);
        return exit;
      }
      let where: string | undefined;
      try {
        where = await emit(loaded, partial.messages, flags, io, cleanStored, say);
      } catch (w) {
        say(`  ${counts}; the partial conversation could not be written: ${oneLine(w)}\n`);
        return exit;
      }
      say(
        `  ${counts}; partial conversation written to ${where ?? 'standard output'}; run histlint run on it to resume (run ${partial.runId}, conversation ${partial.conversationId})\n`,
      );
      return exit;
    }
  } finally {
    await connection.close();
  }
}

/**
 * Refuses, before any request, an -o that names the history (inputs change only with --write)
 * or cannot be a file (a folder, a path through a file); its folders are made now.
 */
async function checkOutputFile(file: string, loaded: LoadedHistory, io: Io): Promise<void> {
  if (loaded.input !== undefined) new InputPaths([loaded.input]).refuseOutput(io, '-o', file);
  const target = path.resolve(io.cwd, file);
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
    if ((await fs.stat(target).catch(() => undefined))?.isDirectory())
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  } catch (e) {
    throw new UsageError(`cannot write ${file}: ${describeFsError(e)}`);
  }
}

/** A copy of a JSON value with `clean` applied to every string in it. */
function cleanStrings(value: JsonValue, clean: (text: string) => string): JsonValue {
  if (typeof value === 'string') return clean(value);
  if (Array.isArray(value)) return value.map((v) => cleanStrings(v, clean));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) setOwn(out, key, cleanStrings(value[key]!, clean));
  return out;
}

/**
 * The messages with the secrets taken out of what the run added (the model's replies, the tools'
 * results): string values only, so tool-call arguments and the document stay JSON. Messages and
 * parts the history already held are the user's own, and are written as they were.
 */
function redactAdded(
  messages: readonly Message[],
  before: readonly Message[],
  clean: (text: string) => string,
): Message[] {
  const held = new Set<unknown>();
  for (const m of before) {
    held.add(m);
    for (const p of m.parts) held.add(p);
  }
  return messages.map((m) => {
    if (held.has(m)) return m;
    const out: JsonObject = {};
    for (const key of Object.keys(m)) {
      const value = (m as unknown as JsonObject)[key]!;
      setOwn(
        out,
        key,
        key === 'parts' && Array.isArray(value)
          ? value.map((p) => (held.has(p) ? p : cleanStrings(p, clean)))
          : cleanStrings(value, clean),
      );
    }
    return out as unknown as Message;
  });
}

/** Writes a conversation where the flags say; returns the file written, or undefined for standard output. */
async function emit(
  loaded: LoadedHistory,
  messages: Message[],
  flags: RunFlags,
  io: Io,
  clean: (text: string) => string,
  say: (text: string) => void,
): Promise<string | undefined> {
  const { text, losses, format } = loaded.serialize(redactAdded(messages, loaded.messages, clean));
  if (losses.length > 0) {
    const what = [...new Set(losses.map((l) => l.what))];
    const shown =
      what.slice(0, 3).join(', ') + (what.length > 3 ? `, and ${what.length - 3} more` : '');
    say(
      `histlint run: note: the ${format} format cannot keep ${shown}; convert the history with "histlint convert --to histlint" to keep everything\n`,
    );
  }
  // The secrets were taken out of what the run added, value by value; the rest is the user's.
  try {
    if (loaded.replaceable !== undefined) {
      // Through a symlink to the file it names, never over the link itself.
      await loaded.replaceable.replace(text);
      return loaded.input!.display;
    }
    if (flags.outputFile !== undefined) {
      const target = path.resolve(io.cwd, flags.outputFile);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await clearStaleTemps(path.dirname(target));
      await writeAtomic(target, text);
      return flags.outputFile;
    }
  } catch (e) {
    // The run is paid for: what could not be written goes to standard output rather than nowhere.
    print(io.stdout, text);
    throw new Error(`${describeWriteError(e)}; the conversation is on standard output instead`, {
      cause: e,
    });
  }
  print(io.stdout, text);
  return undefined;
}
