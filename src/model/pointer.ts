/**
 * RFC 6901 JSON pointers: parsing, building, and reading or replacing the
 * value a pointer names.
 */
import { setOwn, type JsonObject, type JsonValue } from './json.js';
import { isObject } from './types.js';

/** Escapes one reference token of an RFC 6901 pointer. */
export function escapePointerToken(token: string | number): string {
  // Every reader builds pointers for every part: most tokens are indices and plain keys.
  if (typeof token === 'number') return String(token);
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Unescapes one reference token of an RFC 6901 pointer (`~1` is `/`, then `~0` is `~`). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Builds an RFC 6901 pointer from its tokens. */
export function toPointer(tokens: readonly (string | number)[]): string {
  let out = '';
  for (const t of tokens) out += '/' + escapePointerToken(t);
  return out;
}

/** Splits an RFC 6901 pointer into its unescaped tokens; throws on a malformed pointer. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/'))
    throw new Error(`invalid JSON pointer "${pointer}": it must be empty or start with "/"`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => {
      if (/~[^01]|~$/.test(t))
        throw new Error(`invalid JSON pointer "${pointer}": "~" must be followed by 0 or 1`);
      return unescapePointerToken(t);
    });
}

/** The value at `tokens` inside `root`, or undefined when the path does not exist. */
export function valueAt(root: JsonValue, tokens: readonly string[]): JsonValue | undefined {
  let v: JsonValue | undefined = root;
  for (const t of tokens) {
    if (Array.isArray(v)) {
      if (!/^(0|[1-9][0-9]*)$/.test(t)) return undefined;
      v = v[Number(t)];
    } else if (isObject(v)) {
      v = Object.prototype.hasOwnProperty.call(v, t) ? v[t] : undefined;
    } else {
      return undefined;
    }
    if (v === undefined) return undefined;
  }
  return v;
}

/** A copy of `root` with the value at `tokens` replaced; containers on the path are copied, the rest shared. */
export function replaceAt(root: JsonValue, tokens: readonly string[], value: JsonValue): JsonValue {
  if (tokens.length === 0) return value;
  const path: JsonValue[] = [root];
  for (let k = 0; k < tokens.length - 1; k++) path.push(valueAt(path[k]!, [tokens[k]!])!);
  let next = value;
  for (let k = tokens.length - 1; k >= 0; k--) {
    const parent = path[k]!;
    const t = tokens[k]!;
    if (Array.isArray(parent)) {
      const copy = parent.slice();
      copy[Number(t)] = next;
      next = copy;
    } else {
      const copy: JsonObject = {};
      for (const key of Object.keys(parent as JsonObject))
        setOwn(copy, key, (parent as JsonObject)[key]!);
      setOwn(copy, t, next);
      next = copy;
    }
  }
  return next;
}
