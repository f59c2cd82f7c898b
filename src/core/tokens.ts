/**
 * Token counting for `trim --max-tokens` (SPEC §2.3). The BPE tables are
 * large, so a tokenizer is loaded only when asked for.
 */
import type { JsonValue } from '../model/json.js';
import type { Message, Part } from '../model/types.js';

/** Counts the tokens of a string. */
export type TokenCounter = (text: string) => number;

/** The tokenizers `trim --max-tokens` offers. */
export const TOKENIZERS = ['o200k_base', 'cl100k_base'] as const;

/** A tokenizer name. */
export type TokenizerName = (typeof TOKENIZERS)[number];

/** Tokens every message costs before its content. */
export const MESSAGE_OVERHEAD = 4;
/** Tokens a tool call or tool result costs beyond its text. */
export const TOOL_OVERHEAD = 3;
/** Tokens an image or document part costs. */
export const MEDIA_TOKENS = 85;

/** Loads a real BPE tokenizer; special-token text is counted as ordinary text. */
export async function loadTokenCounter(name: TokenizerName = 'o200k_base'): Promise<TokenCounter> {
  const mod =
    name === 'cl100k_base'
      ? await import('gpt-tokenizer/encoding/cl100k_base')
      : await import('gpt-tokenizer/encoding/o200k_base');
  const options = { disallowedSpecial: new Set<string>() };
  return (text: string) => (text === '' ? 0 : mod.countTokens(text, options));
}

function str(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

function contentTokens(content: JsonValue | undefined, count: TokenCounter): number {
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const item of content) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const p = item as Part;
    if (p.type === 'text') n += count(str(p.text));
    else if (p.type === 'image' || p.type === 'document') n += MEDIA_TOKENS;
  }
  return n;
}

/**
 * The token cost of one message: 4, plus each text and reasoning part's
 * text, each tool call's name and arguments plus 3, each tool result's text
 * content plus 3, and 85 per image or document part. Role, ids and unknown
 * fields add nothing.
 */
export function messageTokens(message: Message, count: TokenCounter): number {
  let n = MESSAGE_OVERHEAD;
  for (const p of message.parts) {
    switch (p.type) {
      case 'text':
      case 'reasoning':
        n += count(str(p.text));
        break;
      case 'tool-call':
        n += count(str(p.name)) + count(str(p.arguments)) + TOOL_OVERHEAD;
        break;
      case 'tool-result':
        n += contentTokens(p.content, count) + TOOL_OVERHEAD;
        break;
      case 'image':
      case 'document':
        n += MEDIA_TOKENS;
        break;
      default:
        break;
    }
  }
  return n;
}
