/**
 * Architecture rules from STYLE.md, checked on the source text: the pure
 * layers (src/core, src/model, src/rules) never touch the file system,
 * `process`, chalk or commander, imports flow one way, every export has
 * a TSDoc comment, and src/names.ts holds the only lists of format, target
 * and reporter names.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONVERSATION_FORMATS, REPORTER_NAMES, TARGETS } from '../src/names.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const PURE = ['core', 'model', 'rules'];

/** Every .ts file under `dir`, as paths relative to the project root with `/` separators. */
function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...tsFiles(full));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) {
      out.push(path.relative(ROOT, full).split(path.sep).join('/'));
    }
  }
  return out;
}

const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

/**
 * Blanks comments (and, with `strings`, string and template literals) out of
 * TypeScript source, keeping offsets. Regex literals are recognized by what
 * precedes them, so a quote or `//` inside one does not confuse the scan.
 */
function strip(source: string, strings: boolean): string {
  const out = source.split('');
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  let i = 0;
  let prev = ''; // the last significant character, to tell a regex from a division
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'" || c === '`') {
      let k = i + 1;
      while (k < source.length && source[k] !== c) k += source[k] === '\\' ? 2 : 1;
      if (strings) blank(i + 1, k);
      i = k + 1;
      prev = c;
    } else if (
      c === '/' &&
      (prev === '' ||
        '(,=:[!&|?{};+-*%<>~^'.includes(prev) ||
        /\breturn\s*$/.test(source.slice(Math.max(0, i - 10), i)))
    ) {
      let k = i + 1;
      let inClass = false;
      while (k < source.length && source[k] !== '\n') {
        const d = source[k];
        if (d === '\\') k++;
        else if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        else if (d === '/' && !inClass) break;
        k++;
      }
      i = k + 1;
      prev = '/';
    } else {
      if (!/\s/.test(c)) prev = c;
      i++;
    }
  }
  return out.join('');
}

/** The module specifiers a file imports or re-exports (static and dynamic). */
function specifiers(source: string): string[] {
  const code = strip(source, false);
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"]+)\1/g;
  for (const m of code.matchAll(re)) out.push(m[2]!);
  return out;
}

/** The src files a file imports, followed transitively. */
function closure(start: string[]): string[] {
  const seen = new Set<string>();
  const todo = [...start];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of specifiers(read(file))) {
      if (!spec.startsWith('.')) continue;
      const target = path.posix.join(path.posix.dirname(file), spec).replace(/\.js$/, '.ts');
      if (existsSync(path.join(ROOT, target))) todo.push(target);
    }
  }
  return [...seen].sort();
}

const pureFiles = PURE.flatMap((d) => tsFiles(path.join(SRC, d)));

describe('the comment and string stripper', () => {
  it('blanks comments and strings but not code, and survives regexes holding quotes', () => {
    const src = [
      "const a = 'process'; // process",
      '/* process */ const b = /"|\\/\\//g; const c = process.env;',
      "const d = x / 2; const e = `process ${'y'}`;",
    ].join('\n');
    const code = strip(src, true);
    expect(code.match(/\bprocess\b/g)).toEqual(['process']);
    expect(code).toContain('const c = process.env;');
    expect(specifiers("import fs from 'node:fs';\nconst m = await import('fs/promises');")).toEqual(
      ['node:fs', 'fs/promises'],
    );
  });
});

describe('pure layers (src/core, src/model, src/rules)', () => {
  it('exist', () => {
    expect(tsFiles(path.join(SRC, 'core')).length).toBeGreaterThan(0);
    expect(tsFiles(path.join(SRC, 'model')).length).toBeGreaterThan(0);
  });

  it('never import node:fs, chalk or commander, nor reach them through their own imports', () => {
    const forbidden = /^(?:node:)?fs(?:\/promises)?$|^chalk(?:\/|$)|^commander(?:\/|$)/;
    const offenders: string[] = [];
    for (const file of closure(pureFiles)) {
      for (const spec of specifiers(read(file))) {
        if (forbidden.test(spec)) offenders.push(`${file} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('never reference process, chalk or commander in code', () => {
    const offenders: string[] = [];
    for (const file of closure(pureFiles)) {
      const code = strip(read(file), true);
      for (const word of ['process', 'chalk', 'commander']) {
        const m = new RegExp(`\\b${word}\\b`).exec(code);
        if (m !== null) {
          const line = code.slice(0, m.index).split('\n').length;
          offenders.push(`${file}:${line} references ${word}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('import only downward: model <- core <- rules', () => {
    // src/names.ts imports nothing (checked below): any layer may read the lists of names.
    const allowed: Record<string, string[]> = {
      model: ['model', 'names.js'],
      core: ['core', 'model', 'names.js'],
      // The schema rule runs the validator compiled from the schema file (src/generated).
      rules: ['rules', 'core', 'model', 'generated', 'names.js'],
    };
    const offenders: string[] = [];
    for (const file of pureFiles) {
      const layer = file.split('/')[1]!;
      for (const spec of specifiers(read(file))) {
        if (!spec.startsWith('.')) continue;
        const target = path.posix.join(path.posix.dirname(file), spec);
        const targetLayer = target.split('/')[1]!;
        if (!allowed[layer]!.includes(targetLayer)) offenders.push(`${file} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

/** Exports in `source` without a `/** ... *\/` comment with some text directly before them. */
function undocumented(file: string, source: string): string[] {
  const lines = source.split('\n');
  const out: string[] = [];
  const decl =
    /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|const|let|var|interface|type|enum)\s+([A-Za-z_$][\w$]*)|^export\s+default\b/;
  lines.forEach((line, k) => {
    const m = decl.exec(line);
    if (m === null) return;
    const before = lines[k - 1]?.trim() ?? '';
    let documented = false;
    if (before.endsWith('*/')) {
      let j = k - 1;
      while (j >= 0 && !lines[j]!.includes('/*')) j--;
      const textOnly = lines
        .slice(Math.max(j, 0), k)
        .join('\n')
        .replace(/^\s*\/\*\*/, '')
        .replace(/\*\/\s*$/, '')
        .replace(/^\s*\*/gm, '')
        .trim();
      documented = j >= 0 && /^\s*\/\*\*/.test(lines[j]!) && /[A-Za-z]/.test(textOnly);
    }
    if (!documented) out.push(`${file}:${k + 1} ${m[1] ?? 'default'}`);
  });
  return out;
}

describe('documentation', () => {
  it('the TSDoc check finds undocumented exports', () => {
    const source = [
      '/** Documented. */',
      'export function a(): void {}',
      '',
      'export const b = 1;',
      '/* not TSDoc */',
      'export class C {}',
      '/** Documented. */',
      '',
      'export interface D {}',
      '/**',
      ' * Documented over',
      ' * two lines.',
      ' */',
      'export type E = string;',
      'export default 5;',
      "export { a as f } from './a.js';",
    ].join('\n');
    expect(undocumented('x.ts', source)).toEqual([
      'x.ts:4 b',
      'x.ts:6 C',
      'x.ts:9 D',
      'x.ts:15 default',
    ]);
  });

  it('every export in src has a TSDoc comment directly before it', () => {
    // src/generated is compiled from the schema file, not written by hand.
    const files = tsFiles(SRC).filter((f) => !f.startsWith('src/generated/'));
    expect(files.length).toBeGreaterThan(0);
    const missing = files.flatMap((f) => undocumented(f, read(f)));
    expect(missing, `exports without TSDoc:\n${missing.join('\n')}`).toEqual([]);
  });
});

describe('the format kit (src/formats/kit)', () => {
  const adapters = tsFiles(path.join(SRC, 'formats')).filter((f) => !f.includes('/formats/kit/'));

  it('is the only place that parses data: URLs or keeps a media-type table', () => {
    expect(adapters.length).toBeGreaterThan(5);
    const offenders = adapters.flatMap((file) => {
      const source = read(file);
      const found: string[] = [];
      // A regular expression for data URLs, a parser of one's own, a table of extensions.
      if (/\/\^?data:/i.test(source)) found.push(`${file}: a data: URL pattern`);
      if (/function\s+(?:parse|split|to)DataUrl\b/.test(source))
        found.push(`${file}: a data URL function`);
      // File extensions to media types (Bedrock's wire enum of document formats is no such table).
      if (/\bpng'?\s*[:,]\s*'image\/png'/.test(source)) found.push(`${file}: a media-type table`);
      return found;
    });
    expect(offenders).toEqual([]);
  });
});

describe('the lists of names (src/names.ts)', () => {
  const lists: Record<string, readonly string[]> = {
    'conversation format': CONVERSATION_FORMATS.map((f) => f.name),
    target: TARGETS,
    reporter: REPORTER_NAMES,
  };
  const QUOTED = String.raw`(?:'[^'\n]*'|"[^"\n]*")`;
  /** Array literals and unions of string literals only (e.g. `['a', 'b']`, `'a' | 'b'`). */
  const LITERALS = new RegExp(
    String.raw`\[\s*${QUOTED}(?:\s*,\s*${QUOTED})+\s*,?\s*\]|${QUOTED}(?:\s*\|\s*${QUOTED})+`,
    'g',
  );

  /**
   * The literals in `source` that copy a list of src/names.ts: all its names, or all but one (a
   * copy that missed a new name). A smaller subset, e.g. the formats with some property, passes.
   */
  function nameLists(file: string, source: string): string[] {
    const code = strip(source, false);
    const out: string[] = [];
    for (const m of code.matchAll(LITERALS)) {
      const items = new Set(
        [...m[0].matchAll(new RegExp(QUOTED, 'g'))].map((q) => q[0].slice(1, -1)),
      );
      const copied = Object.entries(lists).filter(([, names]) => {
        const found = names.filter((n) => items.has(n)).length;
        return found >= 3 && found >= names.length - 1;
      });
      if (copied.length === 0) continue;
      const line = code.slice(0, m.index).split('\n').length;
      const what = copied.map(([w]) => w).join(' or ');
      out.push(`${file}:${line} lists the ${what} names: ${m[0].replace(/\s+/g, ' ')}`);
    }
    return out;
  }

  it('the check finds lists and unions of names, not other strings', () => {
    const reporters = "const F = ['stylish', 'json', 'sarif', 'github'];";
    expect(nameLists('x.ts', reporters)).toHaveLength(1);
    const targets =
      "type T =\n  'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'bedrock';";
    expect(nameLists('x.ts', targets)).toEqual([
      "x.ts:2 lists the target names: 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'bedrock'",
    ]);
    expect(nameLists('x.ts', "const SOME = ['anthropic', 'bedrock', 'openai-responses'];")).toEqual(
      [],
    );
    expect(nameLists('x.ts', "const a = ['text', 'json']; // 'stylish', 'json', 'sarif'")).toEqual(
      [],
    );
  });

  it('imports nothing', () => {
    expect(specifiers(read('src/names.ts'))).toEqual([]);
  });

  it('are the only lists of format, target and reporter names in src', () => {
    const files = tsFiles(SRC).filter((f) => f !== 'src/names.ts');
    const offenders = files.flatMap((f) => nameLists(f, read(f)));
    expect(offenders, offenders.join('\n')).toEqual([]);
  });
});

describe('the format kit is the one place for each shared concern', () => {
  const formatFiles = tsFiles(path.join(SRC, 'formats')).filter(
    (f) => !f.startsWith('src/formats/kit/'),
  );
  /** `file:line what` for each match of `pattern` in the code of `files` (comments blanked; strings too unless `inStrings`). */
  const find = (files: readonly string[], pattern: RegExp, what: string, inStrings = false) =>
    files.flatMap((file) => {
      const code = strip(read(file), !inStrings);
      const out: string[] = [];
      for (const m of code.matchAll(new RegExp(pattern.source, pattern.flags + 'g'))) {
        out.push(`${file}:${code.slice(0, m.index).split('\n').length} ${what}`);
      }
      return out;
    });

  it('one source map: no adapter builds a locator of its own', () => {
    const offenders = [
      ...find(
        formatFiles.filter((f) => f !== 'src/formats/format.ts'),
        /\bLocator\b/,
        'uses the Locator type (build a SourceMap)',
      ),
      ...find(formatFiles, /function\s+\w*[Ll]ocat(?:e|or)\w*\s*[(<]/, 'defines a locator'),
      ...find(formatFiles, /\blocate\s*(?::\s*\(|\(\s*messageIndex)/, 'writes a locate function'),
    ];
    expect(offenders, offenders.join('\n')).toEqual([]);
  });

  it('one provenance test: no adapter tracks what it read on its own', () => {
    const offenders = [
      ...find(formatFiles, /new\s+WeakSet\b/, 'keeps a set of read nodes (use readContext)'),
      ...find(
        formatFiles,
        /function\s+(?:is\w*From\w*|hasGeminiTrace|isForeign)\s*\(/,
        'defines a provenance test (use readHere)',
      ),
    ];
    expect(offenders, offenders.join('\n')).toEqual([]);
  });

  it('one kept-block shape: only the kit makes or unpacks a kept part', () => {
    const offenders = [
      ...find(formatFiles, /\{\s*(?:part|block)\s*(?::\s*\w+\s*)?\}\s*\)/, 'keeps a block'),
      ...find(
        formatFiles,
        /(?:providerDataOf\([^()]*\)|\b(?:pd|data|kept))[!?]*\.(?:part|block)\b/,
        'reads a kept part (use keptNode)',
      ),
      ...find(formatFiles, /'\$empty'|\.\$empty\b|\$empty\s*:/, 'marks an empty kept block', true),
    ];
    expect(offenders, offenders.join('\n')).toEqual([]);
  });

  it('one list of hints per format: `$` keys are spelled only in hints files and the kit', () => {
    const files = formatFiles.filter((f) => !/hints\.ts$/.test(f));
    const offenders = [
      ...find(files, /'\$[A-Za-z]\w*'/, 'spells a hint (declare it in hints.ts)', true),
      ...find(
        files,
        /\.\$[A-Za-z]\w*|(?<=[{,]\s*)\$[A-Za-z]\w*\s*:/,
        'uses a hint by name (HINTS.x)',
      ),
    ];
    expect(offenders, offenders.join('\n')).toEqual([]);
  });
});
