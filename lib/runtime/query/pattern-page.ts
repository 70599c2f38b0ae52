// What every page of a pattern's query goes through: the plan, the cursor, and the page's end
// (./finish-page.ts), with the reader of the index given (read-index.ts, or a generated access
// module's slice reader); a query with read options (filter, attributes) passes the plan those
// options make (optioned-page.ts).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { decodeCursor, encodeCursor } from './cursor';
import { finishPage } from './finish-page';
import { planQuery, UntypedQueryOptions, QueryPlan, queryBinding } from './plan';
import type { EntityItem } from './results';
import type { Table } from '../table/context';

type Item = Record<string, AttributeValue>;

/** One page read from the index: items in index order, and where the next page starts. */
export interface IndexPage {
  readonly items: Item[];
  readonly next?: unknown;
}

/** Reads one page of a planned query from `position` (a cursor's, or undefined for the first page). */
export type IndexReader = (
  table: Table<unknown>, plan: QueryPlan, input: Readonly<Record<string, unknown>>, position: unknown,
) => Promise<IndexPage>;

/**
 * Runs a pattern's query with `read`: one page of typed results and the cursor of the next. The
 * plan defaults to the pattern's own; its pattern's fetch mode says whether entries are fetched.
 */
export async function patternPage(
  table: Table<unknown>,
  patternName: string,
  input: Readonly<Record<string, unknown>>,
  options: UntypedQueryOptions,
  read: IndexReader,
  plan = planQuery(table.model, patternName, input, options),
): Promise<{ items: EntityItem[]; cursor?: string }> {
  const { model } = table;
  const binding = queryBinding(model, plan);
  const position = options.cursor === undefined ? undefined : decodeCursor(patternName, binding, options.cursor);
  const page = await read(table, plan, input, position);
  return {
    items: await finishPage(table, plan, page.items),
    cursor: page.next === undefined ? undefined : encodeCursor(patternName, binding, page.next),
  };
}
