/**
 * Every example command in README.md runs as written, from the repository
 * root, and prints what the README shows. The examples are read from the
 * README itself, so the two cannot drift:
 *
 * - a ```console block holds commands (`$ ` lines; a line ending in `\`
 *   goes on) and, after each, what it prints (standard output and standard
 *   error as they interleave). All of them run in order in one shell, as a
 *   reader would type them, in a copy of the repository's `fixtures/examples`;
 * - a block marked `not-executed setup` (npm commands only) or
 *   `not-executed network` is not run; every other shell block is an error,
 *   and so is a `$ ` line hidden in a block of another kind.
 *
 * Fresh ids (UUIDs) and timings become placeholders on both sides. `histlint
 * run` examples talk to the project's mock model server (test/helpers/mock-llm.ts):
 * the provider base URLs point at it, a `--base-url` on 127.0.0.1 is
 * replaced by its address, and RUNS below scripts its answers, one entry
 * per run example in README order. Every request it receives must be one
 * the provider accepts.
 *
 * Writing an example: `README_DUMP=/tmp/out.json npx vitest run test/readme.test.ts`
 * writes what each command printed, to paste into the README once checked.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';
import { startMockLlm, type MockLlm, type MockReply } from './helpers/mock-llm.js';

/** A fenced code block of the README. */
interface Block {
  /** The info string's words: language, then attributes. */
  info: string[];
  lines: string[];
  /** The 1-based README line of the opening fence. */
  line: number;
}

/** A command of a console block and what the README says it prints. */
interface Example {
  command: string;
  expected: string;
  /** README line of the command. */
  line: number;
}

const SHELLS = new Set(['console', 'sh', 'shell', 'bash']);
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

function blocksOf(markdown: string): Block[] {
  const out: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S.*)?$/.exec(lines[i]!);
    if (open === null) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    out.push({
      info: (open[1] ?? '').trim().split(/\s+/).filter(Boolean),
      lines: body,
      line: start + 1,
    });
  }
  return out;
}

function examplesOf(block: Block): Example[] {
  const out: Example[] = [];
  let current: { command: string[]; output: string[]; line: number } | undefined;
  let continued = false;
  block.lines.forEach((text, k) => {
    if (continued) {
      current!.command.push(text);
      continued = text.endsWith('\\');
    } else if (text.startsWith('$ ')) {
      if (current !== undefined) out.push(finish(current));
      current = { command: [text.slice(2)], output: [], line: block.line + k + 1 };
      continued = text.endsWith('\\');
    } else {
      if (current === undefined)
        throw new Error(`README.md:${block.line + k + 1}: output before any command`);
      current.output.push(text);
    }
  });
  if (current !== undefined) out.push(finish(current));
  return out;
}

function finish(e: { command: string[]; output: string[]; line: number }): Example {
  return { command: e.command.join('\n'), expected: e.output.join('\n'), line: e.line };
}

/** Ids and timings as placeholders; no trailing spaces or blank lines. */
function comparable(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\b\d+(?:\.\d+)?\s?(?:ms|s)\b/g, '<time>')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n+$/, '');
}

/**
 * The model's answers for each `histlint run` example, in README order: a
 * part of the command that picks it out, then the answers its requests get.
 */
const RUNS: { command: string; replies: MockReply[] }[] = [
  {
    command: '--prompt "Is it raining in Faro?"',
    replies: [{ text: 'It is dry in Faro, 21 °C.', usage: { input: 812, output: 11 } }],
  },
  {
    command: '--prompt "Hello"',
    replies: [{ text: 'Hello! How can I help?', usage: { input: 9, output: 8 } }],
  },
  {
    command: '--prompt "Which JSON files are in this folder?"',
    replies: [
      {
        toolCalls: [{ id: 'call_ls1', name: 'list_directory', arguments: '{"path":"."}' }],
        usage: { input: 820, output: 41 },
      },
      {
        text: 'There are four: anthropic-request.json, client-history.json, interrupted-run.json and openai-tool-after-user.json.',
        usage: { input: 897, output: 12 },
      },
    ],
  },
  {
    command: '--prompt "Read each one and say what it holds."',
    replies: [
      {
        toolCalls: [
          { id: 'toolu_r1', name: 'read_file', arguments: '{"path":"anthropic-request.json"}' },
          { id: 'toolu_r2', name: 'read_file', arguments: '{"path":"client-history.json"}' },
        ],
        usage: { input: 2710, output: 96 },
      },
      {
        toolCalls: [
          { id: 'toolu_r3', name: 'read_file', arguments: '{"path":"interrupted-run.json"}' },
        ],
        usage: { input: 3410, output: 92 },
      },
      { status: 529, message: 'Overloaded', type: 'overloaded_error' },
      { status: 529, message: 'Overloaded', type: 'overloaded_error' },
      { status: 529, message: 'Overloaded', type: 'overloaded_error' },
    ],
  },
  {
    command: '--mcp "node fixtures/examples/mcp-files.mjs fixtures/examples" --write',
    replies: [
      {
        text: 'anthropic-request.json is a Messages request whose tool call never got its result; client-history.json is a chat with a planted system prompt and a file:// image; interrupted-run.json is a weather agent run that crashed mid-call.',
        usage: { input: 3480, output: 241 },
      },
    ],
  },
];

