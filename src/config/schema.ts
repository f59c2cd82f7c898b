/**
 * The config file, `histlint.config.json`, as a strict zod schema (SPEC
 * §5.2). `schemas/config.v1.schema.json` is generated from it; a test
 * fails when the two drift.
 */
import { z } from 'zod';
import { FROM_CHOICES, REPORTER_NAMES, TARGET_CHOICES } from '../names.js';
import { RULES } from '../rules/index.js';

/** A configured severity. */
export const SeveritySchema = z.enum(['off', 'warn', 'error']);

const ruleIds = RULES.map((r) => r.meta.id) as [string, ...string[]];

// JSON.parse keeps "__proto__" as an own key, but zod's record skips it silently: refuse it first.
const noPrototypeKey = z.custom<unknown>(
  (v) =>
    typeof v !== 'object' || v === null || !Object.prototype.hasOwnProperty.call(v, '__proto__'),
  { message: '"__proto__" is not a rule id (see "histlint rules")' },
);

/** Severities by rule id. */
export const RuleSettingsSchema = noPrototypeKey.pipe(
  z.partialRecord(z.enum(ruleIds), SeveritySchema),
);

/** A JSON pointer as the config writes it. */
const PointerSchema = z
  .string()
  .regex(
    /^(?:\/(?:[^~]|~[01])*)*$/,
    'must be a JSON pointer: "" or "/…", with "~" only as ~0 or ~1',
  );

/** One `overrides` entry: settings for the files its patterns match. */
export const OverrideSchema = z.strictObject({
  files: z.array(z.string()).min(1),
  rules: RuleSettingsSchema.optional(),
  target: z.enum(TARGET_CHOICES).optional(),
  from: z.enum(FROM_CHOICES).optional(),
  pointer: PointerSchema.optional(),
});

/** The config file's schema. */
export const ConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  /** Another config whose settings come first (a path relative to this config). */
  extends: z.string().min(1).optional(),
  files: z.array(z.string()).optional(),
  ignore: z.array(z.string()).optional(),
  rules: RuleSettingsSchema.optional(),
  overrides: z.array(OverrideSchema).optional(),
  target: z.enum(TARGET_CHOICES).optional(),
  from: z.enum(FROM_CHOICES).optional(),
  pointer: PointerSchema.optional(),
  format: z.enum(REPORTER_NAMES).optional(),
});

/** An `overrides` entry. */
export type ConfigOverride = z.infer<typeof OverrideSchema>;

/** A validated config. */
export type Config = z.infer<typeof ConfigSchema>;

/** The JSON Schema of the config file, generated from {@link ConfigSchema}. */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ConfigSchema, { target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  return {
    $schema: schema.$schema,
    $id: 'https://histlint.dev/schemas/config/v1/config.v1.schema.json',
    title: 'histlint.config.json',
    ...schema,
  };
}
