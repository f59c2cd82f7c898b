/**
 * Ground truth for the provider-target rules (SPEC §3, "Provider targets"):
 * real requests recorded by pydantic-ai in shared/corpus, each with the
 * provider's verdict (`provider_accepted`). Every record is linted with
 * `--target <its provider>` twice: through the engine (`lintText`, format
 * detected), and through the CLI as `histlint lint --pointer /request
 * --from P --target P --format json`, as `npm run corpus` does with the
 * built binary. An accepted record must get no `error` (from any rule but
 * the trust rules, whose errors are listed), and the rejected records whose
 * error is about the shape of the history (shared/corpus/SOURCES.md) must
 * be caught: with an error where the history alone explains the rejection,
 * with a warning where it depends on the model. The expectations live in
 * scripts/corpus-expectations.json, shared with `npm run corpus`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../src/formats/detect.js';
import { formatByName } from '../src/formats/index.js';
import { lintText, type Finding } from '../src/lint/engine.js';
import { SeverityResolver } from '../src/lint/severity.js';
import type { JsonValue } from '../src/model/json.js';
import { ROOT, runCli } from './helpers/cli.js';
import { CORPUS, describeShared } from './helpers/shared.js';

/** An entry of scripts/corpus-expectations.json: rules that fire on one cassette, and why. */
interface Expectation {
  rules: string[];
  why: string;
}

/** A rejected record: the verdict says whether the history explains the rejection. */
interface RejectedExpectation extends Expectation {
  /** `error`: the history alone explains it; `warn`: only for some models; `none`: a model or parameter error. */
  verdict: 'error' | 'warn' | 'none';
}

/** scripts/corpus-expectations.json, shared with `npm run corpus` (scripts/corpus.mjs). */
const EXPECTATIONS = JSON.parse(
  readFileSync(path.join(ROOT, 'scripts', 'corpus-expectations.json'), 'utf8'),
) as {
  folders: Folder[];
  trustRules: { rules: string[] };
  rejected: Tables<RejectedExpectation>;
  acceptedWarnings: Tables<Expectation>;
  acceptedTrustErrors: Tables<Expectation>;
};

/** Tables by folder (and a `$comment`). */
type Tables<T> = Record<string, Record<string, T> | string>;

interface Folder {
  folder: string;
  target: string;
  /** The format the records' requests are in (`--from`). */
  format: string;
}

const FOLDERS: Folder[] = EXPECTATIONS.folders;

/** The entries of one folder's table, without its `$comment`. */
function folderTable<T>(tables: Tables<T>, folder: string): Record<string, T> {
  const t = tables[folder];
  return typeof t === 'object' ? t : {};
}

/**
 * The target rules that fire on each rejected record, as `rule (severity)`.
 * SOURCES.md names the rejections about the shape of the history; each of
 * those is caught, with an error where the history alone explains it and a
 * warning where it depends on the model. The rest are model or parameter
 * errors (model id, temperature, effort level, a model without video, a URL
 * the provider could not fetch) that no history rule can see.
 */
function expectedRejected(folder: string): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(folderTable(EXPECTATIONS.rejected, folder)).map(([cassette, e]) => [
      cassette,
      e.verdict === 'none' ? [] : e.rules.map((r) => `${r} (${e.verdict})`).sort(),
    ]),
  );
}

/**
 * The warnings target rules give accepted records: limits that depend on the
 * model, which is why those rules warn (SOURCES.md, "Accepted records that a
 * naive checker would flag").
 */
function expectedAcceptedWarnings(folder: string): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(folderTable(EXPECTATIONS.acceptedWarnings, folder)).map(([cassette, e]) => [
      cassette,
      [...e.rules].sort(),
    ]),
  );
}

/** One recorded request. */
interface CorpusRecord {
  /** `folder/file.jsonl:line`. */
  where: string;
  /** The cassette's file name. */
  cassette: string;
  text: string;
  accepted: boolean;
  request: JsonValue;
}

/** The records of a folder: the pydantic-ai JSONL files, one recorded exchange per line. */
function records(folder: string): CorpusRecord[] {
  const dir = path.join(CORPUS, folder);
  const out: CorpusRecord[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.startsWith('pydantic-ai__') || !file.endsWith('.jsonl')) continue;
    readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .forEach((text, k) => {
        if (text.trim() === '') return;
        const value = JSON.parse(text) as {
          source_path: string;
          provider_accepted: boolean;
          request: JsonValue;
        };
        out.push({
          where: `${folder}/${file}:${k + 1}`,
          cassette: path.basename(value.source_path),
          text,
          accepted: value.provider_accepted,
          request: value.request,
        });
      });
  }
  return out;
}

