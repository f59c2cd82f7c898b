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
