/**
 * The nearest known name to a mistyped one: what "did you mean …?" offers for an unknown config
 * key, CLI flag, command or sub-command. One measure for all of them, so they agree on what a
 * typo is.
 */

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * adjacent characters each count 1, so a swapped pair ("backtset") is one typo, not two.
 */
export function editDistance(a: string, b: string): number {
  // rows[i][j] = distance between the first i characters of a and the first j of b.
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    const above = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The candidate nearest to `word`, when it is at most `maxDistance` edits away (the first such
 * candidate on a tie); undefined when none is close enough to be a typo of it.
 */
export function closestName(word: string, candidates: Iterable<string>, maxDistance: number): string | undefined {
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
