// Invalid manifests and props, one class of mistake after another, each with the one finding it
// must produce: its code, its exact location and the bad value shown in the message.
import { Billing, Capacity } from 'aws-cdk-lib/aws-dynamodb';
import { InvalidCase, Loose, orderAttributes, setOwn } from './case';

const bytes256 = 'é'.repeat(128); // 128 characters, 256 UTF-8 bytes
const long = (n: number) => 'n'.repeat(n);
const provisioned = (readCapacity = Capacity.fixed(5), writeCapacity = Capacity.autoscaled({ maxCapacity: 5 })): Loose => ({
  billing: Billing.provisioned({ readCapacity, writeCapacity }),
});

const projection: InvalidCase[] = [
  { title: 'INCLUDE listing 20 attributes: 21 with the type attribute, over the 20 per index', manifest: (m) => { m.globalIndexes.GSI2.include = orderAttributes(m, 20); }, code: 'INCLUDE_TOO_MANY_ATTRIBUTES', where: 'index GSI2', shows: '21 non-key attributes' },
  { title: 'INCLUDE given as a string', manifest: (m) => { m.globalIndexes.GSI2.include = 'status'; }, code: 'PROPERTY_TYPE_INVALID', where: 'index GSI2', shows: '`include` is the string "status", not a list' },
  { title: 'INCLUDE entry empty', manifest: (m) => { m.globalIndexes.GSI2.include = ['']; }, code: 'INCLUDE_ATTRIBUTE_INVALID', where: 'index GSI2', shows: '`include[0]` is empty' },
  { title: 'INCLUDE entry of 256 bytes', manifest: (m) => { m.entities.Order.attributes[bytes256] = { type: 'STRING' }; m.globalIndexes.GSI2.include = [bytes256]; }, code: 'INCLUDE_ATTRIBUTE_INVALID', where: 'index GSI2', shows: 'is 256 bytes long' },
  { title: 'INCLUDE entry a number', manifest: (m) => { m.globalIndexes.GSI2.include = [5]; }, code: 'INCLUDE_ATTRIBUTE_INVALID', where: 'index GSI2', shows: '`include[0]` is the number 5' },
  { title: "INCLUDE naming a GSI's key attribute", manifest: (m) => { m.globalIndexes.GSI2.include = ['GSI1PK']; }, code: 'INCLUDE_KEY_ATTRIBUTE', where: 'index GSI2', shows: "key attribute 'GSI1PK'" },
  { title: "INCLUDE naming the table's partition key", manifest: (m) => { m.globalIndexes.GSI2.include = ['PK']; }, code: 'INCLUDE_KEY_ATTRIBUTE', where: 'index GSI2', shows: "key attribute 'PK'" },
  { title: "INCLUDE naming an LSI's sort key", manifest: (m) => { m.globalIndexes.GSI2.include = ['LSI1SK']; }, code: 'INCLUDE_KEY_ATTRIBUTE', where: 'index GSI2', shows: "key attribute 'LSI1SK'" },
  { title: 'INCLUDE naming the type attribute', manifest: (m) => { m.globalIndexes.GSI2.include = ['Type']; }, code: 'INCLUDE_TYPE_ATTRIBUTE', where: 'index GSI2', shows: "'Type'" },
  { title: 'INCLUDE naming an undeclared attribute', manifest: (m) => { m.globalIndexes.GSI2.include = ['totl']; }, code: 'INCLUDE_ATTRIBUTE_UNDECLARED', where: 'index GSI2', shows: "'totl'" },
  { title: 'INCLUDE naming toString, which no entity declares', manifest: (m) => { m.globalIndexes.GSI2.include = ['toString']; }, code: 'INCLUDE_ATTRIBUTE_UNDECLARED', where: 'index GSI2', shows: "'toString'" },
  { title: 'INCLUDE naming __proto__', manifest: (m) => { m.globalIndexes.GSI2.include = ['__proto__']; }, code: 'INCLUDE_ATTRIBUTE_INVALID', where: 'index GSI2', shows: "'__proto__' cannot be a name" },
  { title: 'include on an ALL index', manifest: (m) => { m.globalIndexes.GSI1.include = ['status']; }, code: 'INCLUDE_WITHOUT_INCLUDE_PROJECTION', where: 'index GSI1', shows: 'projection is ALL' },
  {
    title: 'more than 100 projected attributes in all, each index within 20',
    manifest: (m) => {
      const names = orderAttributes(m, 19);
      m.globalIndexes.GSI2.include = names;
      for (let i = 3; i <= 7; i++) m.globalIndexes[`GSI${i}`] = { projection: 'INCLUDE', include: names.slice(0, i === 7 ? 1 : 19) };
    },
    code: 'TOO_MANY_PROJECTED_ATTRIBUTES',
    where: 'manifest',
    shows: '102 attributes',
  },
  { title: 'projection in lower case', manifest: (m) => { m.globalIndexes.GSI1.projection = 'all'; }, code: 'PROJECTION_INVALID', where: 'index GSI1', shows: '`projection` is the string "all", not a ProjectionKind' },
  { title: 'projection not a ProjectionKind', manifest: (m) => { m.globalIndexes.GSI1.projection = 'FULL'; }, code: 'PROJECTION_INVALID', where: 'index GSI1', shows: '"FULL"' },
  { title: 'projection a number', manifest: (m) => { m.globalIndexes.GSI1.projection = 5; }, code: 'PROJECTION_INVALID', where: 'index GSI1', shows: 'the number 5' },
  { title: 'projection null', manifest: (m) => { m.globalIndexes.GSI1.projection = null; }, code: 'PROJECTION_INVALID', where: 'index GSI1', shows: '`projection` is null' },
];

