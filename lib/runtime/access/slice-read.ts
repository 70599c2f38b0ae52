// The reader of a generated access pattern that the one-partition fast path does not cover: a
// write-sharded index (fan-out over the shards, merged in order, one cursor), entries fetched from
// the table with BatchGetItem, or entries whose attributes partly live in their keys (KEYS_ONLY,
// INCLUDE). The module gives it the slice of the model these read (the pattern, its index, the
// table key, and its entities' key templates), and it runs the runtime's own fan-out, fetch and
// result decoding over that slice, so it reads and returns exactly what `queryShards` does.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { AccessTable } from './table';
import { EntityModel, IndexModel, KeyTemplateModel, PatternModel, TABLE_INDEX, TableModel } from '../../manifest/model';
import type { TableContext } from '../context';
import type { FanOutState } from '../fanout';
import { shardsToQuery } from '../fanout-shards';
import { fetchItems } from '../ops/fetch-items';
import { readPartition } from '../ops/query';
import { readShards } from '../ops/query-shards';
import type { QueryPlan } from '../query';
import { EntityItem, toEntityItems } from '../results';

/** What the fan-out, the fetch and the result decoding read of the model, for one pattern. */
export interface ModelSlice {
  /** The pattern: its entities, key templates' attributes and condition (shard choice reads them). */
  readonly pattern: Pick<PatternModel, 'name' | 'index' | 'entities' | 'fetch' | 'sortKeyCondition'> & {
    readonly pk: Pick<PatternModel['pk'], 'source' | 'attributes'>;
    readonly sk?: Pick<PatternModel['pk'], 'source' | 'attributes'>;
  };
  /** What the index the pattern queries projects (its keys and shards are the pattern's slot). */
  readonly projection: IndexModel['projection'];
  /** The table's key attributes. */
  readonly table: Pick<IndexModel, 'partitionKey' | 'sortKey'>;
  /** Entity name by type value, of the pattern's entities. */
  readonly entityByType: Readonly<Record<string, string>>;
  /** The pattern's entities: the segments of their key templates (table and index) and the shard attribute's type. */
  readonly entities: Readonly<Record<string, Pick<EntityModel, 'name'> & {
    readonly keys: Readonly<Record<string, { readonly pk: Pick<KeyTemplateModel, 'segments'>; readonly sk?: Pick<KeyTemplateModel, 'segments'> }>>;
    readonly attributes?: Readonly<Record<string, { readonly type: string }>>;
  }>>;
}

/** One page of a pattern read through its slice: typed results, and the position of the next page. */
export type SliceReader = (
  table: AccessTable<unknown>, plan: Omit<QueryPlan, 'pattern' | 'index'> & { readonly index: Pick<IndexModel, 'name' | 'type' | 'partitionKey' | 'sortKey' | 'shards'> }, input: Readonly<Record<string, unknown>>, position: unknown,
) => Promise<{ items: EntityItem[]; next?: unknown }>;

/** The reader of a pattern from its slice of the model. */
export function sliceReader(slice: ModelSlice): SliceReader {
  return async (table, bound, input, position) => {
    // The runtime's operations read these parts of the model only, which the slice holds.
    const index = { ...bound.index, projection: slice.projection };
    const model = { ...table.model, ...slice, indexes: { [TABLE_INDEX]: slice.table, [index.name]: index } } as unknown as TableModel;
    const context: TableContext<unknown> = { ...table, model };
    const plan = { ...bound, pattern: slice.pattern, index } as unknown as QueryPlan;
    const page = index.shards
      ? await readShards(context, plan, shardsToQuery(model, plan, input), position as FanOutState | undefined)
      : await readPartition(context, plan, position as Record<string, AttributeValue> | undefined);
    let items = page.items;
    const equal = plan.condition.excludeEqual;
    if (equal !== undefined) items = items.filter((i) => i[index.sortKey!]?.S !== equal);
    if (slice.pattern.fetch === 'BATCH_GET') items = await fetchItems(context, items);
    const shape = { index: index.name, decodeKeys: index.projection !== 'ALL' && slice.pattern.fetch === 'NONE' };
    return { items: toEntityItems(model, slice.pattern.entities, items, table.strip, shape), next: page.next };
  };
}
