// What `query` and `queryShards` share: the plan, the cursor, the `<` floor's filter, fetching
// unprojected attributes, and typed results. Each passes its own reader of the index, so the
// fan-out's code is only in handlers that import queryShards; the variants taking read options
// (filter, attributes) pass the plan those options make (optioned-page.ts), so the condition
// compiler is only in theirs.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { TableContext } from '../context';
import { decodeCursor, encodeCursor } from '../cursor';
import { planQuery, QueryOptions, QueryPlan, queryBinding } from '../query';
import { EntityItem, toEntityItems } from '../results';
import { fetchItems } from './fetch-items';

type Item = Record<string, AttributeValue>;

/** One page read from the index: items in index order, and where the next page starts. */
export interface IndexPage {
  readonly items: Item[];
  readonly next?: unknown;
}

/** Reads one page of a planned query from `position` (a cursor's, or undefined for the first page). */
export type IndexReader = (
  table: TableContext<unknown>, plan: QueryPlan, input: Readonly<Record<string, unknown>>, position: unknown,
) => Promise<IndexPage>;

/**
 * Runs a pattern's query with `read`: one page of typed results and the cursor of the next. The
 * plan defaults to the pattern's own; its pattern's fetch mode says whether entries are fetched.
 */
export async function patternPage(
  table: TableContext<unknown>,
  patternName: string,
  input: Readonly<Record<string, unknown>>,
  options: QueryOptions,
  read: IndexReader,
  plan = planQuery(table.model, patternName, input, options),
): Promise<{ items: EntityItem[]; cursor?: string }> {
  const { model } = table;
  const { pattern, index } = plan;
  const binding = queryBinding(model, plan);
  const position = options.cursor === undefined ? undefined : decodeCursor(patternName, binding, options.cursor);
  const page = await read(table, plan, input, position);
  let items = page.items;
  const equal = plan.condition.excludeEqual;
  if (equal !== undefined) items = items.filter((i) => i[index.sortKey!]?.S !== equal);
  if (pattern.fetch === 'BATCH_GET') items = await fetchItems(table, items);
  // Entries of an index that does not project everything, read without a fetch, hold some attributes only in their keys.
  const shape = { index: index.name, decodeKeys: index.projection !== 'ALL' && pattern.fetch === 'NONE' };
  return {
    items: toEntityItems(model, pattern.entities, items, table.strip, shape),
    cursor: page.next === undefined ? undefined : encodeCursor(patternName, binding, page.next),
  };
}
