// Read units per access pattern. A Query sums the sizes of the entries it returns and rounds up to
// 4 KB (eventually consistent reads cost half); a follow-up fetch reads whole items, each rounded
// up on its own: BatchGetItem after a GSI query, or DynamoDB's own fetch from the table for an LSI
// slot that does not project what the pattern needs. A query on a write-sharded GSI is one Query
// per shard, each billed at least one read unit (half when eventually consistent). A query with no
// sort-key condition also reads the items of other entities in the same partitions, which it then
// drops: they are billed all the same.
import { EntitySizes } from './cost-sizes';
import { segmentsOverlap } from '../keys/template';
import { itemsPerPartition } from '../manifest/rules/hot-partitions';
import { readUnits, shardedQueryReadUnits } from '../manifest/sizes';
import { SortKeyCondition } from '../model/manifest';
import { FetchMode, IndexType, PatternModel, populatesIndex, TABLE_INDEX, TableModel } from '../model/model';

/** The read cost of one access pattern. */
export interface PatternReadCost {
  /** The pattern. */
  readonly pattern: string;
  /** The index it queries. */
  readonly index: string;
  /** Whether it reads strongly consistent. */
  readonly consistentRead: boolean;
  /** Bytes of the largest entry it can return (the item, on the table or an ALL index). */
  readonly entryBytes: number;
  /** Queries one read sends: the shards it fans out over on a write-sharded GSI, else 1. */
  readonly queriesPerRead: number;
  /** Read units of a query returning one entry (every shard's query counted). */
  readonly unitsForOneItem: number;
  /** Read units of a query returning `itemsPerQuery` entries. */
  readonly unitsForManyItems: number;
  /** The number of entries `unitsForManyItems` is computed for. */
  readonly itemsPerQuery: number;
  /** Read units of the follow-up fetch per returned item (0 without one). */
  readonly fetchUnitsPerItem: number;
  /**
   * Entities it does not return whose items are in the partitions it reads (no sort-key condition
   * keeps them out): the query reads them and drops them.
   */
  readonly filteredEntities: string[];
  /**
   * Read units per read of those items, from their `maxItemsPerPartition`, counted in
   * `unitsPerSecond`.
   * @default - none filtered, or one of them declares no bound (or the index is a GSI keyed otherwise than the table)
   */
  readonly filteredUnitsPerRead?: number;
  /**
   * Read units per second at the declared rate, one entry per query plus its fetch.
   * @default - no rate declared
   */
  readonly unitsPerSecond?: number;
}

/** Read costs of every pattern, in model order. */
export function patternReadCosts(model: TableModel, sizes: EntitySizes[], itemsPerQuery: number): PatternReadCost[] {
  const byEntity = new Map(sizes.map((s) => [s.entity, s]));
  return Object.values(model.patterns).map((p) => patternReadCost(model, p, byEntity, itemsPerQuery));
}

function patternReadCost(model: TableModel, p: PatternModel, sizes: Map<string, EntitySizes>, itemsPerQuery: number): PatternReadCost {
  const onTable = model.indexes[p.index].type === IndexType.TABLE;
  const entryBytes = Math.max(...p.entities.map((e) => (onTable ? sizes.get(e)!.itemBytes : sizes.get(e)!.entryBytes[p.index])));
  const itemBytes = Math.max(...p.entities.map((e) => sizes.get(e)!.itemBytes));
  // BatchGetItem reads eventually consistent unless asked otherwise; an LSI fetch reads as the query does.
  const fetchUnitsPerItem = p.fetch === FetchMode.NONE ? 0 : readUnits(itemBytes, p.fetch === FetchMode.LSI_FETCH && p.consistentRead);
  const queriesPerRead = model.indexes[p.index].shards?.readCount ?? 1;
  const unitsForOneItem = shardedQueryReadUnits(entryBytes, 1, queriesPerRead, p.consistentRead);
  const filtered = filteredEntities(model, p);
  const filteredUnitsPerRead = filteredUnits(model, p, filtered, sizes, entryBytes, queriesPerRead);
  const cost: PatternReadCost = {
    pattern: p.name,
    index: p.index,
    consistentRead: p.consistentRead,
    entryBytes,
    queriesPerRead,
    unitsForOneItem,
    unitsForManyItems: shardedQueryReadUnits(entryBytes, itemsPerQuery, queriesPerRead, p.consistentRead),
    itemsPerQuery,
    fetchUnitsPerItem,
    filteredEntities: filtered,
    ...filteredUnitsPerRead === undefined ? {} : { filteredUnitsPerRead },
  };
  if (p.readsPerSecond === undefined) return cost;
  return { ...cost, unitsPerSecond: p.readsPerSecond * (unitsForOneItem + fetchUnitsPerItem + (filteredUnitsPerRead ?? 0)) };
}

/** Other entities whose partitions on the pattern's index the pattern can read whole (it has no sort-key condition). */
export function filteredEntities(model: TableModel, p: PatternModel): string[] {
  if (p.sortKeyCondition !== SortKeyCondition.NONE || !p.pk) return [];
  const index = model.indexes[p.index];
  return Object.values(model.entities)
    .filter((e) => !p.entities.includes(e.name) && populatesIndex(e, index) && e.keys[p.index])
    .filter((e) => segmentsOverlap(e.keys[p.index].pk.segments, p.pk!.segments))
    .map((e) => e.name);
}

/**
 * Read units the dropped items add to a read: their declared bound per table partition key value
 * times their entry size, where the index's partitions are the table's (the table, an LSI, or a GSI
 * keyed by the table's partition key template) and unsharded.
 */
function filteredUnits(
  model: TableModel, p: PatternModel, filtered: string[], sizes: Map<string, EntitySizes>, entryBytes: number, queries: number,
): number | undefined {
  if (filtered.length === 0 || queries > 1) return undefined;
  const index = model.indexes[p.index];
  let bytes = 0;
  for (const name of filtered) {
    const entity = model.entities[name];
    const samePartitions = index.type !== IndexType.GSI || entity.keys[p.index].pk.source === entity.keys[TABLE_INDEX].pk.source;
    const items = samePartitions ? itemsPerPartition(entity) : undefined;
    if (items === undefined) return undefined;
    bytes += items * (index.type === IndexType.TABLE ? sizes.get(name)!.itemBytes : sizes.get(name)!.entryBytes[p.index]);
  }
  return readUnits(entryBytes + bytes, p.consistentRead) - readUnits(entryBytes, p.consistentRead);
}

/** GetItem of one item by its table key. */
export interface GetItemCost {
  /** The entity. */
  readonly entity: string;
  /** Strongly consistent read units. */
  readonly strongUnits: number;
  /** Eventually consistent read units (half). */
  readonly eventualUnits: number;
  /** The read inside TransactGetItems: twice the strongly consistent units. */
  readonly transactionUnits: number;
}

/** GetItem costs of every entity, in model order. */
export function getItemCosts(sizes: EntitySizes[]): GetItemCost[] {
  return sizes.map((s) => {
    const strongUnits = readUnits(s.itemBytes, true);
    return { entity: s.entity, strongUnits, eventualUnits: readUnits(s.itemBytes, false), transactionUnits: 2 * strongUnits };
  });
}
