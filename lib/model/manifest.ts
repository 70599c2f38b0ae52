// The access-pattern manifest's shape: plain data that users write once and that drives the
// construct, the runtime and the reports. Everything here is a jsii struct or enum, so Python, Java
// and .NET CDK users can pass a manifest too. It lives in the model's home, beside the compiled
// model whose enums it defines, because the runtime exports it and types its items from it (./infer.ts),
// and a Lambda's imports never reach the compiler (lib/manifest). It imports nothing.

/** The type of an entity attribute. Decides validation, key encoding and the stored value. */
export enum AttributeKind {
  /** A string. In keys, characters up to the escape character are escaped (see docs/keys.md). */
  STRING = 'STRING',
  /** A finite number. In keys it uses an order-preserving encoding, so sort keys sort numerically. */
  NUMBER = 'NUMBER',
  /**
   * A boolean. In an index key template `true` is encoded as `true` and `false` leaves the item
   * out of that index (a sparse boolean index). Not allowed in table key templates.
   */
  BOOLEAN = 'BOOLEAN',
  /** A date-time: a `Date` or an ISO-8601 string, stored and keyed as ISO-8601 UTC with milliseconds. */
  DATE = 'DATE',
  /** A list of values. Not usable in key templates. */
  LIST = 'LIST',
  /** A map of values. Not usable in key templates. */
  MAP = 'MAP',
  /** A set of strings. Not usable in key templates. */
  STRING_SET = 'STRING_SET',
  /** A set of numbers. Not usable in key templates. */
  NUMBER_SET = 'NUMBER_SET',
}

/** One attribute of an entity. */
export interface AttributeDefinition {
  /** The attribute's type. */
  readonly type: AttributeKind;

  /**
   * Whether every item of the entity must have this attribute.
   * @default false
   */
  readonly required?: boolean;

  /**
   * Typical size of the attribute's value in bytes, used by the cost reports when no sample item
   * is given.
   * @default - estimated from the type (strings 20 bytes, numbers 8, dates 24, booleans 1, others 100)
   */
  readonly typicalSizeBytes?: number;

  /**
   * How many different values the attribute takes, e.g. 5 for an order status. A GSI partition
   * key template made only of such attributes and booleans has at most the product of their
   * counts partitions, and one value can take every write: the synth warns (HOT_PARTITION_KEY)
   * when the index is not sharded and the writes can exceed one partition's 1,000 write units/s.
   * @default - unbounded (a high-cardinality attribute, such as an id)
   */
  readonly distinctValues?: number;
}

/** The key templates an entity uses on one index slot. */
export interface IndexKeyTemplates {
  /**
   * Partition key template, e.g. `ORDER#{status}`. Required for GSIs; LSIs share the table's
   * partition key and must not set it.
   * @default - none (LSI)
   */
  readonly pk?: string;

  /**
   * Sort key template, e.g. `{createdAt}`. Required when the index has a sort key.
   * @default - none (only for a GSI declared without a sort key)
   */
  readonly sk?: string;
}

/** One kind of item stored in the table. */
export interface EntityDefinition {
  /**
   * The value written into the type attribute of every item of this entity.
   * @default - the entity's name in the manifest
   */
  readonly typeValue?: string;

  /** The entity's attributes, by name. Names are stored as they are written here. */
  readonly attributes: { [name: string]: AttributeDefinition };

  /** Table partition key template, e.g. `CUSTOMER#{username}`. */
  readonly pk: string;

  /** Table sort key template, e.g. `ORDER#{orderId}`. */
  readonly sk: string;

  /**
   * Key templates for every index slot the entity populates, by index name: a GSI's name or an
   * LSI slot (`LSI1`..`LSI5`). An entity absent from an index is simply not in it (sparse).
   * @default - the entity is in no secondary index
   */
  readonly indexes?: { [indexName: string]: IndexKeyTemplates };

  /**
   * Typical size of a whole item in bytes, used by the cost reports.
   * @default - the sum of the attributes' typical sizes plus the key attributes
   */
  readonly typicalItemSizeBytes?: number;