const keyAttributes: InvalidCase[] = [
  { title: 'partition and sort key the same attribute', manifest: (m) => { Object.assign(m.globalIndexes.GSI1, { partitionKeyName: 'byKey', sortKeyName: 'byKey' }); }, code: 'INDEX_KEY_ATTRIBUTES_SAME', where: 'index GSI1', shows: "both attribute 'byKey'" },
  { title: "partition key named like the index's default sort key", manifest: (m) => { m.globalIndexes.GSI1.partitionKeyName = 'GSI1SK'; }, code: 'INDEX_KEY_ATTRIBUTES_SAME', where: 'index GSI1', shows: "'GSI1SK'" },
  { title: 'partition key name empty', manifest: (m) => { m.globalIndexes.GSI1.partitionKeyName = ''; }, code: 'KEY_ATTRIBUTE_NAME_INVALID', where: 'index GSI1', shows: 'key attribute name ""' },
  { title: 'sort key name of 256 characters', manifest: (m) => { m.globalIndexes.GSI1.sortKeyName = long(256); }, code: 'KEY_ATTRIBUTE_NAME_INVALID', where: 'index GSI1', shows: '(256 characters)' },
  { title: 'partition key name a number', manifest: (m) => { m.globalIndexes.GSI1.partitionKeyName = 5; }, code: 'KEY_ATTRIBUTE_NAME_INVALID', where: 'index GSI1', shows: 'the number 5' },
  { title: "GSI partition key named like the table's", manifest: (m) => { m.globalIndexes.GSI1.partitionKeyName = 'PK'; }, code: 'KEY_ATTRIBUTE_REUSED', where: 'index GSI1', shows: 'already a key of the table' },
  { title: "GSI sort key named like an LSI's sort key: the GSI is blamed", manifest: (m) => { m.globalIndexes.GSI2.sortKeyName = 'LSI1SK'; }, code: 'KEY_ATTRIBUTE_REUSED', where: 'index GSI2', shows: "'LSI1SK' is already a key of LSI LSI1" },
  { title: "GSI partition key named like another GSI's", manifest: (m) => { m.globalIndexes.GSI2.partitionKeyName = 'GSI1PK'; }, code: 'KEY_ATTRIBUTE_REUSED', where: 'index GSI2', shows: 'already a key of index GSI1' },
  { title: 'GSI partition key named like the type attribute: the GSI is blamed', manifest: (m) => { m.globalIndexes.GSI1.partitionKeyName = 'Type'; }, code: 'KEY_ATTRIBUTE_CLASHES_TYPE', where: 'index GSI1', shows: "'Type' is the type attribute" },
  { title: 'GSI sort key named like a custom type attribute', manifest: (m) => { m.typeAttribute = 'kind'; m.globalIndexes.GSI2.sortKeyName = 'kind'; }, code: 'KEY_ATTRIBUTE_CLASHES_TYPE', where: 'index GSI2', shows: "'kind'" },
  { title: "type attribute named like the table's sort key", manifest: (m) => { m.typeAttribute = 'SK'; }, code: 'TYPE_ATTRIBUTE_CLASH', where: 'manifest', shows: "'SK' is also a key attribute (of the table)" },
  { title: "type attribute named like a GSI's default key", manifest: (m) => { m.typeAttribute = 'GSI1PK'; }, code: 'TYPE_ATTRIBUTE_CLASH', where: 'manifest', shows: "'GSI1PK'" },
  { title: 'type attribute empty', manifest: (m) => { m.typeAttribute = ''; }, code: 'TYPE_ATTRIBUTE_INVALID', where: 'manifest', shows: 'typeAttribute ""' },
  { title: 'type attribute a number', manifest: (m) => { m.typeAttribute = 5; }, code: 'TYPE_ATTRIBUTE_INVALID', where: 'manifest', shows: '`typeAttribute` is the number 5' },
  { title: "hasSortKey 'false' as a string", manifest: (m) => { m.globalIndexes.GSI1.hasSortKey = 'false'; }, code: 'PROPERTY_TYPE_INVALID', where: 'index GSI1', shows: '`hasSortKey` is the string "false", not a boolean' },
  { title: 'hasSortKey 0', manifest: (m) => { m.globalIndexes.GSI1.hasSortKey = 0; }, code: 'PROPERTY_TYPE_INVALID', where: 'index GSI1', shows: 'the number 0' },
];

