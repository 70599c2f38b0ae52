// Item collection metrics (LSIs): with LSIs, every write asks DynamoDB for the collection's size
// (checked on the requests dynalite accepts), and by default each estimate DynamoDB returns becomes
// one Embedded Metric Format line on the log, on the metric the construct alarms on; the client's
// `itemCollections` option turns that off or hands the estimates to a function.
// dynalite accepts ReturnItemCollectionMetrics but never returns estimates, so the responses get
// DynamoDB's documented ItemCollectionMetrics shape added after dynalite answered.
import type { DynamoDBClient, ItemCollectionMetrics } from '@aws-sdk/client-dynamodb';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { manifest } from '../../examples/manifest';
import { SingleTable } from '../../lib/construct/single-table';
import { SingleTableManifest } from '../../lib/model/manifest';
import { createClient, CreateClientOptions } from '../../lib/runtime';
import { reportItemCollections } from '../../lib/runtime/items/item-collections';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

let counter = 0;

/** Records each command's input, and optionally adds item collection metrics to the output. */
function observe(client: DynamoDBClient, estimate?: (input: any) => ItemCollectionMetrics | ItemCollectionMetrics[]) {
  const sent: { command: string; input: any }[] = [];
  client.middlewareStack.add((next, context) => async (args) => {
    sent.push({ command: context.commandName!, input: args.input });
    const result: any = await next(args);
    if (estimate && (args.input as any).ReturnItemCollectionMetrics === 'SIZE') {
      const metrics = estimate(args.input);
      // BatchWriteItem lists them per table; single-item writes return one.
      result.output.ItemCollectionMetrics = Array.isArray(metrics) ? { [Object.keys((args.input as any).RequestItems)[0]]: metrics } : metrics;
    }
    return result;
  }, { step: 'initialize', name: `observe${++counter}` });
  return sent;
}

/** Collects console.log and console.warn lines while `run` runs. */
async function logged(run: () => Promise<unknown>): Promise<{ log: string[]; warn: string[] }> {
  const out = { log: [] as string[], warn: [] as string[] };
  const { log, warn } = console;
  console.log = (line: string) => out.log.push(line);
  console.warn = (line: string) => out.warn.push(line);
  try {
    await run();
  } finally {
    Object.assign(console, { log, warn });
  }
  return out;
}

const order = { username: 'ann', orderId: 'o1', status: 'OPEN', createdAt: '2024-01-02T00:00:00Z', amount: 10 };

describe('a table with LSIs', () => {
  let engine: Engine;
  let tableName: string;
  beforeAll(async () => {
    engine = await startEngine();
    tableName = await engine.createTable();
  });
  afterAll(() => engine.stop());

  test('every write asks for item collection sizes, and dynalite accepts each request', async () => {
    const client = engine.newClient();
    const sent = observe(client);
    const db = createClient({ model: compileModelFile(manifest), client, tableName });
    await db.putItem('Order', order);
    await db.updateItem('Order', { username: 'ann', orderId: 'o1', amount: 12 });
    await db.batchWrite([{ type: 'put', entity: 'Order', item: { ...order, orderId: 'o2' } }]);
    expect(await db.getItem('Order', { username: 'ann', orderId: 'o2' })).toEqual(expect.objectContaining({ orderId: 'o2' }));
    await db.deleteItem('Order', { username: 'ann', orderId: 'o1' });
    const writes = sent.filter((s) => s.command !== 'GetItemCommand');
    expect(writes.map((s) => s.command)).toEqual(['PutItemCommand', 'UpdateItemCommand', 'BatchWriteItemCommand', 'DeleteItemCommand']);
    expect(writes.every((s) => s.input.ReturnItemCollectionMetrics === 'SIZE')).toBe(true);
    expect(sent.find((s) => s.command === 'GetItemCommand')!.input.ReturnItemCollectionMetrics).toBeUndefined();
  });

  test('each estimate becomes one EMF line on the metric the construct alarms on; 8 GB and up also warns', async () => {
    const client = engine.newClient();
    const sizes = [[0.5, 1.5], [7, 8]];
    let next = 0;
    observe(client, (input) => ({ ItemCollectionKey: { PK: input.Item?.PK ?? input.Key.PK }, SizeEstimateRangeGB: sizes[next++ % 2] }));
    const db = createClient({ model: compileModelFile(manifest), client, tableName });
    const { log, warn } = await logged(async () => {
      await db.putItem('Order', order);
      await db.putItem('Order', { ...order, orderId: 'o3' });
    });
    expect(log.map((l) => JSON.parse(l))).toEqual([1.5, 8].map((upper) => ({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [{ Namespace: 'SingleTable', Dimensions: [['TableName']], Metrics: [{ Name: 'ItemCollectionSizeUpperBoundGB', Unit: 'Gigabytes' }] }],
      },
      TableName: tableName,
      ItemCollectionSizeUpperBoundGB: upper,
      ItemCollectionKey: 'CUSTOMER#ann',
    })));
    expect(warn).toEqual([expect.stringMatching(
      new RegExp(`^\\[ITEM_COLLECTION_NEAR_LIMIT\\] table ${tableName}: the item collection CUSTOMER#ann may hold up to 8 GB of the 10 GB`),
    )]);
  });

  test('batch writes report every collection DynamoDB lists', async () => {
    const client = engine.newClient();
    observe(client, () => [
      { ItemCollectionKey: { PK: { S: 'CUSTOMER#ann' } }, SizeEstimateRangeGB: [1, 2] },
      { ItemCollectionKey: { PK: { S: 'CUSTOMER#bob' } }, SizeEstimateRangeGB: [9, 10] },
    ]);
    const db = createClient({ model: compileModelFile(manifest), client, tableName });
    const { log, warn } = await logged(() => db.batchWrite([
      { type: 'put', entity: 'Order', item: { ...order, orderId: 'o4' } },
      { type: 'put', entity: 'Order', item: { ...order, username: 'bob', orderId: 'o5' } },
    ]));
    expect(log.map((l) => [JSON.parse(l).ItemCollectionKey, JSON.parse(l).ItemCollectionSizeUpperBoundGB])).toEqual([['CUSTOMER#ann', 2], ['CUSTOMER#bob', 10]]);
    expect(warn).toHaveLength(1);
    expect(warn[0]).toContain('CUSTOMER#bob may hold up to 10 GB');
  });
});

