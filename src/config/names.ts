/**
 * Config choices needed at run time without loading zod.
 */

/** The provider targets `--target` and the config's `target` accept. */
export const TARGETS = [
  'openai-chat',
  'openai-responses',
  'anthropic',
  'gemini',
  'bedrock',
] as const;

/** The lint output formats. */
export const FORMAT_NAMES = ['stylish', 'json', 'sarif', 'github', 'junit'] as const;
