// "Did you mean": the declared name a misspelled one most likely meant. One home for the manifest
// checks, the CLI and the runtime's errors; small enough to ride along in a Lambda bundle.

/**
 * The name among `names` closest to `name` by edit distance (Levenshtein, a swap of two neighbours
 * counting as one edit, ignoring case), when it is at most a third of the name's length away (at
 * least one edit); undefined when none is that close. Of names equally close, the one whose differing characters look alike (`GSl2` for `GSI2`,
 * not `GSI1`) wins, then the first.
 */
export function closestName(name: string, names: Iterable<string>): string | undefined {
  const a = String(name).toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(a.length / 3));
  let bestUnlike = Infinity;
  for (const candidate of names) {
    const distance = editDistance(a, candidate.toLowerCase());
    if (distance > bestDistance) continue;
    const unlike = unlikeCharacters(String(name), candidate);
    if (distance < bestDistance || unlike < bestUnlike) {
      best = candidate;
      bestDistance = distance;
      bestUnlike = unlike;
    }
  }
  return best;
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`. */
function editDistance(a: string, b: string): number {
  // d[i][j]: the distance from a[0..i) to b[0..j).
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (__, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** Characters that are easily typed or read for one another. */
const LOOKALIKES = ['Il1i|', 'O0o', 'S5s', 'Z2z', 'B8'];

/** How many characters at the same place differ and do not look alike (names of one length), else their length difference plus one. */
function unlikeCharacters(a: string, b: string): number {
  if (a.length !== b.length) return Math.abs(a.length - b.length) + 1;
  let count = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i] && !LOOKALIKES.some((group) => group.includes(a[i]) && group.includes(b[i]))) count++;
  }
  return count;
}

/** `did you mean 'orderId'? ` for a name close to one of `names`, else the empty string: a prefix for a fix. */
export function didYouMean(name: string, names: Iterable<string>): string {
  const closest = closestName(name, names);
  return closest === undefined ? '' : `did you mean '${closest}'? `;
}
