/**
 * Errors about an input that a user can act on: one line, with a position
 * where there is one. Anything else escaping an operation is a bug.
 */

/** A problem with an input, at an optional 1-based line and column. */
export class SourceError extends Error {
  readonly line?: number;
  readonly column?: number;

  constructor(message: string, position?: { line: number; column: number }) {
    super(message);
    this.name = 'SourceError';
    if (position !== undefined) {
      this.line = position.line;
      this.column = position.column;
    }
  }
}

/** A conversation in a read-only format (Claude Code) that an operation would have to write. */
export class ReadOnlyFormatError extends SourceError {
  /** The read-only format's name. */
  readonly format: string;

  constructor(format: string) {
    super(`the ${format} format is read only; use "histlint convert --to histlint" first`);
    this.name = 'ReadOnlyFormatError';
    this.format = format;
  }
}

/**
 * A conversation read from an agent CLI's session file (SPEC §5.1) that a command other than the
 * repairs would have to write: a session is written back only by normalize, sanitize and
 * `lint --fix`, which keep every line they do not change.
 */
export class SessionFormatError extends SourceError {
  /** The session format's name. */
  readonly format: string;

  constructor(format: string, command: string) {
    super(
      `${command} does not write ${format} sessions (only normalize, sanitize and lint --fix repair a session in place); use "histlint convert --to histlint" first`,
    );
    this.name = 'SessionFormatError';
    this.format = format;
  }
}

/**
 * A repair a session file has no place for (a changed message of a Gemini CLI recording, an item
 * of a Codex compaction): the operation refuses the file, which stays as it was. Like a write
 * back that would lose something, it is a refusal (exit 1), not unreadable input.
 */
export class SessionWriteError extends SourceError {
  constructor(kind: string, format: string, why: string) {
    super(`cannot write this change back into a ${format} ${kind}: ${why}`);
    this.name = 'SessionWriteError';
  }
}

/**
 * A value a library operation cannot read as a history: neither a v1 message array nor a v1
 * envelope. `format` names the provider format the value is in, when detection found one.
 */
export class HistlintInputError extends SourceError {
  /** The operation that refused the value (`sanitizeHistory`, ...). */
  readonly operation: string;
  /** The format `detectFormat` found the value in, if any (a provider's shape, not v1). */
  readonly format?: string;

  constructor(message: string, operation: string, format?: string) {
    super(message);
    this.name = 'HistlintInputError';
    this.operation = operation;
    if (format !== undefined) this.format = format;
  }
}

/** A file-system error in a few words, without a stack (the message's first line otherwise). */
export function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'is a directory, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'EEXIST':
      // Making the folders of a path: something other than a folder stands where one should be.
      if ((error as { syscall?: unknown }).syscall === 'mkdir')
        return 'a part of the path is not a directory';
      return error instanceof Error ? error.message.split('\n')[0]! : String(error);
    case 'ERR_FS_FILE_TOO_LARGE':
      return 'file too large to read at once';
    default:
      return error instanceof Error ? error.message.split('\n')[0]! : String(error);
  }
}
