// Size estimates from declared typical sizes. DynamoDB counts an item's size as the UTF-8 bytes
// of its attribute names plus its values; an index entry holds the table keys, the index keys
// and the projected attributes. Used for shard sizing at compile time and by the cost reports.
import { AttributeKind, ProjectionKind } from '../model/manifest';
import { attributeKeyNames, EntityModel, IndexModel, KeyTemplateModel, populatesIndex, TABLE_INDEX } from '../model/model';

// Keyed by the kinds' values, not computed from AttributeKind's members: a bundler keeps an
// object with computed keys read from another module even in a Lambda that never uses it.
const DEFAULT_VALUE_BYTES: Partial<Record<`${AttributeKind}`, number>> = { STRING: 20, NUMBER: 8, DATE: 24, BOOLEAN: 1 };

/** Default typical size of a value of this kind. */
export function defaultValueBytes(kind: AttributeKind): number {
  return DEFAULT_VALUE_BYTES[kind] ?? 100;
}

/** Estimated bytes of a key attribute's value composed from a template. */
export function templateBytes(template: KeyTemplateModel, entity: Pick<EntityModel, 'attributes'>): number {
  let bytes = template.segments.length - 1;
  for (const seg of template.segments) {
    if (seg.literal !== undefined) bytes += seg.literal.length;
    else if (seg.kind === AttributeKind.NUMBER) bytes += 12;
    else bytes += entity.attributes[seg.attribute!]?.typicalSizeBytes ?? 20;
  }
  return bytes;
}

/** Estimated bytes of the key attributes (names and values) an entity writes on one index slot. */
export function indexKeyBytes(entity: Pick<EntityModel, 'attributes' | 'keys'>, index: IndexModel): number {
  if (index.partitionAttributes) {
    // The item's own attributes: written anyway, counted here only for the index entry.
    const names = attributeKeyNames(index);
    // A sharded one's shard attribute: its name and a small number (about 2 bytes).
    const shard = index.shards?.keyAttribute;
    return names.reduce((sum, name) => sum + name.length + (entity.attributes[name]?.typicalSizeBytes ?? 0), shard ? shard.length + 2 : 0);
  }
  const keys = entity.keys[index.name];
  if (!keys) return 0;
  let bytes = 0;
  if (index.type !== 'LSI') bytes += index.partitionKey.length + templateBytes(keys.pk, entity);
  if (index.sortKey && keys.sk) bytes += index.sortKey.length + templateBytes(keys.sk, entity);
  return bytes;
}

/** Estimated bytes of a whole item: attributes, type attribute and every key attribute it writes. */
export function estimateItemBytes(
  entity: Pick<EntityModel, 'attributes' | 'keys' | 'typeValue'>,
  indexes: { [name: string]: IndexModel },
  typeAttribute: string,
): number {
  let bytes = typeAttribute.length + entity.typeValue.length;
  for (const attr of Object.values(entity.attributes)) bytes += attr.name.length + attr.typicalSizeBytes;
  for (const name of Object.keys(entity.keys)) {
    const index = indexes[name];
    if (index) bytes += indexKeyBytes(entity, index);
  }
  return bytes;
}

/** Estimated bytes of an entity's entry in a secondary index (without the 100-byte overhead). */
export function indexEntryBytes(
  entity: Pick<EntityModel, 'attributes' | 'keys' | 'typicalItemSizeBytes'>,
  index: IndexModel,
  tableIndex: IndexModel,
  typeAttribute: string,
): number {
  if (index.projection === ProjectionKind.ALL) return entity.typicalItemSizeBytes;
  let bytes = indexKeyBytes(entity, tableIndex) + indexKeyBytes(entity, index);
  if (index.projection === ProjectionKind.INCLUDE) {
    for (const name of index.nonKeyAttributes) {
      if (name === typeAttribute) bytes += name.length + 10;
      const attr = entity.attributes[name];
      if (attr) bytes += name.length + attr.typicalSizeBytes;
    }
  }
  return Math.min(bytes, entity.typicalItemSizeBytes);
}

/** Write units for one write of this many bytes: 1 per KB, rounded up, at least 1. */
export function writeUnits(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / 1024));
}

/** Read units for reading this many bytes: 1 per 4 KB (strongly consistent), half when eventually consistent. */
export function readUnits(bytes: number, consistent: boolean): number {
  const units = Math.max(1, Math.ceil(bytes / 4096));
  return consistent ? units : units / 2;
}

/**
 * Read units of one read returning `entries` entries of `entryBytes` each from an index whose
 * partition key is spread over `shards` shards: one Query per shard, each rounded up on its own
 * and billed at least one read unit (half when eventually consistent) even when it returns
 * nothing. The entries are spread as evenly as whole entries can be.
 */
export function shardedQueryReadUnits(entryBytes: number, entries: number, shards: number, consistent: boolean): number {
  const each = Math.floor(entries / shards);
  const fuller = entries % shards;
  return fuller * readUnits((each + 1) * entryBytes, consistent) + (shards - fuller) * readUnits(each * entryBytes, consistent);
}

/** Writes per second one partition takes safely (a margin under the ~1,000 WCU/s a partition takes). */
export const SAFE_WRITES_PER_PARTITION = 800;

/** Shards needed for a peak of index write units per second. */
export function shardsFor(peakWriteUnitsPerSecond: number): number {
  return Math.max(1, Math.ceil(peakWriteUnitsPerSecond / SAFE_WRITES_PER_PARTITION));
}

/** Write units of the largest entry any entity writes into the index. */
export function peakEntryWriteUnits(
  index: IndexModel,
  entities: { [name: string]: EntityModel },
  indexes: { [name: string]: IndexModel },
  typeAttribute: string,
): number {
  let units = 1;
  for (const entity of Object.values(entities)) {
    if (!populatesIndex(entity, index)) continue;
    units = Math.max(units, writeUnits(indexEntryBytes(entity, index, indexes[TABLE_INDEX], typeAttribute)));
  }
  return units;
}

