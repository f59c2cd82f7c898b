/**
 * `histlint merge-reports FILES...`: one report from the JSON or SARIF
 * reports of several `lint --shard i/n` runs.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError } from '../exit-codes.js';
import { InputPaths, print, writeOutputFile } from '../io.js';
import type { CommandContext } from '../options.js';

/** Adds the command. */
export function registerMergeReports(program: Command, ctx: CommandContext): void {
  program
    .command('merge-reports')
    .description('merge the JSON or SARIF reports of several `lint --shard` runs into one')
    .argument('<files...>', 'the reports (all JSON or all SARIF)')
    .option(
      '-o, --output-file <file>',
      'write the merged report to FILE instead of standard output',
    )
    .action(async (files: string[], opts: { outputFile?: string }) => {
      const { isJsonLintReport, isSarifLog, mergeJsonReports, mergeSarifLogs, MergeError } =
        await import('../../reporters/merge.js');
      if (opts.outputFile !== undefined) {
        const inputs = files.map((f) => ({ display: f, absolute: path.resolve(ctx.io.cwd, f) }));
        new InputPaths(inputs).refuseOutput(ctx.io, '-o', opts.outputFile);
      }
      const values: unknown[] = [];
      for (const file of files) {
        let text: string;
        try {
          text = await fs.readFile(path.resolve(ctx.io.cwd, file), 'utf8');
        } catch {
          throw new UsageError(`${file}: cannot read the report`);
        }
        try {
          values.push(JSON.parse(text));
        } catch {
          throw new UsageError(`${file}: not JSON`);
        }
      }
      let merged: unknown;
      let errors: number;
      // A file a shard could not read (exit 2 in that shard) keeps the merged run at exit 2.
      let unread: boolean;
      try {
        if (values.every(isJsonLintReport)) {
          const m = mergeJsonReports(values);
          errors = m.errorCount;
          unread = m.files.some((f) => f.error !== undefined);
          merged = m;
        } else if (values.every(isSarifLog)) {
          const m = mergeSarifLogs(values);
          errors = m.runs.reduce(
            (n, r) =>
              n +
              (r.results ?? []).filter((x) => (x as { level?: string }).level === 'error').length,
            0,
          );
          unread = m.runs.some((r) => r.invocations?.some((i) => !i.executionSuccessful));
          merged = m;
        } else {
          const bad =
            files[values.findIndex((v) => !isJsonLintReport(v) && !isSarifLog(v))] ?? files[0];
          throw new UsageError(
            `${bad}: not a histlint JSON report or SARIF log (all reports must be of one kind)`,
          );
        }
      } catch (e) {
        if (e instanceof MergeError) throw new UsageError(`cannot merge: ${e.message}`);
        throw e;
      }
      const text = JSON.stringify(merged, null, 2) + '\n';
      if (opts.outputFile === undefined) print(ctx.io.stdout, text);
      else await writeOutputFile(ctx.io, opts.outputFile, text);
      // Like lint itself: 2 when a file could not be read, 1 for errors, so CI fails on it.
      ctx.setExit(unread ? EXIT_USAGE : errors > 0 ? EXIT_FINDINGS : EXIT_OK);
    });
}