describe('itemCollections option', () => {
  let engine: Engine;
  let tableName: string;
  beforeAll(async () => {
    engine = await startEngine();
    tableName = await engine.createTable();
  });
  afterAll(() => engine.stop());

  /** Every write kind once, on a client whose responses carry a 9 GB estimate whenever asked. */
  async function writeAll(options: CreateClientOptions) {
    const client = engine.newClient();
    const sent = observe(client, (input) => {
      const key = input.Item?.PK ?? input.Key?.PK ?? (Object.values(input.RequestItems)[0] as any)[0].PutRequest.Item.PK;
      const estimate = { ItemCollectionKey: { PK: key }, SizeEstimateRangeGB: [8.5, 9] };
      return input.RequestItems ? [estimate] : estimate;
    });
    const db = createClient({ model: compileModelFile(manifest), client, tableName, ...options });
    const out = await logged(async () => {
      await db.putItem('Order', order);
      await db.updateItem('Order', { username: 'ann', orderId: 'o1', amount: 3 });
      await db.batchWrite([{ type: 'put', entity: 'Order', item: { ...order, username: 'cy', orderId: 'o9' } }]);
      await db.deleteItem('Order', { username: 'ann', orderId: 'o1' });
    });
    return { ...out, sent };
  }

  test("'off': writes do not ask for estimates and nothing is logged", async () => {
    const { log, warn, sent } = await writeAll({ itemCollections: 'off' });
    expect(sent.map((s) => [s.command, s.input.ReturnItemCollectionMetrics])).toEqual([
      ['PutItemCommand', undefined], ['UpdateItemCommand', undefined], ['BatchWriteItemCommand', undefined], ['DeleteItemCommand', undefined],
    ]);
    expect([log, warn]).toEqual([[], []]);
  });

  test("'emf', the default, stated explicitly: one line per estimate and the 8 GB warning", async () => {
    const { log, warn } = await writeAll({ itemCollections: 'emf' });
    expect(log.map((l) => JSON.parse(l).ItemCollectionSizeUpperBoundGB)).toEqual([9, 9, 9, 9]);
    expect(warn).toHaveLength(4);
  });

  test('a function receives each estimate, decoded, and nothing is logged', async () => {
    const estimates: unknown[] = [];
    const { log, warn, sent } = await writeAll({ itemCollections: (e) => estimates.push(e) });
    expect(sent.every((s) => s.input.ReturnItemCollectionMetrics === 'SIZE')).toBe(true);
    expect(estimates).toEqual(['CUSTOMER#ann', 'CUSTOMER#ann', 'CUSTOMER#cy', 'CUSTOMER#ann'].map((partitionKey) => ({
      tableName, partitionKey, lowerBoundGB: 8.5, upperBoundGB: 9,
    })));
    expect([log, warn]).toEqual([[], []]);
  });

  test('a function that throws does not fail the write it reports on; the error is logged', async () => {
    const errors: string[] = [];
    const { error } = console;
    console.error = (line: string) => errors.push(line);
    try {
      const client = engine.newClient();
      observe(client, () => ({ ItemCollectionKey: { PK: { S: 'CUSTOMER#ann' } }, SizeEstimateRangeGB: [1, 2] }));
      const db = createClient({ model: compileModelFile(manifest), client, tableName, itemCollections: () => { throw new Error('sink down'); } });
      await db.putItem('Order', { ...order, orderId: 'o7' });
      expect(await db.getItem('Order', { username: 'ann', orderId: 'o7' })).toEqual(expect.objectContaining({ orderId: 'o7' }));
    } finally {
      console.error = error;
    }
    expect(errors).toEqual([expect.stringMatching(/^\[ITEM_COLLECTION_CALLBACK_FAILED\] table .*: the itemCollections function threw after a successful write: Error: sink down$/)]);
  });

  test.each([['EMF'], [true], [{}]])('an unknown setting %p fails createClient, naming the allowed ones', (value) => {
    expect(() => createClient({ model: compileModelFile(manifest), tableName: 't', itemCollections: value as never })).toThrow(
      /^\[INVALID_VALUE\] createClient's itemCollections .* is not 'emf', 'off' or a function/,
    );
  });
});

