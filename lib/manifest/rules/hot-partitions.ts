// Partitions that can run hot or full. A partition takes about 1,000 write units
// per second; a GSI partition key with few values funnels every write of an entity into one of a
// few partitions. Every LSI caps each item collection (the items under one table partition key
// value, with their LSI entries) at 10 GB, after which writes to that collection fail.
import { MAX_KEY_ATTRIBUTES } from './attribute-keys';
import { entitiesOn, ManifestRule } from './rule';
import { segmentsOverlap } from '../../keys/template';
import { AttributeKind } from '../../model/manifest';
import { EntityModel, IndexModel, IndexType, shardKeyAttributeName, TABLE_INDEX, TableModel } from '../../model/model';
import { indexEntryBytes, shardsFor, writeUnits } from '../sizes';

/** Write units per second one partition takes. */
export const PARTITION_WRITE_UNITS = 1000;

/** The item collection limit every LSI imposes. */
export const ITEM_COLLECTION_BYTES = 10 * 1024 ** 3;

/**
 * How many partition key values a template can produce: the product of its attributes' declared
 * `distinctValues`, a BOOLEAN counting once (only `true` puts an item in the index), a template
 * without attributes one. Undefined when any attribute is unbounded.
 */
export function partitionValues(entity: EntityModel, index: IndexModel): number | undefined {
  let values = 1;
  for (const name of partitionAttributesOf(entity, index)) {
    const attr = entity.attributes[name];
    if (attr.type === AttributeKind.BOOLEAN) continue;
    if (attr.distinctValues === undefined) return undefined;
    values *= attr.distinctValues;
  }
  return values;
}

/**
 * An unsharded GSI whose partition key template has bounded values (see `partitionValues`) takes
 * each entity's writes on a handful of partitions, and one value (the status most orders are in)
 * can take all of them: warn unless the entity declares `writesPerSecond` low enough for one partition.
 */
export const lowCardinalityKeysAreSharded: ManifestRule = (model, _manifest, sink) => {
  for (const index of Object.values(model.indexes)) {
    if (index.type !== IndexType.GSI || index.shards) continue;
    for (const entity of entitiesOn(model, index.name)) {
      const values = partitionValues(entity, index);
      if (values === undefined) continue;
      const units = writeUnits(indexEntryBytes(entity, index, model.indexes[TABLE_INDEX], model.typeAttribute));
      const rate = entity.writesPerSecond;
      if (rate !== undefined && rate * units <= PARTITION_WRITE_UNITS) continue;
      const key = index.partitionAttributes
        ? `partition attributes ${JSON.stringify(index.partitionAttributes.map((a) => a.name))}`
        : `partition key ${JSON.stringify(entity.keys[index.name].pk.source)}`;
      const full = index.partitionAttributes?.length === MAX_KEY_ATTRIBUTES;
      const load = rate === undefined
        ? `${entity.name} declares no writesPerSecond, so its writes are assumed able to exceed`
        : `${entity.name}'s ${rate} writes/s x ${units} write unit(s) = ${rate * units} units/s exceed`;
      sink.warning('HOT_PARTITION_KEY', `index ${index.name}, entity ${entity.name}`,
        `${key} ha${index.partitionAttributes ? 've' : 's'} at most ${values} value(s) (${describeValues(entity, index)}), and one value can take every write; ${load} the ${PARTITION_WRITE_UNITS} write units/s one partition takes`,
        `shard the index: ${full ? `move one of the ${MAX_KEY_ATTRIBUTES} partitionAttributes to sortAttributes (the shard takes a partition key attribute), then ` : ''}globalIndexes.${index.name}.sharding = { ${
          rate === undefined ? 'peakWritesPerSecond: <peak writes/s>' : `shardCount: ${shardsFor(rate * units)}`} }${
          index.partitionAttributes ? ` (the runtime writes the shard into the NUMBER attribute ${shardKeyAttributeName(index.name)}, the last partition key attribute)` : ''}; or add a high-cardinality attribute to ${
          index.partitionAttributes ? `globalIndexes.${index.name}.partitionAttributes (up to ${MAX_KEY_ATTRIBUTES})` : 'the partition key'}; or declare ${entity.name}'s writesPerSecond if it stays under ${Math.floor(PARTITION_WRITE_UNITS / units)}`);
    }
  }
};

