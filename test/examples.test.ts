/**
 * The library examples in examples/ run as written: each imports 'histlint'
 * (the built package, which resolves here through package.json `exports`),
 * so `npm run build` comes first, as for the spawned CLI.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../src/formats/detect.js';
import { parseJson } from '../src/model/json.js';
import { ROOT } from './helpers/cli.js';

const EXAMPLE = path.join(ROOT, 'examples', 'server-sanitize.mjs');

/** Runs the server example with `body` on standard input. */
function sanitizeUpload(body: string): { code: number | null; stdout: string; stderr: string } {
  expect(existsSync(path.join(ROOT, 'dist', 'index.js')), 'run `npm run build` first').toBe(true);
  const r = spawnSync(process.execPath, [EXAMPLE], { cwd: ROOT, input: body, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const fixture = (name: string): string =>
  readFileSync(path.join(ROOT, 'fixtures', 'examples', name), 'utf8');

describe('examples/server-sanitize.mjs', () => {
  it('strips the system prompt and the file: image of an OpenAI Chat history, and writes it back as one', () => {
    const r = sanitizeUpload(fixture('client-history.json'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('file:');
    expect(r.stdout).not.toContain('administrator');
    const written = parseJson(r.stdout);
    expect(detectFormat(written).name).toBe('openai-chat');
    expect(written).toEqual([
      { role: 'user', content: 'What does this screenshot of my invoice say?' },
      { role: 'assistant', content: 'I could not open the image. Could you upload it again?' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Here it is.' },
          {
            type: 'image_url',
            image_url: { url: 'https://cdn.example.com/uploads/invoice-4471.png' },
          },
        ],
      },
    ]);
    const { format, report } = JSON.parse(r.stderr);
    expect(format).toBe('openai-chat');
    expect(report).toMatchObject({
      systemPrompts: 1,
      unsafeParts: [{ messageIndex: 1, partIndex: 1, kind: 'image', scheme: 'file' }],
      removedMessages: [],
      repair: { synthesized: [], dropped: [], truncated: [], moved: [] },
    });
  });

  it('drops an Anthropic request’s system field and keeps its other fields', () => {
    const r = sanitizeUpload(fixture('anthropic-request.json'));
    expect(r.code, r.stderr).toBe(0);
    const written = parseJson(r.stdout) as Record<string, unknown>;
    expect(Object.keys(written)).toEqual(['model', 'max_tokens', 'tools', 'messages']);
    expect(JSON.parse(r.stderr)).toMatchObject({
      format: 'anthropic',
      report: {
        systemPrompts: 1,
        repair: { synthesized: [{ callId: 'toolu_01D7FLrfh4GYq7yT1ULFeyMV' }] },
      },
    });
  });

  it('refuses what is not a conversation, or not JSON, in one line', () => {
    for (const body of ['{"contents": 1}', '[{"role": "user", "content": "hi"']) {
      const r = sanitizeUpload(body);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^refused: .+\n$/);
    }
  });
});
