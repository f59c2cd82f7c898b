/**
 * The engine calls a rule's part visitor only for the part types the rule
 * declares (`partTypes`). That is an optimization, never a filter on what
 * is reported: on a part of any other type, a visitor reports nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzePairing, pairsCleanly } from '../src/core/pairing.js';
import { PART_TYPES, type Message, type Part } from '../src/model/types.js';
import { RULES } from '../src/rules/index.js';
import { OTHER_PART_TYPES, type LintSubject, type Report } from '../src/rules/rule.js';

const TYPES = [...PART_TYPES, 'custom', 'anthropic:server_tool_use', 'openai-chat:x', ''];

const anyValue = fc.oneof(
  fc.string(),
  fc.constantFrom('file:///etc/passwd', 'javascript:alert(1)', 'https://ok', '{', '{}', ''),
  fc.integer(),
  fc.constant(null),
);
/** Inline data and media types, some of which contradict each other. */
const dataValue = fc.constantFrom(
  'iVBORw0KGgoAAAANSUhEUg==',
  'PCFET0NUWVBFIGh0bWw+PGh0bWw+',
  'AAAA',
);
const mediaTypeValue = fc.constantFrom('image/png', 'image/jpeg', 'text/plain');

const part = fc.record(
  {
    type: fc.constantFrom(...TYPES),
    id: anyValue,
    callId: anyValue,
    name: anyValue,
    arguments: anyValue,
    url: anyValue,
    text: anyValue,
    data: dataValue,
    mediaType: mediaTypeValue,
    content: fc.array(
      fc.record({
        type: fc.constantFrom(...TYPES),
        url: anyValue,
        text: anyValue,
        data: dataValue,
        mediaType: mediaTypeValue,
      }),
      { maxLength: 3 },
    ),
  },
  { requiredKeys: ['type'] },
) as fc.Arbitrary<Part>;

function subjectOf(p: Part, format: string): LintSubject {
  const messages: Message[] = [{ role: 'assistant', parts: [p] }];
  return {
    messages,
    root: messages,
    format,
    shape: format === 'histlint' ? 'bare' : 'foreign',
    rootPointer: '',
    pointerOf: () => '',
    pairing: () => analyzePairing(messages),
    pairsCleanly: () => pairsCleanly(messages),
    leavePending: false,
    target: null,
    requestedFormat: undefined,
    detectedFormat: () => null,
  };
}

const declared = RULES.filter((r) => r.part !== undefined && r.partTypes !== undefined);

describe('part visitors with declared part types', () => {
  it('exist (the engine dispatches by type)', () => {
    expect(declared.map((r) => r.meta.id).sort()).toEqual(
      [
        'inline-media-mismatch',
        'missing-call-id',
        'truncated-arguments',
        'unknown-part-type',
        'unsafe-url',
      ].sort(),
    );
  });

  it.each(declared.map((r) => [r.meta.id, r] as const))(
    '%s reports nothing on parts of other types',
    (_id, rule) => {
      const wanted = rule.partTypes!;
      const covers = (type: string): boolean =>
        (PART_TYPES as readonly string[]).includes(type)
          ? wanted.includes(type as (typeof wanted)[number])
          : wanted.includes(OTHER_PART_TYPES);
      let reported = 0;
      fc.assert(
        fc.property(part, fc.constantFrom('histlint', 'anthropic', 'openai-chat'), (p, format) => {
          const reports: Report[] = [];
          rule.part!(p, 0, 0, subjectOf(p, format), { report: (r) => reports.push(r) });
          if (covers(p.type)) reported += reports.length;
          else expect(reports).toEqual([]);
        }),
        { numRuns: 1500 },
      );
      // The generator reaches the parts the rule does report on.
      expect(reported).toBeGreaterThan(0);
    },
  );
});
