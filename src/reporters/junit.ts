/**
 * The `junit` reporter: one test case per file, one failure per error, so
 * CI systems that read JUnit XML show broken histories as failed tests.
 */
import type { Reporter } from './types.js';

/**
 * Escapes text for XML, dropping characters XML 1.0 cannot hold. A CR is
 * written as a reference, since a parser turns a raw CR (or CRLF) into LF.
 */
function xml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;');
}

/** Escapes an attribute value: as {@link xml}, and tab and LF as references too, which a parser would otherwise turn into spaces. */
function attr(s: string): string {
  return xml(s).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

/** Renders results as JUnit XML. */
export const junitReporter: Reporter = (results) => {
  const tests = results.files.length;
  // JUnit counts failed test cases, one per file with errors; unreadable files are errors.
  const failures = results.files.filter((f) => f.errorCount > 0).length;
  const errored = results.files.filter((f) => f.error !== undefined).length;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="histlint" tests="${tests}" failures="${failures}" errors="${errored}">`,
  );
  out.push(
    `  <testsuite name="histlint" tests="${tests}" failures="${failures}" errors="${errored}" skipped="0">`,
  );
  for (const file of results.files) {
    const errors = file.findings.filter((f) => f.severity === 'error');
    const warnings = file.findings.filter((f) => f.severity === 'warn');
    const open = `    <testcase classname="histlint" name="${attr(file.file)}"`;
    if (file.error === undefined && errors.length === 0 && warnings.length === 0) {
      out.push(`${open}/>`);
      continue;
    }
    out.push(`${open}>`);
    // A file that could not be read (or, with --fix, written), then any findings it has.
    if (file.error !== undefined)
      out.push(`      <error type="io" message="${attr(file.error.message)}"/>`);
    for (const f of errors) {
      const where = `${file.file}:${f.line}:${f.column}`;
      out.push(
        `      <failure type="${attr(f.ruleId)}" message="${attr(f.message)}">${xml(`${where} ${f.message} (${f.ruleId})`)}</failure>`,
      );
    }
    if (warnings.length > 0) {
      const text = warnings
        .map((f) => `${file.file}:${f.line}:${f.column} warning ${f.message} (${f.ruleId})`)
        .join('\n');
      out.push(`      <system-out>${xml(text)}</system-out>`);
    }
    out.push('    </testcase>');
  }
  out.push('  </testsuite>', '</testsuites>');
  return out.join('\n') + '\n';
};
