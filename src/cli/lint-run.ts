/**
 * `histlint lint`: config, inputs, the engine over every file, `--fix`,
 * the reporter, the exit code (SPEC §3, §5.2).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config/load.js';
import { FORMAT_NAMES, TARGETS, type Config } from '../config/schema.js';
import { countFindings, lintBytes, type FileResult, type LintOptions } from '../lint/engine.js';
import { fixBytes, isEmptyPlan, planFixes } from '../lint/fix.js';
import { SeverityResolver } from '../lint/severity.js';
import { kindFromName } from '../model/document.js';
import { parsePointer } from '../model/pointer.js';
import { REPORTERS } from '../reporters/index.js';
import type { LintResults } from '../reporters/types.js';
import { RULES, ruleById, ruleDocsUrl } from '../rules/index.js';
import type { Severity } from '../rules/rule.js';
import { colorLevel } from './color.js';
import { EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from './exit-codes.js';
import {
  describeFsError,
  expandInputs,
  print,
  readStdin,
  writeAtomic,
  type InputRef,
  type Io,
} from './io.js';
import { oneLine } from './options.js';
import { packageVersion } from './package-info.js';

/** The flags of `histlint lint`. */
export interface LintFlags {
  format?: string;
  outputFile?: string;
  config?: string;
  rule?: string[];
  maxWarnings?: number;
  quiet?: boolean;
  fix?: boolean;
  leavePending?: boolean;
  ignore?: string[];
  errorOnUnmatchedPattern?: boolean;
  stdinFilename?: string;
  from?: string;
  pointer?: string;
  target?: string;
  color?: boolean;
}

function parseRuleFlags(values: readonly string[]): Map<string, Severity> {
  const out = new Map<string, Severity>();
  for (const v of values) {
    const m = /^([^=]+)=(off|warn|error)$/.exec(v.trim());
    if (m === null) throw new UsageError(`--rule "${v}": expected ID=off|warn|error`);
    if (ruleById(m[1]!) === undefined)
      throw new UsageError(`--rule "${v}": unknown rule "${m[1]}" (see "histlint rules")`);
    out.set(m[1]!, m[2] as Severity);
  }
  return out;
}

function checkChoice(name: string, value: string | undefined, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value)) {
    throw new UsageError(`${name}: expected one of ${allowed.join('|')}, got "${value}"`);
  }
}

/** Runs `histlint lint`; returns the exit code. */
export async function runLint(
  patterns: readonly string[],
  flags: LintFlags,
  io: Io,
): Promise<number> {
  let loaded;
  try {
    loaded = await loadConfig(io.cwd, flags.config);
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  const config: Config = loaded.config;
  const format = flags.format ?? config.format ?? 'stylish';
  checkChoice('--format', format, FORMAT_NAMES);
  const target = flags.target ?? config.target;
  checkChoice('--target', target, TARGETS);
  const cliRules = parseRuleFlags(flags.rule ?? []);
  const pointerText = flags.pointer ?? config.pointer;
  let pointer: string[];
  try {
    pointer = pointerText === undefined ? [] : parsePointer(pointerText);
  } catch (e) {
    throw new UsageError(`--pointer: ${oneLine(e)}`);
  }
  const from = flags.from ?? config.from;
  const ignore = [...(config.ignore ?? []), ...(flags.ignore ?? [])];
  const errorOnUnmatched = flags.errorOnUnmatchedPattern !== false;

  let inputs: InputRef[];
  const useStdin = patterns.length === 1 && patterns[0] === '-';
  if (useStdin) {
    if (flags.fix) throw new UsageError('--fix cannot write standard input');
    inputs = [{ display: flags.stdinFilename ?? '<stdin>' }];
  } else if (patterns.length > 0 || (config.files !== undefined && config.files.length > 0)) {
    if (patterns.includes('-')) throw new UsageError('"-" cannot be combined with other patterns');
    const fromConfig = patterns.length === 0;
    inputs = await expandInputs(fromConfig ? config.files! : patterns, io, {
      ignore,
      errorOnUnmatched,
      expandDirectories: true,
      missingIsUnmatched: true,
      ...(fromConfig ? { base: loaded.dir } : {}),
    });
  } else {
    throw new UsageError('lint needs file patterns (or "files" in histlint.config.json)');
  }

  const resolver = new SeverityResolver(config, loaded.dir, cliRules, target);
  const files: FileResult[] = [];
  let exit = EXIT_OK;
  let interrupted = false;
  for (const input of inputs) {
    if (io.signal?.aborted) {
      interrupted = true;
      break;
    }
    let bytes: Uint8Array;
    try {
      if (input.absolute === undefined) bytes = await readStdin(io);
      else {
        const stat = await fs.stat(input.absolute);
        if (stat.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
        bytes = await fs.readFile(input.absolute);
      }
    } catch (e) {
      const message = `cannot read: ${describeFsError(e)}`;
      print(io.stderr, `histlint: ${input.display}: ${message}\n`);
      files.push({
        file: input.display,
        findings: [],
        errorCount: 0,
        warningCount: 0,
        error: { message },
      });
      exit = EXIT_USAGE;
      continue;
    }
    const rules = resolver.forFile(input.absolute);
    const kind = kindFromName(input.absolute ?? flags.stdinFilename ?? '');
    const options: LintOptions = { rules, pointer, leavePending: flags.leavePending === true };
    if (from !== undefined) options.from = from;
    if (kind !== undefined) options.kind = kind;
    let result = lintBytes(input.display, bytes, options);
    if (flags.fix && input.absolute !== undefined && result.findings.length > 0) {
      const plan = planFixes(rules);
      if (!isEmptyPlan(plan)) {
        const fixed = fixBytes(bytes, kind, plan, {
          pointer,
          leavePending: flags.leavePending === true,
          ...(from === undefined ? {} : { from }),
        });
        if (fixed !== null) {
          try {
            await writeAtomic(await fs.realpath(input.absolute), fixed);
            result = lintBytes(input.display, Buffer.from(fixed, 'utf8'), options);
          } catch (e) {
            print(io.stderr, `histlint: ${input.display}: cannot write the fix: ${oneLine(e)}\n`);
            exit = EXIT_USAGE;
          }
        }
      }
    }
    if (flags.quiet) {
      const findings = result.findings.filter((f) => f.severity === 'error');
      result = { file: result.file, findings, ...countFindings(findings) };
    }
    files.push(result);
  }

  const results: LintResults = {
    files,
    errorCount: files.reduce((n, f) => n + f.errorCount, 0),
    warningCount: files.reduce((n, f) => n + f.warningCount, 0),
  };
  const outStream =
    flags.outputFile === undefined ? io.stdout : { isTTY: false, write: () => true };
  const text = REPORTERS[format]!(results, {
    color: colorLevel(flags.color, io.env, outStream) > 0,
    rules: RULES.map((r) => r.meta),
    docsUrl: ruleDocsUrl,
    version: packageVersion(),
  });
  if (flags.outputFile !== undefined) {
    const target = path.resolve(io.cwd, flags.outputFile);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await writeAtomic(target, text);
  } else if (text !== '') {
    print(io.stdout, text);
  }

  if (interrupted) return EXIT_INTERRUPTED;
  if (results.errorCount > 0) exit = Math.max(exit, EXIT_FINDINGS);
  if (flags.maxWarnings !== undefined && results.warningCount > flags.maxWarnings) {
    if (format === 'stylish') {
      print(io.stderr, `histlint found too many warnings (maximum: ${flags.maxWarnings}).\n`);
    }
    exit = Math.max(exit, EXIT_FINDINGS);
  }
  return exit;
}
