// A binary min-heap for the fan-out merge: it holds one entry per shard (the shard's next item),
// so taking the smallest head and putting the shard back cost O(log k) instead of re-sorting.

/** A binary min-heap ordered by `compare` (negative when `a` comes first). */
export class MinHeap<T> {
  readonly #entries: T[] = [];
  readonly #compare: (a: T, b: T) => number;

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
  }

  /** Number of entries. */
  get size(): number {
    return this.#entries.length;
  }

  /** Removes every entry. */
  clear(): void {
    this.#entries.length = 0;
  }

  /** Adds an entry. */
  push(entry: T): void {
    // Moves parents down into the hole instead of swapping, and places the entry once.
    const e = this.#entries;
    let i = e.length;
    e.push(entry);
    while (i > 0) {
      const parent = (i - 1) >> 1; // eslint-disable-line no-bitwise
      if (this.#compare(entry, e[parent]) >= 0) break;
      e[i] = e[parent];
      i = parent;
    }
    e[i] = entry;
  }

  /** Removes and returns the smallest entry. */
  pop(): T | undefined {
    const e = this.#entries;
    if (e.length <= 1) return e.pop();
    const top = e[0];
    const entry = e.pop()!;
    const n = e.length;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && this.#compare(e[right], e[left]) < 0 ? right : left;
      if (this.#compare(e[child], entry) >= 0) break;
      e[i] = e[child];
      i = child;
    }
    e[i] = entry;
    return top;
  }
}