const attr = (name: string, change: Loose) => (m: Loose) => { Object.assign(m.entities.Order.attributes[name], change); };
const sharding = (value: Loose) => (m: Loose) => { m.globalIndexes.GSI2.sharding = value; };
const pattern = (change: Loose) => (m: Loose) => { Object.assign(m.accessPatterns.ordersForCustomer, change); };

const numbers: InvalidCase[] = [
  ...[NaN, -1, 1.5, Infinity, 1e9, '20'].map((v): InvalidCase => ({
    title: `typicalSizeBytes ${String(v)}`, manifest: attr('amount', { typicalSizeBytes: v }), code: 'SIZE_INVALID', where: 'entity Order, attribute amount', shows: `\`typicalSizeBytes\` is the ${typeof v} ${typeof v === 'string' ? `"${v}"` : String(v)}`,
  })),
  ...[NaN, 0, 500_000, -Infinity].map((v): InvalidCase => ({
    title: `typicalItemSizeBytes ${v}`, manifest: (m) => { m.entities.Order.typicalItemSizeBytes = v; }, code: 'SIZE_INVALID', where: 'entity Order', shows: `\`typicalItemSizeBytes\` is the number ${v}`,
  })),
  ...[NaN, Infinity, -2, 2.5, 1000, '4'].map((v): InvalidCase => ({
    title: `shardCount ${String(v)}`, manifest: sharding({ shardCount: v }), code: 'SHARD_COUNT_INVALID', where: 'index GSI2', shows: `\`sharding.shardCount\` is the ${typeof v} ${typeof v === 'string' ? `"${v}"` : String(v)}, not a whole number from 1 to 100`,
  })),
  ...[NaN, 0, -Infinity, 1e12].map((v): InvalidCase => ({
    title: `peakWritesPerSecond ${v}`, manifest: sharding({ peakWritesPerSecond: v }), code: 'PEAK_WRITES_INVALID', where: 'index GSI2', shows: `\`sharding.peakWritesPerSecond\` is the number ${v}`,
  })),
  { title: 'a peak that needs more than 100 shards', manifest: sharding({ peakWritesPerSecond: 1e6 }), code: 'SHARD_COUNT_INVALID', where: 'index GSI2', shows: 'needs 1250 shards' },
  { title: 'previousShardCounts holding NaN', manifest: sharding({ shardCount: 2, previousShardCounts: [NaN] }), code: 'PREVIOUS_SHARD_COUNT_INVALID', where: 'index GSI2', shows: '`sharding.previousShardCounts[0]` is the number NaN' },
  { title: 'previousShardCounts holding 2.5', manifest: sharding({ shardCount: 2, previousShardCounts: [1, 2.5] }), code: 'PREVIOUS_SHARD_COUNT_INVALID', where: 'index GSI2', shows: '[1]` is the number 2.5' },
  { title: 'previousShardCounts a string', manifest: sharding({ shardCount: 2, previousShardCounts: '3' }), code: 'PROPERTY_TYPE_INVALID', where: 'index GSI2', shows: 'the string "3", not a list' },
  ...[NaN, -1, Infinity, '10'].map((v): InvalidCase => ({
    title: `readsPerSecond ${String(v)}`, manifest: pattern({ readsPerSecond: v }), code: 'RATE_INVALID', where: 'pattern ordersForCustomer', shows: `\`readsPerSecond\` is the ${typeof v} ${typeof v === 'string' ? `"${v}"` : String(v)}`,
  })),
  { title: 'GSI readCapacity NaN', manifest: (m) => { m.globalIndexes.GSI1.readCapacity = NaN; }, props: provisioned(), code: 'CAPACITY_INVALID', where: 'index GSI1', shows: '`readCapacity` is the number NaN' },
  { title: 'GSI writeCapacity 0.5', manifest: (m) => { m.globalIndexes.GSI1.writeCapacity = 0.5; }, props: provisioned(), code: 'CAPACITY_INVALID', where: 'index GSI1', shows: 'the number 0.5' },
  { title: 'GSI writeCapacity absurd', manifest: (m) => { m.globalIndexes.GSI1.writeCapacity = 1e7; }, props: provisioned(), code: 'CAPACITY_INVALID', where: 'index GSI1', shows: 'the number 10000000, not a whole number of capacity units from 1 to 1000000' },
  { title: 'entity writesPerSecond NaN', manifest: (m) => { m.entities.Order.writesPerSecond = NaN; }, code: 'RATE_INVALID', where: 'entity Order', shows: '`writesPerSecond` is the number NaN' },
  { title: 'maxItemsPerPartition 0', manifest: (m) => { m.entities.Order.maxItemsPerPartition = 0; }, code: 'MAX_ITEMS_INVALID', where: 'entity Order', shows: '`maxItemsPerPartition` is the number 0' },
  { title: 'distinctValues 1.5', manifest: attr('status', { distinctValues: 1.5 }), code: 'DISTINCT_VALUES_INVALID', where: 'entity Order, attribute status', shows: 'the number 1.5' },
  { title: 'billing read capacity NaN', props: provisioned(Capacity.fixed(NaN)), code: 'CAPACITY_INVALID', where: 'SingleTable props', shows: "billing's readCapacity is the number NaN" },
  { title: 'billing write capacity Infinity', props: provisioned(undefined, Capacity.autoscaled({ maxCapacity: Infinity })), code: 'CAPACITY_INVALID', where: 'SingleTable props', shows: "billing's writeCapacity.maxCapacity is the number Infinity" },
  { title: 'billing write capacity -5', props: provisioned(undefined, Capacity.autoscaled({ minCapacity: -5, maxCapacity: 5 })), code: 'CAPACITY_INVALID', where: 'SingleTable props', shows: "billing's writeCapacity.minCapacity is the number -5" },
  { title: 'billing read capacity 2.5', props: provisioned(Capacity.autoscaled({ maxCapacity: 2.5 })), code: 'CAPACITY_INVALID', where: 'SingleTable props', shows: "billing's readCapacity.maxCapacity is the number 2.5" },
  { title: 'billing read capacity absurd', props: provisioned(Capacity.fixed(1e9)), code: 'CAPACITY_INVALID', where: 'SingleTable props', shows: 'the number 1000000000' },
  { title: 'billing target utilization NaN', props: provisioned(undefined, Capacity.autoscaled({ maxCapacity: 5, targetUtilizationPercent: NaN })), code: 'CAPACITY_INVALID', where: 'SingleTable props', shows: "billing's writeCapacity.targetUtilizationPercent is the number NaN, not a whole number from 20 to 90" },
  { title: 'billing write capacity fixed', props: provisioned(undefined, Capacity.fixed(5)), code: 'CAPACITY_INVALID', where: 'SingleTable props', shows: "billing's writeCapacity is Capacity.fixed" },
];

