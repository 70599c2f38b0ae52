// The table SingleTable renders from the fixture manifest: keys, indexes, attribute definitions,
// the safe defaults and the options that change them.
import { RemovalPolicy } from 'aws-cdk-lib';
import { StreamViewType, TableEncryptionV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { synth } from './synth';
import { AttributeKind } from '../../lib/model/manifest';
import { edited } from '../fixtures/valid-manifest';

const keySchema = (pk: string, sk?: string) => [
  { AttributeName: pk, KeyType: 'HASH' },
  ...(sk ? [{ AttributeName: sk, KeyType: 'RANGE' }] : []),
];
const stringAttributes = (...names: string[]) => names.map((AttributeName) => ({ AttributeName, AttributeType: 'S' }));

describe('keys and indexes', () => {
  const { table, singleTable } = synth();

  test('string PK and SK', () => {
    expect(table.KeySchema).toEqual(keySchema('PK', 'SK'));
  });

  test('five LSIs, odd slots ALL and even slots KEYS_ONLY', () => {
    expect(table.LocalSecondaryIndexes).toEqual([1, 2, 3, 4, 5].map((n) => ({
      IndexName: `LSI${n}`,
      KeySchema: keySchema('PK', `LSI${n}SK`),
      Projection: { ProjectionType: n % 2 === 1 ? 'ALL' : 'KEYS_ONLY' },
    })));
  });

  test('exactly the declared GSIs; INCLUDE projects the listed attributes and the type attribute', () => {
    expect(table.GlobalSecondaryIndexes).toEqual([
      { IndexName: 'GSI1', KeySchema: keySchema('GSI1PK', 'GSI1SK'), Projection: { ProjectionType: 'ALL' } },
      {
        IndexName: 'GSI2',
        KeySchema: keySchema('GSI2PK', 'GSI2SK'),
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['orderId', 'status', 'Type'] },
      },
    ]);
  });

  test('attribute definitions for exactly the key attributes in use', () => {
    expect(table.AttributeDefinitions).toEqual(
      stringAttributes('PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'LSI1SK', 'LSI2SK', 'LSI3SK', 'LSI4SK', 'LSI5SK'),
    );
  });

  test('exposes the physical names and the compiled model', () => {
    expect(singleTable.partitionKeyName).toBe('PK');
    expect(singleTable.sortKeyName).toBe('SK');
    expect(singleTable.typeAttributeName).toBe('Type');
    expect(singleTable.globalIndexNames).toEqual(['GSI1', 'GSI2']);
    expect(singleTable.localIndexNames).toEqual(['LSI1', 'LSI2', 'LSI3', 'LSI4', 'LSI5']);
    expect(singleTable.indexKeys('GSI2')).toEqual({ partitionKey: 'GSI2PK', sortKey: 'GSI2SK', partitionKeys: ['GSI2PK'], sortKeys: ['GSI2SK'] });
    expect(singleTable.indexKeys('LSI4')).toEqual({ partitionKey: 'PK', sortKey: 'LSI4SK', partitionKeys: ['PK'], sortKeys: ['LSI4SK'] });
    expect(Object.keys(singleTable.model.patterns)).toEqual(['ordersForCustomer', 'orderById', 'ordersByStatus', 'ordersByDate']);
    expect(Object.isFrozen(singleTable.model)).toBe(true);
  });

  test('indexKeys names the indexes that exist when asked for one that does not', () => {
    expect(() => singleTable.indexKeys('GSI3')).toThrow("[INDEX_UNKNOWN] indexKeys: no index 'GSI3'. Fix: did you mean 'GSI1'? use one of GSI1, GSI2, LSI1, LSI2, LSI3, LSI4, LSI5");
    expect(() => singleTable.indexKeys('table')).toThrow("no index 'table'");
  });
});

describe('custom key names, a GSI without sort key, LSIs turned off', () => {
  const manifest = edited((m) => {
    m.localIndexes = { enabled: false };
    delete m.entities.Order.indexes!.LSI1;
    delete m.accessPatterns!.ordersByDate;
    m.globalIndexes!.GSI1 = { partitionKeyName: 'lookupKey', sortKeyName: 'lookupSort' };
    m.globalIndexes!.GSI2 = { hasSortKey: false, projection: 'KEYS_ONLY' as never };
    delete m.entities.Order.indexes!.GSI2.sk;
  });
  const { table, singleTable } = synth({}, manifest);

  test('no LSIs and no LSI attribute definitions', () => {
    expect(table.LocalSecondaryIndexes).toBeUndefined();
    expect(singleTable.localIndexNames).toEqual([]);
    expect(table.AttributeDefinitions).toEqual(stringAttributes('PK', 'SK', 'lookupKey', 'lookupSort', 'GSI2PK'));
  });

  test('GSIs keep their declared key names and projection', () => {
    expect(table.GlobalSecondaryIndexes).toEqual([
      { IndexName: 'GSI1', KeySchema: keySchema('lookupKey', 'lookupSort'), Projection: { ProjectionType: 'ALL' } },
      { IndexName: 'GSI2', KeySchema: keySchema('GSI2PK'), Projection: { ProjectionType: 'KEYS_ONLY' } },
    ]);
    expect(singleTable.indexKeys('GSI2')).toEqual({ partitionKey: 'GSI2PK', sortKey: undefined, partitionKeys: ['GSI2PK'], sortKeys: [] });
  });
});

describe('defaults that lose nothing', () => {
  const { table, resource } = synth();
  const replica = table.Replicas[0];

  test('point-in-time recovery on', () => {
    expect(replica.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  });

  test('deletion protection on', () => {
    expect(replica.DeletionProtectionEnabled).toBe(true);
  });

  test('retained on delete and on replacement', () => {
    expect(resource.DeletionPolicy).toBe('Retain');
    expect(resource.UpdateReplacePolicy).toBe('Retain');
  });

  test('encrypted with the AWS-managed key', () => {
    expect(table.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS' });
    expect(replica.SSESpecification).toBeUndefined();
  });

  test('on-demand billing', () => {
    expect(table.BillingMode).toBe('PAY_PER_REQUEST');
  });

  test('no TTL, no stream, a generated name', () => {
    expect(table.TimeToLiveSpecification).toBeUndefined();
    expect(table.StreamSpecification).toBeUndefined();
    expect(table.TableName).toBeUndefined();
  });
});

describe('options', () => {
  test('point-in-time recovery and deletion protection can be turned off, the removal policy changed', () => {
    const pointInTimeRecoverySpecification = { pointInTimeRecoveryEnabled: false };
    const { table, resource } = synth({ pointInTimeRecoverySpecification, deletionProtection: false, removalPolicy: RemovalPolicy.DESTROY });
    expect(table.Replicas[0].PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: false });
    expect(table.Replicas[0].DeletionProtectionEnabled).toBe(false);
    expect(resource.DeletionPolicy).toBe('Delete');
  });

  test('a customer-managed KMS key', () => {
    const { table, template } = synth((stack) => ({ encryption: TableEncryptionV2.customerManagedKey(new Key(stack, 'Key')) }), undefined, 'eu-west-1');
    const [keyId] = Object.keys(template.findResources('AWS::KMS::Key'));
    expect(table.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS' });
    expect(table.Replicas[0].SSESpecification).toEqual({ KMSMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
  });

  test('TTL attribute', () => {
    const manifest = edited((m) => { m.entities.Order.attributes.expiresAt = { type: AttributeKind.NUMBER }; });
    expect(synth({ timeToLiveAttribute: 'expiresAt' }, manifest).table.TimeToLiveSpecification).toEqual({ Enabled: true, AttributeName: 'expiresAt' });
  });

  test('stream', () => {
    expect(synth({ dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES }).table.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
  });

  test('table name', () => {
    const { table, singleTable, stack } = synth({ tableName: 'app-table' });
    expect(table.TableName).toBe('app-table');
    expect(stack.resolve(singleTable.tableName)).toEqual({ Ref: expect.stringMatching(/^Table/) });
    expect(stack.resolve(singleTable.tableArn)).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'Arn'] });
  });
});
