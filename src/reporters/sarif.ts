/**
 * The `sarif` reporter: SARIF 2.1.0, for GitHub code scanning and other
 * static-analysis dashboards. Every rule is listed with its help URI.
 */
import type { Reporter } from './types.js';

const LEVEL = { error: 'error', warn: 'warning', off: 'none' } as const;

/**
 * A file path as a URI reference: each segment percent-encoded, so `#`, `?` and `:` stay part of
 * the name. A relative path stays relative (to the working folder, as code scanning expects); an
 * absolute path becomes a file URI, so it is not read as relative to something else. On Windows
 * a drive (`C:`) starts an absolute path; elsewhere `c:` is a folder, encoded like any other.
 */
function fileUri(file: string, windows: boolean): string {
  const segments = (windows ? file.replace(/\\/g, '/') : file).split('/');
  const drive = windows && /^[A-Za-z]:$/.test(segments[0] ?? '');
  const encoded = segments
    .map((seg, i) => (i === 0 && drive ? seg : encodeURIComponent(seg)))
    .join('/');
  if (drive) return `file:///${encoded}`;
  return encoded.startsWith('/') ? `file://${encoded}` : encoded;
}

/** Renders results as a SARIF 2.1.0 log. */
export const sarifReporter: Reporter = (results, ctx) => {
  const windows = ctx.windows === true;
  const index = new Map(ctx.rules.map((r, i) => [r.id, i]));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'histlint',
            version: ctx.version,
            informationUri: 'https://github.com/histlint/histlint',
            rules: ctx.rules.map((r) => ({
              id: r.id,
              shortDescription: { text: r.description },
              helpUri: ctx.docsUrl(r.id),
              defaultConfiguration: { level: LEVEL[r.defaultSeverity] },
            })),
          },
        },
        artifacts: results.files.map((f) => ({ location: { uri: fileUri(f.file, windows) } })),
        results: results.files.flatMap((file, fileIndex) =>
          file.findings.map((f) => ({
            ruleId: f.ruleId,
            ruleIndex: index.get(f.ruleId) ?? 0,
            level: LEVEL[f.severity],
            message: { text: f.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: fileUri(file.file, windows), index: fileIndex },
                  region: { startLine: f.line, startColumn: f.column },
                },
                logicalLocations: [
                  { fullyQualifiedName: f.pointer === '' ? '/' : f.pointer, kind: 'element' },
                ],
              },
            ],
          })),
        ),
        columnKind: 'utf16CodeUnits',
        invocations: [
          {
            executionSuccessful: results.files.every((f) => f.error === undefined),
            toolExecutionNotifications: results.files
              .filter((f) => f.error !== undefined)
              .map((f) => ({
                level: 'error',
                message: { text: f.error!.message },
                locations: [
                  { physicalLocation: { artifactLocation: { uri: fileUri(f.file, windows) } } },
                ],
              })),
          },
        ],
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
};
