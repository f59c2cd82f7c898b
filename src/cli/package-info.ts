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

/**
 * The docs page of a rule (`docs/rules/<id>.md`, shipped with the package), or undefined when
 * the package has none for it.
 */
export function ruleDocsPage(id: string): string | undefined {
  // Rule ids are kebab-case words, with one `/` for a provider's rules: never a way out of docs/.
  if (!/^[a-z0-9-]+(?:\/[a-z0-9-]+)?$/.test(id)) return undefined;
  try {
    return readFileSync(new URL(`../../docs/rules/${id}.md`, import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
}
