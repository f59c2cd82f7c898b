/**
 * `histlint show` and `histlint stats` beyond the fixed scenarios of
 * fixtures/cli/show-* and stats-*: what depends on the terminal (width,
 * colors), what must never reach it (control characters), and the agreement
 * of the JSON outputs with themselves.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import { displayWidth, preview } from '../src/cli/terminal-text.js';
import { ROOT, runCli } from './helpers/cli.js';
import { DANGLING_SESSION } from './helpers/lint-fixtures.js';

const MARKS_DIR = path.join(ROOT, 'fixtures', 'cli', 'show-timeline-marks', 'files');
/** The timeline fixture, relative to {@link MARKS_DIR} (the working folder of these runs). */
const MARKS = 'history.json';
const LINES = path.join(ROOT, 'fixtures', 'cli', 'show-format-json', 'files', 'history.jsonl');

const ANSI = /\u001b\[[0-9;]*m/g;

/** Runs `main` with standard output as a terminal of `columns` columns (or one that reports none). */
async function onTerminal(
  argv: string[],
  columns: number | undefined,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main({
    argv,
    stdin: { isTTY: true, async *[Symbol.asyncIterator]() {} },
    stdout: {
      write: (s: string) => (stdout += s),
      isTTY: true,
      ...(columns === undefined ? {} : { columns }),
    },
    stderr: { write: (s: string) => (stderr += s), isTTY: true },
    cwd: MARKS_DIR,
    env,
  });
  return { code, stdout, stderr };
}

/** The lines of a timeline that show a part (not the header, not a finding, not blank). */
function partLines(out: string): string[] {
  return out
    .replace(ANSI, '')
    .split('\n')
    .filter((l) => l !== '' && !/^\s+[✖⚠] /.test(l) && !l.startsWith(MARKS));
}

/** The quoted previews of a line. */
function previews(line: string): string[] {
  return [...line.matchAll(/ ("(?:[^"\\]|\\.)*")/g)].map((m) => m[1]!);
}

const work = mkdtempSync(path.join(tmpdir(), 'histlint-show-stats-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('show on a terminal', () => {
  it.each([70, 80, 100, 140])('fits every part line into %i columns', async (columns) => {
    const r = await onTerminal(['show', MARKS], columns);
    expect(r.code).toBe(0);
    const lines = partLines(r.stdout);
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
    // The text is cut, not the ids, names or marks.
    expect(r.stdout).toContain('tool-call c2 write');
    expect(r.stdout).toContain('→ no result');
    expect(r.stdout).toContain('← duplicate (call in #3)');
  });

  it('on a very narrow terminal, drops the text before the ids, names and marks', async () => {
    const r = await onTerminal(['show', MARKS, '--no-color'], 40);
    expect(r.stdout).toContain(
      '\n               tool-result c1 search failed  ← duplicate (call in #3)\n',
    );
    expect(r.stdout).toContain('\n#2  tool       tool-result c3 read  ← before its call (in #3)\n');
    // The run stamp goes first, the text only when even a few columns do not fit.
    expect(r.stdout).not.toContain('run 01936f6e');
    expect(r.stdout).toContain('#0  system     text "You are a careful…"');
  });

  it('uses a wide terminal for more text, and cuts with "…"', async () => {
    const narrow = (await onTerminal(['show', MARKS, '--no-color'], 70)).stdout;
    const wide = (await onTerminal(['show', MARKS, '--no-color'], 200)).stdout;
    expect(narrow).toContain('…"');
    expect(wide).toContain(
      'text "The report says \\"all clear\\"\\u001b[31m and the picture shows a cat sitting on a very long windowsill in the sun."',
    );
    expect(wide.length).toBeGreaterThan(narrow.length);
  });

  it('--width wins over the terminal width', async () => {
    const r = await onTerminal(['show', MARKS, '--no-color', '--width', '4'], 200);
    for (const line of partLines(r.stdout)) {
      for (const p of previews(line)) expect(displayWidth(p.slice(1, -1))).toBeLessThanOrEqual(4);
    }
    expect(r.stdout).toContain('text "You…"');
  });

  it('--width 0 shows no text, only what identifies and pairs each part', async () => {
    const r = await runCli(['show', MARKS, '--width', '0'], { cwd: MARKS_DIR });
    const lines = partLines(r.stdout);
    expect(lines.some((l) => l.includes('"'))).toBe(false);
    expect(r.stdout).toContain('tool-call c1 search  → result in #4');
  });

  it('a terminal that reports no width gets the default of 60 columns of text', async () => {
    const tty = await onTerminal(['show', MARKS, '--no-color'], undefined);
    const piped = await runCli(['show', MARKS], { cwd: MARKS_DIR });
    expect(tty.stdout).toBe(piped.stdout);
  });

  it('when piped, the width of the terminal does not matter and there are no colors', async () => {
    let stdout = '';
    await main({
      argv: ['show', MARKS],
      stdin: { isTTY: false, async *[Symbol.asyncIterator]() {} },
      stdout: { write: (s: string) => (stdout += s), isTTY: false, columns: 20 },
      stderr: { write: () => true },
      cwd: MARKS_DIR,
      env: {},
    });
    expect(stdout).toBe(readFileSync(path.join(MARKS_DIR, '..', 'stdout.txt'), 'utf8'));
  });

  it('colors on a terminal only change decoration, and marks problems in red', async () => {
    const colored = await onTerminal(['show', MARKS], 100);
    const plain = await onTerminal(['show', MARKS, '--no-color'], 100);
    expect(colored.stdout).toMatch(ANSI);
    expect(plain.stdout).not.toMatch(/\u001b/);
    expect(colored.stdout.replace(ANSI, '')).toBe(plain.stdout);
    expect(colored.stdout).toContain('\u001b[31m→ no result\u001b[39m');
    expect(colored.stdout).toContain('\u001b[32m→ result in #4\u001b[39m');
  });

  it('NO_COLOR and TERM=dumb turn colors off; --color and FORCE_COLOR turn them on when piped', async () => {
    expect((await onTerminal(['show', MARKS], 100, { NO_COLOR: '1' })).stdout).not.toMatch(
      /\u001b/,
    );
    expect((await onTerminal(['show', MARKS], 100, { TERM: 'dumb' })).stdout).not.toMatch(/\u001b/);
    expect((await runCli(['show', MARKS, '--color'], { cwd: MARKS_DIR })).stdout).toMatch(ANSI);
    expect(
      (await runCli(['show', MARKS], { cwd: MARKS_DIR, env: { FORCE_COLOR: '1' } })).stdout,
    ).toMatch(ANSI);
  });
});

describe('show never lets the history drive the terminal', () => {
  it('escapes control, bidi and separator characters in every place the input reaches', async () => {
    const nasty = 'x\u001b]0;title\u0007\u009b31m\u202e\u2028\u200b\r\ny';
    const file = path.join(work, 'nasty.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        messages: [
          {
            role: 'user',
            name: nasty,
            parts: [
              { type: 'text', text: nasty },
              { type: 'image', url: nasty, mediaType: nasty },
              { type: nasty },
            ],
          },
          {
            role: nasty,
            parts: [{ type: 'tool-call', id: nasty, name: nasty, arguments: nasty }],
          },
          {
            role: 'tool',
            parts: [{ type: 'tool-result', callId: nasty, name: nasty, content: [] }],
          },
        ],
      }),
    );
    for (const columns of [undefined, 30, 400]) {
      const r = await onTerminal(['show', file, '--no-color'], columns);
      expect(r.code).toBe(0);
      // Only "\n" ends lines; nothing else below U+0020, no C1, no bidi or zero-width controls.
      expect(r.stdout).not.toMatch(
        /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e]/,
      );
      expect(r.stdout).toContain('\\u001b]0;title\\u0007\\u009b31m\\u202e');
    }
  });

  it('cuts text between characters, never inside an escape or a surrogate pair', () => {
    const text = 'ab\u001bcd😀ef"gh\\ij\uD800kl日本語';
    for (let width = 0; width < 40; width++) {
      const p = preview(text, width);
      const inner = p.slice(1, -1);
      expect(displayWidth(inner)).toBeLessThanOrEqual(Math.max(width, 1));
      // What is shown (without the ellipsis) is a valid JSON string literal of a prefix of the text.
      const shown = JSON.parse(`"${inner.replace(/…$/, '')}"`) as string;
      expect(text.replace(/\s+/g, ' ').startsWith(shown)).toBe(true);
      expect(inner.endsWith('…')).toBe(displayWidth(JSON.stringify(text).slice(1, -1)) > width);
    }
  });

  it('counts wide characters as two columns', () => {
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(preview('日本語のテキスト', 7)).toBe('"日本語…"');
  });
});

