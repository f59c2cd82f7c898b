/**
 * Choosing and setting up a provider. API keys come from an environment
 * record the caller passes (the CLI passes its own `env`), never from
 * anywhere else, and a missing key is an error naming the variable before
 * any request (SPEC §6).
 */
import { AgentConfigError } from './errors.js';
import type { ModelClient } from './types.js';

/** The providers `createModel` knows. */
export const PROVIDERS = ['openai', 'anthropic'] as const;

/** A provider name. */
export type ProviderName = (typeof PROVIDERS)[number];

/** The default request timeout: 10 minutes, as both SDKs have it. */
export const DEFAULT_TIMEOUT_MS = 600_000;

/** The default number of retries per request on 429, 5xx and network errors. */
export const DEFAULT_MAX_RETRIES = 2;

/** Options of {@link createModel}. */
export interface ModelOptions {
  /** `openai` (Chat Completions, any compatible server) or `anthropic`. */
  provider: string;
  /** The model name. */
  model: string;
  /** Where the API key is read from (e.g. the process environment). */
  env: Readonly<Record<string, string | undefined>>;
  /** The variable holding the key (default `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`). */
  apiKeyEnv?: string;
  /** The API's base URL (default: `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL` in `env`, else the provider's). */
  baseURL?: string;
  /** Retries per request on 429, 5xx and network errors (default 2). */
  maxRetries?: number;
  /** Request timeout in milliseconds (default 10 minutes). */
  timeoutMs?: number;
  /** Most tokens a reply may have (`max_completion_tokens` / `max_tokens`; Anthropic default 4096). */
  maxOutputTokens?: number;
}

/** Everything a provider adapter needs, resolved. */
export interface ProviderSettings {
  model: string;
  apiKey: string;
  baseURL: string;
  maxRetries: number;
  timeoutMs: number;
  maxOutputTokens?: number;
  env: Readonly<Record<string, string | undefined>>;
}

/** The environment variable a provider's key is read from. */
export function apiKeyVariable(provider: string, apiKeyEnv?: string): string {
  if (apiKeyEnv !== undefined) return apiKeyEnv;
  return provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
}

function isProvider(name: string): name is ProviderName {
  return (PROVIDERS as readonly string[]).includes(name);
}

/** A model client for a provider; throws {@link AgentConfigError} for an unknown provider, or a key missing or holding a control character. */
export function createModel(options: ModelOptions): ModelClient {
  const { provider } = options;
  if (!isProvider(provider)) {
    throw new AgentConfigError(
      `unknown provider "${provider}" (expected one of ${PROVIDERS.join(', ')})`,
    );
  }
  if (options.model === '') throw new AgentConfigError('a model name is required');
  const variable = apiKeyVariable(provider, options.apiKeyEnv);
  const apiKey = options.env[variable];
  if (apiKey === undefined || apiKey === '') {
    throw new AgentConfigError(
      `the API key variable ${variable} is not set (keys are read from the environment only)`,
      variable,
    );
  }
  // No HTTP header can carry such a key, and fetch's error for it would quote the whole header.
  if (/[\u0000-\u001f\u007f]/.test(apiKey)) {
    throw new AgentConfigError(
      `the API key variable ${variable} holds a line break or another control character; a key is one line of printable characters`,
      variable,
    );
  }
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new AgentConfigError('maxRetries must be a whole number, 0 or more');
  }
  if (!(timeoutMs > 0)) throw new AgentConfigError('timeoutMs must be more than 0');
  const envBase = provider === 'anthropic' ? 'ANTHROPIC_BASE_URL' : 'OPENAI_BASE_URL';
  const fallback =
    provider === 'anthropic' ? 'https://api.anthropic.com' : 'https://api.openai.com/v1';
  const baseURL = options.baseURL ?? nonEmpty(options.env[envBase]) ?? fallback;
  const settings: ProviderSettings = {
    model: options.model,
    apiKey,
    baseURL,
    maxRetries,
    timeoutMs,
    env: options.env,
  };
  if (options.maxOutputTokens !== undefined) settings.maxOutputTokens = options.maxOutputTokens;
  return lazyClient(provider, settings);
}

/**
 * The client of a provider, its module (and, in it, the provider's SDK) loaded on the first
 * request: `createModel` is sync, and the library's export of it loads no client code.
 */
function lazyClient(provider: ProviderName, settings: ProviderSettings): ModelClient {
  let client: Promise<ModelClient> | undefined;
  const load = async (): Promise<ModelClient> =>
    provider === 'anthropic'
      ? (await import('./anthropic.js')).createAnthropicClient(settings)
      : (await import('./openai.js')).createOpenAIClient(settings);
  return {
    provider,
    model: settings.model,
    request: async (request, options) => (await (client ??= load())).request(request, options),
  };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}
