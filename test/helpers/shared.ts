/**
 * The shared folder beside the project (`../shared`: SPEC.md, the conformance
 * cases, the third-party corpus) and the one rule every suite that reads it,
 * or needs a tool the machine may lack (pre-commit), follows, so a bare clone
 * passes `npm test` and CI cannot pass by skipping:
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
  const missing = missingShared(needs).map((rel) => `../shared/${rel}`);
  describeIf(title, missing.length === 0 ? undefined : `${missing.join(', ')} not found`, body);
}

/**
 * Declares a suite that needs something outside the repository (`../shared`,
 * a tool such as pre-commit): `missing` says what is not there, or is
 * undefined when all is. The rule of this module applies: run, or skip with
 * one line, or fail under `HISTLINT_REQUIRE_SHARED=1`. The body runs only
 * when nothing is missing.
 */
export function describeIf(title: string, missing: string | undefined, body: () => void): void {
  if (missing === undefined) {
    describe(title, body);
    return;
  }
  if (REQUIRE_SHARED) {
    describe(title, () => {
      it(`needs what is missing: ${missing}`, () => {
        throw new Error(`${missing}, and HISTLINT_REQUIRE_SHARED=1 requires it`);
      });
    });
    return;
  }
  process.stderr.write(
    `skipped "${title}": ${missing} (HISTLINT_REQUIRE_SHARED=1 makes this a failure)\n`,
  );
  describe.skip(title, () => {
    it(`needs what is missing: ${missing}`, () => {});
  });
}
