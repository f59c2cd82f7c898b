/**
 * `histlint id -n N`: streams its ids in chunks, in increasing order, and refuses an N over the
 * documented maximum (MAX_IDS) with one line, before printing anything.
 */
import { describe, expect, it } from 'vitest';
import { MAX_IDS } from '../src/cli/commands/id.js';
import { isUuid } from '../src/core/ids.js';
import { main } from '../src/cli/main.js';

async function run(argv: string[]): Promise<{ code: number; writes: string[]; stderr: string }> {
  const writes: string[] = [];
  let stderr = '';
  const code = await main({
    argv,
    stdin: { isTTY: true, async *[Symbol.asyncIterator]() {} },
    stdout: { write: (s: string) => writes.push(s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    cwd: process.cwd(),
    env: {},
  });
  return { code, writes, stderr };
}

describe('histlint id -n N', () => {
  it('streams the ids in chunks, every one a UUIDv7, in increasing order', async () => {
    const r = await run(['id', '-n', '25000']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.writes.length).toBeGreaterThan(1);
    const ids = r.writes.join('').split('\n').slice(0, -1);
    expect(ids).toHaveLength(25000);
    expect(ids.every(isUuid)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each([String(MAX_IDS + 1), '99999999999999999999'])(
    'refuses -n %s with one line naming the maximum, printing nothing',
    async (n) => {
      const r = await run(['id', '-n', n]);
      expect(r.code).toBe(2);
      expect(r.writes).toEqual([]);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(String(MAX_IDS));
    },
  );
});
