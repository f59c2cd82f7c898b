/**
 * The `github` reporter: GitHub Actions workflow commands, so findings
 * appear as annotations on the pull request.
 */
import type { Reporter } from './types.js';

/** Escapes a workflow command's message. */
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value. */
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Renders results as `::error file=…,line=…,col=…::message` lines. */
export const githubReporter: Reporter = (results) => {
  const out: string[] = [];
  for (const file of results.files) {
    if (file.error !== undefined) {
      out.push(
        `::error file=${escapeProperty(file.file)},title=${escapeProperty('histlint')}::${escapeData(file.error.message)}`,
      );
    }
    for (const f of file.findings) {
      const command = f.severity === 'error' ? 'error' : 'warning';
      const props = `file=${escapeProperty(file.file)},line=${f.line},col=${f.column},title=${escapeProperty(`histlint ${f.ruleId}`)}`;
      out.push(`::${command} ${props}::${escapeData(`${f.message} (${f.ruleId})`)}`);
    }
  }
  return out.length === 0 ? '' : out.join('\n') + '\n';
};
