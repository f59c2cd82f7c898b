/**
 * Lint as a library call: one conversation's JSON text in, findings out,
 * with the CLI's defaults for severities.
 */
import type { Config } from '../config/schema.js';
import type { FromChoice, TargetChoice } from '../names.js';
import type { Severity } from '../rules/rule.js';
import { lintText, type EnabledRules, type Finding } from './engine.js';
import { SeverityResolver } from './severity.js';

/** Options of {@link lintConversation}. */
export interface LintConversationOptions {
  /** Severities by rule id, over the defaults (as the config's `rules`). */
  rules?: Record<string, Severity>;
  /**
   * Whose acceptance rules to check: `auto` (the default) takes the provider of the format the
   * text is read as, `none` checks none, a provider forces its rules.
   */
  target?: TargetChoice;
  /** The format (default `auto`). */
  from?: FromChoice;
  /** RFC 6901 pointer tokens of the conversation inside the document. */
  pointer?: string[];
  /** Do not report the unanswered calls of a trailing assistant message. */
  leavePending?: boolean;
}

/**
 * The rules that may run, with their severities: defaults, then `rules`. Provider rules are
 * among them; a lint runs them only under their target.
 */
export function resolveRules(rules: Record<string, Severity> = {}): EnabledRules {
  const config: Config = { rules: rules as Config['rules'] };
  return new SeverityResolver(config, '/', new Map()).forFile(undefined);
}

/** Lints one conversation given as JSON text (any supported format); findings carry line and column in that text. */
export function lintConversation(text: string, options: LintConversationOptions = {}): Finding[] {
  return lintText(text, {
    rules: resolveRules(options.rules),
    target: options.target ?? 'auto',
    pointer: options.pointer ?? [],
    leavePending: options.leavePending === true,
    ...(options.from === undefined ? {} : { from: options.from }),
  });
}
