/**
 * "Did you mean …?" for a mistyped name (a rule id, a config key, a format):
 * the closest known name by edit distance, when it is close enough to be a typo.
 */
import { distance } from 'fastest-levenshtein';

/**
 * The known name closest to `name`, or undefined when none is within a third
 * of the longer name's length (at least 1, at most 4 edits). Ties go to the
 * name listed first, so the answer is the same on every run.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(wanted, candidate.toLowerCase());
    const limit = Math.min(
      4,
      Math.max(1, Math.floor(Math.max(wanted.length, candidate.length) / 3)),
    );
    if (d <= limit && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best === name ? undefined : best;
}

/** `; did you mean "x"?` for a message's end, or '' when nothing is close. */
export function didYouMean(name: string, known: Iterable<string>): string {
  const best = closestName(name, known);
  return best === undefined ? '' : `; did you mean "${best}"?`;
}
