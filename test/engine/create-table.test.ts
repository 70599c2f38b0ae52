// CreateTable input from synthesized templates: TableV2 (GlobalTable) on demand and provisioned,
// and the classic Table resource. Compared with the compiled model, not with literals, where the
// model is the source of truth.
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Billing, Capacity, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { manifest } from '../../examples/manifest';
import { SingleTable } from '../../lib/construct/single-table';
import { createTableInputFromModel, createTableInputFromTemplate } from '../../lib/engine/create-table';
import { compileManifest } from '../../lib/manifest/compile';
import { attributeKeyedManifest } from '../fixtures/attribute-keyed';
import { edited } from '../fixtures/valid-manifest';
import { synthesizedTemplate } from '../support/engine';

const model = compileManifest(manifest).model;

test('a SingleTable template maps to the model: keys, every GSI and LSI with its projection, on-demand billing', () => {
  const input = createTableInputFromTemplate(synthesizedTemplate() as never, 'local');
  expect(input.TableName).toBe('local');
  expect(input.BillingMode).toBe('PAY_PER_REQUEST');
  expect(input.ProvisionedThroughput).toBeUndefined();
  expect(input.KeySchema).toEqual([{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }]);
  expect(input.AttributeDefinitions!.map((a) => a.AttributeName).sort()).toEqual([...model.keyAttributes].sort());
  const indexes = [...input.GlobalSecondaryIndexes!, ...input.LocalSecondaryIndexes!];
  const expected = Object.values(model.indexes).filter((i) => i.type !== 'TABLE');
  expect(indexes.map((i) => i.IndexName).sort()).toEqual(expected.map((i) => i.name).sort());
  for (const index of expected) {
    const mapped = indexes.find((i) => i.IndexName === index.name)!;
    expect(mapped.KeySchema).toEqual([{ AttributeName: index.partitionKey, KeyType: 'HASH' }, { AttributeName: index.sortKey, KeyType: 'RANGE' }]);
    expect(mapped.Projection!.ProjectionType).toBe(index.projection);
    expect(mapped.Projection!.NonKeyAttributes ?? []).toEqual(index.nonKeyAttributes);
  }
});

test('provisioned TableV2: read capacity from the replica, write capacity from its autoscaling minimum', () => {
  const stack = new Stack(new App(), 'P');
  new SingleTable(stack, 'Table', { manifest, billing: Billing.provisioned({ readCapacity: Capacity.fixed(5), writeCapacity: Capacity.autoscaled({ minCapacity: 7, maxCapacity: 7 }) }) });
  const input = createTableInputFromTemplate(Template.fromStack(stack).toJSON() as never, 'p');
  expect(input.BillingMode).toBe('PROVISIONED');
  expect(input.ProvisionedThroughput).toEqual({ ReadCapacityUnits: 5, WriteCapacityUnits: 7 });
  for (const gsi of input.GlobalSecondaryIndexes!) expect(gsi.ProvisionedThroughput).toEqual({ ReadCapacityUnits: 5, WriteCapacityUnits: 7 });
});

test('the classic AWS::DynamoDB::Table resource maps too', () => {
  const stack = new Stack(new App(), 'C');
  const table = new Table(stack, 'Classic', {
    partitionKey: { name: 'id', type: AttributeType.STRING },
    sortKey: { name: 'n', type: AttributeType.NUMBER },
    readCapacity: 3,
    writeCapacity: 4,
  });
  table.addGlobalSecondaryIndex({ indexName: 'byX', partitionKey: { name: 'x', type: AttributeType.STRING }, projectionType: ProjectionType.KEYS_ONLY });
  const input = createTableInputFromTemplate(Template.fromStack(stack).toJSON() as never, 'c');
  expect(input).toMatchObject({
    BillingMode: 'PROVISIONED',
    ProvisionedThroughput: { ReadCapacityUnits: 3, WriteCapacityUnits: 4 },
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }, { AttributeName: 'n', KeyType: 'RANGE' }],
    GlobalSecondaryIndexes: [{ IndexName: 'byX', KeySchema: [{ AttributeName: 'x', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } }],
  });
  expect(input.AttributeDefinitions).toEqual(expect.arrayContaining([{ AttributeName: 'n', AttributeType: 'N' }]));
});

test('a template without exactly one table asks for the logical id', () => {
  expect(() => createTableInputFromTemplate({ Resources: {} }, 't')).toThrow(/exactly one DynamoDB table.*found none/);
  const two = { Resources: { A: { Type: 'AWS::DynamoDB::Table', Properties: {} }, B: { Type: 'AWS::DynamoDB::GlobalTable', Properties: {} } } };
  expect(() => createTableInputFromTemplate(two, 't')).toThrow(/found A, B; pass the logical id/);
  expect(createTableInputFromTemplate(two, 't', 'B').BillingMode).toBe('PAY_PER_REQUEST');
});

test('the stream the template declares, and none when it declares none', () => {
  const stack = new Stack(new App(), 'S');
  new SingleTable(stack, 'Table', { manifest, dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES });
  const input = createTableInputFromTemplate(Template.fromStack(stack).toJSON() as never, 's');
  expect(input.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
  expect(createTableInputFromTemplate(synthesizedTemplate() as never, 'n').StreamSpecification).toBeUndefined();
});

test.each([
  ['the example manifest', manifest],
  ['multi-attribute GSI keys of NUMBER and DATE attributes', attributeKeyedManifest()],
  ['an INCLUDE projection, local indexes turned off', edited((m) => { m.localIndexes = { enabled: false }; delete m.entities.Order.indexes!.LSI1; delete m.accessPatterns!.ordersByDate; })],
])('without an app, the table is the one the construct builds from the manifest: %s', (_, source) => {
  const stack = new Stack(new App(), 'Built');
  new SingleTable(stack, 'Table', { manifest: source });
  const built = createTableInputFromTemplate(Template.fromStack(stack).toJSON(), 'local');
  const fromModel = createTableInputFromModel(compileManifest(source).model, 'local');
  const sorted = (input: typeof built) => ({
    ...input,
    AttributeDefinitions: [...input.AttributeDefinitions!].sort((a, b) => a.AttributeName!.localeCompare(b.AttributeName!)),
  });
  expect(sorted(fromModel)).toEqual(sorted(built));
});
