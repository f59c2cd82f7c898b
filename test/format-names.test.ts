/**
 * The command line's format choices (src/formats/names.ts, kept light for
 * start-up) equal the registry.
 */
import { describe, expect, it } from 'vitest';
import { FORMATS, FROM_NAMES, TO_NAMES } from '../src/formats/index.js';
import { FORMAT_NAMES, FROM_CHOICES, READ_ONLY_FORMATS, TO_CHOICES } from '../src/formats/names.js';

describe('format names', () => {
  it('list every registered format, in detection order', () => {
    expect([...FORMAT_NAMES]).toEqual(FORMATS.map((f) => f.name));
    expect(FROM_CHOICES).toEqual(FROM_NAMES);
    expect(TO_CHOICES).toEqual(TO_NAMES);
    expect(READ_ONLY_FORMATS).toEqual(FORMATS.filter((f) => f.readOnly).map((f) => f.name));
  });
});
