// Write amplification: what one write costs on the table and on every index slot the
// entity populates. Per index the write count follows DynamoDB's rules (new entry +1, key changed
// +2 as delete plus insert, key removed +1, projected non-key attribute changed +1, untouched 0,
// delete +1), and each index write costs 1 unit per KB of the projected entry, rounded up: a
// KEYS_ONLY entry is cheap, an ALL entry costs what the table write costs.
import { EntitySizes } from './cost-sizes';
import { writeUnits } from '../manifest/sizes';
import { ProjectionKind, ShardStrategy } from '../model/manifest';
import { attributeKeyNames, EntityModel, IndexModel, IndexType, populatesIndex, TABLE_INDEX, TableModel } from '../model/model';

/** A kind of write to an item. */
export enum WriteKind {
  /** PutItem of a new item: it enters every index slot whose keys it has (all, for typical sizes). */
  PUT = 'PUT',
  /** UpdateItem that sets attributes on an item already in its indexes. */
  UPDATE = 'UPDATE',
  /** UpdateItem that sets an index key attribute the item lacked: it enters that index. */
  ENTER = 'ENTER',
  /** UpdateItem that removes attributes: an index whose key needs one loses the item. */
  REMOVE = 'REMOVE',
  /** DeleteItem: the item leaves every index slot it is in. */
  DELETE = 'DELETE',
}

/** What a write does to one index slot. */
export enum IndexEffect {
  /** A new entry: 1 write. */
  INSERT = 'INSERT',
  /** The index key changed: the old entry is deleted and a new one written, 2 writes. */
  KEY_CHANGE = 'KEY_CHANGE',
  /** The entry is deleted (key removed, or item deleted): 1 write. */
  REMOVE = 'REMOVE',
  /** A projected non-key attribute changed: the entry is rewritten, 1 write. */
  PROJECTED_UPDATE = 'PROJECTED_UPDATE',
  /** Nothing the index holds changed: no write. */
  UNTOUCHED = 'UNTOUCHED',
}

const WRITES: { [effect: string]: number } = {
  [IndexEffect.INSERT]: 1,
  [IndexEffect.KEY_CHANGE]: 2,
  [IndexEffect.REMOVE]: 1,
  [IndexEffect.PROJECTED_UPDATE]: 1,
  [IndexEffect.UNTOUCHED]: 0,
};

/** Index writes one effect costs (0, 1 or 2); each costs the units of the projected entry. */
export function indexWrites(effect: IndexEffect): number {
  return WRITES[effect];
}

/** The cost of a write on one index slot. */
export interface IndexWriteCost {
  /** Index name. */
  readonly index: string;
  /** What the write does to the index. */
  readonly effect: IndexEffect;
  /** Index writes (0, 1 or 2). */
  readonly writes: number;
  /** Write units: writes x units of the projected entry. */
  readonly units: number;
}

/** The cost of one write of an entity's item. */
export interface WriteCost {
  /** The entity. */
  readonly entity: string;
  /** The kind of write. */
  readonly kind: WriteKind;
  /** The attributes set or removed (UPDATE, ENTER, REMOVE). */
  readonly attributes: string[];
  /** Write units on the table (1 per KB of the item, rounded up). */
  readonly tableUnits: number;
  /** The cost on each secondary index slot the entity populates, in model order. */
  readonly indexes: IndexWriteCost[];
  /** Table and index units together. */
  readonly totalUnits: number;
  /**
   * The same write inside TransactWriteItems: the table write costs twice (prepare and commit);
   * index writes do not, because DynamoDB propagates a committed transaction to GSIs afterwards,
   * like any other write.
   */
  readonly transactionUnits: number;
}

/** The cost of one write. Throws for an unknown entity or attribute, or an update of a table key attribute. */
export function writeCost(model: TableModel, sizes: EntitySizes, kind: WriteKind, attributes: string[] = []): WriteCost {
  const entity = model.entities[sizes.entity];
  if (!entity) throw new Error(`no entity '${sizes.entity}'`);
  const tableKeyAttrs = keyAttributesOn(entity, model.indexes[TABLE_INDEX]);
  for (const attr of attributes) {
    if (!entity.attributes[attr]) throw new Error(`entity ${entity.name} has no attribute '${attr}'`);
    if (tableKeyAttrs.has(attr)) {
      throw new Error(`'${attr}' is part of ${entity.name}'s table key; changing it is a delete and a put, not an update`);
    }
  }
  const indexes = Object.values(model.indexes)
    .filter((index) => index.type !== IndexType.TABLE && populatesIndex(entity, index))
    .map((index) => {
      const effect = effectOn(entity, index, kind, attributes, sizes.missingIndexes);
      const writes = indexWrites(effect);
      return { index: index.name, effect, writes, units: writes * writeUnits(sizes.entryBytes[index.name]) };
    });
  const tableUnits = writeUnits(sizes.itemBytes);
  const totalUnits = tableUnits + indexes.reduce((sum, i) => sum + i.units, 0);
  return { entity: entity.name, kind, attributes: [...attributes], tableUnits, indexes, totalUnits, transactionUnits: totalUnits + tableUnits };
}

function effectOn(entity: EntityModel, index: IndexModel, kind: WriteKind, attributes: string[], missing: string[]): IndexEffect {
  if (kind === WriteKind.PUT || kind === WriteKind.DELETE) {
    if (missing.includes(index.name)) return IndexEffect.UNTOUCHED;
    return kind === WriteKind.PUT ? IndexEffect.INSERT : IndexEffect.REMOVE;
  }
  const keyAttrs = keyAttributesOn(entity, index);
  if (attributes.some((a) => keyAttrs.has(a))) {
    if (kind === WriteKind.ENTER) return IndexEffect.INSERT;
    return kind === WriteKind.REMOVE ? IndexEffect.REMOVE : IndexEffect.KEY_CHANGE;
  }
  return attributes.some((a) => isProjected(index, a)) ? IndexEffect.PROJECTED_UPDATE : IndexEffect.UNTOUCHED;
}

/**
 * Attributes whose change moves the item's key on an index slot: those of its templates, and the
 * shard attribute of an ATTRIBUTE-sharded GSI. A RANDOM shard comes from the table key, which an
 * update cannot change.
 */
export function keyAttributesOn(entity: EntityModel, index: IndexModel): Set<string> {
  if (index.partitionAttributes) return new Set(attributeKeyNames(index));
  const keys = entity.keys[index.name];
  const attrs = new Set<string>([...(keys?.sk?.attributes ?? [])]);
  // An LSI's partition key is the table's, which an update cannot change.
  if (index.type !== IndexType.LSI) keys?.pk.attributes.forEach((a) => attrs.add(a));
  if (index.shards?.strategy === ShardStrategy.ATTRIBUTE && index.shards.attribute) attrs.add(index.shards.attribute);
  return attrs;
}

function isProjected(index: IndexModel, attribute: string): boolean {
  if (index.projection === ProjectionKind.ALL) return true;
  return index.projection === ProjectionKind.INCLUDE && index.nonKeyAttributes.includes(attribute);
}
