#!/usr/bin/env node
/**
 * `npm run corpus`: proof against reality. Lints every recorded provider
 * exchange of the shared corpus (`<corpus>/<folder>/pydantic-ai__*.jsonl`,
 * one request per line with the provider's verdict) with the built CLI as a
 * user would, the format detected and the target its provider (`auto`):
 *
 *   node bin/histlint.js lint --pointer /request --format json
 *
 * checks that each file was read as the folder's provider, that
 * `normalize --check` changes no accepted record (repair never touches what
 * the provider took), and prints a summary per provider: accepted records
 * with no error, and
 * rejected records caught. Then the other accepted histories of the corpus
 * (`expectations.histories`: GPT-4o trajectories, Claude Code sessions): no
 * error, and normalize changes nothing. Exits 1 on a false positive (an error on a
 * record the provider accepted, other than the trust-rule errors listed in
 * scripts/corpus-expectations.json) or a miss (a rejection the history
 * explains without the error, or a model-dependent one without the
 * warning); 2 when the corpus or the CLI cannot be run.
 *
 * Usage: node scripts/corpus.mjs [CORPUS_DIR]   (default ../shared/corpus; needs `npm run build`)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(ROOT, 'bin', 'histlint.js');
const corpus = path.resolve(process.argv[2] ?? path.join(ROOT, '..', 'shared', 'corpus'));
const expectations = JSON.parse(
  readFileSync(path.join(ROOT, 'scripts', 'corpus-expectations.json'), 'utf8'),
);
const trustRules = new Set(expectations.trustRules.rules);

function fail(message) {
  process.stderr.write(`corpus: ${message}\n`);
  process.exit(2);
}

if (!existsSync(corpus)) fail(`no corpus at ${corpus}`);
if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) fail('run `npm run build` first');

/**
 * The conversations `normalize --check` would change, as `file:line` (`file:1` for a whole
 * file), with the format detected and the target its provider (auto).
 */
function normalizeChanges(dir, files, pointer) {
  const args = [CLI, 'normalize', '--check', ...pointer, '--report-format', 'json', ...files];
  const run = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0 && run.status !== 1) {
    fail(`${dir}: histlint normalize exited ${run.status}: ${run.stderr.trim().slice(0, 300)}`);
  }
  const report = JSON.parse(run.stderr);
  return new Set(report.files.filter((e) => e.changed).map((e) => `${e.file}:${e.line ?? 1}`));
}

/** `rule (severity)` list of findings, sorted and distinct. */
function fired(findings) {
  return [...new Set(findings.map((f) => `${f.ruleId} (${f.severity})`))].sort();
}

let problems = 0;
const lines = [];
const totals = { accepted: 0, clean: 0, explained: 0, caught: 0 };

