/**
 * The name-based ids of src/core/ids.ts (what a repair gives the events it adds to a session):
 * RFC 9562 version 5, checked against Python's `uuid.uuid5` for the same namespace and name.
 */
import { describe, expect, it } from 'vitest';
import { isUuid, nameId } from '../src/core/ids.js';

describe('nameId', () => {
  it('is the version-5 UUID of the name under histlint\'s namespace (uuid5(uuid5(DNS, "histlint.dev"), name))', () => {
    expect(nameId('claude-code result s1 toolu_01')).toBe('3df788d0-fd2c-557b-be51-58b0e5d5da33');
  });

  it('is the same for the same name, another for another name, and a canonical UUID', () => {
    const a = nameId('session-1 call-1');
    expect(nameId('session-1 call-1')).toBe(a);
    expect(nameId('session-1 call-2')).not.toBe(a);
    expect(isUuid(a)).toBe(true);
    expect(a[14]).toBe('5');
    expect('89ab').toContain(a[19]);
  });
});
