/**
 * The set-up the `histlint run` suites share: for the whole file, a scratch folder and the mock
 * model server (./mock-llm.ts), reset after each test, where every request a test made must be
 * one the provider accepts (./provider-acceptance.ts).
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm.js';

/** Registers the hooks; `set` receives the folder and the server once they exist. */
export function useMockLlm(prefix: string, set: (work: string, mock: MockLlm) => void): void {
  let work: string | undefined;
  let mock: MockLlm | undefined;
  beforeAll(async () => {
    work = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
    mock = await startMockLlm();
    set(work, mock);
  });
  afterAll(async () => {
    await mock?.close();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });
  afterEach(() => {
    mock!.reset();
    expect(mock!.takeViolations(), 'requests the provider would refuse').toEqual([]);
  });
}
