/**
 * `histlint init`: writes a starting `histlint.config.json` in the working folder from what it
 * finds there: the folders that hold conversation files and the format of each (detected as
 * `lint` detects it). It never replaces a config.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandContext } from '../options.js';

/** The most files read to detect formats (enough to see every folder of a big corpus). */
const MAX_SAMPLED = 2000;

/** The config's `$schema`, as the package installs it. */
const SCHEMA_REF = './node_modules/histlint/schemas/config.v1.schema.json';

/** Adds the command. */
export function registerInit(program: Command, ctx: CommandContext): void {
  program
    .command('init')
    .description(
      'write a starting histlint.config.json here from the conversation files found (never replaces one)',
    )
    .option('--no-gitignore', 'also look at files .gitignore ignores')
    .action(async (opts: { gitignore?: boolean }) => {
      ctx.setExit(await runInit(ctx, opts.gitignore !== false));
    });
}

/** The format a file's first conversation is in, or undefined when it holds none histlint reads. */
async function formatOf(file: string): Promise<string | undefined> {
  const [{ detectFormat }, { parseJson }, { kindFromName }] = await Promise.all([
    import('../../formats/detect.js'),
    import('../../model/json.js'),
    import('../../formats/kit/document.js'),
  ]);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  text = text.replace(/^\uFEFF/, '');
  const candidates: string[] = [];
  const kind = kindFromName(file);
  const firstLine = text.split('\n').find((l) => l.trim() !== '');
  if (kind === 'jsonl') candidates.push(firstLine ?? '');
  else candidates.push(text, ...(kind === undefined && firstLine !== undefined ? [firstLine] : []));
  for (const candidate of candidates) {
    try {
      return detectFormat(parseJson(candidate)).name;
    } catch {
      // Not this way; try the next, or it is no conversation.
    }
  }
  return undefined;
}

/** Runs `histlint init`; returns the exit code. */
async function runInit(ctx: CommandContext, gitignore: boolean): Promise<number> {
  const { io } = ctx;
  const [{ CONFIG_NAME }, { EXIT_OK, UsageError }, { expandInputs, print }, { writeAtomic }] =
    await Promise.all([
      import('../../config/load.js'),
      import('../exit-codes.js'),
      import('../io.js'),
      import('../safe-write.js'),
    ]);
  const { TARGET_CHOICES } = await import('../../names.js');
  const target = path.join(io.cwd, CONFIG_NAME);
  const exists = await fs.lstat(target).then(
    () => true,
    () => false,
  );
  if (exists) throw new UsageError(`${CONFIG_NAME} already exists here; init never replaces it`);

  // Tool files are passed over without the note lint prints (init names no file to lint).
  const quiet = { ...io, stderr: { write: () => true } };
  const inputs = await expandInputs(['.'], quiet, {
    expandDirectories: true,
    errorOnUnmatched: false,
    gitignore,
  });
  // Formats by top folder ('' for files in the working folder itself).
  const byFolder = new Map<string, Set<string>>();
  let conversations = 0;
  for (const input of inputs.slice(0, MAX_SAMPLED)) {
    const format = await formatOf(input.absolute!);
    if (format === undefined) continue;
    conversations++;
    const slash = input.display.indexOf('/');
    const folder = slash === -1 ? '' : input.display.slice(0, slash);
    let formats = byFolder.get(folder);
    if (formats === undefined) byFolder.set(folder, (formats = new Set()));
    formats.add(format);
  }

  const folders = [...byFolder.keys()].sort();
  const pattern = (folder: string): string =>
    folder === '' ? '*.{json,jsonl,ndjson}' : `${folder}/**/*.{json,jsonl,ndjson}`;
  const readSettings = (format: string): Record<string, string> =>
    (TARGET_CHOICES as readonly string[]).includes(format)
      ? { from: format, target: format }
      : { from: format };
  const config: Record<string, unknown> = { $schema: SCHEMA_REF };
  // Nothing found yet: a pattern for every conversation file, so the config works once they come.
  config.files = folders.length === 0 ? ['**/*.{json,jsonl,ndjson}'] : folders.map(pattern);
  const all = new Set([...byFolder.values()].flatMap((s) => [...s]));
  if (all.size === 1) {
    Object.assign(config, readSettings([...all][0]!));
  } else if (all.size > 1) {
    // One format per folder: an override each; a folder of mixed formats is left to detection.
    const overrides = folders.flatMap((folder) => {
      const formats = byFolder.get(folder)!;
      return formats.size === 1
        ? [{ files: [folder === '' ? '*' : `${folder}/**`], ...readSettings([...formats][0]!) }]
        : [];
    });
    if (overrides.length > 0) config.overrides = overrides;
  }
  const text = `${JSON.stringify(config, null, 2)}\n`;
  try {
    await writeAtomic(target, text);
  } catch (e) {
    const { describeWriteError } = await import('../safe-write.js');
    throw new UsageError(`cannot write ${CONFIG_NAME}: ${describeWriteError(e)}`);
  }
  const seen = [...all].sort().join(', ');
  const found =
    conversations === 0
      ? 'no conversation files found yet; every JSON and JSONL file will be linted'
      : `${conversations} conversation file${conversations === 1 ? '' : 's'}: ${seen}`;
  print(io.stdout, `wrote ${CONFIG_NAME} (${found}):\n${text}`);
  return EXIT_OK;
}
