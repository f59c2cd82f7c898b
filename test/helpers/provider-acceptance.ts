/**
 * Would the provider accept this request? The mock model server asks this of
 * every request it receives. The conversation in the body is read with
 * histlint's own format adapter (`openai-chat` for /v1/chat/completions,
 * `anthropic` for /v1/messages) and linted with the rules `histlint lint
 * --target <format>` enables: the core pairing and schema rules plus the
 * provider's acceptance rules. Any error-severity finding is a request the
 * provider would refuse. A few request-level rules the conversation linter
 * does not see (tool definitions, `max_tokens`, tools named by history
 * blocks) are checked here too, from the same research notes
 * (shared/reference/providers.md).
 */
import { lintText } from '../../src/lint/engine.js';
import { SeverityResolver } from '../../src/lint/severity.js';

/** The target a request path is checked against, or undefined for a path no provider serves. */
export function targetOf(path: string): 'openai-chat' | 'anthropic' | undefined {
  if (path === '/v1/chat/completions') return 'openai-chat';
  if (path === '/v1/messages') return 'anthropic';
  return undefined;
}

const RULES = new SeverityResolver({}, process.cwd(), new Map()).forFile(undefined);

/** Function and tool names both APIs accept. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Request-level rules of a Chat Completions body. */
function openaiRequestProblems(body: Json): string[] {
  const out: string[] = [];
  const tools = body.tools;
  if (tools !== undefined) {
    if (!Array.isArray(tools) || tools.length === 0) out.push('tools: a non-empty array');
    else {
      const names = new Set<string>();
      tools.forEach((t, i) => {
        const fn = isObject(t) ? t.function : undefined;
        if (!isObject(t) || t.type !== 'function' || !isObject(fn)) {
          out.push(`tools[${i}]: expected {type: "function", function: {...}}`);
          return;
        }
        const name = fn.name;
        if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
          out.push(`tools[${i}].function.name: ${JSON.stringify(name)} does not match pattern`);
        } else if (names.has(name)) out.push(`tools[${i}]: duplicate function name ${name}`);
        else names.add(name);
        if (fn.parameters !== undefined && !isObject(fn.parameters)) {
          out.push(`tools[${i}].function.parameters: expected an object`);
        }
      });
    }
  }
  if (body.stream_options !== undefined && body.stream !== true) {
    out.push('stream_options: only allowed when stream is true');
  }
  return out;
}

/** Request-level rules of a Messages body. */
function anthropicRequestProblems(body: Json): string[] {
  const out: string[] = [];
  const maxTokens = body.max_tokens;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    out.push('max_tokens: Field required (a whole number, 1 or more)');
  }
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system)) {
    out.push('system: expected a string or text blocks');
  }
  const declared = new Set<string>();
  const tools = body.tools;
  if (tools !== undefined) {
    if (!Array.isArray(tools)) out.push('tools: expected an array');
    else {
      tools.forEach((t, i) => {
        if (!isObject(t)) {
          out.push(`tools.${i}: expected an object`);
          return;
        }
        const name = t.name;
        if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
          out.push(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
        } else if (declared.has(name)) out.push(`tools: Tool names must be unique (${name})`);
        else declared.add(name);
        const schema = t.input_schema;
        if (!isObject(schema) || schema.type !== 'object') {
          out.push(`tools.${i}.custom.input_schema.type: Input should be 'object'`);
        }
      });
    }
  }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  messages.forEach((m, i) => {
    const content = isObject(m) ? m.content : undefined;
    if (!Array.isArray(content)) return;
    content.forEach((b, j) => {
      if (!isObject(b) || b.type !== 'tool_use') return;
      if (!declared.has(String(b.name))) {
        out.push(
          `messages.${i}.content.${j}: tool_use names ${JSON.stringify(b.name)}, which tools does not define`,
        );
      }
      if (!isObject(b.input)) out.push(`messages.${i}.content.${j}.input: expected an object`);
    });
  });
  return out;
}

/**
 * The reasons the provider would refuse a request, as one line each; empty
 * when it would accept it.
 */
export function requestViolations(path: string, raw: string): string[] {
  const target = targetOf(path);
  if (target === undefined) return [];
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return ['the body is not JSON'];
  }
  if (!isObject(body)) return ['the body is not a JSON object'];
  const out: string[] = [];
  if (typeof body.model !== 'string' || body.model === '') out.push('model: Field required');
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    out.push('messages: at least one message is required');
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean') {
    out.push('stream: expected a boolean');
  }
  out.push(...(target === 'anthropic' ? anthropicRequestProblems : openaiRequestProblems)(body));
  for (const f of lintText(raw, { rules: RULES, from: target, target, kind: 'json' })) {
    if (f.severity === 'error') out.push(`${f.ruleId} at ${f.pointer || '/'}: ${f.message}`);
  }
  return out;
}
