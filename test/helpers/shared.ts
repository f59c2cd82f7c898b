/**
 * The shared folder beside the project (`../shared`: SPEC.md, the conformance
 * cases, the third-party corpus) and the one rule every suite that reads it
 * follows, so a bare clone passes `npm test` and CI cannot pass by skipping:
 *
 * - present: the suite runs;
 * - absent: the suite is skipped, with one line on standard error naming it
 *   and what is missing;
 * - absent with `HISTLINT_REQUIRE_SHARED=1` (set by `.ci/run`): the suite is
 *   one failing test.
 *
 * Everything else the tests read lives in the repository. The corpus stays in
 * `../shared`: it is other projects' data.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/** The shared folder beside the project. */
export const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));

/** Where the third-party corpus lives. */
export const CORPUS = path.join(SHARED, 'corpus');

/** True when a missing shared input must fail the run (CI). */
export const REQUIRE_SHARED = process.env.HISTLINT_REQUIRE_SHARED === '1';

/** The shared inputs of `needs` (paths under `../shared`) that are missing. */
export function missingShared(needs: string | readonly string[]): string[] {
  const list = typeof needs === 'string' ? [needs] : needs;
  return list.filter((rel) => !existsSync(path.join(SHARED, rel)));
}

/**
 * Declares a suite that reads `../shared/<needs>`. Its body runs only when
 * everything it needs is there, so it may read the shared files while it
 * declares its tests.
 */
export function describeShared(
  title: string,
  needs: string | readonly string[],
  body: () => void,
): void {
  const missing = missingShared(needs);
  if (missing.length === 0) {
    describe(title, body);
    return;
  }
  const what = missing.map((rel) => `../shared/${rel}`).join(', ');
  if (REQUIRE_SHARED) {
    describe(title, () => {
      it(`needs ${what}`, () => {
        throw new Error(`${what} not found, and HISTLINT_REQUIRE_SHARED=1 requires it`);
      });
    });
    return;
  }
  process.stderr.write(
    `skipped "${title}": ${what} not found (HISTLINT_REQUIRE_SHARED=1 makes this a failure)\n`,
  );
  describe.skip(title, () => {
    it(`needs ${what}`, () => {});
  });
}