  /**
   * Expected peak writes per second of this entity (puts, updates and deletes together). With a
   * low-cardinality GSI partition key, at most this many writes can go to one partition.
   * @default - unknown: assumed able to exceed one partition's 1,000 write units per second
   */
  readonly writesPerSecond?: number;

  /**
   * The most items of this entity that share one table partition key value (e.g. the orders of
   * one customer). Bounds the item collection, which every LSI caps at 10 GB: the synth warns
   * (LSI_COLLECTION_UNBOUNDED) when an entity in a collection with an LSI entry has no bound, and
   * (LSI_COLLECTION_TOO_LARGE) when the bounds allow more than 10 GB.
   * @default - unbounded, unless the sort key template uses only partition key attributes (one item)
   */
  readonly maxItemsPerPartition?: number;

  /**
   * Optimistic locking: a version number the runtime writes (1 on create) and every replacing put
   * and every update checks against the version the caller read, then increments. A write that
   * expects another version fails with VERSION_CONFLICT instead of overwriting a change it did not see.
   * @default - not versioned
   */
  readonly version?: VersionDefinition;

  /**
   * Creation and last-write times the runtime keeps as DATE attributes (ISO-8601 UTC).
   * @default - no timestamps
   */
  readonly timestamps?: TimestampsDefinition;

  /**
   * Attributes whose values no two items of this entity may share (e.g. a customer's email). Each
   * value is held by a guard item written in the same transaction as the item, so writes of this
   * entity go through `transactWrite` (or `createClient`, which does it for put, update and
   * delete). An item without the attribute holds no value. STRING, NUMBER or DATE attributes.
   * @default - no unique attributes
   */
  readonly unique?: string[];

  /**
   * Per unique attribute, the attribute whose value scopes its values, e.g.
   * `{ email: 'tenantId' }`: two items conflict on `email` only when they hold the same email in
   * the same tenant (each tenant's emails are unique among its own items), while a unique
   * attribute not named here (`username`) stays unique across the whole table. Each scope must be
   * an attribute of the table partition key template preceded only by literal segments; that
   * attribute's guard items then start with the same partition key prefix as the entity's items
   * (`TENANT#{tenantId}#...`), so a grant with tenant isolation on it covers them and one tenant
   * can neither read nor take another tenant's values.
   * @default - every unique attribute's values unique across the whole table
   */
  readonly uniqueScope?: Record<string, string>;

  /**
   * A description shown in the reports.
   * @default - none
   */
  readonly description?: string;
}

/** The version attribute of an entity with optimistic locking. */
export interface VersionDefinition {
  /**
   * The attribute that holds the version, a NUMBER the runtime maintains (not declared under `attributes`).
   * @default 'version'
   */
  readonly attribute?: string;
}

/** The timestamp attributes of an entity. */
export interface TimestampsDefinition {
  /**
   * The attribute that holds when the item was created: set by a put unless the item gives it, never changed by an update.
   * @default 'createdAt'
   */
  readonly createdAt?: string;

  /**
   * The attribute that holds when the item was last written: set by every put and update.
   * @default 'updatedAt'
   */
  readonly updatedAt?: string;
}

/** What a secondary index copies from the table. */
export enum ProjectionKind {
  /** Every attribute. */
  ALL = 'ALL',
  /**
   * Only the table and index keys; not even the type attribute, so results are told apart by their
   * key shapes and full items are fetched when a pattern needs more.
   */
  KEYS_ONLY = 'KEYS_ONLY',
  /** The keys plus the attributes named in `include` (plus the entity type attribute). */
  INCLUDE = 'INCLUDE',
}

/** How a sharded GSI partition key picks its shard. */
export enum ShardStrategy {
  /** A random shard per item: spreads writes evenly; every read fans out to all shards. */
  RANDOM = 'RANDOM',
  /** A shard computed from an attribute's value: a read that knows the value goes to one shard. */
  ATTRIBUTE = 'ATTRIBUTE',
}