const blocks = blocksOf(README);
const shellBlocks = blocks.filter((b) => SHELLS.has(b.info[0] ?? ''));
const executed = shellBlocks.filter((b) => !b.info.includes('not-executed'));
const examples = executed.flatMap((b) => examplesOf(b));

describe('README.md code blocks', () => {
  it('has examples to run', () => {
    expect(examples.length).toBeGreaterThan(10);
  });

  it('marks every shell block that is not run, with its reason', () => {
    for (const b of shellBlocks) {
      const where = `README.md:${b.line}`;
      if (!b.info.includes('not-executed')) {
        expect(b.info[0], `${where}: an executed example is a console block with $ lines`).toBe(
          'console',
        );
        continue;
      }
      const reason = b.info[b.info.indexOf('not-executed') + 1];
      expect(['setup', 'network'], `${where}: not-executed needs a reason`).toContain(reason);
      if (reason === 'setup')
        for (const l of b.lines)
          expect(l.trim() === '' || /^(\$ )?npm /.test(l), `${where}: "${l}" is not set-up`).toBe(
            true,
          );
    }
  });

  it('hides no command in a block that is not run', () => {
    for (const b of blocks.filter((x) => !SHELLS.has(x.info[0] ?? '')))
      for (const l of b.lines)
        expect(l.startsWith('$ '), `README.md:${b.line}: "${l}" is a command`).toBe(false);
  });
});

describe('README.md code that lives in files', () => {
  it('shows examples/server-sanitize.mjs as it is (test/examples.test.ts runs it)', () => {
    const heading = README.indexOf('### Sanitizing a history a client sent');
    expect(heading).toBeGreaterThan(-1);
    const block = blocks.find(
      (b) => b.info[0] === 'js' && b.line > README.slice(0, heading).split('\n').length,
    );
    expect(block, 'a js block after the heading').toBeDefined();
    const file = readFileSync(path.join(ROOT, 'examples', 'server-sanitize.mjs'), 'utf8');
    expect(block!.lines.join('\n') + '\n').toBe(file);
  });
});

describe('README.md examples, run as written', () => {
  let work: string;
  let mock: MockLlm;
  const outputs: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'histlint-readme-'));
    mkdirSync(path.join(work, 'fixtures'));
    cpSync(path.join(ROOT, 'fixtures', 'examples'), path.join(work, 'fixtures', 'examples'), {
      recursive: true,
    });
    // The MCP example server imports the SDK from the project's node_modules.
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'));
    const bin = path.join(work, '.bin');
    mkdirSync(bin);
    writeFileSync(
      path.join(bin, 'histlint'),
      `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, 'bin', 'histlint.js')}" "$@"\n`,
    );
    chmodSync(path.join(bin, 'histlint'), 0o755);

    mock = await startMockLlm();
    const runs = examples.filter((e) => /\bhistlint run\b/.test(e.command));
    expect(runs.length, 'one RUNS entry per run example').toBe(RUNS.length);
    runs.forEach((e, k) => {
      expect(e.command, `README.md:${e.line}: RUNS[${k}]`).toContain(RUNS[k]!.command);
      mock.script(...RUNS[k]!.replies);
    });

    const MARK = '\u001e';
    const script = [
      'exec 2>&1',
      `export PATH="${bin}:$PATH"`,
      // `npx histlint` is the histlint under test, without a registry lookup.
      'npx() { if [ "$1" = histlint ]; then shift; histlint "$@"; else command npx "$@"; fi; }',
      // The marker keeps the exit code of the command before it, for an `echo $?`.
      ...examples.flatMap((e, k) => [
        `__status=$?; printf '${MARK}%s\\n' ${k}; (exit $__status)`,
        e.command.replace(
          /--base-url http:\/\/127\.0\.0\.1:\d+\/v1/g,
          `--base-url ${mock.openaiBase}`,
        ),
      ]),
      `printf '${MARK}end\\n'`,
    ].join('\n');
    writeFileSync(path.join(work, '.readme.sh'), script + '\n');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: work,
      LANG: 'C.UTF-8',
      OPENAI_BASE_URL: mock.openaiBase,
      ANTHROPIC_BASE_URL: mock.url,
    };
    const text = await new Promise<string>((resolve, reject) => {
      const child = spawn('bash', ['.readme.sh'], {
        cwd: work,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
      child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
      child.on('error', reject);
      child.on('close', () => resolve(out));
    });
    const pieces = text.split(MARK);
    if (process.env.README_DUMP)
      writeFileSync(process.env.README_DUMP, JSON.stringify(pieces, null, 1));
    for (const piece of pieces.slice(1)) {
      const nl = piece.indexOf('\n');
      const k = piece.slice(0, nl);
      if (k !== 'end') outputs[Number(k)] = piece.slice(nl + 1);
    }
  }, 300_000);

  afterAll(async () => {
    await mock?.close();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it.each(examples.map((e, k) => ({ ...e, k })))('README.md:$line $command', ({ k, expected }) => {
    expect(outputs[k], 'the command ran').toBeDefined();
    expect(comparable(outputs[k]!)).toBe(comparable(expected));
  });

  it('sent the model only requests the provider accepts', () => {
    expect(mock.takeViolations()).toEqual([]);
  });
});
