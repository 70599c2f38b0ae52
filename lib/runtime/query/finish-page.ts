// The end of every pattern's page, whichever reader read the index: the `<` floor's own key left
// out (DynamoDB's BETWEEN is inclusive), unprojected attributes fetched from the table, typed results.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { fetchItems } from './fetch-items';
import type { QueryPlan } from './plan';
import { EntityItem, toEntityItems } from './results';
import type { Table } from '../table/context';

/** Typed results of the index entries a page read, in their order. */
export async function finishPage(
  table: Table<unknown>,
  plan: QueryPlan,
  entries: Record<string, AttributeValue>[],
): Promise<EntityItem[]> {
  const { pattern, index } = plan;
  const equal = plan.condition.excludeEqual;
  if (equal !== undefined) entries = entries.filter((i) => i[index.sortKey!]?.S !== equal);
  if (pattern.fetch === 'BATCH_GET') entries = await fetchItems(table, entries);
  // Entries of an index that does not project everything, read without a fetch, hold some attributes only in their keys.
  const shape = { index: index.name, decodeKeys: index.projection !== 'ALL' && pattern.fetch === 'NONE' };
  return toEntityItems(table.model, pattern.entities, entries, table.strip, shape);
}