const builtInNames: InvalidCase[] = [
  { title: 'an entity named __proto__ (as JSON holds it)', manifest: (m) => { setOwn(m.entities, '__proto__', m.entities.Customer); delete m.entities.Customer; }, code: 'ENTITY_NAME_INVALID', where: 'entity __proto__', shows: "'__proto__' cannot be a name" },
  {
    title: 'an entities object literal with a __proto__ key, which JavaScript makes the prototype',
    manifest: (m) => { m.entities = { __proto__: { Extra: m.entities.Customer }, ...m.entities }; },
    code: 'MANIFEST_SHAPE',
    where: 'manifest',
    shows: 'has a prototype other than Object',
    skip: ['cli'],
  },
  { title: 'entities given as a Map', manifest: (m) => { m.entities = new Map(Object.entries(m.entities)); }, code: 'MANIFEST_SHAPE', where: 'manifest', shows: 'has a prototype other than Object', skip: ['cli'] },
  { title: 'an attribute named __proto__', manifest: (m) => { setOwn(m.entities.Order.attributes, '__proto__', { type: 'STRING' }); }, code: 'ATTRIBUTE_NAME_INVALID', where: 'entity Order, attribute __proto__', shows: "'__proto__' cannot be a name" },
  { title: 'a pattern named __proto__', manifest: (m) => { setOwn(m.accessPatterns, '__proto__', { entities: ['Order'] }); }, code: 'PATTERN_NAME_INVALID', where: 'pattern __proto__', shows: "'__proto__'" },
  { title: 'a GSI named __proto__', manifest: (m) => { setOwn(m.globalIndexes, '__proto__', {}); }, code: 'INDEX_NAME_INVALID', where: 'index __proto__', shows: "'__proto__' cannot be a name" },
  { title: 'a pattern returning entity toString', manifest: pattern({ entities: ['toString'] }), code: 'PATTERN_ENTITY_UNKNOWN', where: 'pattern ordersForCustomer', shows: "entity 'toString', which is not declared" },
  { title: 'a pattern returning entity constructor', manifest: pattern({ entities: ['constructor'] }), code: 'PATTERN_ENTITY_UNKNOWN', where: 'pattern ordersForCustomer', shows: "'constructor'" },
  { title: 'a pattern returning entity __proto__', manifest: pattern({ entities: ['__proto__'] }), code: 'PATTERN_ENTITY_UNKNOWN', where: 'pattern ordersForCustomer', shows: "'__proto__'" },
  { title: 'a pattern on index toString', manifest: pattern({ index: 'toString' }), code: 'PATTERN_INDEX_UNKNOWN', where: 'pattern ordersForCustomer', shows: "index 'toString', which does not exist" },
  { title: 'a pattern on index hasOwnProperty', manifest: pattern({ index: 'hasOwnProperty' }), code: 'PATTERN_INDEX_UNKNOWN', where: 'pattern ordersForCustomer', shows: "'hasOwnProperty'" },
  { title: 'an entity populating index toString', manifest: (m) => { m.entities.Order.indexes.toString = { pk: 'X#{orderId}', sk: 'X#{orderId}' }; }, code: 'ENTITY_INDEX_UNKNOWN', where: 'entity Order, index toString', shows: "'toString', which is not declared" },
  { title: 'a template naming undeclared attribute constructor', manifest: (m) => { m.entities.Order.sk = 'ORDER#{constructor}'; }, code: 'TEMPLATE_INVALID', where: 'entity Order, table sk', shows: "undeclared attribute 'constructor'" },
  { title: 'shardAttribute valueOf, which no entity declares', manifest: sharding({ shardCount: 2, strategy: 'ATTRIBUTE', shardAttribute: 'valueOf' }), code: 'SHARD_ATTRIBUTE_INVALID', where: 'index GSI2, entity Order', shows: "'valueOf' is not declared" },
  { title: 'pattern attributes naming toString', manifest: pattern({ attributes: ['toString'] }), code: 'PATTERN_ATTRIBUTE_UNDECLARED', where: 'pattern ordersForCustomer', shows: "'toString'" },
  { title: 'TTL attribute toString', props: { timeToLiveAttribute: 'toString' }, code: 'TTL_ATTRIBUTE_UNDECLARED', where: 'SingleTable props', shows: "'toString' is not an attribute of any entity" },
  { title: 'TTL attribute __proto__', props: { timeToLiveAttribute: '__proto__' }, code: 'TTL_ATTRIBUTE_INVALID', where: 'SingleTable props', shows: "'__proto__' cannot be a name" },
];

