// "Did you mean …?" for misspelt keys and values: authors type manifests by hand, and the
// nearest known word usually is the fix.

/**
 * Edit distance between two strings: insertions, deletions, substitutions, and two
 * neighbouring letters swapped (optimal string alignment), since a swap (`tgas` for `tags`)
 * is the commonest typo and counts as one edit, not two.
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      }
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The known word closest to `word`, or `undefined` when none is close enough to be the
 * likely intent (at most a third of the word's length away, and never more than 3 edits).
 * @example closestWord("instruction", ["instructions", "tools"]) // "instructions"
 */
export function closestWord(word: string, known: readonly string[]): string | undefined {
  const allowed = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** A sentence ending for a message: `; did you mean 'x'?` or `` when nothing is close. */
export function didYouMean(word: string, known: readonly string[]): string {
  const guess = closestWord(word, known);
  return guess === undefined ? "" : `; did you mean '${guess}'?`;
}
