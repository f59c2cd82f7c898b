/**
 * A folder argument stands for the conversation files inside it. The walk is
 * histlint's own (a synchronous readdir, for speed); fast-glob, which expands
 * glob patterns, is the oracle: on generated trees with dot names,
 * node_modules, .git, symlinked files and folders and ignore patterns, both
 * list the same files in the same order.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ALWAYS_IGNORED, CONVERSATION_FILES, expandInputs, type Io } from '../src/cli/io.js';

const work = mkdtempSync(path.join(tmpdir(), 'histlint-walk-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const io = (cwd: string): Io => ({
  argv: [],
  stdin: (async function* () {})(),
  stdout: { write: () => true },
  stderr: { write: () => true },
  cwd,
  env: {},
});

const SEGMENTS = ['a', 'b', 'skip', '.hidden', 'node_modules', '.git', 'deep'];
const NAMES = ['x.json', 'y.jsonl', 'z.ndjson', 'n.txt', '.dot.json', 'j.JSON', 'w.json.bak'];
const IGNORES = ['**/skip/**', 'a/**/y.jsonl', '**/b', '*.ndjson', 'deep/**'];

const tree = fc.record({
  files: fc.array(
    fc.tuple(fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 3 }), fc.constantFrom(...NAMES)),
    { minLength: 1, maxLength: 25 },
  ),
  links: fc.array(
    fc.tuple(
      fc.constantFrom('file', 'dir'),
      fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 2 }),
    ),
    { maxLength: 3 },
  ),
  ignore: fc.subarray(IGNORES),
});

let n = 0;

describe('a folder argument', () => {
  it('lists what fast-glob lists, in the same order', async () => {
    await fc.assert(
      fc.asyncProperty(tree, async ({ files, links, ignore }) => {
        const root = path.join(work, `t${n++}`);
        const dir = path.join(root, 'data');
        for (const [segments, name] of files) {
          const folder = path.join(dir, ...segments);
          mkdirSync(folder, { recursive: true });
          writeFileSync(path.join(folder, name), '{}');
        }
        links.forEach(([kind, segments], k) => {
          const folder = path.join(dir, ...segments);
          mkdirSync(folder, { recursive: true });
          // A link to a file outside the folder, or a link back up (a loop if it were followed).
          if (kind === 'file') {
            writeFileSync(path.join(root, `target${k}.json`), '{}');
            symlinkSync(path.join(root, `target${k}.json`), path.join(folder, `link${k}.json`));
          } else {
            symlinkSync(dir, path.join(folder, `loop${k}`));
          }
        });
        const expected = (
          await fg(`data/${CONVERSATION_FILES}`, {
            cwd: root,
            ignore: [...ALWAYS_IGNORED, ...ignore],
            suppressErrors: true,
            followSymbolicLinks: false,
          })
        ).sort();
        const got = await expandInputs(['data'], io(root), {
          ignore: [{ patterns: ignore, base: root }],
          errorOnUnmatched: false,
          expandDirectories: true,
        });
        expect(got.map((i) => i.display)).toEqual(expected);
        expect(got.map((i) => i.absolute)).toEqual(expected.map((e) => path.join(root, e)));
      }),
      { numRuns: 100 },
    );
  });
});
