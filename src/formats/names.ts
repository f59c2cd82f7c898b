/**
 * Format names for the command line's choices, without loading any adapter
 * (so `--help` and `--version` stay fast). A test keeps them equal to the
 * registry in ./index.ts.
 */

/** Every format name, in detection order. */
export const FORMAT_NAMES = [
  'ai-sdk-ui',
  'histlint',
  'claude-code',
  'gemini',
  'openai-responses',
  'bedrock',
  'anthropic',
  'ai-sdk',
  'openai-chat',
] as const;

/** Formats histlint reads but never writes. */
export const READ_ONLY_FORMATS: readonly string[] = ['claude-code'];

/** The names `--from` accepts. */
export const FROM_CHOICES: readonly string[] = ['auto', ...FORMAT_NAMES];

/** The names `--to` accepts. */
export const TO_CHOICES: readonly string[] = FORMAT_NAMES.filter(
  (n) => !READ_ONLY_FORMATS.includes(n),
);
