/**
 * The public API (src/index.ts) is small and deliberate: these lists change
 * only together with it (STYLE.md, "A small public API").
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { ROOT } from './helpers/cli.js';

const INDEX = readFileSync(new URL('../src/index.ts', import.meta.url), 'utf8');

/** The names of `export { ... }` (or `export type { ... }`) statements in the index source. */
function exportedNames(kind: 'value' | 'type'): string[] {
  const re = kind === 'type' ? /export\s+type\s*\{([^}]*)\}/g : /export\s*\{([^}]*)\}/g;
  const names: string[] = [];
  for (const m of INDEX.matchAll(re)) {
    for (const item of m[1]!.split(',')) {
      const name = item
        .trim()
        .split(/\s+as\s+/)
        .pop()!;
      if (name !== '') names.push(name);
    }
  }
  return names.sort();
}

const VALUES = [
  'AgentConfigError',
  'ConversationSchema',
  'EnvelopeSchema',
  'FORMATS',
  'HistlintInputError',
  'INTERRUPTED_TEXT',
  'JsonNumber',
  'JsonParseError',
  'LineIndex',
  'McpStartError',
  'MessageSchema',
  'ModelRequestError',
  'PART_TYPES',
  'PartSchema',
  'REPORTERS',
  'ROLES',
  'RULES',
  'RunError',
  'SourceError',
  'TrimError',
  'analyzePairing',
  'budgetHistory',
  'connectMcpServers',
  'createAgent',
  'createModel',
  'decodeUtf8',
  'detectFormat',
  'dropSystemMessages',
  'dropUnsafeMedia',
  'formatByName',
  'isUuid',
  'jsonEqual',
  'limitHistoryMessages',
  'limitHistoryTokens',
  'lintBytes',
  'lintConversation',
  'lintFiles',
  'lintText',
  'loadTokenCounter',
  'locatePointers',
  'main',
  'messageTokens',
  'newId',
  'normalizeHistory',
  'parseJson',
  'parsePointer',
  'readDocument',
  'replaceAt',
  'resolveRules',
  'ruleById',
  'ruleDocsUrl',
  'sanitizeHistory',
  'serializeDocument',
  'shapeProblem',
  'stringifyJson',
  'toPointer',
  'trimHistory',
  'urlScheme',
  'valueAt',
];

const TYPES = [
  'Agent',
  'AgentOptions',
  'AgentRunOptions',
  'AgentTool',
  'BudgetOptions',
  'CallRef',
  'Conversation',
  'ConversationFormat',
  'ConversationV1',
  'DocumentPart',
  'DroppedCall',
  'DroppedResult',
  'DroppedSystemMessage',
  'EnabledRules',
  'FileConfig',
  'FileResult',
  'Finding',
  'FindingSeverity',
  'Fixable',
  'HistoryProcessor',
  'HistoryRepair',
  'IdUse',
  'ImagePart',
  'InputStream',
  'InstructionsContext',
  'InstructionsFunction',
  'Io',
  'JsonObject',
  'JsonValue',
  'JsonlLine',
  'LintConversationOptions',
  'LintFileRef',
  'LintFilesOptions',
  'LintFilesResult',
  'LintInput',
  'LintOptions',
  'LintProgress',
  'LintResults',
  'LintSubject',
  'LintTextInput',
  'Locator',
  'Loss',
  'McpConnectOptions',
  'McpConnection',
  'McpServerSpec',
  'MergedMessage',
  'Message',
  'MessageV1',
  'ModelCallOptions',
  'ModelClient',
  'ModelOptions',
  'ModelRequest',
  'ModelResponse',
  'MovedResult',
  'NormalizeOptions',
  'NormalizeResult',
  'OutputStream',
  'Pairing',
  'PairingOptions',
  'ParseJsonOptions',
  'Part',
  'ProviderView',
  'ReadResult',
  'ReasoningPart',
  'RepairSelection',
  'Report',
  'Reporter',
  'ReporterContext',
  'ResultRef',
  'ResultStatus',
  'Rule',
  'RuleContext',
  'RuleMeta',
  'RunPartial',
  'RunResult',
  'RunStage',
  'SanitizeOptions',
  'SanitizeReport',
  'SanitizeResult',
  'ServerReference',
  'ServerReferenceField',
  'ServerReferenceKind',
  'ServerReferencePart',
  'Severity',
  'SourceDocument',
  'SourcePosition',
  'SourceUnit',
  'SynthesizedResult',
  'TextPart',
  'TokenCounter',
  'TokenizerName',
  'ToolCallContext',
  'ToolCallPart',
  'ToolDefinition',
  'ToolOutcome',
  'ToolResultPart',
  'TrimOptions',
  'TrimReport',
  'TrimResult',
  'TruncatedCall',
  'UnsafePart',
  'Usage',
  'WithEnvelope',
  'WriteResult',
];

describe('public API', () => {
  it('exports exactly these values', () => {
    expect(Object.keys(api).sort()).toEqual(VALUES);
  });

  it('exports exactly these types', () => {
    expect(exportedNames('type')).toEqual(TYPES);
  });

  it('names every export explicitly (no export *, no default)', () => {
    expect(INDEX).not.toMatch(/export\s*\*/);
    expect(INDEX).not.toMatch(/export\s+default/);
    expect(exportedNames('value')).toEqual(VALUES);
  });

  it('loads from the built package with import and with require() (CommonJS callers)', () => {
    for (const code of [
      "import('histlint').then((h) => process.stdout.write(typeof h.normalizeHistory))",
      "process.stdout.write(typeof require('histlint').normalizeHistory)",
    ]) {
      const r = spawnSync(process.execPath, ['-e', code], { cwd: ROOT, encoding: 'utf8' });
      expect(r.stdout, r.stderr).toBe('function');
    }
  });

  it('lists are sorted and free of duplicates', () => {
    expect([...VALUES].sort()).toEqual(VALUES);
    expect([...TYPES].sort()).toEqual(TYPES);
    expect(new Set([...VALUES, ...TYPES]).size).toBe(VALUES.length + TYPES.length);
  });
});
