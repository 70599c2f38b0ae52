// Full items for index entries that lack attributes the pattern needs (a GSI projecting less than
// the pattern reads): one BatchGetItem round, in the query's order.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { TABLE_INDEX } from '../../model/model';
import { batchGetItems, BatchEntry, keyId } from '../batch/send-batches';
import type { Table } from '../table/context';

type Item = Record<string, AttributeValue>;

/** The table items of `entries`, in their order; an entry whose item was deleted since the index was read has none. */
export async function fetchItems(table: Table<unknown>, entries: Item[]): Promise<Item[]> {
  if (entries.length === 0) return entries;
  const { partitionKey: pk, sortKey } = table.model.indexes[TABLE_INDEX];
  const sk = sortKey!;
  const idOf = (key: Item) => keyId(key, pk, sk);
  const unique = new Map<string, BatchEntry<Item, Item>>();
  for (const e of entries) {
    const key = { [pk]: e[pk], [sk]: e[sk] };
    const id = idOf(key);
    unique.set(id, { id, request: key, source: key });
  }
  const found = await batchGetItems(table.dynamodb, table.tableName, [...unique.values()], idOf, table.options.retry ?? {});
  return entries.map((e) => found.get(idOf(e))).filter((i): i is Item => i !== undefined);
}
