/**
 * normalize through a provider format settles in one pass: a call in a user
 * turn (which the provider would reject, but a file may hold) gets its
 * synthesized result after it, not moved to the front of the turn, where
 * the next read would find it before its call, drop it and write it again.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { formatByName } from '../../src/formats/index.js';
import { runCli } from '../helpers/cli.js';

const work = mkdtempSync(path.join(tmpdir(), 'histlint-settles-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CASES: [string, unknown][] = [
  [
    'bedrock: a toolUse alone in a user turn',
    {
      messages: [
        { role: 'user', content: [{ toolUse: { toolUseId: 'a', name: 'f', input: {} } }] },
      ],
    },
  ],
  [
    'bedrock: text, then a toolUse, in a user turn',
    {
      messages: [
        {
          role: 'user',
          content: [{ text: 'hi' }, { toolUse: { toolUseId: 'a', name: 'f', input: {} } }],
        },
      ],
    },
  ],
  [
    'anthropic: a user turn starting with a result, then a tool_use',
    {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'z', content: [] },
            { type: 'tool_use', id: 'a', name: 'f', input: {} },
          ],
        },
      ],
    },
  ],
  [
    'gemini: a user content with a functionResponse, then a functionCall',
    {
      contents: [
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'g', response: {} } },
            { functionCall: { id: 'a', name: 'f', args: {} } },
          ],
        },
      ],
    },
  ],
];

describe('normalize through a provider format', () => {
  it.each(CASES)('%s: a second normalize changes nothing', async (name, value) => {
    const dir = mkdtempSync(path.join(work, 'case-'));
    writeFileSync(path.join(dir, 'h.json'), JSON.stringify(value));
    for (const op of ['normalize', 'sanitize']) {
      const first = await runCli([op, 'h.json', '-o', `${op}.json`], { cwd: dir });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr, name).toContain('synthesized');
      const again = await runCli([op, '--check', `${op}.json`], { cwd: dir });
      // --check lists only what would change, then its summary line.
      expect(again.stderr, readFileSync(path.join(dir, `${op}.json`), 'utf8')).toBe(
        '0 of 1 file would change\n',
      );
      expect(again.code).toBe(0);
    }
  });
});

describe('an operation on a file of another format', () => {
  const value = {
    messages: [
      {
        role: 'user',
        content: [
          { text: 'see' },
          {
            document: { name: 'd', format: 'pdf', source: { s3Location: { uri: 'bucket/x.pdf' } } },
          },
        ],
      },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'f', input: {} } }] },
    ],
  };

  it('writes a Bedrock s3Location back as it was, even when its uri does not say s3://', async () => {
    const dir = mkdtempSync(path.join(work, 's3-'));
    writeFileSync(path.join(dir, 'b.json'), JSON.stringify(value));
    const r = await runCli(['normalize', 'b.json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as typeof value;
    expect(out.messages[0]).toEqual(value.messages[0]);
  });

  it('refuses to write it back when the write would lose something, and leaves it as it was', async () => {
    // No adapter is known to lose anything on a write back; this one is made to, to show that
    // such a file is refused (exit 1, naming the loss), never written with a hole.
    const bedrock = formatByName('bedrock')!;
    const write = bedrock.write.bind(bedrock);
    const spy = vi.spyOn(bedrock, 'write').mockImplementation((conversation, context) => {
      const written = write(conversation, context);
      return {
        ...written,
        losses: [...written.losses, { messageIndex: 0, partIndex: 1, what: 'a block' }],
      };
    });
    try {
      const dir = mkdtempSync(path.join(work, 'loss-'));
      const text = JSON.stringify(value);
      writeFileSync(path.join(dir, 'b.json'), text);
      const r = await runCli(['normalize', '--write', 'b.json'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        'b.json: error: not written: writing it back as bedrock would lose a block at message 0 part 1\n',
      );
      expect(readFileSync(path.join(dir, 'b.json'), 'utf8')).toBe(text);
    } finally {
      spy.mockRestore();
    }
  });
});