/** Lints one record as `histlint lint --target <target> --pointer /request` does. */
function lintRecord(f: Folder, record: CorpusRecord): Finding[] {
  const rules = new SeverityResolver({}, ROOT, new Map()).forFile(undefined);
  return lintText(record.text, { rules, pointer: ['request'], target: f.target });
}

/** What the target rules found on the records of one folder. */
interface Verdicts {
  accepted: { record: CorpusRecord; findings: Finding[] }[];
  rejected: { record: CorpusRecord; findings: Finding[] }[];
  /** Records the engine could not read as a conversation. */
  unread: string[];
}

let verdictsByFolder: Map<string, Verdicts> | undefined;

/** The verdicts of every folder (computed once, when a suite first asks). */
function verdicts(): Map<string, Verdicts> {
  if (verdictsByFolder !== undefined) return verdictsByFolder;
  verdictsByFolder = new Map<string, Verdicts>();
  for (const f of FOLDERS) {
    // Until an adapter is registered, its folder cannot be read (see the skipped tests).
    if (formatByName(f.format) === undefined) continue;
    const v: Verdicts = { accepted: [], rejected: [], unread: [] };
    for (const record of records(f.folder)) {
      const all = lintRecord(f, record);
      for (const x of all)
        if (x.ruleId === 'not-a-conversation' || x.ruleId === 'parse-error')
          v.unread.push(`${record.where}: ${x.message}`);
      const findings = all.filter((x) => x.ruleId.startsWith(`${f.target}/`));
      (record.accepted ? v.accepted : v.rejected).push({ record, findings });
    }
    verdictsByFolder.set(f.folder, v);
  }
  return verdictsByFolder;
}

/** `rule (severity)` for each distinct finding rule, sorted. */
function fired(findings: readonly Pick<Finding, 'ruleId' | 'severity'>[]): string[] {
  return [...new Set(findings.map((x) => `${x.ruleId} (${x.severity})`))].sort();
}

describeShared('the target rules on the recorded verdicts', 'corpus', () => {
  describe.each(FOLDERS)('--target $target on shared/corpus/$folder', (f) => {
    const v = verdicts().get(f.folder);
    const skip = v === undefined;
    const why = skip
      ? ` (skipped: the ${f.format} format is not registered in src/formats/index.ts)`
      : '';

    it.skipIf(skip)(`reads every record as ${f.format}${why}`, () => {
      expect(v!.unread).toEqual([]);
      for (const { record } of [...v!.accepted, ...v!.rejected]) {
        expect(detectFormat(record.request).name, record.where).toBe(f.format);
      }
    });

    it.skipIf(skip)(`gives accepted records no error from a ${f.target} rule${why}`, () => {
      expect(v!.accepted.length).toBeGreaterThan(0);
      const errors = v!.accepted.flatMap(({ record, findings }) =>
        findings
          .filter((x) => x.severity === 'error')
          .map((x) => `${record.where} ${record.cassette}: ${x.ruleId}: ${x.message}`),
      );
      expect(errors).toEqual([]);
    });

    it.skipIf(skip)(`warns on accepted records only where the model decides${why}`, () => {
      const table = Object.fromEntries(
        v!.accepted
          .filter(({ findings }) => findings.length > 0)
          .map(({ record, findings }) => [
            record.cassette,
            [...new Set(findings.map((x) => x.ruleId))].sort(),
          ]),
      );
      expect(table).toEqual(expectedAcceptedWarnings(f.folder));
    });

    it.skipIf(skip)(`catches the rejected records whose error is about the history${why}`, () => {
      const table = Object.fromEntries(
        v!.rejected.map(({ record, findings }) => [record.cassette, fired(findings)]),
      );
      expect(table).toEqual(expectedRejected(f.folder));
    });
  });
});

/** One finding of `lint --format json`. */
interface JsonFinding {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  line: number;
}

