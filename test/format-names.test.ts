/**
 * The conversation format names of src/names.ts (kept free of imports for
 * start-up) agree with the registry: the registry's keys are checked by the
 * compiler, and this checks that each adapter is filed under its own name and
 * that `readOnly`, `eventLog` and `session` say what the adapters and the reader do.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventLogIn } from '../src/formats/conversations.js';
import { FORMATS, formatByName } from '../src/formats/index.js';
import { readDocument } from '../src/formats/kit/document.js';
import { parseJson, stringifyJson, type JsonValue } from '../src/model/json.js';
import {
  CONVERSATION_FORMATS,
  EVENT_LOG_FORMATS,
  FROM_CHOICES,
  READ_ONLY_FORMATS,
  SESSION_FORMATS,
  TO_CHOICES,
} from '../src/names.js';
import { ROOT } from './helpers/cli.js';

/** `values` as a JSONL document, one value a line. */
function jsonl(values: readonly JsonValue[]): ReturnType<typeof readDocument> {
  const text = values.map((v) => stringifyJson(v, 0) + '\n').join('');
  return readDocument(new TextEncoder().encode(text), 'jsonl');
}

/** The events of the first read case of fixtures/formats/NAME whose source is a JSON array of events. */
function fixtureEvents(name: string): JsonValue[] {
  const dir = path.join(ROOT, 'fixtures', 'formats', name);
  for (const entry of readdirSync(dir).sort()) {
    const file = path.join(dir, entry, 'source.json');
    if (!existsSync(file)) continue;
    const value = parseJson(readFileSync(file, 'utf8'));
    if (Array.isArray(value) && value.length > 1) return value;
  }
  throw new Error(`no session of events in ${dir}`);
}

describe('conversation format names', () => {
  it('list every registered format under its own name, in detection order', () => {
    expect(FORMATS.map((f) => f.name)).toEqual(CONVERSATION_FORMATS.map((f) => f.name));
    expect(new Set(FORMATS).size).toBe(FORMATS.length);
    for (const { name } of CONVERSATION_FORMATS) expect(formatByName(name)?.name).toBe(name);
    expect(formatByName('auto')).toBeUndefined();
    expect(formatByName('__proto__')).toBeUndefined();
    expect(formatByName('toString')).toBeUndefined();
  });

  it('mark read-only exactly the formats whose adapter is read-only', () => {
    for (const { name, readOnly } of CONVERSATION_FORMATS)
      expect(formatByName(name)!.readOnly, name).toBe(readOnly);
    expect(READ_ONLY_FORMATS).toEqual(FORMATS.filter((f) => f.readOnly).map((f) => f.name));
  });

  it('mark as sessions exactly the formats whose adapter writes only back to its own file', () => {
    for (const { name, session } of CONVERSATION_FORMATS)
      expect(formatByName(name)!.session === true, name).toBe(session);
    expect(SESSION_FORMATS).toEqual(FORMATS.filter((f) => f.session).map((f) => f.name));
    expect(SESSION_FORMATS).toContain('claude-code');
    // A session format is written (its sessions are repaired in place), so it is not read only.
    for (const f of FORMATS.filter((x) => x.session)) expect(f.readOnly, f.name).toBe(false);
  });

  it('derive the --from and --to choices', () => {
    expect(FROM_CHOICES).toEqual(['auto', ...FORMATS.map((f) => f.name)]);
    expect(TO_CHOICES).toEqual(FORMATS.filter((f) => !f.readOnly && !f.session).map((f) => f.name));
  });

  it('mark as event logs exactly the formats whose JSONL files the reader takes as one conversation', () => {
    const lines = jsonl([{ a: 1 }, { b: 2 }]);
    for (const { name, eventLog } of CONVERSATION_FORMATS) {
      const log = eventLogIn(lines, { from: name, pointer: [] });
      expect(log !== null, name).toBe(eventLog);
      // The adapter declares it too, and the engine decides by the declaration.
      expect(formatByName(name)?.document, name).toBe(eventLog ? 'event-log' : 'value');
    }
    expect(EVENT_LOG_FORMATS).toEqual(
      CONVERSATION_FORMATS.filter((f) => f.eventLog).map((f) => f.name),
    );
    // With --from auto, a session file is one conversation of all its lines.
    for (const name of EVENT_LOG_FORMATS) {
      const session = fixtureEvents(name);
      const log = eventLogIn(jsonl(session), { pointer: [] });
      expect(log?.format.name, name).toBe(name);
      expect(log?.events, name).toHaveLength(session.length);
    }
  });
});
