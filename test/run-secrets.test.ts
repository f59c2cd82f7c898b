/**
 * `histlint run` keeps the API key secret (SPEC §6): a key no request could
 * carry is refused before any request without being shown; the key is taken
 * out of every escaping it can take in a server's text (JSON `\/` and `\u`
 * escapes, percent-encoding in either case); standard error and error
 * messages are cleaned of a key of any length, a written conversation of a
 * key of 8 characters or more only (a placeholder like `none` is a word).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createAgent,
  createModel,
  createRedactingStream,
  MIN_STORED_SECRET_LENGTH,
  redactSecrets,
  RunError,
} from '../src/agent/index.js';
import type { Message } from '../src/model/types.js';
import { runCli, type CliResult } from './helpers/cli.js';
import type { MockLlm } from './helpers/mock-llm.js';
import { useMockLlm } from './helpers/run-suite.js';

/** A key with characters JSON and URLs escape: `/`, `+`, `=`. */
const KEY = 'sk-live/Key+With=Symbols_0123456789';

let work: string;
let mock: MockLlm;
let counter = 0;
useMockLlm('histlint-run-secrets-', (w, m) => {
  work = w;
  mock = m;
});

type Provider = 'openai' | 'anthropic';
const PROVIDERS: Provider[] = ['openai', 'anthropic'];
const VARIABLE = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' } as const;

function fresh(name: string): string {
  counter += 1;
  return `${counter}-${name}`;
}

/** `histlint run` against the mock as `provider`, the key in that provider's variable. */
function runAs(
  provider: Provider,
  key: string,
  args: string[],
  options: { stderrIsTTY?: boolean } = {},
): Promise<CliResult> {
  const endpoint =
    provider === 'openai'
      ? ['--base-url', mock.openaiBase]
      : ['--provider', 'anthropic', '--base-url', mock.url];
  return runCli(['run', '--model', 'test-model', ...endpoint, '--max-retries', '0', ...args], {
    cwd: work,
    env: { [VARIABLE[provider]]: key },
    stdinIsTTY: true,
    ...options,
  });
}

function readMessages(file: string): Message[] {
  return (JSON.parse(readFileSync(path.join(work, file), 'utf8')) as { messages: Message[] })
    .messages;
}

const hex4 = (unit: number, upper: boolean): string => {
  const h = unit.toString(16).padStart(4, '0');
  return upper ? h.toUpperCase() : h;
};

/** Every character as a JSON `\uXXXX` escape. */
function unicodeEscaped(s: string, upper = false): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += `\\u${hex4(s.charCodeAt(i), upper)}`;
  return out;
}

/** The ways a server may write the key in a body or an error text. */
function escapings(key: string): [string, string][] {
  return [
    ['JSON, "/" escaped', key.replace(/\//g, '\\/')],
    ['every character \\u-escaped, lower-case hex', unicodeEscaped(key)],
    ['every character \\u-escaped, upper-case hex', unicodeEscaped(key, true)],
    [
      'only the symbols \\u-escaped (as .NET writes "+")',
      key.replace(/[^A-Za-z0-9]/g, (c) => unicodeEscaped(c, true)),
    ],
    ['percent-encoded (encodeURIComponent)', encodeURIComponent(key)],
    [
      'percent-encoded, lower-case hex',
      encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    ],
  ];
}

/** Parts of the key long enough to say something about it. */
function fragments(key: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 6 <= key.length; i += 3) out.push(key.slice(i, i + 6));
  return out;
}

describe('a key no request could carry is refused before any request', () => {
  const BAD = [
    'sk-bad-line\nbreak-0123456789',
    'sk-bad-trailing-line-end-0123456789\n',
    'sk-bad-carriage-return-0123456789\r',
    '\tsk-bad-tab-0123456789',
    'sk-bad-nul\u0000-0123456789',
    'sk-bad-unit-separator\u001f-0123456789',
    'sk-bad-delete\u007f-0123456789',
    'ab\ncd',
  ];
  for (const provider of PROVIDERS) {
    it(`${provider}: exit 2, one line naming the variable, never the key`, async () => {
      for (const key of BAD) {
        const shown = JSON.stringify(key);
        const r = await runAs(provider, key, ['--prompt', 'p']);
        expect(r.code, shown).toBe(2);
        const lines = r.stderr.replace(/\n$/, '').split('\n');
        expect(lines, shown).toHaveLength(1);
        expect(lines[0], shown).toContain(VARIABLE[provider]);
        expect(lines[0], shown).toMatch(/control character/);
        expect(r.stderr, shown).not.toContain(key);
        expect(r.stderr, shown).not.toContain(shown.slice(1, -1));
        for (const piece of key.split(/[\u0000-\u001f\u007f]/).filter((p) => p.length >= 6)) {
          expect(r.stderr, shown).not.toContain(piece);
        }
        expect(r.stdout, shown).toBe('');
      }
      expect(mock.requests).toHaveLength(0);
    });
  }

  it('--api-key-env: the variable it names', async () => {
    const r = await runCli(
      [
        'run',
        '--model',
        'm',
        '--base-url',
        mock.openaiBase,
        '--api-key-env',
        'MY_KEY',
        '--prompt',
        'p',
      ],
      { cwd: work, env: { MY_KEY: 'gw-key\r\n-0123456789' }, stdinIsTTY: true },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^histlint: .*MY_KEY.*control character[^\n]*\n$/);
    expect(r.stderr).not.toContain('gw-key');
    expect(mock.requests).toHaveLength(0);
  });

  it('the library: createModel throws an AgentConfigError naming the variable, not the key', () => {
    let error: unknown;
    try {
      createModel({ provider: 'openai', model: 'm', env: { OPENAI_API_KEY: 'sk-lib\n-key-0123' } });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ name: 'AgentConfigError', variable: 'OPENAI_API_KEY' });
    expect(String((error as Error).message)).not.toContain('sk-lib');
  });
});