const names: InvalidCase[] = [
  { title: 'an entity with an empty name', manifest: (m) => { m.entities[''] = m.entities.Customer; delete m.entities.Customer; }, code: 'ENTITY_NAME_INVALID', where: "entity ''", shows: 'the entity name is empty' },
  { title: 'an entity name of 300 bytes', manifest: (m) => { m.entities[long(300)] = m.entities.Customer; delete m.entities.Customer; }, code: 'ENTITY_NAME_INVALID', where: `entity ${long(300)}`, shows: 'is 300 bytes long' },
  { title: 'an attribute name of 256 UTF-8 bytes', manifest: (m) => { m.entities.Order.attributes[bytes256] = { type: 'STRING' }; }, code: 'ATTRIBUTE_NAME_INVALID', where: `entity Order, attribute ${bytes256}`, shows: 'is 256 bytes long' },
  { title: 'an attribute with an empty name', manifest: (m) => { m.entities.Order.attributes[''] = { type: 'STRING' }; }, code: 'ATTRIBUTE_NAME_INVALID', where: "entity Order, attribute ''", shows: 'is empty' },
  { title: 'a pattern with an empty name', manifest: (m) => { m.accessPatterns[''] = { entities: ['Order'] }; }, code: 'PATTERN_NAME_INVALID', where: "pattern ''", shows: 'is empty' },
  { title: 'a GSI with an empty name', manifest: (m) => { m.globalIndexes[''] = {}; }, code: 'INDEX_NAME_INVALID', where: 'index ', shows: 'name ""' },
  { title: 'TTL attribute empty', props: { timeToLiveAttribute: '' }, code: 'TTL_ATTRIBUTE_INVALID', where: 'SingleTable props', shows: '`timeToLiveAttribute` is empty' },
  { title: 'TTL attribute of 256 bytes', props: { timeToLiveAttribute: bytes256 }, code: 'TTL_ATTRIBUTE_INVALID', where: 'SingleTable props', shows: 'is 256 bytes long' },
  { title: 'TTL attribute a number', props: { timeToLiveAttribute: 5 }, code: 'TTL_ATTRIBUTE_INVALID', where: 'SingleTable props', shows: 'the number 5' },
];

