// The sizes the cost model works from, per entity: the stored item and its entry in every index
// slot it populates. From a sample item when one is given (exact, by DynamoDB's size rules),
// otherwise from the declared or estimated typical sizes the compiler put in the model.
import { attributeBytes } from './item-size';
import { normalizeDate, utf8Length } from '../keys/encoding';
import { composeKey } from '../keys/template';
import { indexEntryBytes, indexKeyBytes } from '../manifest/sizes';
import { dict, own } from '../manifest/values';
import { AttributeKind, ProjectionKind } from '../model/manifest';
import { attributeKeyNames, EntityModel, IndexModel, IndexType, populatesIndex, TABLE_INDEX, TableModel } from '../model/model';

/** Sample items by entity name: one plain item per entity, as the runtime would be given it. */
export type SampleItems = { readonly [entityName: string]: { [attribute: string]: any } };

/** An entity's sizes in bytes. */
export interface EntitySizes {
  /** The entity. */
  readonly entity: string;
  /** Where the sizes come from: `sample` (a sample item) or `typical` (declared or estimated sizes). */
  readonly source: string;
  /** The stored item: attributes, type attribute, table and index keys. */
  readonly itemBytes: number;
  /** The entry in each secondary index slot the entity populates, without storage overhead. */
  readonly entryBytes: { [indexName: string]: number };
  /** Index slots the sample item stays out of (a sparse key left out); empty for typical sizes. */
  readonly missingIndexes: string[];
}

/** Sizes for every entity of the model, in model order. */
export function entitySizes(model: TableModel, samples: SampleItems = {}): EntitySizes[] {
  for (const name of Object.keys(samples)) {
    if (!model.entities[name]) throw new Error(`sample item for '${name}': no such entity; use one of ${Object.keys(model.entities).join(', ')}`);
  }
  return Object.values(model.entities).map((e) => {
    const sample = own(samples, e.name);
    return sample ? sampleSizes(model, e, sample) : typicalSizes(model, e);
  });
}

function typicalSizes(model: TableModel, entity: EntityModel): EntitySizes {
  const entryBytes = dict<number>();
  for (const index of populated(model, entity)) {
    entryBytes[index.name] = indexEntryBytes(entity, index, model.indexes[TABLE_INDEX], model.typeAttribute);
  }
  return { entity: entity.name, source: 'typical', itemBytes: entity.typicalItemSizeBytes, entryBytes, missingIndexes: [] };
}

/**
 * Sizes of a sample item as the runtime would store it. An index the sample stays out of (a sparse
 * key attribute left out) is listed in `missingIndexes`, and its entry is estimated, so that
 * entering that index later can still be priced.
 */
function sampleSizes(model: TableModel, entity: EntityModel, sample: { [attribute: string]: any }): EntitySizes {
  let dataBytes = attributeBytes(model.typeAttribute, entity.typeValue)!;
  // Keyed by attribute names, which may be `constructor` or `toString`.
  const projectable = dict<number>();
  projectable[model.typeAttribute] = dataBytes;
  for (const [name, value] of Object.entries(sample)) {
    if (value === undefined) continue;
    if (!entity.attributes[name]) throw new Error(`sample item for '${entity.name}': attribute '${name}' is not declared`);
    // The runtime stores a DATE as ISO-8601 UTC with milliseconds, whatever form it was given in.
    const stored = entity.attributes[name].type === AttributeKind.DATE ? (normalizeDate(value) ?? value) : value;
    const bytes = attributeBytes(name, stored);
    if (bytes === undefined) throw new Error(`sample item for '${entity.name}': attribute '${name}' holds a value DynamoDB cannot store`);
    projectable[name] = bytes;
    dataBytes += bytes;
  }
  const keyBytes = dict<number>();
  const missingIndexes: string[] = [];
  let itemBytes = dataBytes;
  for (const index of [model.indexes[TABLE_INDEX], ...populated(model, entity)]) {
    const bytes = sampleKeyBytes(model, entity, index, sample);
    if (bytes === undefined) missingIndexes.push(index.name);
    keyBytes[index.name] = bytes ?? indexKeyBytes(entity, index);
    if (bytes !== undefined) itemBytes += bytes;
  }
  const entryBytes = dict<number>();
  for (const index of populated(model, entity)) {
    if (index.projection === ProjectionKind.ALL) {
      entryBytes[index.name] = itemBytes;
      continue;
    }
    let bytes = keyBytes[TABLE_INDEX] + keyBytes[index.name];
    for (const name of index.nonKeyAttributes) bytes += projectable[name] ?? 0;
    entryBytes[index.name] = bytes;
  }
  return { entity: entity.name, source: 'sample', itemBytes, entryBytes, missingIndexes };
}

/** Bytes of the key attributes an item writes for one index slot (an LSI only its sort key); undefined when it is not in it. */
function sampleKeyBytes(model: TableModel, entity: EntityModel, index: IndexModel, sample: { [attribute: string]: any }): number | undefined {
  // A multi-attribute key is the item's own attributes: none are written for it; without one the item is not in it.
  if (index.partitionAttributes) {
    const names = attributeKeyNames(index);
    return names.every((n) => sample[n] !== undefined && sample[n] !== null) ? 0 : undefined;
  }
  const keys = entity.keys[index.name];
  const parts: [string, typeof keys.pk, boolean][] = [];
  if (index.type !== IndexType.LSI) parts.push([index.partitionKey, keys.pk, index.shards !== undefined]);
  if (index.sortKey && keys.sk) parts.push([index.sortKey, keys.sk, false]);
  let bytes = 0;
  for (const [attribute, template, sharded] of parts) {
    const composed = composeKey(template, sample, model.delimiter, model.escapeChar);
    if ('error' in composed) throw new Error(`sample item for '${entity.name}': attribute '${composed.attribute}' ${composed.error}`);
    if ('absent' in composed) {
      if (index.name === TABLE_INDEX) throw new Error(`sample item for '${entity.name}': cannot compose its table key ${template.source}`);
      return undefined;
    }
    // A shard suffix is the delimiter and the shard number; count the widest number.
    const suffix = sharded ? 1 + String(index.shards!.writeCount - 1).length : 0;
    bytes += utf8Length(attribute) + utf8Length(composed.key) + suffix;
  }
  return bytes;
}

function populated(model: TableModel, entity: EntityModel): IndexModel[] {
  return Object.values(model.indexes).filter((i) => i.type !== IndexType.TABLE && populatesIndex(entity, i));
}
