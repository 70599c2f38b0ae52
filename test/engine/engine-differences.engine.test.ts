// What AWS's engine (DynamoDB Local) does where dynalite, the pure-Node fallback, differs: each case
// runs on both, states which answer is DynamoDB's, and so shows which rules the runtime itself must
// enforce to behave the same on every engine.
import {
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { EngineKind } from '../../lib/engine/engine';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

const engines: Record<EngineKind, { engine?: Engine; table?: string }> = { 'dynamodb-local': {}, 'dynalite': {} };

beforeAll(async () => {
  for (const kind of Object.keys(engines) as EngineKind[]) {
    const engine = await startEngine(synthesizedTemplate(), kind);
    engines[kind] = { engine, table: await engine.createTable() };
  }
});
afterAll(async () => {
  for (const { engine } of Object.values(engines)) await engine?.stop();
});

/** Sends on the given engine's example table; resolves to the response or the error's name. */
async function on(kind: EngineKind, send: (client: DynamoDBClient, table: string) => Promise<unknown>): Promise<unknown> {
  const { engine, table } = engines[kind];
  expect(engine!.kind).toBe(kind);
  try {
    return await send(engine!.client, table!);
  } catch (e) {
    return (e as Error).name;
  }
}

const order = (sk: string, more: Record<string, { S: string } | { N: string }> = {}) => ({ PK: { S: 'CUSTOMER#ann' }, SK: { S: sk }, Type: { S: 'Order' }, ...more });

test('a sort key over 1024 UTF-8 bytes (600 x é, 1200 bytes): DynamoDB rejects it, dynalite stores it', async () => {
  const put = (c: DynamoDBClient, t: string) => c.send(new PutItemCommand({ TableName: t, Item: order('é'.repeat(600)) }));
  expect(await on('dynamodb-local', put)).toBe('ValidationException');
  expect(await on('dynalite', put)).toMatchObject({ $metadata: { httpStatusCode: 200 } });
});

test('an empty string as a GSI key value: DynamoDB rejects the item, dynalite stores it', async () => {
  const put = (c: DynamoDBClient, t: string) => c.send(new PutItemCommand({ TableName: t, Item: order('ORDER#e', { GSI1PK: { S: '' }, GSI1SK: { S: 'x' } }) }));
  expect(await on('dynamodb-local', put)).toBe('ValidationException');
  expect(await on('dynalite', put)).toMatchObject({ $metadata: { httpStatusCode: 200 } });
});

test('a query key over the size limit: both engines answer an empty page (the runtime refuses it before sending)', async () => {
  const query = (c: DynamoDBClient, t: string) => c.send(new QueryCommand({
    TableName: t, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': { S: 'x'.repeat(2100) } },
  }));
  expect(await on('dynamodb-local', query)).toMatchObject({ Count: 0, Items: [] });
  expect(await on('dynalite', query)).toMatchObject({ Count: 0, Items: [] });
});

test('numbers are stored normalized: 1e23 reads back as plain digits on both engines', async () => {
  const roundTrip = async (c: DynamoDBClient, t: string) => {
    await c.send(new PutItemCommand({ TableName: t, Item: order('ORDER#n', { amount: { N: '1e23' } }) }));
    return (await c.send(new GetItemCommand({ TableName: t, Key: { PK: order('').PK, SK: { S: 'ORDER#n' } } }))).Item!.amount;
  };
  expect(await on('dynamodb-local', roundTrip)).toEqual({ N: '100000000000000000000000' });
  expect(await on('dynalite', roundTrip)).toEqual({ N: '100000000000000000000000' });
});

test('ReturnConsumedCapacity INDEXES: DynamoDB reports the table and each index written, dynalite the table write only', async () => {
  const put = (c: DynamoDBClient, t: string) => c.send(new PutItemCommand({
    TableName: t,
    ReturnConsumedCapacity: 'INDEXES',
    Item: order('ORDER#c', { GSI1PK: { S: 'ORDER#c' }, GSI1SK: { S: 'ORDER#c' }, LSI1SK: { S: 'ORDERED#2024' } }),
  })).then((r) => r.ConsumedCapacity);
  expect(await on('dynamodb-local', put)).toEqual({
    TableName: expect.any(String),
    CapacityUnits: 3,
    Table: { CapacityUnits: 1 },
    GlobalSecondaryIndexes: { GSI1: { CapacityUnits: 1 } },
    LocalSecondaryIndexes: { LSI1: { CapacityUnits: 1 } },
  });
  expect(await on('dynalite', put)).toEqual({ TableName: expect.any(String), CapacityUnits: 1, Table: { CapacityUnits: 1 } });
});

test('ReturnItemCollectionMetrics SIZE on a table with LSIs: accepted, but neither engine returns an estimate', async () => {
  const put = (c: DynamoDBClient, t: string) => c.send(new PutItemCommand({
    TableName: t, ReturnItemCollectionMetrics: 'SIZE', Item: order('ORDER#m'),
  })).then((r) => ({ status: r.$metadata.httpStatusCode, metrics: r.ItemCollectionMetrics }));
  expect(await on('dynamodb-local', put)).toEqual({ status: 200, metrics: undefined });
  expect(await on('dynalite', put)).toEqual({ status: 200, metrics: undefined });
});

test('TransactWriteItems: DynamoDB applies all or nothing, dynalite does not know the operation', async () => {
  const transact = async (c: DynamoDBClient, t: string) => {
    await c.send(new PutItemCommand({ TableName: t, Item: order('ORDER#t1') }));
    const both = new TransactWriteItemsCommand({
      TransactItems: [
        { Put: { TableName: t, Item: order('ORDER#t2') } },
        { Put: { TableName: t, Item: order('ORDER#t1'), ConditionExpression: 'attribute_not_exists(PK)' } },
      ],
    });
    const failed = await c.send(both).catch((e: Error) => e.name);
    const t2 = await c.send(new GetItemCommand({ TableName: t, Key: { PK: order('').PK, SK: { S: 'ORDER#t2' } } }));
    return { failed, t2Written: t2.Item !== undefined };
  };
  expect(await on('dynamodb-local', transact)).toEqual({ failed: 'TransactionCanceledException', t2Written: false });
  expect(await on('dynalite', transact)).toEqual({ failed: 'UnknownOperationException', t2Written: false });
});