const enums: InvalidCase[] = [
  { title: 'attribute type in lower case', manifest: attr('amount', { type: 'number' }), code: 'ATTRIBUTE_TYPE_INVALID', where: 'entity Order, attribute amount', shows: '`type` is the string "number", not an AttributeKind', suggests: 'NUMBER' },
  { title: 'attribute type missing', manifest: (m) => { m.entities.Order.attributes.amount = {}; }, code: 'ATTRIBUTE_TYPE_INVALID', where: 'entity Order, attribute amount', shows: '`type` is missing' },
  { title: 'sortKeyCondition in lower case', manifest: pattern({ sortKeyCondition: 'begins_with' }), code: 'PATTERN_CONDITION_INVALID', where: 'pattern ordersForCustomer', shows: '"begins_with"' },
  { title: 'sortKeyCondition not a SortKeyCondition', manifest: pattern({ sortKeyCondition: 'STARTS_WITH' }), code: 'PATTERN_CONDITION_INVALID', where: 'pattern ordersForCustomer', shows: '"STARTS_WITH"' },
  { title: 'order abbreviated', manifest: pattern({ order: 'asc' }), code: 'PATTERN_ORDER_INVALID', where: 'pattern ordersForCustomer', shows: '`order` is the string "asc", not a SortOrder' },
  { title: 'order a number', manifest: pattern({ order: 1 }), code: 'PATTERN_ORDER_INVALID', where: 'pattern ordersForCustomer', shows: 'the number 1' },
  { title: 'shard strategy in lower case', manifest: sharding({ shardCount: 2, strategy: 'random' }), code: 'SHARD_STRATEGY_INVALID', where: 'index GSI2', shows: '"random"' },
  { title: 'previous strategy not a ShardStrategy', manifest: sharding({ shardCount: 2, previousStrategies: [{ strategy: 'HASH' }] }), code: 'PREVIOUS_SHARD_STRATEGY_INVALID', where: 'index GSI2', shows: '"HASH"' },
  { title: 'billing as a mode name', props: { billing: 'PROVISIONED' }, code: 'BILLING_INVALID', where: 'SingleTable props', shows: 'billing is the string "PROVISIONED", not a Billing' },
  { title: 'billing as plain data', props: { billing: { mode: 'PAY_PER_REQUEST' } }, code: 'BILLING_INVALID', where: 'SingleTable props', shows: 'billing is an object, not a Billing' },
  { title: 'encryption as plain data', props: { encryption: { type: 'AWS_MANAGED' } }, code: 'ENCRYPTION_INVALID', where: 'SingleTable props', shows: 'encryption is an object, not a TableEncryptionV2' },
  { title: 'stream view type not a StreamViewType', props: { dynamoStream: 'NEW_IMAGE_ONLY' }, code: 'STREAM_VIEW_TYPE_INVALID', where: 'SingleTable props', shows: '"NEW_IMAGE_ONLY"' },
  { title: 'stream true', props: { dynamoStream: true }, code: 'STREAM_VIEW_TYPE_INVALID', where: 'SingleTable props', shows: 'the boolean true' },
  { title: 'point-in-time recovery as a boolean', props: { pointInTimeRecoverySpecification: true }, code: 'PROPERTY_TYPE_INVALID', where: 'SingleTable props', shows: '`pointInTimeRecoverySpecification` is the boolean true, not an object' },
  { title: 'removal policy not a RemovalPolicy', props: { removalPolicy: 'delete' }, code: 'REMOVAL_POLICY_INVALID', where: 'SingleTable props', shows: '"delete"' },
];

