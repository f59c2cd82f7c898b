import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { colorDiff, unifiedDiff } from '../src/cli/diff.js';
import { closestName, didYouMean } from '../src/model/suggest.js';

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('x.json', 'a\n', 'a\n')).toBe('');
  });

  it('prints a git-style patch with a/ and b/ names', () => {
    expect(unifiedDiff('d/x.json', '1\n2\n3\n', '1\n4\n3\n')).toBe(
      '--- a/d/x.json\n+++ b/d/x.json\n@@ -1,3 +1,3 @@\n 1\n-2\n+4\n 3\n',
    );
  });

  it('marks a last line without a newline', () => {
    expect(unifiedDiff('x', 'a', 'b')).toContain('\\ No newline at end of file');
  });

  it('colors only when the chalk has a level', () => {
    const patch = unifiedDiff('x', 'a\n', 'b\n');
    expect(colorDiff(patch, new Chalk({ level: 0 }))).toBe(patch);
    expect(colorDiff(patch, new Chalk({ level: 1 }))).toContain('\u001b[31m-a');
  });
});

describe('closestName', () => {
  const rules = ['dangling-tool-call', 'orphan-tool-result', 'unsafe-url'];

  it('finds a typo', () => {
    expect(closestName('dangling-tool-cal', rules)).toBe('dangling-tool-call');
    expect(closestName('UNSAFE-URL', rules)).toBe('unsafe-url');
  });

  it('gives nothing for a name far from every known one', () => {
    expect(closestName('pairing', rules)).toBeUndefined();
    expect(didYouMean('pairing', rules)).toBe('');
  });

  it('words the hint', () => {
    expect(didYouMean('unsafe-ur', rules)).toBe('; did you mean "unsafe-url"?');
  });
});
