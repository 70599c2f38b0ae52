// "Did you mean": the declared name a misspelled one most likely meant. One home for the manifest
// checks, the CLI and the runtime's errors; small enough to ride along in a Lambda bundle.

/**
 * The name among `names` closest to `name` by edit distance (Levenshtein, ignoring case), when it
 * is at most a third of the name's length away (at least one edit); undefined when none is that close.
 */
export function closestName(name: string, names: Iterable<string>): string | undefined {
  const a = String(name).toLowerCase();
  let best: string | undefined;
  let within = Math.max(1, Math.floor(a.length / 3));
  for (const candidate of names) {
    const b = candidate.toLowerCase();
    // One row of the distance table at a time: row[j] is the distance from a[0..i) to b[0..j).
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let diagonal = row[0];
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const above = row[j];
        row[j] = Math.min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    if (row[b.length] <= within) {
      best = candidate;
      within = row[b.length] - 1;
    }
  }
  return best;
}

/** `did you mean 'orderId'? ` for a name close to one of `names`, else the empty string: a prefix for a fix. */
export function didYouMean(name: string, names: Iterable<string>): string {
  const closest = closestName(name, names);
  return closest === undefined ? '' : `did you mean '${closest}'? `;
}
