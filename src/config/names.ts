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

/**
 * The values `--target` and the config's `target` accept: `auto` (the
 * default) takes the provider of the format each conversation was read as,
 * `none` checks no provider's rules, a provider forces its rules.
 */
export const TARGET_CHOICES = ['auto', 'none', ...TARGETS] as const;

/** A `--target` value. */
export type TargetChoice = (typeof TARGET_CHOICES)[number];

/** The lint output formats. */
export const FORMAT_NAMES = ['stylish', 'json', 'sarif', 'github', 'junit'] as const;