const jsonTypes: InvalidCase[] = [
  { title: 'entities a list', manifest: (m) => { m.entities = [m.entities.Order]; }, code: 'MANIFEST_SHAPE', where: 'manifest', shows: '`entities` is a list' },
  { title: 'entities a string', manifest: (m) => { m.entities = 'Order'; }, code: 'MANIFEST_SHAPE', where: 'manifest', shows: '`entities` is the string "Order"' },
  { title: 'an entity a string', manifest: (m) => { m.entities.Customer = 'Customer'; }, code: 'PROPERTY_TYPE_INVALID', where: 'entity Customer', shows: 'is the string "Customer", not an object' },
  { title: 'an entity null', manifest: (m) => { m.entities.Customer = null; }, code: 'PROPERTY_TYPE_INVALID', where: 'entity Customer', shows: 'is null, not an object' },
  { title: 'attributes a list', manifest: (m) => { m.entities.Order.attributes = [{ type: 'STRING' }]; }, code: 'PROPERTY_TYPE_INVALID', where: 'entity Order', shows: '`attributes` is a list' },
  { title: 'an attribute given as its type alone', manifest: (m) => { m.entities.Order.attributes.amount = 'NUMBER'; }, code: 'PROPERTY_TYPE_INVALID', where: 'entity Order, attribute amount', shows: 'the string "NUMBER", not an object' },
  { title: "required 'false' as a string", manifest: attr('amount', { required: 'false' }), code: 'PROPERTY_TYPE_INVALID', where: 'entity Order, attribute amount', shows: '`required` is the string "false", not a boolean' },
  { title: 'required 1', manifest: attr('amount', { required: 1 }), code: 'PROPERTY_TYPE_INVALID', where: 'entity Order, attribute amount', shows: 'the number 1' },
  { title: 'pk a number', manifest: (m) => { m.entities.Order.pk = 5; }, code: 'TEMPLATE_INVALID', where: 'entity Order', shows: '`pk` is the number 5, not a string' },
  { title: 'sk null', manifest: (m) => { m.entities.Order.sk = null; }, code: 'TEMPLATE_INVALID', where: 'entity Order', shows: '`sk` is null' },
  { title: 'pk missing', manifest: (m) => { delete m.entities.Order.pk; }, code: 'TABLE_KEY_MISSING', where: 'entity Order', shows: '`pk` is missing' },
  { title: 'entity indexes a list', manifest: (m) => { m.entities.Order.indexes = ['GSI1']; }, code: 'PROPERTY_TYPE_INVALID', where: 'entity Order', shows: '`indexes` is a list' },
  { title: "an entity's index templates a string", manifest: (m) => { m.entities.Order.indexes.GSI1 = 'ORDER#{orderId}'; }, code: 'PROPERTY_TYPE_INVALID', where: 'entity Order, index GSI1', shows: 'not an object' },
  { title: 'an index pk a number', manifest: (m) => { m.entities.Order.indexes.GSI1.pk = 5; }, code: 'TEMPLATE_INVALID', where: 'entity Order, index GSI1', shows: '`pk` is the number 5' },
  { title: 'globalIndexes a list', manifest: (m) => { m.globalIndexes = ['GSI1']; }, code: 'PROPERTY_TYPE_INVALID', where: 'manifest', shows: '`globalIndexes` is a list' },
  { title: 'a GSI null', manifest: (m) => { m.globalIndexes.GSI1 = null; }, code: 'PROPERTY_TYPE_INVALID', where: 'index GSI1', shows: 'is null' },
  { title: 'localIndexes a boolean', manifest: (m) => { m.localIndexes = false; }, code: 'PROPERTY_TYPE_INVALID', where: 'manifest', shows: '`localIndexes` is the boolean false, not an object' },
  { title: "localIndexes.enabled 'false' as a string", manifest: (m) => { m.localIndexes = { enabled: 'false' }; }, code: 'PROPERTY_TYPE_INVALID', where: 'manifest', shows: '`localIndexes.enabled` is the string "false", not a boolean' },
  { title: 'accessPatterns a list', manifest: (m) => { m.accessPatterns = []; }, code: 'PROPERTY_TYPE_INVALID', where: 'manifest', shows: '`accessPatterns` is a list' },
  { title: 'a pattern null', manifest: (m) => { m.accessPatterns.ordersForCustomer = null; }, code: 'PROPERTY_TYPE_INVALID', where: 'pattern ordersForCustomer', shows: 'is null' },
  { title: 'pattern entities a string: one finding, not one per character', manifest: pattern({ entities: 'Order' }), code: 'PROPERTY_TYPE_INVALID', where: 'pattern ordersForCustomer', shows: '`entities` is the string "Order", not a list' },
  { title: 'pattern entities missing', manifest: (m) => { delete m.accessPatterns.ordersForCustomer.entities; }, code: 'PATTERN_NO_ENTITY', where: 'pattern ordersForCustomer', shows: '`entities` is missing' },
  { title: 'pattern entities empty', manifest: pattern({ entities: [] }), code: 'PATTERN_NO_ENTITY', where: 'pattern ordersForCustomer', shows: 'names no entity' },
  { title: 'pattern entity a number', manifest: pattern({ entities: [5] }), code: 'PATTERN_ENTITY_UNKNOWN', where: 'pattern ordersForCustomer', shows: '`entities[0]` is the number 5' },
  { title: 'pattern index a number', manifest: pattern({ index: 1 }), code: 'PATTERN_INDEX_UNKNOWN', where: 'pattern ordersForCustomer', shows: '`index` is the number 1' },
  { title: "consistentRead 'true' as a string", manifest: pattern({ consistentRead: 'true' }), code: 'PROPERTY_TYPE_INVALID', where: 'pattern ordersForCustomer', shows: '`consistentRead` is the string "true", not a boolean' },
  { title: 'pattern attributes a string', manifest: pattern({ attributes: 'status' }), code: 'PROPERTY_TYPE_INVALID', where: 'pattern ordersForCustomer', shows: '`attributes` is the string "status", not a list' },
  { title: 'sharding a string', manifest: sharding('yes' as never), code: 'PROPERTY_TYPE_INVALID', where: 'index GSI2', shows: '`sharding` is the string "yes", not an object' },
  { title: 'description a number', manifest: (m) => { m.entities.Order.description = 5; }, code: 'PROPERTY_TYPE_INVALID', where: 'entity Order', shows: '`description` is the number 5' },
  { title: 'typeValue a number', manifest: (m) => { m.entities.Order.typeValue = 5; }, code: 'PROPERTY_TYPE_INVALID', where: 'entity Order', shows: '`typeValue` is the number 5' },
  { title: 'delimiter a number', manifest: (m) => { m.delimiter = 5; }, code: 'DELIMITER_INVALID', where: 'manifest', shows: '`delimiter` is the number 5' },
  { title: 'delimiter of two characters', manifest: (m) => { m.delimiter = '::'; }, code: 'DELIMITER_INVALID', where: 'manifest', shows: 'delimiter "::"' },
  { title: 'a misspelt property', manifest: (m) => { m.globalIndexes.GSI1.projecton = 'KEYS_ONLY'; }, code: 'PROPERTY_UNKNOWN', where: 'index GSI1', shows: '`projecton` is not a property here', suggests: 'projection' },
  { title: 'props deletionProtection as a string', props: { deletionProtection: 'false' }, code: 'PROPERTY_TYPE_INVALID', where: 'SingleTable props', shows: '`deletionProtection` is the string "false", not a boolean' },
  { title: 'props pointInTimeRecoveryEnabled as a string', props: { pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: 'no' } }, code: 'PROPERTY_TYPE_INVALID', where: 'SingleTable props', shows: '`pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled` is the string "no"' },
  { title: 'a recovery period with recovery off', props: { pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: false, recoveryPeriodInDays: 7 } }, code: 'POINT_IN_TIME_RECOVERY_INVALID', where: 'SingleTable props', shows: 'pointInTimeRecoverySpecification.recoveryPeriodInDays is 7 but point-in-time recovery is off' },
  { title: 'props tableName a number', props: { tableName: 5 }, code: 'TABLE_NAME_INVALID', where: 'SingleTable props', shows: '`tableName` is the number 5' },
];