/** Write sharding of a GSI partition key: the key gets a shard suffix. */
export interface ShardingDefinition {
  /**
   * Number of shards writes are spread over.
   * @default - derived from `peakWritesPerSecond`
   */
  readonly shardCount?: number;

  /**
   * Expected peak writes per second on the hottest partition key value of the index; the shard
   * count becomes ceil(peak index write units per second / 800).
   * @default - none; then `shardCount` is required
   */
  readonly peakWritesPerSecond?: number;

  /**
   * How a shard is chosen.
   * @default ShardStrategy.RANDOM
   */
  readonly strategy?: ShardStrategy;

  /**
   * The attribute the shard is computed from, with `ShardStrategy.ATTRIBUTE`.
   * @default - none
   */
  readonly shardAttribute?: string;

  /**
   * Every shard count this index was deployed with before. Readers fan out over the largest count
   * ever declared, so items written under an older count are never hidden.
   * @default - no earlier count
   */
  readonly previousShardCounts?: number[];

  /**
   * Every other strategy (or ATTRIBUTE shard attribute) this index was deployed with before. Items
   * keep the shard they were written to, so after a change a query that knows the shard attribute's
   * value can no longer read that value's shard alone: it fans out over every shard, as RANDOM
   * reads do.
   * @default - no earlier strategy
   */
  readonly previousStrategies?: PreviousShardStrategy[];
}

/** A sharding strategy an index was deployed with before (see `ShardingDefinition.previousStrategies`). */
export interface PreviousShardStrategy {
  /** The strategy. */
  readonly strategy: ShardStrategy;

  /**
   * The shard attribute, with `ShardStrategy.ATTRIBUTE`.
   * @default - none
   */
  readonly shardAttribute?: string;
}

/** A global secondary index. Several entities may share (overload) one GSI. */
export interface GlobalIndexDefinition {
  /**
   * What the index projects.
   * @default ProjectionKind.ALL
   */
  readonly projection?: ProjectionKind;

  /**
   * Entity attribute names projected with `ProjectionKind.INCLUDE`.
   * @default - none
   */
  readonly include?: string[];

  /**
   * Key the index on the items' own attributes (DynamoDB's multi-attribute keys): 1 to 4 attribute
   * names forming the partition key, in order. Each keeps its own type (STRING and DATE are stored
   * as strings, NUMBER as a number), so no `<indexName>PK` string is written: an entity populates
   * the index by declaring every key attribute (`partitionAttributes` and `sortAttributes`), and an
   * item lacking any of them is absent from it (sparse). Excludes `partitionKeyName`,
   * `sortKeyName`, `hasSortKey`, `sharding` and entity key templates for this index.
   * @default - a composed partition key (`partitionKeyName`) built from each entity's `pk` template
   */
  readonly partitionAttributes?: string[];

  /**
   * With `partitionAttributes`: 0 to 4 attribute names forming the sort key, in order. Results sort
   * by the first, then the second, ...; a query names them left to right and compares only the last
   * one it names (the others by equality).
   * @default - no sort key
   */
  readonly sortAttributes?: string[];

  /**
   * Physical partition key attribute name.
   * @default - `<indexName>PK`
   */
  readonly partitionKeyName?: string;

  /**
   * Physical sort key attribute name.
   * @default - `<indexName>SK`
   */
  readonly sortKeyName?: string;

  /**
   * Whether the index has a sort key.
   * @default true
   */
  readonly hasSortKey?: boolean;

  /**
   * Write sharding of the partition key for hot keys.
   * @default - not sharded
   */
  readonly sharding?: ShardingDefinition;

  /**
   * Provisioned read capacity (provisioned billing only).
   * @default - the table's read capacity
   */
  readonly readCapacity?: number;

  /**
   * Provisioned write capacity (provisioned billing only). Must be at least the table's.
   * @default - the table's write capacity
   */
  readonly writeCapacity?: number;