/** The attributes an entity's partition key on an index is made of. */
function partitionAttributesOf(entity: EntityModel, index: IndexModel): string[] {
  return index.partitionAttributes ? index.partitionAttributes.map((a) => a.name) : entity.keys[index.name].pk.attributes;
}

function describeValues(entity: EntityModel, index: IndexModel): string {
  const attrs = partitionAttributesOf(entity, index);
  if (attrs.length === 0) return 'no attribute: one partition';
  return attrs.map((a) => {
    const attr = entity.attributes[a];
    return attr.type === AttributeKind.BOOLEAN ? `${a}: BOOLEAN, only true is indexed` : `${a}: ${attr.distinctValues} distinct values`;
  }).join(', ');
}

/**
 * The most items of an entity under one table partition key value: its declared
 * `maxItemsPerPartition`, else one when its sort key reads only partition key attributes (a key
 * value determines the item), else unbounded.
 */
export function itemsPerPartition(entity: EntityModel): number | undefined {
  if (entity.maxItemsPerPartition !== undefined) return entity.maxItemsPerPartition;
  const keys = entity.keys[TABLE_INDEX];
  return keys.sk!.attributes.every((a) => keys.pk.attributes.includes(a)) ? 1 : undefined;
}

/**
 * Every entity whose items can share an item collection with an entity on an LSI has a bound on
 * its items per partition key value, and the bounds keep the collection under 10 GB.
 */
export const lsiCollectionsAreBounded: ManifestRule = (model, _manifest, sink) => {
  const lsis = Object.values(model.indexes).filter((i) => i.type === IndexType.LSI);
  const warned = new Set<string>();
  for (const onLsi of Object.values(model.entities)) {
    const slots = lsis.filter((i) => onLsi.keys[i.name]);
    if (slots.length === 0 || !onLsi.keys[TABLE_INDEX]) continue;
    const pk = onLsi.keys[TABLE_INDEX].pk.segments;
    const collection = Object.values(model.entities).filter((e) => e.keys[TABLE_INDEX] && segmentsOverlap(e.keys[TABLE_INDEX].pk.segments, pk));
    const where = `${onLsi.name} on ${slots.map((i) => i.name).join(', ')}`;
    let bytes = 0;
    for (const member of collection) {
      const items = itemsPerPartition(member);
      if (items === undefined) {
        if (!warned.has(member.name)) {
          warned.add(member.name);
          sink.warning('LSI_COLLECTION_UNBOUNDED', `entity ${member.name}`,
            `its items share item collections (table partition key ${JSON.stringify(member.keys[TABLE_INDEX].pk.source)}) with entities on LSIs (${where}), and nothing bounds how many there are; every LSI caps an item collection at 10 GB, after which writes to it fail`,
            `declare maxItemsPerPartition on ${member.name} (the most ${member.name} items under one partition key value), give its items a partition key of their own, or turn localIndexes off`);
        }
        bytes = NaN;
        continue;
      }
      bytes += items * collectionBytes(model, member, lsis);
    }
    if (bytes > ITEM_COLLECTION_BYTES && !warned.has(`collection:${onLsi.name}`)) {
      warned.add(`collection:${onLsi.name}`);
      sink.warning('LSI_COLLECTION_TOO_LARGE', `entity ${onLsi.name}`,
        `the declared maxItemsPerPartition of ${collection.map((e) => `${e.name} (${itemsPerPartition(e)})`).join(', ')} allow item collections of about ${(bytes / 1024 ** 3).toFixed(1)} GB; every LSI (${where}) caps one at 10 GB`,
        'lower the bounds, give the largest entity a partition key of its own, or turn localIndexes off');
    }
  }
};

/** Bytes one item adds to its item collection: the item and its LSI entries. */
function collectionBytes(model: TableModel, entity: EntityModel, lsis: IndexModel[]): number {
  const table = model.indexes[TABLE_INDEX];
  const entries = lsis.filter((lsi) => entity.keys[lsi.name]).map((lsi) => indexEntryBytes(entity, lsi, table, model.typeAttribute));
  return entries.reduce((sum, bytes) => sum + bytes, entity.typicalItemSizeBytes);
}
