// The compiled table model: the single immutable description of the table that the construct,
// the runtime and the reports read. Built once by `compileManifest`; nothing downstream parses a
// template or re-derives a rule. Plain data (jsii structs), frozen.
import { AttributeKind, ProjectionKind, ShardStrategy, SortKeyCondition, SortOrder } from './manifest';

/** Name of the pseudo-index that stands for the table's own key. */
export const TABLE_INDEX = 'table';

/** The five LSI slot names. */
export const LSI_SLOTS = ['LSI1', 'LSI2', 'LSI3', 'LSI4', 'LSI5'];

/** Kind of an index slot. */
export enum IndexType {
  /** The table's own primary key. */
  TABLE = 'TABLE',
  /** A global secondary index. */
  GSI = 'GSI',
  /** A local secondary index. */
  LSI = 'LSI',
}

/** One segment of a parsed key template: a literal or one attribute value. */
export interface KeySegmentModel {
  /** The literal text, for a literal segment. @default - an attribute segment */
  readonly literal?: string;
  /** The attribute whose encoded value fills the segment. @default - a literal segment */
  readonly attribute?: string;
  /** The attribute's type. @default - a literal segment */
  readonly kind?: AttributeKind;
}

/** A parsed key template. */
export interface KeyTemplateModel {
  /** The template as written, e.g. `CUSTOMER#{username}`. */
  readonly source: string;
  /** Its segments, in order. */
  readonly segments: KeySegmentModel[];
  /** The attributes it reads, in order. */
  readonly attributes: string[];
}

/** Sharding of a GSI partition key, resolved. */
export interface ShardModel {
  /** Shards new writes go to. */
  readonly writeCount: number;
  /** Shards readers fan out over: the largest count ever declared. */
  readonly readCount: number;
  /**
   * Every count ever declared (the current one and `previousShardCounts`), distinct, ascending. An
   * item keeps the shard of the count it was written under, so a read by an ATTRIBUTE value asks
   * the value's shard under each.
   */
  readonly counts: number[];
  /** How a shard is chosen. */
  readonly strategy: ShardStrategy;
  /** The attribute the shard is computed from (ATTRIBUTE strategy). @default - none */
  readonly attribute?: string;
  /**
   * Every strategy ever declared (the current one and `previousStrategies`), as `RANDOM` or
   * `ATTRIBUTE:<attribute>`, distinct, sorted: what the shard lock records.
   */
  readonly strategies: string[];
  /**
   * Whether a query that knows the shard attribute's value may read only that value's shards: true
   * for the ATTRIBUTE strategy when no other strategy or attribute was ever declared (an item
   * written under another one can be on any shard).
   */
  readonly pinnedReads: boolean;
  /** The declared peak writes per second, if the count was derived from it. @default - none */
  readonly peakWritesPerSecond?: number;
  /**
   * On a multi-attribute GSI: the NUMBER attribute the runtime writes the shard into,
   * `<index name>Shard`, the last attribute of the index's partition key (after
   * `partitionAttributes`, which it is not listed in). Stored on every item of the index's
   * entities; results never show it.
   * @default - a composed GSI: the shard is a suffix of the partition key string
   */
  readonly keyAttribute?: string;
}

/** One attribute of a multi-attribute GSI key: an item attribute the index keys on as stored. */
export interface KeyAttributeModel {
  /** The attribute's name. */
  readonly name: string;
  /** Its kind, the same in every entity that declares it: STRING, DATE (stored as a string) or NUMBER. */
  readonly kind: AttributeKind;
}

/** One index slot: the table, a GSI or an LSI. */
export interface IndexModel {
  /** Index name (`table` for the table itself). */
  readonly name: string;
  /** Slot kind. */
  readonly type: IndexType;
  /** Physical partition key attribute (on a multi-attribute GSI, the first of `partitionAttributes`). */
  readonly partitionKey: string;
  /** Physical sort key attribute (on a multi-attribute GSI, the first of `sortAttributes`). @default - no sort key */
  readonly sortKey?: string;
  /**
   * A GSI keyed on the items' own attributes: its partition key attributes, in key order (1-4).
   * Nothing composes or writes a key for such an index.
   * @default - a composed partition key in `partitionKey`
   */
  readonly partitionAttributes?: KeyAttributeModel[];
  /** A multi-attribute GSI's sort key attributes, in key order (0-4). @default - none */
  readonly sortAttributes?: KeyAttributeModel[];
  /**
   * A multi-attribute GSI's entities: those declaring every key attribute. Their items that carry
   * all of them are in the index.
   * @default - none (a composed index's entities are those with key templates for it)
   */
  readonly entities?: string[];
  /** What the index projects. */
  readonly projection: ProjectionKind;
  /** Non-key attributes projected with INCLUDE (the type attribute included). */
  readonly nonKeyAttributes: string[];
  /** Sharding of the partition key. @default - not sharded */
  readonly shards?: ShardModel;
  /** Provisioned read capacity. @default - table's */
  readonly readCapacity?: number;
  /** Provisioned write capacity. @default - table's */
  readonly writeCapacity?: number;
  /** Description. @default - none */
  readonly description?: string;
}

