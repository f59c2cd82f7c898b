/**
 * The bench corpus generator (scripts/bench-corpus.mjs, issue 18) keeps its word: a tiny corpus
 * of every input, linted by the engine with the CLI's defaults, shows exactly the finding counts
 * its expected.json files announce, and the same seed makes the same bytes. The bench checks the
 * same on the full corpus through the CLI; this is where a wrong expectation fails first.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { formatByName } from '../src/formats/index.js';
import { resolveRules } from '../src/lint/api.js';
import { lintBytes, type Finding } from '../src/lint/engine.js';

interface Expected {
  input: string;
  format: string;
  conversations: number;
  units: number;
  withFindings: number;
  defects: Record<string, number>;
  counts: Record<string, number>;
}

interface Input {
  name: string;
  path: string;
  layout: 'files' | 'lines' | 'file';
  format: string;
  bytes: number;
  sliceOf?: string;
  expected: Expected;
}

interface Manifest {
  seed: number;
  inputs: Input[];
}

interface ReportFile {
  file: string;
  findings: Finding[];
  error?: { message: string };
}

interface Counts {
  counts: Record<string, number>;
  withFindings: number;
  errors: string[];
}

/** The part of scripts/bench-corpus.mjs this suite uses. */
interface CorpusModule {
  DEFECTS: Record<string, Record<string, string[]>>;
  generateCorpus(options: {
    dir: string;
    seed?: number;
    sizes: Record<string, number>;
    formats: typeof formatByName;
  }): Manifest;
  reportCounts(report: { files: ReportFile[] }, layout: string): Counts;
  countMismatches(expected: Expected, actual: Counts): string[];
}

// A variable specifier: the script is plain JavaScript without declarations.
const script = pathToFileURL(path.resolve('scripts/bench-corpus.mjs')).href;
const corpus = (await import(script)) as CorpusModule;

const SIZES = {
  files: 60,
  bigMB: 0.5,
  sliceMB: 0.2,
  sessions: 12,
  sessionConversations: 4,
  sessionMB: 0.3,
  defects: 0.3,
};

const work = mkdtempSync(path.join(tmpdir(), 'histlint-bench-corpus-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function generate(name: string, seed?: number): { dir: string; manifest: Manifest } {
  const dir = path.join(work, name);
  const options = { dir, sizes: SIZES, formats: formatByName };
  return {
    dir,
    manifest: corpus.generateCorpus(seed === undefined ? options : { ...options, seed }),
  };
}

const { dir, manifest } = generate('a');
const rules = resolveRules();

/** The files of an input, as `histlint lint` would find them. */
function filesOf(input: Input): string[] {
  const at = path.join(dir, input.path);
  if (input.layout !== 'files') return [at];
  return readdirSync(at)
    .sort()
    .map((f) => path.join(at, f));
}

/** Every file below `root`, relative to it, with its bytes. */
function tree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = path.join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(path.relative(root, p), readFileSync(p, 'latin1'));
    }
  };
  walk(root);
  return out;
}

describe('bench corpus', () => {
  it('makes every input the bench times, in every format', () => {
    expect(manifest.inputs.map((i) => i.name)).toEqual([
      'files-0',
      'files-50',
      'v1',
      'v1-0.2',
      'openai-chat',
      'openai-chat-0.2',
      'anthropic',
      'anthropic-0.2',
      'gemini',
      'claude-code',
      'claude-code-big',
    ]);
    const byName = new Map(manifest.inputs.map((i) => [i.name, i]));
    // The same conversations everywhere: the JSONL inputs hold as many, with the same defects.
    const v1 = byName.get('v1')!.expected;
    for (const name of ['openai-chat', 'anthropic', 'gemini']) {
      const e = byName.get(name)!.expected;
      expect(e.conversations).toBe(v1.conversations);
      expect(e.defects).toEqual(v1.defects);
    }
    expect(byName.get('files-0')!.expected.withFindings).toBe(0);
    const half = byName.get('files-50')!.expected;
    expect(half.withFindings / half.units).toBeGreaterThan(0.3);
    expect(half.withFindings / half.units).toBeLessThan(0.7);
    // Every kind of defect is planted somewhere, so every row of DEFECTS is checked below.
    for (const kind of Object.keys(corpus.DEFECTS)) expect(v1.defects[kind]).toBeGreaterThan(0);
    expect(byName.get('claude-code')!.expected.conversations).toBe(
      SIZES.sessions * SIZES.sessionConversations,
    );
  });

  it('writes each slice as the first lines of its input', () => {
    for (const input of manifest.inputs.filter((i) => i.sliceOf !== undefined)) {
      const whole = manifest.inputs.find((i) => i.name === input.sliceOf)!;
      const slice = readFileSync(path.join(dir, input.path));
      expect(slice.length).toBeGreaterThanOrEqual(SIZES.sliceMB * 2 ** 20);
      expect(slice.length).toBeLessThan(whole.bytes);
      const head = readFileSync(path.join(dir, whole.path)).subarray(0, slice.length);
      expect(head.equals(slice)).toBe(true);
    }
  });

  for (const input of manifest.inputs) {
    it(`${input.name}: lint reports exactly the planted counts of expected.json`, () => {
      const expected = JSON.parse(
        readFileSync(path.join(dir, input.name, 'expected.json'), 'utf8'),
      ) as Expected;
      expect(expected).toEqual(input.expected);
      const files: ReportFile[] = filesOf(input).map((file) => {
        const r = lintBytes(file, readFileSync(file), { rules, target: 'auto' });
        return r.error === undefined
          ? { file, findings: r.findings }
          : { file, findings: r.findings, error: r.error };
      });
      expect(files).toHaveLength(input.layout === 'files' ? expected.units : 1);
      const actual = corpus.reportCounts({ files }, input.layout);
      expect(corpus.countMismatches(expected, actual)).toEqual([]);
    });
  }

  it('makes the same bytes from the same seed, other bytes from another, and reuses a corpus', () => {
    const again = generate('b');
    expect(tree(again.dir)).toEqual(tree(dir));
    const other = generate('c', 7);
    expect(other.manifest.inputs.map((i) => i.expected.counts)).not.toEqual(
      manifest.inputs.map((i) => i.expected.counts),
    );
    // A matching stamp: nothing is written again.
    const stamp = statSync(path.join(dir, 'stamp.json')).mtimeMs;
    const first = statSync(path.join(dir, 'v1', 'v1.jsonl')).mtimeMs;
    expect(corpus.generateCorpus({ dir, sizes: SIZES, formats: formatByName })).toEqual(manifest);
    expect(statSync(path.join(dir, 'stamp.json')).mtimeMs).toBe(stamp);
    expect(statSync(path.join(dir, 'v1', 'v1.jsonl')).mtimeMs).toBe(first);
  });
});
