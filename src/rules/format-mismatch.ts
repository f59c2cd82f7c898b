/**
 * format-mismatch: a file read with `--from X` that another format's
 * detector claims, and that X reads mostly as kept parts it does not know.
 * Read as the wrong format, a history's calls and results are opaque, so
 * the pairing rules see nothing wrong with it.
 */
import { PART_TYPES } from '../model/types.js';
import { defineRule } from './rule.js';

const KNOWN: ReadonlySet<string> = new Set(PART_TYPES);

/** The `format-mismatch` rule. */
export default defineRule({
  meta: {
    id: 'format-mismatch',
    description:
      'A file read with --from that looks like another format and that --from mostly cannot read.',
    defaultSeverity: 'warn',
    fixable: false,
    messages: {
      mismatch:
        'read as {from}, but this looks like {other} file ({unreadable} of {total} parts unreadable as {from}); try --from {detected}',
    },
  },
  check(subject, ctx) {
    const from = subject.requestedFormat;
    if (from === undefined) return;
    let total = 0;
    let unreadable = 0;
    for (const m of subject.messages) {
      for (const p of m.parts) {
        total++;
        if (!KNOWN.has(p.type)) unreadable++;
      }
    }
    // Mostly unreadable: at least half of the parts (and one at least).
    if (unreadable === 0 || unreadable * 2 < total) return;
    const detected = subject.detectedFormat();
    if (detected === null || detected === from) return;
    const article = /^[aeiou]/.test(detected) ? 'an' : 'a';
    ctx.report({
      messageId: 'mismatch',
      data: { from, other: `${article} ${detected}`, detected, unreadable, total },
      pointer: subject.rootPointer,
    });
  },
});
