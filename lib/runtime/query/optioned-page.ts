// A pattern page with read options (filter, attributes): the plan finishes each request with them,
// and they decide whether entries are fetched and which attributes results keep.
import { IndexReader, patternPage } from './pattern-page';
import { planQuery, UntypedQueryOptions } from './plan';
import { optionedRead, UntypedReadOptions } from './read-options';
import { EntityItem, keptOnly } from './results';
import { FetchMode } from '../../model/model';
import type { Table } from '../table/context';

/** `patternPage` with `filter` and `attributes` applied; a bad option rejects, as every failure of a query does. */
export async function optionedPage(
  table: Table<unknown>, patternName: string, input: Readonly<Record<string, unknown>>, options: UntypedQueryOptions & UntypedReadOptions,
  read: IndexReader,
): Promise<{ items: EntityItem[]; cursor?: string }> {
  const plan = planQuery(table.model, patternName, input, options);
  const optioned = optionedRead(table.model, plan.index, plan.pattern.entities, options, { pattern: patternName }, plan.pattern);
  // The attributes asked for decide the fetch: none when the index answers for them (keys decoded where it projects less).
  const fetch = optioned.fetch === undefined ? plan.pattern.fetch : optioned.fetch ? FetchMode.BATCH_GET : FetchMode.NONE;
  const page = await patternPage(table, patternName, input, options, read, { ...plan, finish: optioned.finish, pattern: { ...plan.pattern, fetch } });
  keptOnly(page.items, optioned.shape?.keep);
  return page;
}
