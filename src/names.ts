/**
 * Every list of names histlint has, in one place and with no imports: the
 * command line's choices (`--help` loads no adapter, reporter or zod), the
 * config schema and the library's option types read them, and each registry
 * is a `Record` over them, so a name without an entry does not compile.
 */

/**
 * The conversation formats, in the order `--from auto` tries them (the
 * registry, src/formats/index.ts, says why). `readOnly`: histlint reads the
 * format but never writes it. `eventLog`: a JSONL file of the format is one
 * conversation spread over its lines (a Claude Code session), not one
 * conversation per line. `session`: an agent CLI's session file, written only
 * back to the file it was read from, by the repair commands (normalize,
 * sanitize, lint --fix; SPEC §5.1): never made from another format
 * (`convert --to`), never trimmed.
 */
export const CONVERSATION_FORMATS = [
  { name: 'ai-sdk-ui', readOnly: false, eventLog: false, session: false },
  { name: 'histlint', readOnly: false, eventLog: false, session: false },
  { name: 'claude-code', readOnly: false, eventLog: true, session: true },
  { name: 'codex-cli', readOnly: false, eventLog: true, session: true },
  { name: 'gemini-cli', readOnly: false, eventLog: true, session: true },
  { name: 'copilot-cli', readOnly: true, eventLog: true, session: false },
  { name: 'openai-agents', readOnly: true, eventLog: false, session: false },
  { name: 'adk', readOnly: true, eventLog: false, session: false },
  { name: 'autogen', readOnly: true, eventLog: false, session: false },
  { name: 'pydantic-ai', readOnly: false, eventLog: false, session: false },
  { name: 'langchain', readOnly: false, eventLog: false, session: false },
  { name: 'gemini', readOnly: false, eventLog: false, session: false },
  { name: 'openai-responses', readOnly: false, eventLog: false, session: false },
  { name: 'bedrock', readOnly: false, eventLog: false, session: false },
  { name: 'anthropic', readOnly: false, eventLog: false, session: false },
  { name: 'ai-sdk', readOnly: false, eventLog: false, session: false },
  { name: 'openai-chat', readOnly: false, eventLog: false, session: false },
] as const;

/** One entry of {@link CONVERSATION_FORMATS}. */
type FormatEntry = (typeof CONVERSATION_FORMATS)[number];

/** A conversation format's name. */
export type FormatName = FormatEntry['name'];

/** The name of a format any conversation can be written in (`--to`): not read only, no session. */
export type WritableFormatName = Extract<FormatEntry, { readOnly: false; session: false }>['name'];

/** A `--from` value: a format, or `auto` (detect each conversation's format). */
export type FromChoice = 'auto' | FormatName;

/** The names `--from` and the config's `from` accept: `auto`, then every format in detection order. */
export const FROM_CHOICES: readonly [FromChoice, ...FromChoice[]] = [
  'auto',
  ...CONVERSATION_FORMATS.map((f) => f.name),
];

/** The formats any conversation can be written in, in detection order: the names `--to` accepts. */
export const TO_CHOICES: readonly [WritableFormatName, ...WritableFormatName[]] =
  CONVERSATION_FORMATS.flatMap((f) => (f.readOnly || f.session ? [] : [f.name])) as [
    WritableFormatName,
    ...WritableFormatName[],
  ];

/** The formats histlint reads but never writes. */
export const READ_ONLY_FORMATS: readonly FormatName[] = CONVERSATION_FORMATS.flatMap((f) =>
  f.readOnly ? [f.name] : [],
);

/** The session formats: written back only to the file they were read from, by the repair commands. */
export const SESSION_FORMATS: readonly FormatName[] = CONVERSATION_FORMATS.flatMap((f) =>
  f.session ? [f.name] : [],
);

/** The formats whose JSONL files are event logs: one conversation per file, not per line. */
export const EVENT_LOG_FORMATS: readonly FormatName[] = CONVERSATION_FORMATS.flatMap((f) =>
  f.eventLog ? [f.name] : [],
);

/** The provider targets (SPEC §3): whose acceptance rules `--target` checks. */
export const TARGETS = [
  'openai-chat',
  'openai-responses',
  'anthropic',
  'gemini',
  'bedrock',
] as const;

/** A provider target. */
export type TargetName = (typeof TARGETS)[number];

/**
 * The values `--target` and the config's `target` accept: `auto` (the
 * default) takes the provider of the format each conversation was read as,
 * `none` checks no provider's rules, a provider forces its rules.
 */
export const TARGET_CHOICES = ['auto', 'none', ...TARGETS] as const;

/** A `--target` value. */
export type TargetChoice = (typeof TARGET_CHOICES)[number];

/** The lint reporters: the names `lint --format` and the config's `format` accept. */
export const REPORTER_NAMES = ['stylish', 'json', 'sarif', 'github', 'junit'] as const;

/** A reporter's name. */
export type ReporterName = (typeof REPORTER_NAMES)[number];
