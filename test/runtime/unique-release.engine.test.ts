// Unique values of items time to live removes, released from the table's stream on DynamoDB Local.
// A TTL delete runs outside any transaction, as a plain DeleteItem does here, so the guards of the
// item's values stay; the REMOVE records the table's own stream wrote, marked with the identity
// DynamoDB's TTL process gives its deletes, are passed to releaseUniqueValues as Lambda delivers them.
import { AttributeValue, DeleteItemCommand, DynamoDBClient, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { StreamViewType } from 'aws-cdk-lib/aws-dynamodb';
import { SingleTable } from '../../lib/construct/single-table';
import { GUARD_OWNER_ATTRIBUTE, guardMark } from '../../lib/keys/unique-guard';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelDocument } from '../../lib/model/document';
import { createClient, openTable, releaseUniqueValues, SingleTableError, TransactionCanceledError } from '../../lib/runtime';
import { guardItem, guardKeyAttributes } from '../../lib/runtime/items/unique';
import { compileModelFile } from '../../lib/testing';
import { scopedUniqueManifest } from '../fixtures/scoped-unique-manifest';
import { uniqueManifest as manifest } from '../fixtures/unique-manifest';
import { Engine, startEngine } from '../support/engine';
import { countRequests } from '../support/requests';
import { asLambdaRecord, streamRecords } from '../support/stream-records';

type M = typeof manifest;
const model = resolveModel(manifest);
const document = modelDocument(model);
const { partitionKey: PK } = model.indexes.table;
const SK = model.indexes.table.sortKey!;
const joinedAt = '2024-05-01T00:00:00.000Z';
/** The identity a record of a delete by DynamoDB's time to live carries, as Lambda delivers it. */
const TTL_IDENTITY = { type: 'Service', principalId: 'dynamodb.amazonaws.com' };

let engine: Engine;
beforeAll(async () => {
  const stack = new Stack(new App(), 'ReleaseStack');
  new SingleTable(stack, 'Table', { manifest, dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES });
  engine = await startEngine(Template.fromStack(stack).toJSON(), 'dynamodb-local');
});
afterAll(() => engine.stop());

async function freshTable(client?: DynamoDBClient) {
  const tableName = await engine.createTable();
  const options = { client: client ?? engine.client, tableName, retry: { baseDelayMs: 1, maxDelayMs: 5 } };
  return { tableName, table: openTable<M>({ ...options, model: document }), db: createClient({ ...options, model: compileModelFile(manifest) }) };
}

/** Deletes a customer as DynamoDB's time to live does: one DeleteItem, no transaction, guards untouched. */
async function expire(tableName: string, username: string, sk = 'PROFILE') {
  await engine.client.send(new DeleteItemCommand({ TableName: tableName, Key: { [PK]: { S: `CUSTOMER#${username}` }, [SK]: { S: sk } } }));
}

/** The stream's REMOVE records, as Lambda delivers them; those of `expired` users carry TTL's identity. */
async function removals(tableName: string, expired: readonly string[]) {
  const records = (await streamRecords(engine.endpoint, engine.client, tableName)).map(asLambdaRecord).filter((r) => r.eventName === 'REMOVE');
  for (const record of records) {
    if (expired.includes(record.dynamodb.Keys[PK].S.replace('CUSTOMER#', ''))) record.userIdentity = TTL_IDENTITY;
  }
  return { Records: records };
}

/** Writes a customer item as other code (or an earlier manifest) did, with its guard naming `owner` (an SK) unless null. */
async function storeRaw(tableName: string, username: string, sk: string, email: AttributeValue, owner: string | null) {
  const key = { [PK]: { S: `CUSTOMER#${username}` }, [SK]: { S: sk } };
  await engine.client.send(new PutItemCommand({ TableName: tableName, Item: { ...key, [model.typeAttribute]: { S: 'Customer' }, username: { S: username }, email, joinedAt: { S: joinedAt } } }));
  if (owner === null) return;
  const guard = guardKeyAttributes(model, model.entities.Customer, 'email', email.S, { username })!;
  await engine.client.send(new PutItemCommand({ TableName: tableName, Item: guardItem(model, guard, { ...key, [SK]: { S: owner } }) }));
}

