/**
 * Files that ship beside the code: package.json and the JSON Schemas.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package root (the folder holding package.json), from src/cli or dist/cli alike. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** histlint's version, from package.json. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** The text of a bundled schema file under `schemas/`. */
export function schemaText(fileName: string): string {
  return readFileSync(new URL(`../../schemas/${fileName}`, import.meta.url), 'utf8');
}