describe('the key is redacted in every escaping a server may give it', () => {
  for (const provider of PROVIDERS) {
    for (const [how, form] of escapings(KEY)) {
      it(`${provider}: an error body holding the key ${how}`, async () => {
        mock.script({ status: 400, message: `rejected key ${form} here` });
        const r = await runAs(provider, KEY, ['--prompt', 'p']);
        expect(r.code).toBe(3);
        expect(r.stderr).toContain('rejected key [redacted] here');
        expect(r.stderr).not.toContain(form);
        for (const piece of fragments(KEY)) expect(r.stderr).not.toContain(piece);
      });
    }

    it(`${provider}: a reply quoting the key in every escaping is written redacted`, async () => {
      const forms = escapings(KEY).map(([, form]) => form);
      mock.script({ text: `keys: ${forms.join(' | ')}` });
      const out = fresh('escaped.json');
      const r = await runAs(provider, KEY, ['--prompt', 'p', '-o', out]);
      expect(r.code, r.stderr).toBe(0);
      const written = readFileSync(path.join(work, out), 'utf8');
      expect(readMessages(out).at(-1)!.parts).toEqual([
        { type: 'text', text: `keys: ${forms.map(() => '[redacted]').join(' | ')}` },
      ]);
      for (const piece of fragments(KEY)) expect(written).not.toContain(piece);
    });

    it(`${provider}: the key echoed in the request headers, streamed to a terminal too`, async () => {
      mock.script({ text: `streamed ${encodeURIComponent(KEY)} ${unicodeEscaped(KEY)} end` });
      const tty = await runAs(provider, KEY, ['--prompt', 'p'], { stderrIsTTY: true });
      expect(tty.code, tty.stderr).toBe(0);
      expect(tty.stderr).toContain('streamed [redacted] [redacted] end');
      mock.script({ status: 401, echoHeaders: true, message: 'bad key' });
      const r = await runAs(provider, KEY, ['--prompt', 'p']);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('[redacted]');
      for (const s of [tty.stderr, tty.stdout, r.stderr, r.stdout]) {
        for (const piece of fragments(KEY)) expect(s).not.toContain(piece);
      }
    });
  }

  it('redactSecrets: escapes mixed within one occurrence, and nothing that is not the key', () => {
    const mixed = 'sk-live\\/Key%2BWith\\u003dSymbols_0123456789';
    expect(redactSecrets(`a ${mixed} b`, [KEY])).toBe('a [redacted] b');
    expect(redactSecrets('SK-LIVE/KEY+WITH=SYMBOLS_0123456789', [KEY])).toBe(
      'SK-LIVE/KEY+WITH=SYMBOLS_0123456789',
    );
    expect(redactSecrets('anything', [''])).toBe('anything');
    // A JSON text quoted inside another: its escapes escaped again.
    const nested = JSON.stringify(`{"key":"${KEY.replace(/\//g, '\\/')}"}`);
    expect(redactSecrets(nested, [KEY])).toBe('"{\\"key\\":\\"[redacted]\\"}"');
    // A key beyond U+FFFF: its surrogate pair escaped, or its four UTF-8 bytes percent-encoded.
    const astral = 'key-\u{1F511}-0123';
    expect(redactSecrets(`${JSON.stringify(astral)}`, [astral])).toBe('"[redacted]"');
    expect(redactSecrets(unicodeEscaped(astral), [astral])).toBe('[redacted]');
    expect(redactSecrets(encodeURIComponent(astral), [astral])).toBe('[redacted]');
  });
});

