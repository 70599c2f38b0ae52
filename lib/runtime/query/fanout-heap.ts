// A binary min-heap for the fan-out merge: it holds one entry per shard (the shard's next item),
// so taking the smallest head and putting the shard back cost O(log k) instead of re-sorting.
// Plain functions over an array rather than a class: the merge keeps the array, and a bundle
// minifies function names but not method names.

/** Orders heap entries: negative when `a` comes first. */
export type HeapOrder<T> = (a: T, b: T) => number;

/** Adds an entry to `heap`, a min-heap under `order`. */
export function heapPush<T>(heap: T[], entry: T, order: HeapOrder<T>): void {
  // Moves parents down into the hole instead of swapping, and places the entry once.
  let i = heap.length;
  heap.push(entry);
  while (i > 0) {
    const parent = (i - 1) >> 1; // eslint-disable-line no-bitwise
    if (order(entry, heap[parent]) >= 0) break;
    heap[i] = heap[parent];
    i = parent;
  }
  heap[i] = entry;
}

/** Removes and returns the smallest entry of `heap`, a min-heap under `order`. */
export function heapPop<T>(heap: T[], order: HeapOrder<T>): T | undefined {
  if (heap.length <= 1) return heap.pop();
  const top = heap[0];
  const entry = heap.pop()!;
  const n = heap.length;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= n) break;
    const right = left + 1;
    const child = right < n && order(heap[right], heap[left]) < 0 ? right : left;
    if (order(heap[child], entry) >= 0) break;
    heap[i] = heap[child];
    i = child;
  }
  heap[i] = entry;
  return top;
}