describe('show: what it reads and reports', () => {
  it('a JSONL line that cannot be read is reported; the other lines are still shown (exit 2)', async () => {
    const file = path.join(work, 'badline.jsonl');
    const conversation = (text: string): string =>
      JSON.stringify({ version: 1, messages: [{ role: 'user', parts: [{ type: 'text', text }] }] });
    writeFileSync(file, `${conversation('first')}\n{oops\n${conversation('third')}\n`);
    const r = await runCli(['show', file, '--no-color']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^.*badline\.jsonl:2:2: error: /);
    expect(r.stdout).toContain('first');
    expect(r.stdout).toContain('third');
    // The line asked for is the bad one: nothing to show.
    const one = await runCli(['show', file, '--line', '2']);
    expect(one.code).toBe(2);
    expect(one.stdout).toBe('');
  });

  it('--line on a Claude Code session (one conversation over all its lines) is a usage error', async () => {
    const file = path.join(work, 'session.jsonl');
    writeFileSync(file, DANGLING_SESSION);
    const r = await runCli(['show', file, '--line', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--line: ');
    expect(r.stderr).toContain('is one conversation over all its lines');
    expect((await runCli(['show', file])).code).toBe(0);
  });

  it('standard input named by --stdin-filename gets the config overrides for that name', async () => {
    const dir = mkdtempSync(path.join(work, 'ov-'));
    writeFileSync(
      path.join(dir, 'histlint.config.json'),
      JSON.stringify({
        overrides: [{ files: ['legacy/**'], rules: { 'dangling-tool-call': 'off' } }],
      }),
    );
    const stdin = JSON.stringify({
      version: 1,
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'go' }] },
        { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: '{}' }] },
      ],
    });
    const ruleIds = async (name: string): Promise<string[]> => {
      const r = await runCli(['show', '-', '--stdin-filename', name, '--format', 'json'], {
        cwd: dir,
        stdin,
      });
      return (
        JSON.parse(r.stdout) as { conversations: { findings: { ruleId: string }[] }[] }
      ).conversations[0]!.findings.map((f) => f.ruleId);
    };
    expect(await ruleIds('legacy/a.json')).not.toContain('dangling-tool-call');
    expect(await ruleIds('new/a.json')).toContain('dangling-tool-call');
  });

  it('names the pointer it used, from the config too, and escapes a hostile file name', async () => {
    const dir = mkdtempSync(path.join(work, 'ptr-'));
    writeFileSync(path.join(dir, 'histlint.config.json'), JSON.stringify({ pointer: '/nope' }));
    writeFileSync(path.join(dir, 'w.json'), '{"request": {}}');
    const r = await runCli(['show', 'w.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('w.json: error: nothing at pointer "/nope"\n');
    const evil = 'e\u001b[31mvil\u202e\u061c.json';
    writeFileSync(path.join(dir, evil), '{oops');
    const bad = await runCli(['show', evil, '--pointer', ''], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toMatch(/[\u001b\u202e\u061c]/);
    expect(bad.stderr).toContain('e\\u001b[31mvil\\u202e\\u061c.json');
  });
});

describe('show --format json', () => {
  it('links calls and results both ways, and marks every other call and result', async () => {
    const r = await runCli(['show', '--format', 'json', MARKS], { cwd: MARKS_DIR });
    expect(r.code).toBe(0);
    const { conversations } = JSON.parse(r.stdout) as {
      conversations: {
        file: string;
        format: string;
        messages: {
          index: number;
          parts: {
            index: number;
            type: string;
            link?: { to: number; part: number };
            mark?: string;
            call?: { to: number; part: number };
          }[];
        }[];
        findings: { ruleId: string; messageIndex?: number; partIndex?: number }[];
      }[];
    };
    expect(conversations).toHaveLength(1);
    const [conv] = conversations;
    expect(conv!.file).toBe('history.json');
    expect(conv!.format).toBe('histlint');
    const at = (m: number, p: number) => conv!.messages[m]!.parts[p]!;
    for (const m of conv!.messages) {
      for (const p of m.parts) {
        if (p.type !== 'tool-call' && p.type !== 'tool-result') {
          expect(p.link ?? p.mark).toBeUndefined();
          continue;
        }
        // Exactly one of link and mark.
        expect((p.link === undefined) !== (p.mark === undefined)).toBe(true);
        if (p.link !== undefined) {
          const other = at(p.link.to, p.link.part);
          expect(other.type).toBe(p.type === 'tool-call' ? 'tool-result' : 'tool-call');
          if (p.type === 'tool-result') expect(other.link).toEqual({ to: m.index, part: p.index });
        }
        if (p.mark === 'before-call' || p.mark === 'duplicate') {
          expect(at(p.call!.to, p.call!.part).type).toBe('tool-call');
        }
      }
    }
    // Each pairing finding sits on a part with the matching mark.
    const markOf: Record<string, string> = {
      'dangling-tool-call': 'no-result',
      'orphan-tool-result': 'orphan',
      'result-before-call': 'before-call',
      'duplicate-tool-result': 'duplicate',
      'missing-call-id': 'unpairable',
    };
    const pairingFindings = conv!.findings.filter((f) => f.ruleId in markOf);
    expect(pairingFindings.length).toBe(6);
    for (const f of pairingFindings)
      expect(at(f.messageIndex!, f.partIndex!).mark).toBe(markOf[f.ruleId]);
  });

  it('is the same on a terminal and never colored', async () => {
    const piped = await runCli(['show', '-f', 'json', LINES]);
    const tty = await onTerminal(['show', '-f', 'json', LINES, '--color'], 40);
    expect(tty.stdout).toBe(piped.stdout);
    expect(tty.stdout).not.toMatch(/\u001b/);
  });

  it('reads standard input, named by --stdin-filename', async () => {
    const r = await runCli(['show', '-f', 'json', '-', '--stdin-filename', 'in.jsonl'], {
      stdin: readFileSync(LINES),
    });
    expect(r.code).toBe(0);
    const parsed = JSON.parse(r.stdout) as { conversations: { file: string; line: number }[] };
    expect(parsed.conversations.map((c) => [c.file, c.line])).toEqual([
      ['in.jsonl', 1],
      ['in.jsonl', 3],
    ]);
  });
});

interface StatsRow {
  file: string;
  conversations: number;
  messages: number;
  roles: Record<'user' | 'assistant' | 'tool' | 'system' | 'other', number>;
  toolCalls: number;
  toolResults: number;
  dangling: number;
  orphans: number;
  tokens: number;
  bytes: number;
}

describe('stats', () => {
  const dir = path.join(work, 'stats');
  mkdirSync(path.join(dir, 'data', 'skip'), { recursive: true });
  writeFileSync(path.join(dir, 'data', 'marks.json'), readFileSync(path.join(MARKS_DIR, MARKS)));
  writeFileSync(path.join(dir, 'data', 'lines.jsonl'), readFileSync(LINES));
  writeFileSync(
    path.join(dir, 'data', 'skip', 'also.json'),
    readFileSync(path.join(MARKS_DIR, MARKS)),
  );

  it('JSON: roles add up to messages, the total is the sum of the files, bytes are the file sizes', async () => {
    const r = await runCli(['stats', '--format', 'json', 'data'], { cwd: dir });
    expect(r.code).toBe(0);
    const parsed = JSON.parse(r.stdout) as {
      files: StatsRow[];
      total: StatsRow;
      tokenizer: string;
    };
    expect(parsed.tokenizer).toBe('o200k_base');
    expect(parsed.files.map((f) => f.file)).toEqual([
      'data/lines.jsonl',
      'data/marks.json',
      'data/skip/also.json',
    ]);
    for (const f of parsed.files) {
      expect(Object.values(f.roles).reduce((a, b) => a + b, 0)).toBe(f.messages);
      expect(f.bytes).toBe(readFileSync(path.join(dir, f.file)).length);
    }
    const marks = parsed.files[1]!;
    expect(marks).toMatchObject({
      conversations: 1,
      messages: 8,
      roles: { user: 2, assistant: 2, tool: 3, system: 1, other: 0 },
      toolCalls: 4,
      toolResults: 4,
      dangling: 2,
      orphans: 1,
    });
    for (const key of [
      'conversations',
      'messages',
      'toolCalls',
      'toolResults',
      'dangling',
      'orphans',
      'tokens',
      'bytes',
    ] as const) {
      expect(parsed.total[key]).toBe(parsed.files.reduce((n, f) => n + f[key], 0));
    }
    expect(parsed.total.roles.tool).toBe(parsed.files.reduce((n, f) => n + f.roles.tool, 0));
  });

  it('a JSONL file with lines that cannot be read counts the others and lists those lines (exit 2)', async () => {
    const file = path.join(work, 'stats-badline.jsonl');
    const conversation = JSON.stringify({
      version: 1,
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
    });
    writeFileSync(file, `${conversation}\n{oops\n${conversation}\n`);
    const r = await runCli(['stats', file, '--format', 'json']);
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout) as {
      files: { conversations: number; unreadLines?: number[] }[];
      total: { conversations: number };
    };
    expect(out.files[0]).toMatchObject({ conversations: 2, unreadLines: [2] });
    expect(out.total.conversations).toBe(2);
  });

  it('--ignore skips files, and the cl100k_base tokenizer counts differently', async () => {
    const r = await runCli(
      ['stats', '-f', 'json', '--ignore', 'data/skip/**', '--tokenizer', 'cl100k_base', 'data'],
      { cwd: dir },
    );
    const parsed = JSON.parse(r.stdout) as { files: StatsRow[]; tokenizer: string };
    expect(parsed.files.map((f) => f.file)).toEqual(['data/lines.jsonl', 'data/marks.json']);
    expect(parsed.tokenizer).toBe('cl100k_base');
  });

  it('a pattern that matches nothing is exit 2 unless --no-error-on-unmatched-pattern', async () => {
    const r = await runCli(['stats', 'nothing/*.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing/*.json');
    const ok = await runCli(
      ['stats', '--no-error-on-unmatched-pattern', 'nothing/*.json', 'data'],
      {
        cwd: dir,
      },
    );
    expect(ok.code).toBe(0);
  });

  it('the table has one row per file, a rule and the total, all rows as wide as the header', async () => {
    const r = await runCli(['stats', 'data'], { cwd: dir });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^file\s+conv\s+messages\s+user\/asst\/tool\/sys\s+calls\s+results\s+dangling\s+orphans\s+tokens\s+bytes$/,
    );
    expect(lines).toHaveLength(6);
    expect(lines[4]).toMatch(/^-+$/);
    expect(lines[5]!.startsWith('total ')).toBe(true);
    for (const line of lines) expect(line.length).toBe(lines[0]!.length);
    // The same table on a terminal, without colors to strip.
    const tty = await onTerminal(['stats', path.join(dir, 'data')], 80);
    expect(tty.stdout.split('\n').slice(1)).toHaveLength(lines.length);
  });

  it('pads a file name of wide characters by the columns it takes', async () => {
    const wide = mkdtempSync(path.join(work, 'wide-'));
    const conversation = JSON.stringify([{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }]);
    writeFileSync(path.join(wide, '会話ログ.json'), conversation);
    writeFileSync(path.join(wide, 'a.json'), conversation);
    const r = await runCli(['stats', '.'], { cwd: wide });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => displayWidth(l))).toEqual(lines.map(() => displayWidth(lines[0]!)));
  });
});
