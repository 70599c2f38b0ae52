// Stream decoding on records DynamoDB Local's own stream wrote for the runtime's puts, updates and
// deletes: as the Streams API returns them and as Lambda delivers them (JSON, base64 binary), each
// decoded to the entity and to items equal to what get, update, delete and query return.
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { StreamViewType } from 'aws-cdk-lib/aws-dynamodb';
import { manifest } from '../../examples/manifest';
import model from '../../examples/manifest.model.json';
import { SingleTable } from '../../lib/construct/single-table';
import { decodeStream, deleteItem, getItem, openTable, putItem, query, Table, updateItem } from '../../lib/runtime';
import { decodeStreamRecord } from '../../lib/runtime/streams/decode-stream';
import { Engine, startEngine } from '../support/engine';
import { asLambdaRecord, streamRecords } from '../support/stream-records';

const templateWith = (stream: StreamViewType) => {
  const stack = new Stack(new App(), 'StreamStack');
  new SingleTable(stack, 'Table', { manifest, dynamoStream: stream });
  return Template.fromStack(stack).toJSON();
};

const decoder = openTable<typeof manifest>({ model, tableName: 'stream' });

describe('NEW_AND_OLD_IMAGES', () => {
  let engine: Engine;
  let table: Table<typeof manifest>;
  beforeAll(async () => {
    engine = await startEngine(templateWith(StreamViewType.NEW_AND_OLD_IMAGES), 'dynamodb-local');
    table = openTable<typeof manifest>({ model: model, client: engine.client, tableName: await engine.createTable() });
  });
  afterAll(() => engine.stop());

  test('puts, an update and a delete come back as typed changes equal to the runtime\'s results', async () => {
    await putItem(table, 'Customer', { username: 'ana', email: 'ana@example.com', name: 'Ana', createdAt: new Date('2024-05-01T10:00:00+02:00') });
    const customer = await getItem(table, 'Customer', { username: 'ana' });
    const lines = [{ sku: 'A-1', qty: 2, big: 2n ** 70n, scan: new Uint8Array([0, 1, 254, 255]) }, 'gift'];
    await putItem(table, 'Order', { username: 'ana', orderId: 'o1', status: 'OPEN', createdAt: '2024-05-02T00:00:00Z', amount: 12.5, lines });
    const order = await getItem(table, 'Order', { username: 'ana', orderId: 'o1' });
    const shipped = await updateItem(table, 'Order', { username: 'ana', orderId: 'o1', status: 'SHIPPED', createdAt: '2024-05-02T00:00:00Z', trackingNumber: 'T-1' });
    // An item of no entity, as other code (or a unique-value guard) may write: skipped.
    await engine.client.send(new PutItemCommand({ TableName: table.tableName, Item: { PK: { S: 'UNIQUE#email#ana@example.com' }, SK: { S: 'UNIQUE' } } }));
    const removed = await deleteItem(table, 'Customer', { username: 'ana' });
    const collection = (await query(table, 'customerWithOrders', { username: 'ana' })).items;

    const records = await streamRecords(engine.endpoint, engine.client, table.tableName);
    expect(records).toHaveLength(5);
    const changes = decodeStream(decoder, { Records: records.map(asLambdaRecord) });
    const seq = expect.stringMatching(/^\d+$/);
    expect(changes).toEqual([
      { entity: 'Customer', eventName: 'INSERT', keys: { username: 'ana' }, newItem: customer, oldItem: undefined, expired: false, sequenceNumber: seq },
      { entity: 'Order', eventName: 'INSERT', keys: { username: 'ana', orderId: 'o1' }, newItem: order, oldItem: undefined, expired: false, sequenceNumber: seq },
      { entity: 'Order', eventName: 'MODIFY', keys: { username: 'ana', orderId: 'o1' }, newItem: shipped, oldItem: order, expired: false, sequenceNumber: seq },
      { entity: 'Customer', eventName: 'REMOVE', keys: { username: 'ana' }, newItem: undefined, oldItem: removed, expired: false, sequenceNumber: seq },
    ]);
    // The bytes and the integer past doubles survive the trip, and the date is the stored ISO string.
    expect(order!.lines).toEqual([{ sku: 'A-1', qty: 2, big: 2n ** 70n, scan: new Uint8Array([0, 1, 254, 255]) }, 'gift']);
    expect(changes[0].newItem).toMatchObject({ createdAt: '2024-05-01T08:00:00.000Z' });
    // The same records as the Streams API returns them decode the same.
    expect(records.map((r) => decodeStreamRecord(decoder, r))).toEqual([...changes.slice(0, 3), undefined, changes[3]]);
    // What a query returns for the order is what the stream's new image decodes to.
    expect(collection).toEqual([{ entity: 'Order', item: changes[2].newItem }]);

    // Narrowed by entity, the union is that entity's change: its item type has the order's attributes.
    const orders = decodeStream(decoder, { Records: records.map(asLambdaRecord) }, { entities: ['Order'] });
    expect(orders.map((c) => [c.eventName, c.newItem?.status, c.oldItem?.status])).toEqual([['INSERT', 'OPEN', undefined], ['MODIFY', 'SHIPPED', 'OPEN']]);
    const removals = decodeStream(decoder, { Records: records }, { eventNames: ['REMOVE'] });
    expect(removals.map((c) => [c.entity, c.keys])).toEqual([['Customer', { username: 'ana' }]]);
  });
});

describe('KEYS_ONLY', () => {
  let engine: Engine;
  let table: Table<typeof manifest>;
  beforeAll(async () => {
    engine = await startEngine(templateWith(StreamViewType.KEYS_ONLY), 'dynamodb-local');
    table = openTable<typeof manifest>({ model: model, client: engine.client, tableName: await engine.createTable() });
  });
  afterAll(() => engine.stop());

  test('records without images are identified by their key shape, key values decoded', async () => {
    await putItem(table, 'Order', { username: 'a#b', orderId: 'o$1', status: 'OPEN', createdAt: '2024-05-02T00:00:00Z', amount: 1 });
    await putItem(table, 'Membership', { username: 'a#b', groupId: 'g1', joinedAt: '2024-05-02T00:00:00Z' });
    await putItem(table, 'Product', { productId: 'p1', category: 'c', price: 3, name: 'P' });
    await deleteItem(table, 'Order', { username: 'a#b', orderId: 'o$1' });
    await engine.client.send(new PutItemCommand({ TableName: table.tableName, Item: { PK: { S: 'UNIQUE#x' }, SK: { S: 'UNIQUE' } } }));

    const records = await streamRecords(engine.endpoint, engine.client, table.tableName);
    expect(records.map((r) => r.dynamodb?.NewImage ?? r.dynamodb?.OldImage)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    const changes = decodeStream(decoder, { Records: records.map(asLambdaRecord) });
    expect(changes.map(({ entity, eventName, keys, newItem, oldItem }) => ({ entity, eventName, keys, newItem, oldItem }))).toEqual([
      { entity: 'Order', eventName: 'INSERT', keys: { username: 'a#b', orderId: 'o$1' }, newItem: undefined, oldItem: undefined },
      { entity: 'Membership', eventName: 'INSERT', keys: { username: 'a#b', groupId: 'g1' }, newItem: undefined, oldItem: undefined },
      { entity: 'Product', eventName: 'INSERT', keys: { productId: 'p1' }, newItem: undefined, oldItem: undefined },
      { entity: 'Order', eventName: 'REMOVE', keys: { username: 'a#b', orderId: 'o$1' }, newItem: undefined, oldItem: undefined },
    ]);
  });
});
