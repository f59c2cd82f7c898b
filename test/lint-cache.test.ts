/**
 * `lint --cache` (src/lint/cache.ts): the options hash, the cache file's text, then the CLI run
 * twice in one temp folder: a clean file is skipped (not even read as a conversation) while its
 * bytes, options and histlint's version match; a file with findings is linted every time.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  formatCache,
  hashBytes,
  hashFile,
  isFresh,
  optionsHash,
  parseCache,
  type CacheEntry,
} from '../src/lint/cache.js';
import { runCli } from './helpers/cli.js';

const work = mkdtempSync(path.join(tmpdir(), 'histlint-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('cache pieces', () => {
  it('hashes the options that decide findings, whatever the rules order', () => {
    const a = optionsHash({
      rules: new Map([
        ['a', 'error'],
        ['b', 'warn'],
      ]),
    });
    const b = optionsHash({
      rules: new Map([
        ['b', 'warn'],
        ['a', 'error'],
      ]),
    });
    expect(a).toBe(b);
    expect(optionsHash({ rules: new Map([['a', 'error']]) })).not.toBe(a);
    const base = { rules: new Map([['a', 'error' as const]]) };
    const hashes = new Set([
      optionsHash(base),
      optionsHash({ ...base, from: 'openai-chat' }),
      optionsHash({ ...base, pointer: ['request'] }),
      optionsHash({ ...base, kind: 'jsonl' }),
      optionsHash({ ...base, leavePending: true }),
      optionsHash({ ...base, target: 'none' }),
    ]);
    expect(hashes.size).toBe(6);
  });

  it('hashes a file as its bytes', () => {
    const file = path.join(work, 'bytes.json');
    writeFileSync(file, '{"version": 1}');
    expect(hashFile(file)).toBe(hashBytes(Buffer.from('{"version": 1}')));
  });

  it('needs the bytes, the options and the version to match', () => {
    const entry: CacheEntry = { sha256: 's', options: 'o', version: '1.0.0', targets: [null] };
    expect(isFresh(entry, 's', 'o', '1.0.0')).toBe(true);
    expect(isFresh(entry, 't', 'o', '1.0.0')).toBe(false);
    expect(isFresh(entry, 's', 'p', '1.0.0')).toBe(false);
    expect(isFresh(entry, 's', 'o', '1.0.1')).toBe(false);
    expect(isFresh(undefined, 's', 'o', '1.0.0')).toBe(false);
  });

  it('reads back what it writes and refuses a foreign file', () => {
    const entries = {
      'b.json': { sha256: 's', options: 'o', version: 'v', targets: ['openai-chat'] },
    };
    expect(parseCache(formatCache(entries))).toEqual(entries);
    expect(parseCache('{')).toBeNull();
    expect(parseCache('{"files": {}}')).toBeNull();
    expect(parseCache('{"cache": "histlint-cache", "layout": 1, "files": {"a": {}}}')).toBeNull();
  });
});

/** A clean v1 conversation, or one with an orphan tool result. */
function conversation(orphan: boolean): string {
  const messages: unknown[] = [{ role: 'user', parts: [{ type: 'text', text: 'Hi' }] }];
  if (orphan) {
    messages.push({
      role: 'tool',
      parts: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: 'x' }] }],
    });
  }
  messages.push({ role: 'assistant', parts: [{ type: 'text', text: 'ok' }] });
  return `${JSON.stringify({ version: 1, messages }, null, 2)}\n`;
}

interface Report {
  files: { file: string; target: unknown; findings: { ruleId: string }[] }[];
  errorCount: number;
}

