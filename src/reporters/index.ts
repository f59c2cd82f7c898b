/**
 * Reporters by name (`--format`).
 */
import { githubReporter } from './github.js';
import { jsonReporter } from './json.js';
import { junitReporter } from './junit.js';
import { sarifReporter } from './sarif.js';
import { stylishReporter } from './stylish.js';
import type { Reporter } from './types.js';

/** Every reporter by its `--format` name. */
export const REPORTERS: Readonly<Record<string, Reporter>> = {
  stylish: stylishReporter,
  json: jsonReporter,
  sarif: sarifReporter,
  github: githubReporter,
  junit: junitReporter,
};
