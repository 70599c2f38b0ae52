// The cost report: every figure the cost model computes for a manifest, as data (`cost --json`)
// and as markdown. The writes listed per entity are the ones whose amplification differs: a put,
// an update of each attribute that is not part of the table key, entering and leaving each sparse
// index, and a delete.
import { getItemCosts, GetItemCost, patternReadCosts, PatternReadCost } from './cost-reads';
import { ShardSizing, shardSizing } from './cost-shards';
import { entitySizes, EntitySizes, SampleItems } from './cost-sizes';
import { storageCosts, StorageCost } from './cost-storage';
import { uniqueWriteCosts, UniqueWriteCost } from './cost-unique';
import { keyAttributesOn, writeCost, WriteCost, WriteKind } from './cost-writes';
import { AttributeKind } from '../model/manifest';
import { EntityModel, IndexType, populatesIndex, TABLE_INDEX, TableModel } from '../model/model';

/** Options of the cost report. */
export interface CostOptions {
  /**
   * A sample item per entity name; its exact DynamoDB size replaces the typical sizes.
   * @default - typical sizes declared in the manifest, or estimated from attribute types
   */
  readonly sampleItems?: { [entityName: string]: { [attribute: string]: any } };

  /**
   * Entries per query for the "many items" read figure.
   * @default 10
   */
  readonly itemsPerQuery?: number;
}

/** Every figure of the cost model for one manifest. */
export interface CostReport {
  /** The manifest fingerprint. */
  readonly fingerprint: string;
  /** Sizes per entity. */
  readonly sizes: EntitySizes[];
  /** Writes per entity, in entity order. */
  readonly writes: WriteCost[];
  /** GetItem per entity. */
  readonly gets: GetItemCost[];
  /** Reads per access pattern. */
  readonly reads: PatternReadCost[];
  /** Storage per item. */
  readonly storage: StorageCost[];
  /** Sharded GSIs. */
  readonly shards: ShardSizing[];
  /** The transactions that writes of entities with unique attributes are (their guard items included); empty without unique attributes. */
  readonly unique: UniqueWriteCost[];
}

/** Computes the cost report. Throws when a sample item or an option is invalid. */
export function costReport(model: TableModel, options: CostOptions = {}): CostReport {
  const itemsPerQuery = options.itemsPerQuery ?? 10;
  if (!Number.isInteger(itemsPerQuery) || itemsPerQuery < 1) throw new Error(`itemsPerQuery must be a whole number of at least 1, got ${itemsPerQuery}`);
  const sizes = entitySizes(model, (options.sampleItems ?? {}) as SampleItems);
  return {
    fingerprint: model.fingerprint,
    sizes,
    writes: sizes.flatMap((s) => writesOf(model, model.entities[s.entity]).map(([kind, attrs]) => writeCost(model, s, kind, attrs))),
    gets: getItemCosts(sizes),
    reads: patternReadCosts(model, sizes, itemsPerQuery),
    storage: storageCosts(sizes),
    shards: shardSizing(model),
    unique: uniqueWriteCosts(model, sizes),
  };
}

/** The writes worth pricing for an entity. */
function writesOf(model: TableModel, entity: EntityModel): [WriteKind, string[]][] {
  const tableKey = keyAttributesOn(entity, model.indexes[TABLE_INDEX]);
  const secondary = Object.values(model.indexes).filter((i) => i.type !== IndexType.TABLE && populatesIndex(entity, i));
  const writes: [WriteKind, string[]][] = [[WriteKind.PUT, []]];
  for (const attr of Object.values(entity.attributes)) {
    if (tableKey.has(attr.name)) continue;
    const inIndexKey = secondary.some((i) => keyAttributesOn(entity, i).has(attr.name));
    // A boolean index key has one indexed value, true: changing it always enters or leaves the index.
    const isBooleanKey = inIndexKey && attr.type === AttributeKind.BOOLEAN;
    if (!isBooleanKey) writes.push([WriteKind.UPDATE, [attr.name]]);
    if (inIndexKey && (!attr.required || isBooleanKey)) writes.push([WriteKind.ENTER, [attr.name]], [WriteKind.REMOVE, [attr.name]]);
  }
  writes.push([WriteKind.DELETE, []]);
  return writes;
}