/** Each guard's value, with the customer its owner names. */
async function guards(tableName: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await engine.client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      if (item[model.typeAttribute].S !== guardMark(model.escapeChar)) continue;
      out[item[PK].S!.split('#')[3]] = item[GUARD_OWNER_ATTRIBUTE].M![PK].S!.replace('CUSTOMER#', '');
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

const ref = (username: string, email: unknown) => ({ entity: 'Customer', key: { username }, attribute: 'email', value: email, sequenceNumber: expect.any(String) });

describe('releaseUniqueValues', () => {
  test('a value an expired item held stays taken until its REMOVE change is released, then another item may claim it', async () => {
    const { tableName, table, db } = await freshTable();
    await db.putItem('Customer', { username: 'ann', email: 'a@x', joinedAt }, { mode: 'create' });
    await db.putItem('Customer', { username: 'bob', email: 'b@x', joinedAt }, { mode: 'create' });
    await expire(tableName, 'ann');
    // The guard outlives the item: the value is still taken.
    expect(await guards(tableName)).toEqual({ 'a@x': 'ann', 'b@x': 'bob' });
    const taken = await db.putItem('Customer', { username: 'cat', email: 'a@x', joinedAt }, { mode: 'create' }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(TransactionCanceledError);
    expect(taken).toMatchObject({ code: 'UNIQUE_VIOLATION' });

    const event = await removals(tableName, ['ann']);
    expect(event.Records).toHaveLength(1);
    expect(await releaseUniqueValues(table, event)).toEqual({ released: [ref('ann', 'a@x')], kept: [], skipped: [] });
    expect(await guards(tableName)).toEqual({ 'b@x': 'bob' });
    await db.putItem('Customer', { username: 'cat', email: 'a@x', joinedAt }, { mode: 'create' });
    expect(await guards(tableName)).toEqual({ 'a@x': 'cat', 'b@x': 'bob' });

    // Delivered again (Lambda retries a batch): the value now held by another item stays with it.
    expect(await releaseUniqueValues(table, event)).toEqual({ released: [], kept: [ref('ann', 'a@x')], skipped: [] });
    expect(await guards(tableName)).toEqual({ 'a@x': 'cat', 'b@x': 'bob' });
  });

  test('an item written again with the value before the record is delivered again keeps it; written with another value, the old one is released', async () => {
    const { tableName, table, db } = await freshTable();
    await db.putItem('Customer', { username: 'dan', email: 'd@x', joinedAt }, { mode: 'create' });
    await db.putItem('Customer', { username: 'eve', email: 'e@x', joinedAt }, { mode: 'create' });
    await expire(tableName, 'dan');
    await expire(tableName, 'eve');
    const event = await removals(tableName, ['dan', 'eve']);
    expect(event.Records.map((r) => r.dynamodb.Keys[PK].S)).toEqual(['CUSTOMER#dan', 'CUSTOMER#eve']);
    // dan's value is released and dan is written again holding it: a new guard, owned by the same key.
    expect(await releaseUniqueValues(table, { Records: [event.Records[0]] })).toEqual({ released: [ref('dan', 'd@x')], kept: [], skipped: [] });
    await db.putItem('Customer', { username: 'dan', email: 'd@x', joinedAt }, { mode: 'create' });
    // eve comes back with another value before her record is released: e@x is hers no more.
    await db.putItem('Customer', { username: 'eve', email: 'e2@x', joinedAt }, { mode: 'create' });
    expect(await guards(tableName)).toEqual({ 'd@x': 'dan', 'e@x': 'eve', 'e2@x': 'eve' });

    // The guard of d@x names dan's key, as the removed item's did: only the check of the item keeps it.
    expect(await releaseUniqueValues(table, event)).toEqual({ released: [ref('eve', 'e@x')], kept: [ref('dan', 'd@x')], skipped: [] });
    expect(await guards(tableName)).toEqual({ 'd@x': 'dan', 'e2@x': 'eve' });
    expect(await db.getItem('Customer', { username: 'dan' })).toMatchObject({ email: 'd@x' });
  });

  test('only removals by time to live, unless anyRemove: the runtime\'s deletes release their guards themselves, other code\'s do not', async () => {
    const { tableName, table, db } = await freshTable();
    await db.putItem('Customer', { username: 'fay', email: 'f@x', joinedAt }, { mode: 'create' });
    await db.putItem('Customer', { username: 'gus', email: 'g@x', joinedAt }, { mode: 'create' });
    await db.deleteItem('Customer', { username: 'fay' });
    await expire(tableName, 'gus'); // a DeleteItem by other code: no TTL identity on its record
    const event = await removals(tableName, []);
    // The runtime's delete removed fay's guard in its transaction: that record is in the event too, and is no entity's item.
    expect(event.Records.map((r) => [r.dynamodb.Keys[PK].S, r.userIdentity])).toEqual([
      ['CUSTOMER#fay', undefined], ['$unique#Customer#email#f@x', undefined], ['CUSTOMER#gus', undefined],
    ]);
    const requests = countRequests(engine.client);
    expect(await releaseUniqueValues(table, event)).toEqual({ released: [], kept: [], skipped: [] });
    expect(requests.total()).toBe(0);
    expect(await guards(tableName)).toEqual({ 'g@x': 'gus' });
    expect(await releaseUniqueValues(table, event, { anyRemove: true })).toEqual({ released: [ref('gus', 'g@x')], kept: [ref('fay', 'f@x')], skipped: [] });
    expect(await guards(tableName)).toEqual({});
  });

  test('a removal without the old image fails INVALID_STREAM_RECORD naming the entity and the stream view, before anything is sent', async () => {
    const { tableName, table, db } = await freshTable();
    await db.putItem('Customer', { username: 'hal', email: 'h@x', joinedAt }, { mode: 'create' });
    await db.putItem('Customer', { username: 'ivy', email: 'i@x', joinedAt }, { mode: 'create' });
    await expire(tableName, 'hal');
    await expire(tableName, 'ivy');
    const [hal, ivy] = (await removals(tableName, ['hal', 'ivy'])).Records;
    // As a KEYS_ONLY or NEW_IMAGE stream delivers a removal: the keys only.
    const keysOnly = { ...ivy, dynamodb: { ...ivy.dynamodb, OldImage: undefined } };
    const requests = countRequests(engine.client);
    const error = await releaseUniqueValues(table, { Records: [hal, keysOnly] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SingleTableError);
    expect(error).toMatchObject({ code: 'INVALID_STREAM_RECORD', entity: 'Customer' });
    expect((error as Error).message).toMatch(/NEW_AND_OLD_IMAGES/);
    expect(requests.total()).toBe(0);
    // hal's value was not released either: a bad change in a batch sends nothing.
    expect(await guards(tableName)).toEqual({ 'h@x': 'hal', 'i@x': 'ivy' });
  });

  test('an item written again without the value releases it', async () => {
    const { tableName, table, db } = await freshTable();
    await db.putItem('Customer', { username: 'kay', email: 'k@x', joinedAt }, { mode: 'create' });
    await expire(tableName, 'kay');
    await db.putItem('Customer', { username: 'kay', joinedAt }, { mode: 'create' });
    expect(await releaseUniqueValues(table, await removals(tableName, ['kay']))).toEqual({ released: [ref('kay', 'k@x')], kept: [], skipped: [] });
    expect(await guards(tableName)).toEqual({});
  });

  test('the owner is the item\'s key as stored: an item under an earlier sort key template releases its guard, and only its own', async () => {
    const { tableName, table, db } = await freshTable();
    // lee's current item holds l@x; a stale copy under an earlier template holds it too, without a guard of its own.
    await db.putItem('Customer', { username: 'lee', email: 'l@x', joinedAt }, { mode: 'create' });
    await storeRaw(tableName, 'lee', 'PROFILE#v1', { S: 'l@x' }, null);
    // max's item was written under the earlier template, and its guard names that key.
    await storeRaw(tableName, 'max', 'PROFILE#v1', { S: 'm@x' }, 'PROFILE#v1');
    await expire(tableName, 'lee', 'PROFILE#v1');
    await expire(tableName, 'max', 'PROFILE#v1');
    const event = await removals(tableName, ['lee', 'max']);
    // The guard of l@x names lee's key with another sort key: the stale copy's removal keeps it.
    expect(await releaseUniqueValues(table, event)).toEqual({ released: [ref('max', 'm@x')], kept: [ref('lee', 'l@x')], skipped: [] });
    expect(await guards(tableName)).toEqual({ 'l@x': 'lee' });
  });

  test('a value no guard can exist for is skipped with the reason, and the others are released', async () => {
    const { tableName, table, db } = await freshTable();
    await storeRaw(tableName, 'ned', 'PROFILE', { N: '5' }, null); // written by other code: a number where the manifest says string
    await db.putItem('Customer', { username: 'oli', email: 'o@x', joinedAt }, { mode: 'create' });
    await expire(tableName, 'ned');
    await expire(tableName, 'oli');
    const { released, kept, skipped } = await releaseUniqueValues(table, await removals(tableName, ['ned', 'oli']));
    expect({ released, kept }).toEqual({ released: [ref('oli', 'o@x')], kept: [] });
    expect(skipped).toEqual([{ ...ref('ned', 5), reason: expect.stringMatching(/^\[INVALID_VALUE\] entity Customer, attribute email: must be a string, got number 5/) }]);
  });

  test('values unique per tenant: the removed member\'s tenant releases its value, another tenant holding the same value keeps it', async () => {
    const tableName = await engine.createTable();
    const options = { client: engine.client, tableName, retry: { baseDelayMs: 1, maxDelayMs: 5 } };
    const db = createClient({ ...options, model: compileModelFile(scopedUniqueManifest) });
    await db.putItem('Member', { tenantId: 'a', memberId: 'm1', email: 'x@x' }, { mode: 'create' });
    await db.putItem('Member', { tenantId: 'b', memberId: 'm1', email: 'x@x' }, { mode: 'create' });
    await engine.client.send(new DeleteItemCommand({ TableName: tableName, Key: { [PK]: { S: 'TENANT#a#MEMBER#m1' }, [SK]: { S: 'MEMBER' } } }));
    const records = (await streamRecords(engine.endpoint, engine.client, tableName)).map(asLambdaRecord).filter((r) => r.eventName === 'REMOVE');
    for (const record of records) record.userIdentity = TTL_IDENTITY;
    const member = { entity: 'Member', key: { tenantId: 'a', memberId: 'm1' }, attribute: 'email', value: 'x@x', sequenceNumber: expect.any(String) };
    expect(await db.releaseUniqueValues({ Records: records })).toEqual({ released: [member], kept: [], skipped: [] });
    const left = await engine.client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true }));
    const guardItems = left.Items!.filter((i) => i[model.typeAttribute].S === guardMark(model.escapeChar));
    expect(guardItems.map((i) => [i[PK].S, i[GUARD_OWNER_ATTRIBUTE].M![PK].S]))
      .toEqual([['TENANT#b#$unique#Member#email#x@x', 'TENANT#b#MEMBER#m1']]);
    // Tenant a may give the value to another member now; tenant b's still holds it.
    await db.putItem('Member', { tenantId: 'a', memberId: 'm2', email: 'x@x' }, { mode: 'create' });
    await expect(db.putItem('Member', { tenantId: 'b', memberId: 'm2', email: 'x@x' }, { mode: 'create' })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' });
  });

  test('a unique attribute stored as NULL holds no value: passed over, neither released nor skipped', async () => {
    const { tableName, table } = await freshTable();
    await storeRaw(tableName, 'pia', 'PROFILE', { NULL: true }, null);
    await expire(tableName, 'pia');
    const requests = countRequests(engine.client);
    expect(await releaseUniqueValues(table, await removals(tableName, ['pia']))).toEqual({ released: [], kept: [], skipped: [] });
    expect(requests.of('TransactWriteItemsCommand')).toBe(0);
  });

  test('the client method releases as the function does', async () => {
    const { tableName, db } = await freshTable();
    await db.putItem('Customer', { username: 'jo', email: 'j@x', joinedAt }, { mode: 'create' });
    await expire(tableName, 'jo');
    expect(await db.releaseUniqueValues(await removals(tableName, ['jo']))).toEqual({ released: [ref('jo', 'j@x')], kept: [], skipped: [] });
    expect(await guards(tableName)).toEqual({});
  });
});
