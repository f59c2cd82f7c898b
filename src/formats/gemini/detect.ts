/**
 * Detection of a Gemini `generateContent` request or bare `contents` array: contents whose parts
 * are Gemini parts (objects without a string `type`), one of them at least with a Gemini data
 * field, and for a bare array Gemini roles on every content.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isPlainObject } from '../kit/kept.js';
import { dataFieldsOf } from './hints.js';

/** True for a content object whose `parts` are Gemini parts (objects without a string `type`). */
function isGeminiContent(c: JsonValue | undefined): c is JsonObject {
  if (!isPlainObject(c)) return false;
  // Serializers that write absent fields as null write `"role": null` too.
  if (c.role !== undefined && c.role !== null && typeof c.role !== 'string') return false;
  if ('content' in c || !Array.isArray(c.parts)) return false;
  return c.parts.every((p) => isPlainObject(p) && typeof p.type !== 'string');
}

function hasGeminiPart(contents: JsonValue[]): boolean {
  return contents.some(
    (c) =>
      isPlainObject(c) &&
      Array.isArray(c.parts) &&
      c.parts.some((p) => isPlainObject(p) && dataFieldsOf(p).length > 0),
  );
}

/** True when `value` looks like a Gemini request or a bare Gemini `contents` array. */
export function detectGemini(value: JsonValue): boolean {
  if (Array.isArray(value)) {
    // A bare array is Gemini only with Gemini roles on every content.
    return (
      value.length > 0 &&
      value.every((c) => isGeminiContent(c) && (c.role === 'user' || c.role === 'model')) &&
      hasGeminiPart(value)
    );
  }
  if (!isPlainObject(value) || 'messages' in value || 'input' in value) return false;
  const contents = value.contents;
  if (!Array.isArray(contents)) return false;
  // No other format has `contents`: an empty list (what an empty history is written as) is Gemini's.
  if (contents.length === 0) return true;
  return contents.every((c) => isGeminiContent(c)) && hasGeminiPart(contents);
}
