// The fan-out benchmark's in-memory engine (bench/support/memory-engine.ts) must answer as
// DynamoDB does, or the benchmark would time a wrong engine: the same pages (items, order, page
// ends and LastEvaluatedKey) as the run's embedded engine for the Query inputs the runtime builds,
// through both ways in (the stand-in for `send`, and a real DynamoDBClient over its request
// handler). A correctness test only; timings never run in `npm test`.
import { BatchWriteItemCommand, DynamoDBClient, QueryCommand, QueryCommandInput, QueryCommandOutput } from '@aws-sdk/client-dynamodb';
import { fanOutItems, manifest, memoryEngineFor } from '../../bench/sharded-fanout';
import { shardedKey } from '../../lib/keys/shard';
import { compileManifest } from '../../lib/manifest/compile';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

const model = compileManifest(manifest).model;
// Few enough to write quickly, enough for every shard to hold several pages.
const items = fanOutItems(model, 240);
const memory = memoryEngineFor(model);
const SHARD_SIZE = items.filter((i) => i[model.indexes.GSI2.partitionKey]?.S === shardedKey('ORDER#OPEN', 0, model.delimiter)).length;
memory.load(items);
const viaHttp = new DynamoDBClient({
  region: 'us-east-1',
  endpoint: 'http://memory.invalid',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  requestHandler: memory.requestHandler() as never,
});

let engine: Engine;
let table: string;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  table = await engine.createTable();
  for (let i = 0; i < items.length; i += 25) {
    const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    const out = await engine.client.send(new BatchWriteItemCommand({ RequestItems: { [table]: batch } }));
    expect(out.UnprocessedItems ?? {}).toEqual({});
  }
});

afterAll(async () => {
  viaHttp.destroy();
  await engine.stop();
});

type Page = Pick<QueryCommandOutput, 'Items' | 'Count' | 'LastEvaluatedKey'>;

/** Every page of a query, as the caller pages through it. */
async function pages(send: (input: QueryCommandInput) => Promise<Page>, input: QueryCommandInput): Promise<Page[]> {
  const out: Page[] = [];
  let start: QueryCommandInput['ExclusiveStartKey'];
  do {
    const page = await send({ ...input, ExclusiveStartKey: start });
    out.push({ Items: page.Items ?? [], Count: page.Count, LastEvaluatedKey: page.LastEvaluatedKey });
    start = page.LastEvaluatedKey;
  } while (start && out.length < 100);
  return out;
}

const query = (index: string, pk: string, forward: boolean, limit?: number): QueryCommandInput => ({
  TableName: 'bench',
  IndexName: index,
  KeyConditionExpression: '#pk = :pk',
  ExpressionAttributeNames: { '#pk': model.indexes[index].partitionKey },
  ExpressionAttributeValues: { ':pk': { S: pk } },
  ScanIndexForward: forward,
  Limit: limit,
});

/** Queries like the fan-out's: the unsharded GSI and single shards, both orders, pages of several sizes. */
const CASES: [string, QueryCommandInput, boolean][] = [
  ['unsharded GSI, descending, pages of 50', query('GSI3', 'ORDER#OPEN', false, 50), true],
  ['unsharded GSI, ascending, one page', query('GSI3', 'ORDER#OPEN', true), true],
  ['a shard, descending, pages of 7', query('GSI2', shardedKey('ORDER#OPEN', 3, model.delimiter), false, 7), true],
  ['a shard, ascending, a page as large as the shard', query('GSI2', shardedKey('ORDER#OPEN', 0, model.delimiter), true, SHARD_SIZE), true],
  ['a partition nothing is in', query('GSI2', 'ORDER#CLOSED', false, 10), false],
];

test.each(CASES)('%s: the same pages as the embedded engine, through send and through HTTP', async (_, input, holdsItems) => {
  const expected = await pages((i) => engine.client.send(new QueryCommand({ ...i, TableName: table })), input);
  expect(expected.flatMap((p) => p.Items).length > 0).toBe(holdsItems);
  expect(await pages((i) => memory.client().send({ input: i }) as Promise<Page>, input)).toEqual(expected);
  expect(await pages((i) => viaHttp.send(new QueryCommand(i)), input)).toEqual(expected);
});
