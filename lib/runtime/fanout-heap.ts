// A binary min-heap for the fan-out merge: it holds one entry per shard (the shard's next item),
// so taking the smallest head and putting the shard back cost O(log k) instead of re-sorting.

/** A binary min-heap ordered by `compare` (negative when `a` comes first). */
export class MinHeap<T> {
  private readonly entries: T[] = [];

  constructor(private readonly compare: (a: T, b: T) => number) {}

  /** Number of entries. */
  get size(): number {
    return this.entries.length;
  }

  /** Adds an entry. */
  push(entry: T): void {
    const e = this.entries;
    e.push(entry);
    let i = e.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1; // eslint-disable-line no-bitwise
      if (this.compare(e[i], e[parent]) >= 0) break;
      [e[i], e[parent]] = [e[parent], e[i]];
      i = parent;
    }
  }

  /** Removes and returns the smallest entry. */
  pop(): T | undefined {
    const e = this.entries;
    if (e.length <= 1) return e.pop();
    const top = e[0];
    e[0] = e.pop()!;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < e.length && this.compare(e[left], e[smallest]) < 0) smallest = left;
      if (right < e.length && this.compare(e[right], e[smallest]) < 0) smallest = right;
      if (smallest === i) return top;
      [e[i], e[smallest]] = [e[smallest], e[i]];
      i = smallest;
    }
  }
}
