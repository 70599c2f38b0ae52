// "Did you mean": the declared name a misspelled one most likely meant. One home for the manifest
// checks, the CLI and the runtime's errors; small enough to ride along in a Lambda bundle.

/**
 * The name among `names` closest to `name` by edit distance (ignoring case), when it is at most a
 * third of the name's length away (at least one edit); undefined when none is that close.
 */
export function closestName(name: string, names: Iterable<string>): string | undefined {
  const wanted = String(name).toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(wanted.length / 3)) + 1;
  for (const candidate of names) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `did you mean 'orderId'? ` for a name close to one of `names`, else the empty string: a prefix for a fix. */
export function didYouMean(name: string, names: Iterable<string>): string {
  const closest = closestName(name, names);
  return closest === undefined ? '' : `did you mean '${closest}'? `;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length];
}