/** One attribute of an entity, resolved. */
export interface AttributeModel {
  /** Attribute name. */
  readonly name: string;
  /** Its type. */
  readonly type: AttributeKind;
  /** Whether every item has it. */
  readonly required: boolean;
  /** Typical value size in bytes (declared or estimated). */
  readonly typicalSizeBytes: number;
  /** How many different values it takes. @default - unbounded */
  readonly distinctValues?: number;
}

/** An entity's key templates on one index slot. */
export interface EntityIndexKeysModel {
  /** The index name. */
  readonly index: string;
  /** Partition key template (for an LSI, the table's). */
  readonly pk: KeyTemplateModel;
  /** Sort key template. @default - the index has no sort key */
  readonly sk?: KeyTemplateModel;
}

/** An entity's timestamp attributes (both DATE attributes of the entity). */
export interface TimestampsModel {
  /** Set when the item is created. */
  readonly createdAt: string;
  /** Set by every write. */
  readonly updatedAt: string;
}

/** One entity, resolved. */
export interface EntityModel {
  /** Entity name. */
  readonly name: string;
  /** Value of the type attribute. */
  readonly typeValue: string;
  /** Attributes by name. */
  readonly attributes: { [name: string]: AttributeModel };
  /** Key templates by index name (`table` included). */
  readonly keys: { [indexName: string]: EntityIndexKeysModel };
  /** Typical item size in bytes (declared or estimated). */
  readonly typicalItemSizeBytes: number;
  /** Declared peak writes per second. @default - unknown */
  readonly writesPerSecond?: number;
  /** Declared most items under one table partition key value. @default - unbounded */
  readonly maxItemsPerPartition?: number;
  /** The version attribute the runtime checks and increments on every write (optimistic locking). @default - not versioned */
  readonly version?: string;
  /** The timestamp attributes the runtime keeps. @default - none */
  readonly timestamps?: TimestampsModel;
  /** Attributes no two items of the entity may share, each held by a guard item. @default - none */
  readonly unique?: string[];
  /**
   * Per unique attribute, the table partition key attribute whose value scopes its values (e.g. a
   * tenant id). @default - every unique attribute unique across the whole table
   */
  readonly uniqueScope?: Record<string, string>;
  /** Description. @default - none */
  readonly description?: string;
}

/** How a pattern gets attributes its index does not project. */
export enum FetchMode {
  /** The index projects everything the pattern needs. */
  NONE = 'NONE',
  /** GSI: the runtime fetches the items with BatchGetItem, keeping the query's order. */
  BATCH_GET = 'BATCH_GET',
  /** LSI: DynamoDB fetches them from the table (extra read units, done in the same Query). */
  LSI_FETCH = 'LSI_FETCH',
}

/**
 * Which stored sort keys a pattern's complete sort-key prefix stands for. A pattern over several
 * entities of one item collection queries by the longest run of leading segments their sort keys
 * share; one entity's key may end there (a parent `X#{id}`) while others continue (its children
 * `X#{id}#CHILD#{date}`).
 */
export enum SortKeyCoverage {
  /** The key itself: every entity's sort key is the template. */
  KEY = 'KEY',
  /** The key and every key under it (key + delimiter + more): some entity's sort key ends there, another's continues. */
  KEY_AND_BELOW = 'KEY_AND_BELOW',
  /** Only the keys under it: every entity's sort key continues past the template. */
  BELOW = 'BELOW',
}

