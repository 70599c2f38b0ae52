// Storage per item across the table and its indexes. DynamoDB bills every stored entry with 100
// bytes of indexing overhead: the table item and each copy a secondary index keeps (GSI.html,
// "storage considerations"), which is why a sparse or KEYS_ONLY index stores so much less.
import { EntitySizes } from './cost-sizes';
import { dict } from '../manifest/values';

/** Overhead DynamoDB adds to every stored entry, in the table and in each index. */
export const ENTRY_OVERHEAD_BYTES = 100;

/** Storage of one item of an entity. */
export interface StorageCost {
  /** The entity. */
  readonly entity: string;
  /** The table item with its overhead. */
  readonly tableBytes: number;
  /** Each secondary index entry with its overhead. */
  readonly indexBytes: { [indexName: string]: number };
  /** Everything one item stores. */
  readonly totalBytes: number;
}

/** Storage costs of every entity, in model order. */
export function storageCosts(sizes: EntitySizes[]): StorageCost[] {
  return sizes.map((s) => {
    const indexBytes = dict<number>();
    for (const [index, bytes] of Object.entries(s.entryBytes)) indexBytes[index] = bytes + ENTRY_OVERHEAD_BYTES;
    const tableBytes = s.itemBytes + ENTRY_OVERHEAD_BYTES;
    const totalBytes = tableBytes + Object.values(indexBytes).reduce((a, b) => a + b, 0);
    return { entity: s.entity, tableBytes, indexBytes, totalBytes };
  });
}
