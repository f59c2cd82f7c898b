/**
 * Reporters by name (`--format`).
 */
import type { ReporterName } from '../names.js';
import { githubReporter } from './github.js';
import { jsonReporter } from './json.js';
import { junitReporter } from './junit.js';
import { sarifReporter } from './sarif.js';
import { stylishReporter } from './stylish.js';
import type { Reporter } from './types.js';

/** Every reporter by its `--format` name (a name of src/names.ts without a reporter does not compile). */
export const REPORTERS: Readonly<Record<ReporterName, Reporter>> = {
  stylish: stylishReporter,
  json: jsonReporter,
  sarif: sarifReporter,
  github: githubReporter,
  junit: junitReporter,
};
