// A pattern page with read options (filter, attributes): the plan finishes each request with them,
// and they decide whether entries are fetched and which attributes results keep.
import { IndexReader, patternPage } from './pattern-page';
import { planQuery, QueryOptions } from './plan';
import { optionedRead, ReadOptions } from './read-options';
import { EntityItem, keptOnly } from './results';
import { EntityModel, FetchMode, PatternModel } from '../../manifest/model';
import type { TableContext } from '../table/context';
import { SingleTableError } from '../table/errors';

/** `patternPage` with `filter` and `attributes` applied; a bad option rejects, as every failure of a query does. */
export async function optionedPage(
  table: TableContext<unknown>, patternName: string, input: Readonly<Record<string, unknown>>, options: QueryOptions & ReadOptions, read: IndexReader,
): Promise<{ items: EntityItem[]; cursor?: string }> {
  const plan = planQuery(table.model, patternName, input, options);
  const optioned = optionedRead(table.model, plan.index, plan.pattern.entities, options, { pattern: patternName });
  checkDeclaredReads(plan.pattern, plan.pattern.entities.map((e) => table.model.entities[e]), options.attributes);
  // The attributes asked for decide the fetch: none when the index answers for them (keys decoded where it projects less).
  const fetch = optioned.fetch === undefined ? plan.pattern.fetch : optioned.fetch ? FetchMode.BATCH_GET : FetchMode.NONE;
  const page = await patternPage(table, patternName, input, options, read, { ...plan, finish: optioned.finish, pattern: { ...plan.pattern, fetch } });
  keptOnly(page.items, optioned.shape?.keep);
  return page;
}

/**
 * A pattern reads only the attributes it declares (`attributes`, every attribute of its entities
 * by default): its index's projection and its cost are planned for those, so asking for another
 * one is refused before any request.
 */
function checkDeclaredReads(pattern: PatternModel, entities: EntityModel[], attributes: unknown): void {
  if (!Array.isArray(attributes)) return;
  for (const a of attributes) {
    if (typeof a !== 'string' || pattern.attributes.includes(a) || !entities.some((e) => Object.hasOwn(e.attributes, a))) continue;
    throw new SingleTableError('UNKNOWN_ATTRIBUTE', `attributes names ${JSON.stringify(a)}, which pattern ${pattern.name} does not declare it reads `
      + `(${pattern.attributes.join(', ')}); add it to accessPatterns.${pattern.name}.attributes, and to its index's projection if the index does not project it`,
    { pattern: pattern.name, attribute: a });
  }
}
