// Manifests and props at the edges of what is allowed: every path must accept them, and names that
// are also built-in object properties must mean exactly what they name.
import { Billing, Capacity } from 'aws-cdk-lib/aws-dynamodb';
import { Loose, orderAttributes, ValidCase } from './case';

const noLocalIndexes = (m: Loose) => {
  m.localIndexes = { enabled: false };
  delete m.entities.Order.indexes.LSI1;
  delete m.accessPatterns.ordersByDate;
};

/** Renames an entity everywhere it is named. */
const renameEntity = (m: Loose, from: string, to: string) => {
  m.entities[to] = m.entities[from];
  delete m.entities[from];
  for (const p of Object.values(m.accessPatterns) as Loose[]) p.entities = p.entities.map((e: string) => (e === from ? to : e));
};

export const VALID_CASES: ValidCase[] = [
  {
    title: 'a GSI named like an LSI slot when local indexes are off',
    manifest: (m) => {
      noLocalIndexes(m);
      m.globalIndexes.LSI1 = {};
      m.entities.Order.indexes.LSI1 = { pk: 'DAY#{createdAt}', sk: 'ORDER#{orderId}' };
      m.accessPatterns.ordersOfDay = { entities: ['Order'], index: 'LSI1' };
    },
    then: (model) => expect([model.indexes.LSI1.type, model.indexes.LSI1.partitionKey]).toEqual(['GSI', 'LSI1PK']),
  },
  {
    title: 'an entity named constructor',
    manifest: (m) => renameEntity(m, 'Customer', 'constructor'),
    then: (model) => expect(model.entities.constructor.typeValue).toBe('constructor'),
  },
  {
    title: 'an entity named toString whose typeValue is hasOwnProperty',
    manifest: (m) => { renameEntity(m, 'Order', 'toString'); m.entities.toString.typeValue = 'hasOwnProperty'; },
    then: (model) => expect(model.entityByType.hasOwnProperty).toBe('toString'),
  },
  {
    title: 'an attribute named constructor in a key template',
    manifest: (m) => { m.entities.Order.attributes.constructor = { type: 'STRING' }; m.entities.Order.indexes.GSI1.sk = 'BY#{constructor}'; },
    then: (model) => expect(model.entities.Order.keys.GSI1.sk.attributes).toEqual(['constructor']),
  },
  {
    title: 'a GSI named constructor, populated and queried',
    manifest: (m) => {
      m.globalIndexes.constructor = { projection: 'KEYS_ONLY' };
      m.entities.Customer.indexes.constructor = { pk: 'EMAIL#{email}', sk: 'C#{username}' };
      m.accessPatterns.byConstructor = { entities: ['Customer'], index: 'constructor' };
    },
    then: (model) => expect(model.patterns.byConstructor.index).toBe('constructor'),
  },
  {
    title: 'patterns named toString and valueOf',
    manifest: (m) => { m.accessPatterns.toString = { entities: ['Order'] }; m.accessPatterns.valueOf = { entities: ['Customer'], index: 'GSI1' }; },
    then: (model) => expect(Object.keys(model.patterns)).toEqual(expect.arrayContaining(['toString', 'valueOf'])),
  },
  { title: 'INCLUDE listing 19 attributes: 20 with the type attribute', manifest: (m) => { m.globalIndexes.GSI2.include = orderAttributes(m, 19); } },
  {
    title: 'exactly 100 projected attributes in all',
    manifest: (m) => {
      const names = orderAttributes(m, 19);
      m.globalIndexes.GSI2.include = names;
      for (let i = 3; i <= 6; i++) m.globalIndexes[`GSI${i}`] = { projection: 'INCLUDE', include: names };
    },
  },
  { title: 'an INCLUDE index without an include list', manifest: (m) => { delete m.globalIndexes.GSI2.include; } },
  { title: 'names outside ASCII', manifest: (m) => { renameEntity(m, 'Customer', 'Kündin'); m.entities.Order.attributes['größe'] = { type: 'NUMBER' }; } },
  { title: 'an attribute name of exactly 255 bytes', manifest: (m) => { m.entities.Order.attributes['é'.repeat(127) + 'x'] = { type: 'STRING' }; } },
  { title: 'a sort key template with 1000 bytes of literal text', manifest: (m) => { m.entities.Order.sk = `${'O'.repeat(999)}#{orderId}`; } },
  { title: 'the most shards, with an earlier count', manifest: (m) => { m.globalIndexes.GSI2.sharding = { shardCount: 100, previousShardCounts: [1] }; } },
  { title: 'sizes at the 400 KB item limit', manifest: (m) => { m.entities.Order.attributes.amount.typicalSizeBytes = 409_600; m.entities.Order.typicalItemSizeBytes = 409_600; } },
  { title: 'read rates of 0 and 0.5 per second', manifest: (m) => { m.accessPatterns.ordersForCustomer.readsPerSecond = 0; m.accessPatterns.orderById.readsPerSecond = 0.5; } },
  {
    title: 'a GSI without a sort key',
    manifest: (m) => {
      m.globalIndexes.GSI2.hasSortKey = false;
      delete m.entities.Order.indexes.GSI2.sk;
      m.accessPatterns.ordersByStatus = { entities: ['Order'], index: 'GSI2' };
    },
    then: (model) => expect(model.indexes.GSI2.sortKey).toBeUndefined(),
  },
  {
    title: 'a NUMBER TTL attribute declared by one entity only',
    manifest: (m) => { m.entities.Order.attributes.expiresAt = { type: 'NUMBER' }; },
    props: { timeToLiveAttribute: 'expiresAt' },
  },
  { title: 'provisioned capacity at its lowest, utilization at 20', props: { billing: Billing.provisioned({ readCapacity: Capacity.fixed(1), writeCapacity: Capacity.autoscaled({ minCapacity: 1, maxCapacity: 1, targetUtilizationPercent: 20 }) }) } },
  { title: 'utilization at 90, with write autoscaling', props: { billing: Billing.provisioned({ readCapacity: Capacity.fixed(5), writeCapacity: Capacity.autoscaled({ minCapacity: 5, maxCapacity: 50, targetUtilizationPercent: 90 }) }) } },
  {
    title: 'another delimiter and a custom type attribute',
    manifest: (m) => {
      m.delimiter = '!';
      m.typeAttribute = 'kind';
      for (const e of Object.values(m.entities) as Loose[]) {
        for (const keys of [e, ...Object.values(e.indexes ?? {})] as Loose[]) {
          for (const part of ['pk', 'sk']) if (typeof keys[part] === 'string') keys[part] = keys[part].replace(/#/g, '!');
        }
      }
    },
    then: (model) => expect([model.entities.Order.keys.table.sk.segments.length, model.typeAttribute]).toEqual([2, 'kind']),
  },
  {
    title: 'maps without a prototype, as some JSON readers build them',
    manifest: (m) => {
      const bare = (o: Loose) => Object.assign(Object.create(null), o);
      m.entities = bare(m.entities);
      m.globalIndexes = bare(m.globalIndexes);
      m.accessPatterns = bare(m.accessPatterns);
    },
  },
  { title: 'explicit GSI key attribute names', manifest: (m) => { Object.assign(m.globalIndexes.GSI2, { partitionKeyName: 'byStatusPK', sortKeyName: 'byStatusSK' }); } },
  { title: 'every stream, billing and removal option spelt out', props: { dynamoStream: 'NEW_AND_OLD_IMAGES', billing: Billing.onDemand(), removalPolicy: 'destroy', deletionProtection: false, pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 35 } } },
  { title: 'declared cardinality, rates and partition bounds', manifest: (m) => { m.entities.Order.attributes.status.distinctValues = 5; m.entities.Order.writesPerSecond = 10; m.entities.Order.maxItemsPerPartition = 1000; } },
  { title: 'descriptions everywhere', manifest: (m) => { m.entities.Order.description = 'An order'; m.globalIndexes.GSI1.description = 'By id'; m.accessPatterns.orderById.description = 'One order'; } },
];