/** `histlint lint --pointer /request --from P --target P --format json` over a folder's records, by record. */
async function lintFolderWithCli(f: Folder): Promise<Map<string, JsonFinding[]>> {
  const dir = path.join(CORPUS, f.folder);
  const files = readdirSync(dir)
    .filter((file) => file.startsWith('pydantic-ai__') && file.endsWith('.jsonl'))
    .sort();
  const argv = ['lint', '--pointer', '/request', '--from', f.format, '--target', f.target];
  const r = await runCli([...argv, '--format', 'json', '--jobs', '1', ...files], { cwd: dir });
  expect([0, 1], r.stderr).toContain(r.code);
  const report = JSON.parse(r.stdout) as { files: { file: string; findings: JsonFinding[] }[] };
  const out = new Map<string, JsonFinding[]>();
  for (const { file, findings } of report.files) {
    for (const x of findings) {
      const where = `${f.folder}/${file}:${x.line}`;
      out.set(where, [...(out.get(where) ?? []), x]);
    }
  }
  return out;
}

describeShared('histlint lint on the recorded verdicts', 'corpus', () => {
  describe.each(FOLDERS)(
    'histlint lint --pointer /request --from $format --target $target on shared/corpus/$folder',
    (f) => {
      const skip = formatByName(f.format) === undefined;
      const all = skip ? [] : records(f.folder);
      const trust = new Set(EXPECTATIONS.trustRules.rules);
      let cli: Map<string, JsonFinding[]> | undefined;
      const findingsOf = async (record: CorpusRecord) =>
        (cli ??= await lintFolderWithCli(f)).get(record.where) ?? [];

      it.skipIf(skip)('reads every record', async () => {
        const unread: string[] = [];
        for (const record of all) {
          for (const x of await findingsOf(record)) {
            if (x.ruleId === 'not-a-conversation' || x.ruleId === 'parse-error')
              unread.push(`${record.where}: ${x.message}`);
          }
        }
        expect(unread).toEqual([]);
      });

      it.skipIf(skip)(
        'gives no accepted record an error (trust-rule errors are listed)',
        async () => {
          const falsePositives: string[] = [];
          const trustErrors: Record<string, string[]> = {};
          for (const record of all.filter((x) => x.accepted)) {
            for (const x of await findingsOf(record)) {
              if (x.severity !== 'error') continue;
              if (!trust.has(x.ruleId)) {
                falsePositives.push(
                  `${record.where} ${record.cassette}: ${x.ruleId}: ${x.message}`,
                );
              } else (trustErrors[record.cassette] ??= []).push(x.ruleId);
            }
          }
          expect(falsePositives).toEqual([]);
          const listed = Object.fromEntries(
            Object.entries(folderTable(EXPECTATIONS.acceptedTrustErrors, f.folder)).map(
              ([c, e]) => [c, e.rules],
            ),
          );
          expect(
            Object.fromEntries(
              Object.entries(trustErrors).map(([c, ids]) => [c, [...new Set(ids)].sort()]),
            ),
          ).toEqual(listed);
        },
      );

      it.skipIf(skip)(
        'gives an error on each rejection the history alone explains, a warning where the model decides',
        async () => {
          const verdicts: Record<string, string> = {};
          for (const record of all.filter((x) => !x.accepted)) {
            const want = folderTable(EXPECTATIONS.rejected, f.folder)[record.cassette];
            if (want === undefined || want.verdict === 'none') continue;
            const mine = (await findingsOf(record)).filter((x) => want.rules.includes(x.ruleId));
            const errors = mine.some((x) => x.severity === 'error');
            verdicts[record.cassette] = errors ? 'error' : mine.length > 0 ? 'warn' : 'missed';
          }
          const expected = Object.fromEntries(
            Object.entries(folderTable(EXPECTATIONS.rejected, f.folder))
              .filter(([, e]) => e.verdict !== 'none')
              .map(([c, e]) => [c, e.verdict]),
          );
          expect(verdicts).toEqual(expected);
        },
      );

      it.skipIf(skip)(
        'finds what the engine finds (the CLI path agrees with lintText)',
        async () => {
          const v = verdicts().get(f.folder)!;
          for (const { record, findings } of [...v.accepted, ...v.rejected]) {
            const fromCli = (await findingsOf(record)).filter((x) =>
              x.ruleId.startsWith(`${f.target}/`),
            );
            expect(fired(fromCli), record.where).toEqual(fired(findings));
          }
        },
      );
    },
  );
});
