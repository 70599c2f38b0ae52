// "Did you mean": the declared name a misspelled one most likely meant. One home for the manifest
// checks, the CLI and the runtime's errors; small enough to ride along in a Lambda bundle.

/**
 * The name among `names` closest to `name` by edit distance (Levenshtein, a swap of two neighbours
 * counting as one edit, ignoring case), when it is at most a third of the name's length away (at
 * least one edit); undefined when none is that close. Of names equally close, the one whose
 * differing characters look alike (`GSl2` for `GSI2`, not `GSI1`) wins, then the first.
 */
export function closestName(name: string, names: Iterable<string>): string | undefined {
  const a = String(name).toLowerCase();
  const within = Math.max(1, Math.floor(a.length / 3));
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of names) {
    const distance = editDistance(a, candidate.toLowerCase());
    // Ties go to fewer differing characters that do not look alike: a fraction of an edit each.
    const score = distance + unlike(String(name), candidate) / 1e4;
    if (distance <= within && score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`. */
function editDistance(a: string, b: string): number {
  // d[i][j]: the distance from a[0..i) to b[0..j).
  const d = [...Array(a.length + 1)].map((_, i) => [...Array(b.length + 1)].map((__, j) => i + j));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
        a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1] ? d[i - 2][j - 2] + 1 : Infinity);
    }
  }
  return d[a.length][b.length];
}

/** How many characters at the same place differ and do not look alike (I, l, 1; O, 0), counting a length difference. */
function unlike(a: string, b: string): number {
  const look = (c = '') => ('Il1|'.includes(c) ? 'l' : 'O0'.includes(c) ? 'O' : c);
  let count = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (look(a[i]) !== look(b[i])) count++;
  return count;
}

/** `did you mean 'orderId'? ` for a name close to one of `names`, else the empty string: a prefix for a fix. */
export function didYouMean(name: string, names: Iterable<string>): string {
  const closest = closestName(name, names);
  return closest === undefined ? '' : `did you mean '${closest}'? `;
}
