// The end of every pattern's page, whichever reader read the index: the `<` floor's own key left
// out (DynamoDB's BETWEEN is inclusive), unprojected attributes fetched from the table, typed results.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { TableContext } from '../context';
import type { QueryPlan } from '../query';
import { EntityItem, ResultShape, toEntityItems } from '../results';
import { fetchItems } from './fetch-items';

/** Typed results of the index entries a page read, in their order. */
export async function finishPage(
  table: TableContext<unknown>,
  plan: QueryPlan,
  entries: Record<string, AttributeValue>[],
  fetch = plan.pattern.fetch === 'BATCH_GET',
  // Entries of an index that does not project everything, read without a fetch, hold some attributes only in their keys.
  shape: ResultShape = { index: plan.index.name, decodeKeys: plan.index.projection !== 'ALL' && plan.pattern.fetch === 'NONE' },
): Promise<EntityItem[]> {
  const equal = plan.condition.excludeEqual;
  if (equal !== undefined) entries = entries.filter((i) => i[plan.index.sortKey!]?.S !== equal);
  if (fetch) entries = await fetchItems(table, entries);
  return toEntityItems(table.model, plan.pattern.entities, entries, table.strip, shape);
}
