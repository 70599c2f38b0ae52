// The reader of a generated access pattern that the one-partition fast path does not cover: a
// write-sharded index (fan-out over the shards, merged in order, one cursor), entries fetched from
// the table with BatchGetItem, or entries whose attributes partly live in their keys (KEYS_ONLY,
// INCLUDE). The module gives it the slice of the model these read (the index's projection, the
// table key, its entities' type values and key templates, each template written once in the
// module), and it runs the runtime's own fan-out, fetch and result decoding over that slice, so it
// reads and returns exactly what `query` does. The fan-out comes with the slice of a sharded
// pattern only.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { partsSegments, TemplateParts } from '../../keys/template';
import { IndexModel, PatternModel, TABLE_INDEX, TableModel } from '../../model/model';
import type { FanOutState } from '../query/fanout';
import { everyShard, shardsToQuery } from '../query/fanout-shards';
import { finishPage } from '../query/finish-page';
import type { QueryPlan } from '../query/plan';
import { readPartition } from '../query/read-index';
import type { readShards } from '../query/read-index';
import type { EntityItem } from '../query/results';
import type { Table } from '../table/context';

/** An entity's key templates on one index, as their parts: the partition key's, then the sort key's. */
export type SliceKeys = readonly [pk: TemplateParts, sk?: TemplateParts];

/** An entity a pattern returns: its type value, its table keys, and its keys on the pattern's index (none where that is the table). */
export type SliceEntity = readonly [typeValue: string, table: SliceKeys, index?: SliceKeys];

/** What the fan-out, the fetch and the result decoding read of the model, for one pattern. */
export interface ModelSlice {
  /** What the index the pattern queries projects (its keys and shards are the pattern's slot). */
  readonly projection: `${IndexModel['projection']}`;
  /** The table's key attributes: partition key, sort key. */
  readonly table: readonly [partitionKey: string, sortKey?: string];
  /** The pattern's entities by name. */
  readonly entities: Readonly<Record<string, SliceEntity>>;
  /** Whether its entries are fetched from the table with BatchGetItem (FetchMode.BATCH_GET). @default false */
  readonly fetch?: boolean;
  /**
   * The fan-out over the shards (`readShards`), given to the slices of patterns on a write-sharded
   * index only, so a handler whose patterns read one partition carries none of it.
   * @default - none: the index is not sharded
   */
  readonly fanOut?: typeof readShards;
  /**
   * Where reads go to the shard of the shard attribute's value (ShardModel.pinnedReads): the shard
   * choice (`shardsToQuery`, only in handlers with such a pattern) and what it reads: the pattern's
   * key attributes and condition, and the attribute's type in each entity.
   * @default - reads go to every shard
   */
  readonly pinned?: Pick<PatternModel, 'sortKeyCondition'> & {
    readonly pk: readonly string[];
    readonly sk?: readonly string[];
    readonly types: Readonly<Record<string, string>>;
    readonly choose: typeof shardsToQuery;
  };
}

/**
 * The plan a slice reader gets: the generated query's, whose index is the pattern's slot; `fetch`
 * where the attributes asked for decide whether entries are fetched (undefined: as the slice says).
 */
export type SlicePlan = Omit<QueryPlan, 'pattern' | 'index'> & {
  readonly index: Pick<IndexModel, 'name' | 'type' | 'partitionKey' | 'sortKey' | 'shards'>;
  readonly fetch?: boolean;
};

/** One page of a pattern read through its slice: typed results, and the position of the next page. */
export type SliceReader = (
  table: Table<unknown>, plan: SlicePlan, input: Readonly<Record<string, unknown>>, position: unknown, name: string,
) => Promise<{ items: EntityItem[]; next?: unknown }>;

/** The reader of a pattern from its slice of the model. */
export function sliceReader(slice: ModelSlice): SliceReader {
  // The table the runtime's operations read, built once per opened table (a container opens one).
  const views = new WeakMap<Table<unknown>, { sliced: Table<unknown>; index: IndexModel; pattern: PatternModel }>();
  return async (table, bound, input, position, name) => {
    let view = views.get(table);
    if (!view) views.set(table, view = viewOf(slice, table, bound.index, name));
    const { sliced, index } = view;
    const pattern = bound.fetch === undefined ? view.pattern : { ...view.pattern, fetch: bound.fetch ? 'BATCH_GET' : 'NONE' };
    const plan = { ...bound, pattern, index } as QueryPlan;
    const shards = index.shards && (slice.pinned ? slice.pinned.choose(sliced.model, plan, input) : everyShard(index.shards));
    const page = shards
      ? await slice.fanOut!(sliced, plan, shards, position as FanOutState | undefined)
      : await readPartition(sliced, plan, position as Record<string, AttributeValue> | undefined);
    return { items: await finishPage(sliced, plan, page.items), next: page.next };
  };
}

/** The parts of a model, index and pattern that the fan-out, fetch and result decoding read, from a slice. */
function viewOf(slice: ModelSlice, table: Table<unknown>, slot: SlicePlan['index'], name: string) {
  const index = { ...slot, projection: slice.projection } as IndexModel;
  const template = (parts: TemplateParts | undefined) => parts && { segments: partsSegments(parts, table.access.delimiter) };
  const keys = (k: SliceKeys) => ({ pk: template(k[0]), sk: template(k[1]) });
  const entities: Record<string, unknown> = {};
  const entityByType: Record<string, string> = {};
  for (const [entity, [typeValue, tableKeys, indexKeys]] of Object.entries(slice.entities)) {
    entityByType[typeValue] = entity;
    const attribute = slice.pinned && index.shards!.attribute!;
    entities[entity] = {
      name: entity,
      keys: { [TABLE_INDEX]: keys(tableKeys), [index.name]: keys(indexKeys ?? tableKeys) },
      ...attribute && { attributes: { [attribute]: { type: slice.pinned!.types[entity] } } },
    };
  }
  const [partitionKey, sortKey] = slice.table;
  const indexes = { [TABLE_INDEX]: { partitionKey, sortKey }, [index.name]: index };
  const model = { ...table.access, entityByType, entities, indexes } as unknown as TableModel;
  const pinned = slice.pinned;
  const pattern = {
    name,
    index: index.name,
    entities: Object.keys(slice.entities),
    fetch: slice.fetch ? 'BATCH_GET' : 'NONE',
    ...pinned && { sortKeyCondition: pinned.sortKeyCondition, pk: { attributes: pinned.pk }, sk: pinned.sk && { attributes: pinned.sk } },
  } as unknown as PatternModel;
  // The table's own fields, not a spread of it: that would read (and load) its whole model.
  const { access, tableName, dynamodb, options, strip } = table;
  return { sliced: { model, access, tableName, dynamodb, options, strip } as Table<unknown>, index, pattern };
}
