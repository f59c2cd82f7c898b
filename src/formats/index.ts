/**
 * The format registry: every format by name, in detection order.
 */
import type { ConversationFormat } from './format.js';
import { nativeFormat } from './native.js';

/** Every format, in the order `--from auto` tries them. */
export const FORMATS: readonly ConversationFormat[] = [nativeFormat];

/** The names `--from` accepts. */
export const FROM_NAMES: readonly string[] = ['auto', ...FORMATS.map((f) => f.name)];

/** The names `--to` accepts. */
export const TO_NAMES: readonly string[] = FORMATS.filter((f) => !f.readOnly).map((f) => f.name);

/** A format by name, or undefined. */
export function formatByName(name: string): ConversationFormat | undefined {
  return FORMATS.find((f) => f.name === name);
}