const templates: InvalidCase[] = [
  { title: 'a table pk whose literal text alone is 2049 bytes', manifest: (m) => { m.entities.Customer.pk = `${long(2048)}#{username}`; }, code: 'TEMPLATE_TOO_LONG', where: 'entity Customer, table pk', shows: '2049 bytes of literal text' },
  { title: 'a table sk whose literal text alone is 1025 bytes', manifest: (m) => { m.entities.Order.sk = `${long(1024)}#{orderId}`; }, code: 'TEMPLATE_TOO_LONG', where: 'entity Order, table sk', shows: '1025 bytes' },
  { title: 'a GSI sk of 513 characters but 1025 UTF-8 bytes', manifest: (m) => { m.entities.Order.indexes.GSI1.sk = `${'é'.repeat(512)}#{orderId}`; }, code: 'TEMPLATE_TOO_LONG', where: 'entity Order, index GSI1 sk', shows: '1025 bytes' },
  { title: 'an LSI sk too long', manifest: (m) => { m.entities.Order.indexes.LSI1.sk = `${long(1030)}#{createdAt}`; }, code: 'TEMPLATE_TOO_LONG', where: 'entity Order, index LSI1 sk', shows: '1031 bytes' },
  { title: 'a GSI pk too long', manifest: (m) => { m.entities.Order.indexes.GSI2.pk = `${long(2100)}#{status}`; }, code: 'TEMPLATE_TOO_LONG', where: 'entity Order, index GSI2 pk', shows: '2101 bytes' },
];

const ttl: InvalidCase[] = [
  { title: 'TTL attribute no entity declares', props: { timeToLiveAttribute: 'expiresAt' }, code: 'TTL_ATTRIBUTE_UNDECLARED', where: 'SingleTable props', shows: "'expiresAt' is not an attribute of any entity" },
  { title: 'TTL attribute a DATE', props: { timeToLiveAttribute: 'createdAt' }, code: 'TTL_ATTRIBUTE_NOT_NUMBER', where: 'entity Order, attribute createdAt', shows: 'has type DATE' },
  { title: 'TTL attribute a STRING', props: { timeToLiveAttribute: 'status' }, code: 'TTL_ATTRIBUTE_NOT_NUMBER', where: 'entity Order, attribute status', shows: 'has type STRING' },
  { title: 'TTL attribute the table sort key', props: { timeToLiveAttribute: 'SK' }, code: 'TTL_ATTRIBUTE_CLASH', where: 'SingleTable props', shows: "'SK' is a key attribute" },
  { title: 'TTL attribute the type attribute', props: { timeToLiveAttribute: 'Type' }, code: 'TTL_ATTRIBUTE_CLASH', where: 'SingleTable props', shows: 'the type attribute' },
];

/** Every invalid case. */
export const INVALID_CASES: InvalidCase[] = [
  ...projection, ...keyAttributes, ...numbers, ...builtInNames, ...names, ...enums, ...jsonTypes, ...templates, ...ttl,
];