test('a table without LSIs never asks: it has no item collection limit', async () => {
  const noLsis = { ...JSON.parse(JSON.stringify(manifest)), localIndexes: { enabled: false } };
  for (const e of Object.values(noLsis.entities) as any[]) {
    e.indexes = Object.fromEntries(Object.entries(e.indexes ?? {}).filter(([name]) => !name.startsWith('LSI')));
  }
  noLsis.accessPatterns = Object.fromEntries(Object.entries(noLsis.accessPatterns).filter(([, p]: [string, any]) => !p.index?.startsWith('LSI')));
  const engine = await startEngine(synthesizedTemplate(noLsis as SingleTableManifest));
  try {
    const tableName = await engine.createTable();
    const client = engine.newClient();
    const sent = observe(client);
    const db = createClient({ model: compileModelFile(noLsis as SingleTableManifest), client, tableName });
    await db.putItem('Order', order);
    await db.batchWrite([{ type: 'delete', entity: 'Order', key: { username: 'ann', orderId: 'o1' } }]);
    expect(sent.map((s) => s.input.ReturnItemCollectionMetrics)).toEqual([undefined, undefined]);
  } finally {
    await engine.stop();
  }
});

test('the EMF line names the namespace, metric and dimension of the construct\'s alarm', () => {
  const stack = new Stack(new App(), 'Test');
  new SingleTable(stack, 'Table', { manifest, tableName: 'orders' }).monitor();
  const template = Template.fromStack(stack).toJSON();
  const alarm = Object.values(template.Resources as Record<string, any>)
    .filter((r) => r.Type === 'AWS::CloudWatch::Alarm').map((a) => a.Properties).find((a) => a.Namespace !== 'AWS/DynamoDB' && a.MetricName);
  // The dimension is the table's Ref, which CloudFormation resolves to the name the runtime logs.
  const dimensions = alarm.Dimensions.map((d: any) => ({ Name: d.Name, Value: template.Resources[d.Value.Ref].Properties.TableName }));
  const lines: string[] = [];
  reportItemCollections('orders', [{ ItemCollectionKey: { PK: { S: 'X' } }, SizeEstimateRangeGB: [1, 2] }], { log: (l) => lines.push(l), warn: () => undefined }, 0);
  const line = JSON.parse(lines[0]);
  const emf = line._aws.CloudWatchMetrics[0];
  expect(alarm.Namespace).toBe(emf.Namespace);
  expect(alarm.MetricName).toBe(emf.Metrics[0].Name);
  expect(dimensions).toEqual(emf.Dimensions[0].map((name: string) => ({ Name: name, Value: line[name] })));
  expect(line[emf.Metrics[0].Name]).toBe(2);
});

test('below 8 GB no warning; an estimate without a range logs nothing', () => {
  const out = { log: [] as string[], warn: [] as string[] };
  const sink = { log: (l: string) => out.log.push(l), warn: (l: string) => out.warn.push(l) };
  reportItemCollections('t', [{ SizeEstimateRangeGB: [7, 7.99] }, { ItemCollectionKey: { PK: { S: 'A' } } }], sink, 1);
  expect(out.log).toHaveLength(1);
  expect(out.warn).toEqual([]);
});
