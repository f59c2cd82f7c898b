/**
 * schema: a violation of schemas/conversation.v1.schema.json, one finding
 * per violation, with its pointer. The validator is compiled to standalone
 * code at build time.
 */
import { validateEnvelope, validateMessages } from '../generated/conversation-validator.js';
import type { JsonValue } from '../model/json.js';
import { parsePointer, valueAt } from '../model/pointer.js';
import { isObject } from '../model/types.js';
import { defineRule, type Report } from './rule.js';

interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

type Validator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

const envelope = validateEnvelope as Validator;
const bare = validateMessages as Validator;

/** The `type` of the part at `pointer` in `root`, if there is one. */
function partTypeAt(root: unknown, pointer: string): unknown {
  const v = valueAt(root as JsonValue, parsePointer(pointer));
  return isObject(v) ? v.type : undefined;
}

/** One readable sentence for an ajv error. */
function describe(e: AjvError, root: unknown): string {
  switch (e.keyword) {
    case 'required':
      return `missing required property "${String(e.params.missingProperty)}"`;
    case 'type':
      return `must be of type ${String(e.params.type)}`;
    case 'enum':
      return `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(e.params.allowedValue)}`;
    case 'oneOf':
      // The failing part's own type says which media rule it broke.
      return partTypeAt(root, e.instancePath) === 'document'
        ? 'a document needs exactly one of "url" or "data"'
        : 'an image needs exactly one of "url" or "data" ("data" also needs "mediaType")';
    case 'not':
      return "a tool result's content may hold only text, image and document parts";
    default:
      return e.message ?? e.keyword;
  }
}

/** The ajv errors worth a finding: no `if` wrappers, no branch errors under a reported `oneOf`. */
export function schemaProblems(root: unknown): { pointer: string; message: string }[] {
  const validate = Array.isArray(root) ? bare : envelope;
  if (validate(root)) return [];
  const errors = validate.errors ?? [];
  const oneOfPaths = errors
    .filter((e) => e.keyword === 'oneOf')
    .map((e) => `${e.instancePath}|${e.schemaPath}/`);
  const out: { pointer: string; message: string }[] = [];
  for (const e of errors) {
    if (e.keyword === 'if') continue;
    if (oneOfPaths.some((p) => `${e.instancePath}|${e.schemaPath}`.startsWith(p))) continue;
    out.push({ pointer: e.instancePath, message: describe(e, root) });
  }
  return out;
}

/** The `schema` rule. */
export default defineRule({
  meta: {
    id: 'schema',
    description: 'The conversation violates the v1 JSON Schema.',
    defaultSeverity: 'error',
    fixable: false,
    messages: { violation: '{detail}' },
  },
  check(subject, ctx) {
    // Foreign formats are checked by their own rules; the schema is the v1 contract.
    if (subject.format !== 'histlint') return;
    const where =
      subject.shape === 'envelope'
        ? /^\/messages\/(\d+)(?:\/parts\/(\d+))?/
        : /^\/(\d+)(?:\/parts\/(\d+))?/;
    for (const p of schemaProblems(subject.root)) {
      const report: Report = {
        messageId: 'violation',
        data: { detail: p.message },
        pointer: subject.rootPointer + p.pointer,
      };
      const m = where.exec(p.pointer);
      if (m !== null) {
        report.messageIndex = Number(m[1]);
        if (m[2] !== undefined) report.partIndex = Number(m[2]);
      }
      ctx.report(report);
    }
  },
});