/** One access pattern, resolved. */
export interface PatternModel {
  /** Pattern name. */
  readonly name: string;
  /** Entities it returns. */
  readonly entities: string[];
  /** Index it queries (`table`, a GSI, an LSI slot). */
  readonly index: string;
  /** Sort-key condition. */
  readonly sortKeyCondition: SortKeyCondition;
  /** Default order. */
  readonly order: SortOrder;
  /** Whether reads are strongly consistent. */
  readonly consistentRead: boolean;
  /** Attributes the pattern needs. */
  readonly attributes: string[];
  /** How missing attributes are fetched. */
  readonly fetch: FetchMode;
  /**
   * Partition key template the query composes (the first entity's on the index).
   * @default - none: the index is keyed on attributes (its `partitionAttributes`)
   */
  readonly pk?: KeyTemplateModel;
  /**
   * Sort key template the condition composes: the entity's, or for several entities the longest
   * run of leading segments all their sort keys on the index share.
   * @default - no sort key, or no segment the entities share
   */
  readonly sk?: KeyTemplateModel;
  /** Which keys a complete `sk` stands for. @default SortKeyCoverage.KEY */
  readonly skCoverage?: SortKeyCoverage;
  /** Description. @default - none */
  readonly description?: string;
  /** Expected reads per second. @default - none */
  readonly readsPerSecond?: number;
}

/** The compiled table model. */
export interface TableModel {
  /** Key segment delimiter. */
  readonly delimiter: string;
  /** Escape character for string values in keys. */
  readonly escapeChar: string;
  /** The type attribute's name. */
  readonly typeAttribute: string;
  /** Whether the five LSIs exist. */
  readonly localIndexesEnabled: boolean;
  /** Every index slot by name, the table (`table`) first, then GSIs, then LSIs. */
  readonly indexes: { [name: string]: IndexModel };
  /** Entities by name. */
  readonly entities: { [name: string]: EntityModel };
  /** Access patterns by name. */
  readonly patterns: { [name: string]: PatternModel };
  /** Entity name by type value. */
  readonly entityByType: { [typeValue: string]: string };
  /** Every physical key attribute name in use (string attributes). */
  readonly keyAttributes: string[];
  /** A stable fingerprint of the manifest (hex). */
  readonly fingerprint: string;
}

/**
 * Whether an entity's items populate an index: through key templates for it, or, on a
 * multi-attribute GSI, by declaring every key attribute.
 */
export function populatesIndex(entity: Pick<EntityModel, 'name' | 'keys'>, index: Pick<IndexModel, 'name' | 'entities'>): boolean {
  return index.entities ? index.entities.includes(entity.name) : entity.keys[index.name] !== undefined;
}

/** The name of a sharded multi-attribute GSI's shard attribute (ShardModel.keyAttribute). */
export function shardKeyAttributeName(indexName: string): string {
  return `${indexName}Shard`;
}

/**
 * A multi-attribute GSI's physical partition key, in key schema order: its partition attributes,
 * then on a sharded one the shard attribute (a NUMBER).
 */
export function hashKeyAttributes(index: Pick<IndexModel, 'partitionAttributes' | 'shards'>): KeyAttributeModel[] {
  const shard = index.shards?.keyAttribute;
  const partition = index.partitionAttributes ?? [];
  // The kind as its value: the runtime reads this module, and AttributeKind's enum would load with it.
  return shard ? [...partition, { name: shard, kind: 'NUMBER' as AttributeKind }] : partition;
}

/**
 * Every attribute the runtime writes for keys, which results leave out: the composed key attributes
 * (`keyAttributes`) and the shard attributes of sharded multi-attribute GSIs.
 */
export function writtenKeyAttributes(model: Pick<TableModel, 'keyAttributes' | 'indexes'>): string[] {
  const shards: string[] = [];
  for (const name in model.indexes) {
    const shard = model.indexes[name].shards?.keyAttribute;
    if (shard) shards.push(shard);
  }
  return shards.length ? [...model.keyAttributes, ...shards] : model.keyAttributes;
}

/** A multi-attribute GSI's key attribute names, partition then sort; none for a composed key. */
export function attributeKeyNames(index: Pick<IndexModel, 'partitionAttributes' | 'sortAttributes'>): string[] {
  return [...index.partitionAttributes ?? [], ...index.sortAttributes ?? []].map((a) => a.name);
}

/**
 * The attributes a pattern's query reads, in key order: its templates' attributes, or on a
 * multi-attribute GSI the index's key attributes.
 */
export function patternKeyAttributes(pattern: Pick<PatternModel, 'pk' | 'sk'>, index: Pick<IndexModel, 'partitionAttributes' | 'sortAttributes'>): { partition: string[]; sort: string[] } {
  if (!pattern.pk) {
    return { partition: (index.partitionAttributes ?? []).map((a) => a.name), sort: (index.sortAttributes ?? []).map((a) => a.name) };
  }
  return { partition: pattern.pk.attributes, sort: pattern.sk?.attributes ?? [] };
}