describe('a streamed reply is shown without the key, split anywhere', () => {
  it('every form, cut at every place or piece by piece, comes out redacted', () => {
    for (const [how, form] of [['as it is', KEY], ...escapings(KEY)] as [string, string][]) {
      const whole = `before ${form} after`;
      const cuts: string[][] = [[...whole]];
      for (let at = 1; at < whole.length; at++) cuts.push([whole.slice(0, at), whole.slice(at)]);
      for (const pieces of cuts) {
        const shown: string[] = [];
        const stream = createRedactingStream([KEY], (t) => shown.push(t));
        for (const p of pieces) stream.write(p);
        stream.end();
        expect(shown.join(''), how).toBe('before [redacted] after');
      }
    }
  });

  it('text that cannot begin the key is shown at once; a tail that could is held', () => {
    const shown: string[] = [];
    const stream = createRedactingStream([KEY], (t) => shown.push(t));
    stream.write('plain words ');
    expect(shown).toEqual(['plain words ']);
    stream.write('then sk-li');
    expect(shown.join('')).toBe('plain words then ');
    stream.write('ght');
    expect(shown.join('')).toBe('plain words then sk-light');
    stream.write(' 100\\');
    expect(shown.join('')).toBe('plain words then sk-light 100');
    stream.end();
    expect(shown.join('')).toBe('plain words then sk-light 100\\');
  });
});

describe('short keys: redacted in errors and logs, not in a written conversation', () => {
  const SHORT = 'q/Z7x';

  for (const provider of PROVIDERS) {
    it(`${provider}: a 5-character key echoed in an error is redacted on standard error`, async () => {
      mock.script({
        status: 401,
        echoHeaders: true,
        message: `bad key ${SHORT.replace('/', '\\/')}`,
      });
      const r = await runAs(provider, SHORT, ['--prompt', 'p']);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('bad key [redacted]');
      expect(r.stderr).not.toContain(SHORT);
      expect(r.stderr).not.toContain('q\\/Z7x');
    });

    it(`${provider}: a 5-character key in the reply is kept in the written conversation, not shown on a terminal`, async () => {
      mock.script({ text: `the word ${SHORT} stays` });
      const out = fresh('short.json');
      const r = await runAs(provider, SHORT, ['--prompt', 'p', '-o', out], { stderrIsTTY: true });
      expect(r.code, r.stderr).toBe(0);
      expect(readMessages(out).at(-1)!.parts).toEqual([
        { type: 'text', text: `the word ${SHORT} stays` },
      ]);
      expect(r.stderr).toContain('the word [redacted] stays');
      expect(r.stderr).not.toContain(SHORT);
    });
  }

  it('from 8 characters on, the key is taken out of the written conversation too', async () => {
    for (const [key, redacted] of [
      ['q/Z7x-a', false],
      ['q/Z7x-ab', true],
    ] as const) {
      const form = encodeURIComponent(key);
      mock.script({ text: `raw ${key} encoded ${form}` });
      const out = fresh('boundary.json');
      const r = await runAs('openai', key, ['--prompt', 'p', '-o', out]);
      expect(r.code, r.stderr).toBe(0);
      expect(readMessages(out).at(-1)!.parts[0]!.text).toBe(
        redacted ? 'raw [redacted] encoded [redacted]' : `raw ${key} encoded ${form}`,
      );
    }
    expect(MIN_STORED_SECRET_LENGTH).toBe(8);
  });

  it('the library: a RunError message is cleaned of a short key', async () => {
    mock.script({ status: 401, echoHeaders: true, message: 'nope' });
    const model = createModel({
      provider: 'openai',
      model: 'm',
      env: { OPENAI_API_KEY: SHORT },
      baseURL: mock.openaiBase,
      maxRetries: 0,
    });
    const e = await createAgent({ model })
      .run([], 'hi')
      .then(
        () => undefined,
        (x: unknown) => x,
      );
    expect(e).toBeInstanceOf(RunError);
    expect((e as RunError).message).toContain('[redacted]');
    expect((e as RunError).message).not.toContain(SHORT);
  });
});
