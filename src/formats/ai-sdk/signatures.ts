/**
 * Reasoning signatures in the AI SDK's per-provider options: a ModelMessage
 * reasoning part keeps them in `providerOptions`, a UIMessage one in
 * `providerMetadata` (convertToModelMessages copies one into the other), under
 * the same provider keys. The `ai-sdk` and `ai-sdk-ui` adapters lift them into
 * the v1 `signature` / `redacted` fields and put them back here.
 */
import { setOwn, type JsonObject } from '../../model/json.js';
import type { Part } from '../../model/types.js';
import type { Loss } from '../format.js';
import { isPlainObject } from '../kit/kept.js';
import type { FieldSource } from '../kit/source-map.js';
import type { PartWhere } from '../shared.js';
import { HINTS } from './hints.js';

/** Where each AI SDK provider keeps a replayable reasoning signature (and redacted data). */
const SIGNATURE_KEYS: Record<string, { signature: string; redacted?: string }> = {
  anthropic: { signature: 'signature', redacted: 'redactedData' },
  bedrock: { signature: 'signature', redacted: 'redactedData' },
  google: { signature: 'thoughtSignature' },
  openai: { signature: 'reasoningEncryptedContent' },
};

/** The AI SDK provider that replays a signature read by another histlint format. */
const PROVIDER_OF_FORMAT: Record<string, string> = {
  anthropic: 'anthropic',
  bedrock: 'bedrock',
  gemini: 'google',
  'openai-responses': 'openai',
};

/** The formats whose `$signature` / `$redacted` hints name an AI SDK provider (both use these keys). */
const AI_SDK_FORMATS = ['ai-sdk', 'ai-sdk-ui'];

/** A two-level copy of a provider options object (its provider entries are edited). */
function copyOptions(options: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(options)) {
    const v = options[k]!;
    if (isPlainObject(v)) {
      const inner: JsonObject = {};
      for (const ik of Object.keys(v)) setOwn(inner, ik, v[ik]!);
      setOwn(out, k, inner);
    } else setOwn(out, k, v);
  }
  return out;
}

/**
 * Moves the replayable signature and redacted data of `rest[key]` (a reasoning part's kept
 * provider options) onto the v1 `part`: the kept object loses them (and is dropped when nothing
 * is left), the hints `$signature` / `$redacted` name the provider. Returns where each v1 field
 * it set came from, below the part's source node (the kit's field sources). A field the part
 * already has is left alone.
 */
export function takeSignatures(
  part: Part,
  rest: JsonObject | undefined,
  key: string,
  hints: JsonObject,
): Record<string, FieldSource> {
  const fields: Record<string, FieldSource> = {};
  const options = rest?.[key];
  if (!isPlainObject(options)) return fields;
  let copy: JsonObject | undefined;
  for (const [provider, keys] of Object.entries(SIGNATURE_KEYS)) {
    const entry = options[provider];
    if (!isPlainObject(entry)) continue;
    for (const [field, v1Key, hint] of [
      [keys.signature, 'signature', HINTS.signature],
      [keys.redacted, 'redacted', HINTS.redacted],
    ] as const) {
      if (field === undefined || typeof entry[field] !== 'string' || Object.hasOwn(part, v1Key))
        continue;
      copy ??= copyOptions(options);
      const target = copy[provider] as JsonObject;
      part[v1Key] = entry[field];
      delete target[field];
      if (Object.keys(target).length === 0) delete copy[provider];
      setOwn(hints, hint, provider);
      fields[v1Key] = [key, provider, field];
    }
  }
  if (copy === undefined) return fields;
  if (Object.keys(copy).length === 0) delete rest![key];
  else rest![key] = copy;
  return fields;
}

/** Where a signature from another format goes: the AI SDK provider that replays it. */
function defaultProvider(part: Part): string {
  const pd = part.providerData;
  if (isPlainObject(pd)) {
    for (const format of Object.keys(pd)) {
      const provider = PROVIDER_OF_FORMAT[format];
      if (provider !== undefined) return provider;
      // The other AI SDK format named the provider.
      const hint = isPlainObject(pd[format])
        ? (pd[format] as JsonObject)[HINTS.signature]
        : undefined;
      if (
        AI_SDK_FORMATS.includes(format) &&
        typeof hint === 'string' &&
        Object.hasOwn(SIGNATURE_KEYS, hint)
      )
        return hint;
    }
  }
  return 'anthropic';
}

/**
 * Puts a v1 reasoning part's signature and redacted data into `out[key]` under the provider that
 * replays them: the one a hint of this format (`data`) names, else the one matching the source
 * format, else `anthropic`. The hint `field` (v4) puts the signature on the part itself. A
 * provider with no field for it is a loss.
 */
export function placeSignatures(
  out: JsonObject,
  key: string,
  part: Part,
  data: JsonObject | undefined,
  where: PartWhere,
  losses: Loss[],
): void {
  const fallback = defaultProvider(part);
  for (const [v1Key, hint] of [
    ['signature', HINTS.signature],
    ['redacted', HINTS.redacted],
  ] as const) {
    const value = part[v1Key];
    if (typeof value !== 'string') continue;
    const provider = typeof data?.[hint] === 'string' ? (data[hint] as string) : fallback;
    if (provider === 'field') {
      // v4 kept the signature on the part.
      out.signature = value;
      continue;
    }
    const field = SIGNATURE_KEYS[provider]?.[v1Key === 'signature' ? 'signature' : 'redacted'];
    if (field === undefined) {
      losses.push({ ...where, what: `reasoning ${v1Key} (no ${provider} field for it)` });
      continue;
    }
    const options = isPlainObject(out[key]) ? { ...(out[key] as JsonObject) } : {};
    const entry = isPlainObject(options[provider]) ? { ...(options[provider] as JsonObject) } : {};
    setOwn(entry, field, value);
    setOwn(options, provider, entry);
    out[key] = options;
  }
}