  /**
   * A description shown in the reports.
   * @default - none
   */
  readonly description?: string;
}

/** The five LSI slots, created with the table (an LSI cannot be added later). */
export interface LocalIndexesDefinition {
  /**
   * Create the five LSIs `LSI1`..`LSI5` with the table. LSIs can only be created with the table,
   * but they cap every partition key value at 10 GB across the table and its LSIs, and such item
   * collections no longer split for heat: turn them off for partitions that can grow without bound.
   * @default true
   */
  readonly enabled?: boolean;
}

/** The sort-key condition an access pattern supports. */
export enum SortKeyCondition {
  /** No condition on the sort key: the whole partition (or item collection). */
  NONE = 'NONE',
  /** The sort key equals the composed key. */
  EQUALS = 'EQUALS',
  /** The sort key begins with a prefix composed from the leading sort-key attributes given. */
  BEGINS_WITH = 'BEGINS_WITH',
  /** The sort key is between two composed keys (inclusive). */
  BETWEEN = 'BETWEEN',
  /** The sort key is less than the composed key. */
  LESS_THAN = 'LESS_THAN',
  /** The sort key is less than or equal to the composed key. */
  LESS_THAN_OR_EQUAL = 'LESS_THAN_OR_EQUAL',
  /** The sort key is greater than the composed key. */
  GREATER_THAN = 'GREATER_THAN',
  /** The sort key is greater than or equal to the composed key. */
  GREATER_THAN_OR_EQUAL = 'GREATER_THAN_OR_EQUAL',
}

/** Result order of an access pattern. */
export enum SortOrder {
  /** Ascending sort key. */
  ASCENDING = 'ASCENDING',
  /** Descending sort key (newest first for date sort keys). */
  DESCENDING = 'DESCENDING',
}

/** A named access pattern: one query on one index. */
export interface AccessPatternDefinition {
  /**
   * The entity or entities the pattern returns. Several entities make a collection (item
   * collection or adjacency list): they must share the partition key template on the index.
   */
  readonly entities: string[];

  /**
   * The index it queries: `table`, a GSI name, or an LSI slot `LSI1`..`LSI5`.
   * @default 'table'
   */
  readonly index?: string;

  /**
   * The sort-key condition the pattern supports.
   * @default SortKeyCondition.NONE
   */
  readonly sortKeyCondition?: SortKeyCondition;

  /**
   * Default order of the results.
   * @default SortOrder.ASCENDING
   */
  readonly order?: SortOrder;

  /**
   * Whether the pattern needs strongly consistent reads (table and LSIs only).
   * @default false
   */
  readonly consistentRead?: boolean;

  /**
   * Attributes the pattern needs in its results. When the index does not project them, the
   * runtime fetches the full items (GSI: BatchGetItem; LSI: DynamoDB fetches them).
   * @default - every attribute of the returned entities
   */
  readonly attributes?: string[];

  /**
   * What the pattern is for, shown in the reports.
   * @default - none
   */
  readonly description?: string;

  /**
   * Expected reads per second, for the cost report.
   * @default - none
   */
  readonly readsPerSecond?: number;
}

/** The whole access-pattern manifest. */
export interface SingleTableManifest {
  /** The entities stored in the table, by name. */
  readonly entities: { [entityName: string]: EntityDefinition };

  /**
   * Global secondary indexes, by index name.
   * @default - none
   */
  readonly globalIndexes?: { [indexName: string]: GlobalIndexDefinition };

  /**
   * The five LSI slots.
   * @default - all five enabled
   */
  readonly localIndexes?: LocalIndexesDefinition;

  /**
   * Named access patterns.
   * @default - none
   */
  readonly accessPatterns?: { [patternName: string]: AccessPatternDefinition };

  /**
   * Name of the attribute holding every item's entity type.
   * @default 'Type'
   */
  readonly typeAttribute?: string;

  /**
   * The delimiter between key segments: one ASCII character from `!` to `/`.
   * @default '#'
   */
  readonly delimiter?: string;
}
