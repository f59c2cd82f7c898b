/**
 * The errors a run throws: {@link RunError} for a run that started and
 * failed, {@link AgentConfigError} for a model that cannot be set up (before
 * any request), {@link ModelRequestError} for a request that failed after its
 * retries. None of them carries a request header or an API key.
 */
import type { RunPartial, RunStage } from './types.js';

/** A run that failed; `partial` holds what it completed, or is absent when nothing completed. */
export class RunError extends Error {
  /** Where the run failed. */
  readonly stage: RunStage;
  /** Resume-ready history through the last completed model turn, with usage and counts. */
  readonly partial?: RunPartial;
  readonly runId: string;
  readonly conversationId: string;

  constructor(
    stage: RunStage,
    message: string,
    ids: { runId: string; conversationId: string },
    partial?: RunPartial,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'RunError';
    this.stage = stage;
    this.runId = ids.runId;
    this.conversationId = ids.conversationId;
    if (partial !== undefined) this.partial = partial;
  }
}

/** A model that cannot be set up: an unknown provider, a missing API key variable, a bad option. */
export class AgentConfigError extends Error {
  /** The environment variable that should hold the API key, when that is the problem. */
  readonly variable?: string;

  constructor(message: string, variable?: string) {
    super(message);
    this.name = 'AgentConfigError';
    if (variable !== undefined) this.variable = variable;
  }
}

/** A model request that failed after its retries: the status and the provider's message, secrets removed. */
export class ModelRequestError extends Error {
  /** The HTTP status, when the server answered. */
  readonly status?: number;
  /**
   * `timeout`, `connection` (no answer, or an answer cut short), `aborted`,
   * `http` (the server reported an error) or `protocol` (an answer the
   * adapter cannot read: not JSON, or not a reply).
   */
  readonly kind: 'timeout' | 'connection' | 'aborted' | 'http' | 'protocol';

  constructor(kind: ModelRequestError['kind'], message: string, status?: number) {
    super(message);
    this.name = 'ModelRequestError';
    this.kind = kind;
    if (status !== undefined) this.status = status;
  }
}

/** A server that could not be started or did not list its tools. */
export class McpStartError extends Error {
  /** The server's label. */
  readonly server: string;

  constructor(server: string, message: string) {
    super(`MCP server "${server}": ${message}`);
    this.name = 'McpStartError';
    this.server = server;
  }
}

/**
 * Keys shorter than this are not looked for in a written conversation: a placeholder like "none"
 * would match ordinary words of the stored text. Errors and logs are cleaned of a key of any length.
 */
export const MIN_STORED_SECRET_LENGTH = 8;

/** Options of {@link redactSecrets}. */
export interface RedactOptions {
  /** Secrets shorter than this are not looked for (default 1: every secret, as errors and logs need). */
  minLength?: number;
}

/**
 * Replaces every occurrence of each secret in `text` with `[redacted]`, in each form a server may
 * write it: as it is, JSON-escaped (`\/`, `\"`, `\uXXXX` for any of its characters, also escaped
 * again inside a quoted JSON text, up to 15 backslashes) and percent-encoded (`%XX` for any of its UTF-8 bytes), hex in
 * either case, the forms mixed freely within one occurrence. An empty secret is never looked for.
 */
export function redactSecrets(
  text: string,
  secrets: readonly string[],
  options: RedactOptions = {},
): string {
  const min = Math.max(1, options.minLength ?? 1);
  return redactWith(text, secrets.filter((s) => s.length >= min).map(secretPattern));
}

function redactWith(text: string, patterns: readonly RegExp[]): string {
  let out = text;
  for (const pattern of patterns) out = out.replace(pattern, '[redacted]');
  return out;
}

/** JSON's two-character escapes. */
const SHORT_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  '\b': 'b',
  '\f': 'f',
  '\n': 'n',
  '\r': 'r',
  '\t': 't',
};

/**
 * One backslash or more: a JSON text quoted inside another doubles them (1, 3, 7, 15 before a
 * `/`). Bounded, so that a long run of backslashes costs little to search.
 */
const BACKSLASHES = '\\\\{1,15}';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** A hex digit in either case, as a pattern atom: `f` gives `[fF]`. */
function hexAtoms(hex: string): string[] {
  return [...hex].map((d) => (/[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d));
}

/**
 * The forms of each character of a secret, each form a list of pattern atoms (so that a prefix
 * of a form is a prefix of the list): the character itself, its JSON escapes, its percent-encoding.
 */
function secretForms(secret: string): string[][][] {
  return [...secret].map((ch) => {
    const units = Array.from({ length: ch.length }, (_, i) => ch.charCodeAt(i));
    const forms = [units.map((u) => escapeRegExp(String.fromCharCode(u)))];
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) forms.push([BACKSLASHES, escapeRegExp(short)]);
    forms.push(
      units.flatMap((u) => [BACKSLASHES, 'u', ...hexAtoms(u.toString(16).padStart(4, '0'))]),
    );
    forms.push(
      [...new TextEncoder().encode(ch)].flatMap((b) => [
        '%',
        ...hexAtoms(b.toString(16).padStart(2, '0')),
      ]),
    );
    return forms;
  });
}

/** A global pattern matching a secret in every form {@link redactSecrets} names. */
function secretPattern(secret: string): RegExp {
  const source = secretForms(secret)
    .map((forms) => `(?:${forms.map((f) => f.join('')).join('|')})`)
    .join('');
  return new RegExp(source, 'g');
}

/**
 * A pattern matching, at the end of a text, the longest tail that could still grow into one of
 * the secrets: whole characters of a secret's start in any of their forms, then part of a form.
 */
function secretStartPattern(secrets: readonly string[]): RegExp {
  const starts = secrets
    .filter((s) => s !== '')
    .map((secret) => {
      let rest = '';
      for (const forms of secretForms(secret).reverse()) {
        const whole = forms.map((f) => f.join('')).join('|');
        const parts = new Set<string>(['']);
        for (const f of forms) for (let k = 1; k < f.length; k++) parts.add(f.slice(0, k).join(''));
        rest = `(?:(?:${whole})${rest}|${[...parts].join('|')})`;
      }
      return rest;
    });
  return new RegExp(`(?:${starts.join('|')})$`);
}

/**
 * A writer for text that arrives in pieces (a streamed reply) which removes the secrets, as
 * {@link redactSecrets} does, even from one split over several pieces: a tail that could still
 * grow into a secret, in any of its forms, is held back until the next piece, or the end.
 */
export function createRedactingStream(
  secrets: readonly string[],
  out: (text: string) => void,
): { write(delta: string): void; end(): void } {
  const patterns = secrets.filter((s) => s !== '').map(secretPattern);
  const clean = (text: string): string => redactWith(text, patterns);
  const start = secretStartPattern(secrets);
  let pending = '';
  return {
    write(delta) {
      pending = clean(pending + delta);
      // The leftmost tail that could begin a secret: everything before it is safe to show.
      const held = pending.search(start);
      if (held > 0) out(pending.slice(0, held));
      pending = pending.slice(held);
    },
    end() {
      if (pending !== '') out(clean(pending));
      pending = '';
    },
  };
}