describe('lint --cache run twice', () => {
  const cwd = mkdtempSync(path.join(work, 'run-'));
  const cacheFile = path.join(cwd, '.histlintcache');
  const cached = (): string[] =>
    Object.keys((JSON.parse(readFileSync(cacheFile, 'utf8')) as { files: object }).files);
  const lint = async (
    ...args: string[]
  ): Promise<{ code: number; report: Report; stderr: string }> => {
    const r = await runCli(['lint', '--cache', '--format', 'json', ...args], { cwd });
    return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
  };

  it('records clean files only', async () => {
    writeFileSync(path.join(cwd, 'clean.json'), conversation(false));
    writeFileSync(path.join(cwd, 'bad.json'), conversation(true));
    const r = await lint('clean.json', 'bad.json');
    expect(r.code).toBe(1);
    expect(cached()).toEqual(['clean.json']);
  });

  it('skips a clean file the second time, still reports one with findings', async () => {
    const r = await lint('clean.json', 'bad.json');
    expect(r.code).toBe(1);
    expect(r.report.files.map((f) => [f.file, f.target, f.findings.length])).toEqual([
      ['clean.json', null, 0],
      ['bad.json', null, 1],
    ]);
    expect(r.stderr).toBe('');
    expect(cached()).toEqual(['clean.json']);
  });

  it('lints a changed file again', async () => {
    writeFileSync(path.join(cwd, 'clean.json'), conversation(true));
    const r = await lint('clean.json');
    expect(r.code).toBe(1);
    expect(r.report.errorCount).toBe(1);
    expect(cached()).toEqual([]);
    writeFileSync(path.join(cwd, 'clean.json'), conversation(false));
    expect((await lint('clean.json')).code).toBe(0);
    expect(cached()).toEqual(['clean.json']);
  });

  it('lints again when the options change', async () => {
    writeFileSync(
      path.join(cwd, 'clean.json'),
      '{"version": 1, "messages": [{"role": "user", "parts": []}]}',
    );
    // Clean with the rule off, recorded under those options.
    expect(
      (await lint('--rule', 'empty-message=off', 'clean.json')).report.files[0]!.findings,
    ).toEqual([]);
    expect(cached()).toEqual(['clean.json']);
    const r = await lint('clean.json');
    expect(r.report.files[0]!.findings.map((f) => f.ruleId)).toEqual(['empty-message']);
    expect(cached()).toEqual([]);
  });

  it('skips without reading: a cached file is not linted at all', async () => {
    writeFileSync(path.join(cwd, 'clean.json'), conversation(false));
    await lint('clean.json');
    // The file turns bad and its new hash is forged into the clean entry: only a skip makes
    // the next run clean.
    writeFileSync(path.join(cwd, 'clean.json'), conversation(true));
    const data = JSON.parse(readFileSync(cacheFile, 'utf8')) as {
      files: Record<string, { sha256: string }>;
    };
    data.files['clean.json']!.sha256 = hashFile(path.join(cwd, 'clean.json'));
    writeFileSync(cacheFile, JSON.stringify(data));
    const r = await lint('clean.json');
    expect(r.code).toBe(0);
    expect(r.report.files[0]!.findings).toEqual([]);
  });

  it('ignores a corrupt cache with one note and rewrites it', async () => {
    writeFileSync(path.join(cwd, 'clean.json'), conversation(false));
    writeFileSync(cacheFile, 'not json');
    const r = await lint('clean.json');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'histlint: note: .histlintcache is not a histlint cache; ignored, it will be rewritten\n',
    );
    expect(cached()).toEqual(['clean.json']);
    expect((await lint('clean.json')).stderr).toBe('');
  });

  it('--fix records a fixed file only when it is clean after fixing', async () => {
    writeFileSync(path.join(cwd, 'fix.json'), conversation(true));
    const r = await lint('--fix', 'fix.json');
    expect(r.code).toBe(0);
    expect(cached()).toContain('fix.json');
    const data = JSON.parse(readFileSync(cacheFile, 'utf8')) as {
      files: Record<string, { sha256: string }>;
    };
    expect(data.files['fix.json']!.sha256).toBe(hashFile(path.join(cwd, 'fix.json')));
  });

  it('--cache-location writes elsewhere', async () => {
    const r = await runCli(
      ['lint', '--cache', '--cache-location', 'tmp/lint.cache', 'clean.json'],
      { cwd },
    );
    expect(r.code).toBe(0);
    expect(parseCache(readFileSync(path.join(cwd, 'tmp', 'lint.cache'), 'utf8'))).not.toBeNull();
  });

  it('a cache that cannot be written is a note; the report stands', async () => {
    const r = await runCli(['lint', '--cache', '--cache-location', '.', 'clean.json'], { cwd });
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^histlint: note: cannot read \. \(.*\); linting every file$/);
    expect(lines[1]).toMatch(/^histlint: note: cannot write \.: .*; the cache is not updated$/);
  });
});