for (const { folder, target } of expectations.folders) {
  const dir = path.join(corpus, folder);
  const files = readdirSync(dir)
    .filter((f) => f.startsWith('pydantic-ai__') && f.endsWith('.jsonl'))
    .sort();
  const args = [CLI, 'lint', '--pointer', '/request', '--format', 'json', '--no-color', ...files];
  const run = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0 && run.status !== 1) {
    fail(`${folder}: histlint exited ${run.status}: ${run.stderr.trim()}`);
  }
  const report = JSON.parse(run.stdout);
  const findingsOf = new Map(report.files.map((f) => [f.file, f.findings]));
  const changedLines = normalizeChanges(dir, files, ['--pointer', '/request']);

  const accepted = { total: 0, clean: 0, warned: 0, trusted: 0 };
  const rejected = { total: 0, error: [0, 0], warn: [0, 0], none: 0 };
  const complain = (where, text) => {
    problems++;
    lines.push(`  FAIL ${where}: ${text}`);
  };

  const targetOf = new Map(report.files.map((f) => [f.file, f.target]));
  for (const file of files) {
    const all = findingsOf.get(file);
    if (all === undefined) fail(`${folder}/${file} is missing from the report`);
    if (targetOf.get(file) !== target)
      complain(
        `${folder}/${file}`,
        `checked against ${JSON.stringify(targetOf.get(file))}, not ${target}`,
      );
    readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .forEach((text, k) => {
        if (text.trim() === '') return;
        const record = JSON.parse(text);
        const cassette = path.basename(record.source_path);
        const where = `${folder}/${file}:${k + 1} ${cassette}`;
        const findings = all.filter((f) => f.line === k + 1);
        for (const f of findings) {
          if (f.ruleId === 'not-a-conversation' || f.ruleId === 'parse-error') {
            complain(where, `not read as ${target}: ${f.message}`);
          }
        }
        const targetFindings = findings.filter((f) => f.ruleId.startsWith(`${target}/`));
        if (record.provider_accepted) {
          accepted.total++;
          const errors = findings.filter((f) => f.severity === 'error');
          const trust = fired(errors.filter((f) => trustRules.has(f.ruleId)));
          const wantTrust = (expectations.acceptedTrustErrors[folder]?.[cassette]?.rules ?? []).map(
            (r) => `${r} (error)`,
          );
          const falsePositives = errors.filter((f) => !trustRules.has(f.ruleId));
          for (const f of falsePositives)
            complain(where, `accepted, but ${f.ruleId}: ${f.message}`);
          if (JSON.stringify(trust) !== JSON.stringify(wantTrust)) {
            complain(
              where,
              `trust-rule errors ${JSON.stringify(trust)}, expected ${JSON.stringify(wantTrust)}`,
            );
          }
          if (changedLines.has(`${file}:${k + 1}`))
            complain(where, 'accepted, but normalize would change it');
          if (errors.length === 0) accepted.clean++;
          else if (falsePositives.length === 0) accepted.trusted++;
          if (targetFindings.length > 0) accepted.warned++;
          return;
        }
        rejected.total++;
        const want = expectations.rejected[folder]?.[cassette];
        if (want === undefined) {
          complain(where, 'rejected record missing from scripts/corpus-expectations.json');
          return;
        }
        const got = fired(targetFindings);
        if (want.verdict === 'none') {
          rejected.none++;
          if (got.length > 0)
            complain(where, `expected no ${target} finding, got ${got.join(', ')}`);
          return;
        }
        const slot = rejected[want.verdict];
        slot[1]++;
        const expected = want.rules.map((r) => `${r} (${want.verdict})`).sort();
        if (JSON.stringify(got) === JSON.stringify(expected)) slot[0]++;
        else complain(where, `expected ${expected.join(', ')}, got ${got.join(', ') || 'nothing'}`);
      });
  }

  totals.accepted += accepted.total;
  totals.clean += accepted.clean + accepted.trusted;
  totals.explained += rejected.error[1];
  totals.caught += rejected.error[0];
  const head = `${target} (${folder}, ${files.length} files)`;
  const summary = [
    `  accepted records with no error: ${accepted.clean}/${accepted.total}` +
      (accepted.warned > 0 ? `; ${accepted.warned} with model-dependent warnings` : '') +
      (accepted.trusted > 0
        ? `; ${accepted.trusted} more with only a listed trust-rule error (${[...trustRules].join(', ')}, not an acceptance rule)`
        : ''),
    `  rejected records caught: ${rejected.error[0]}/${rejected.error[1]} explained by the history (error)` +
      `, ${rejected.warn[0]}/${rejected.warn[1]} model-dependent (warning)` +
      `, ${rejected.none} model or parameter errors (no history rule applies)`,
  ];
  process.stdout.write(`${head}\n${summary.join('\n')}\n`);
  for (const l of lines.splice(0)) process.stdout.write(`${l}\n`);
}

// The other accepted histories: every turn of them reached the provider and was answered.
for (const h of expectations.histories) {
  const dir = path.join(corpus, h.folder);
  const files = readdirSync(dir)
    .filter((f) => new RegExp(h.files).test(f))
    .sort();
  const pointer = h.pointer === undefined ? [] : ['--pointer', h.pointer];
  const args = [CLI, 'lint', ...pointer, '--format', 'json', '--no-color', ...files];
  const run = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0 && run.status !== 1) fail(`${h.folder}: histlint exited ${run.status}`);
  const report = JSON.parse(run.stdout);
  let conversations = 0;
  let clean = 0;
  const bad = [];
  for (const f of report.files) {
    if (f.target !== h.target) bad.push(`${f.file}: checked against ${JSON.stringify(f.target)}`);
    const text = readFileSync(path.join(dir, f.file), 'utf8');
    // A JSONL file of records holds one history per line; a session file is one history.
    const units = h.perLine ? text.split('\n').filter((l) => l.trim() !== '').length : 1;
    conversations += units;
    const errors = f.findings.filter((x) => x.severity === 'error');
    const badLines = new Set(errors.map((x) => (h.perLine ? x.line : 0)));
    clean += units - badLines.size;
    for (const x of errors) bad.push(`${f.file}:${x.line}: ${x.ruleId}: ${x.message}`);
  }
  const changed = h.readOnly ? new Set() : normalizeChanges(dir, files, pointer);
  for (const c of changed) bad.push(`${c}: normalize would change it`);
  totals.accepted += conversations;
  totals.clean += clean;
  process.stdout.write(
    `${h.target} (${h.folder}/${h.files}, ${files.length} files: ${h.what})\n` +
      `  accepted histories with no error: ${clean}/${conversations}` +
      (h.readOnly ? ' (read only: not normalized)' : '; normalize changes none') +
      '\n',
  );
  for (const b of bad) {
    problems++;
    process.stdout.write(`  FAIL ${h.folder}/${b}\n`);
  }
}

process.stdout.write(
  `total: ${totals.clean}/${totals.accepted} accepted records with no acceptance error, ` +
    `${totals.caught}/${totals.explained} history-explained rejections caught` +
    (problems > 0 ? `, ${problems} problem(s)\n` : '\n'),
);
process.exit(problems > 0 ? 1 : 0);
