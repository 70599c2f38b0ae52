// Every rewrite the design advice proposes for the designs with index mistakes, on DynamoDB Local:
// the same items written under the old and the new design (tables from each manifest's synthesized
// template) give every pattern the same results, and the write units DynamoDB reports per index
// (ReturnConsumedCapacity INDEXES) are the cost model's, so they change by what the advice predicts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { localData } from '../../examples/local-data';
import { manifest as example } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import type { SingleTableManifest } from '../../lib/model/manifest';
import { designAdvice } from '../../lib/reports/advice/advice';
import { SECONDS_PER_MONTH } from '../../lib/reports/advice/prices';
import { AdviceRule } from '../../lib/reports/advice/rules';
import { costReport } from '../../lib/reports/cost';
import { WriteKind } from '../../lib/reports/cost-writes';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { runIn } from '../cli/run';
import { accountEvents, customerPartition, largeOrders, notesOnLsi, threeLookupIndexes } from '../fixtures/advice-designs';
import { ADVICE_DOC_FILES, adviceDocBlock } from '../support/advice-docs';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

type Inputs = Record<string, object[]>;
type Units = Record<string, number>;
type Items = { entity: string; item: Record<string, unknown> }[];

/** Units DynamoDB reported per index (`table` for the table) for writing `items`. */
async function writeMeasured(
  engine: Engine, manifest: SingleTableManifest, items: Items,
): Promise<{ tableName: string; units: Units; queryUnits: Units; client: DynamoDBClient }> {
  const tableName = await engine.createTable();
  const client = engine.newClient();
  const units: Units = {};
  const queryUnits: Units = {};
  client.middlewareStack.add((next, context) => async (args) => {
    if (context.commandName === 'QueryCommand') {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits: number } }).ConsumedCapacity;
      queryUnits.total = (queryUnits.total ?? 0) + (consumed?.CapacityUnits ?? 0);
      return result;
    }
    if (context.commandName !== 'PutItemCommand') return next(args);
    const input = args.input as { ReturnConsumedCapacity?: string };
    input.ReturnConsumedCapacity = 'INDEXES';
    const result = await next(args);
    const consumed = (result.output as { ConsumedCapacity?: any }).ConsumedCapacity;
    for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
      units.table = (units.table ?? 0) + (c.Table?.CapacityUnits ?? 0);
      for (const [name, index] of Object.entries({ ...c.GlobalSecondaryIndexes, ...c.LocalSecondaryIndexes })) {
        units[name] = (units[name] ?? 0) + (index as { CapacityUnits: number }).CapacityUnits;
      }
    }
    return result;
  }, { step: 'initialize' });
  const db = createClient({ model: compileModelFile(manifest), client, tableName }) as unknown as {
    putItem(entity: string, item: object): Promise<unknown>;
  };
  for (const { entity, item } of items) await db.putItem(entity, item);
  return { tableName, units, queryUnits, client };
}

/** The cost model's put units per index for `items`. */
/**
 * The cost model's put units per index for `items`: from each item's exact size (`measured`, what
 * DynamoDB reports) or from the manifest's typical sizes (what the advice's figures use).
 */
function predicted(manifest: SingleTableManifest, items: Items, sizes: 'exact' | 'typical' = 'exact'): Units {
  const model = compileManifest(manifest).model;
  const units: Units = {};
  for (const { entity, item } of items) {
    const report = costReport(model, sizes === 'exact' ? { sampleItems: { [entity]: item } } : {});
    const put = report.writes.find((w) => w.entity === entity && w.kind === WriteKind.PUT)!;
    units.table = (units.table ?? 0) + put.tableUnits;
    for (const i of put.indexes) units[i.index] = (units[i.index] ?? 0) + i.units;
  }
  return units;
}

/** Every pattern's results on a table, each item kept to the attributes the pattern declares it needs. */
async function results(
  manifest: SingleTableManifest, client: DynamoDBClient, tableName: string, inputs: Inputs,
): Promise<Record<string, string[]>> {
  const model = compileManifest(manifest).model;
  const db = createClient({ model: compileModelFile(manifest), client, tableName }) as unknown as {
    query(p: string, i: object): Promise<{ items: Items }>;
  };
  const out: Record<string, string[]> = {};
  for (const [pattern, list] of Object.entries(inputs)) {
    const wanted = model.patterns[pattern].attributes;
    out[pattern] = [];
    for (const input of list) {
      const page = await db.query(pattern, input);
      out[pattern].push(...page.items.map(({ entity, item }) => JSON.stringify([entity, ...wanted.map((a) => item[a])])).sort());
    }
  }
  return out;
}

/** Writes `items` under both designs and checks patterns, units and the advice's figure. */
async function compare(
  before: SingleTableManifest, after: SingleTableManifest, items: Items, inputs: Inputs, monthlyWriteUnits: number,
): Promise<{ oldQueryUnits: number; newQueryUnits: number }> {
  const [oldEngine, newEngine] = [await startEngine(synthesizedTemplate(before)), await startEngine(synthesizedTemplate(after))];
  try {
    const old = await writeMeasured(oldEngine, before, items);
    const next = await writeMeasured(newEngine, after, items);
    expect(old.units).toEqual(predicted(before, items));
    expect(next.units).toEqual(predicted(after, items));
    const oldResults = await results(before, old.client, old.tableName, inputs);
    expect(Object.values(oldResults).every((r) => r.length > 0)).toBe(true);
    expect(await results(after, next.client, next.tableName, inputs)).toEqual(oldResults);
    // Per put of each entity, the measured difference times its declared rate over a month is the advice's figure.
    const model = compileManifest(before).model;
    const perEntity = new Map<string, { count: number; delta: number }>();
    for (const { entity } of items) perEntity.set(entity, { count: (perEntity.get(entity)?.count ?? 0) + 1, delta: 0 });
    let monthly = 0;
    for (const [entity, { count }] of perEntity) {
      const only = items.filter((i) => i.entity === entity);
      const sum = (u: Record<string, number>) => Object.values(u).reduce((a, b) => a + b, 0);
      const delta = (sum(predicted(after, only, 'typical')) - sum(predicted(before, only, 'typical'))) / count;
      monthly += delta * (model.entities[entity].writesPerSecond ?? 0) * SECONDS_PER_MONTH;
    }
    const measuredDelta = Object.values(next.units).reduce((a, b) => a + b, 0) - Object.values(old.units).reduce((a, b) => a + b, 0);
    expect(Math.sign(measuredDelta)).toBe(Math.sign(monthlyWriteUnits));
    expect(monthly).toBeCloseTo(monthlyWriteUnits, 3);
    return { oldQueryUnits: old.queryUnits.total, newQueryUnits: next.queryUnits.total };
  } finally {
    await oldEngine.stop();
    await newEngine.stop();
  }
}

const LOOKUP_ITEMS: Items = [
  ...['u1', 'u2'].map((id) => ({ entity: 'User', item: { userId: id, email: `${id}@example.com` } })),
  ...['o1', 'o2', 'o3'].map((id, i) => ({ entity: 'Order', item: { orderId: id, status: i ? 'SHIPPED' : 'OPEN', createdAt: `2026-01-0${i + 1}T00:00:00.000Z` } })),
  ...['p1', 'p2'].map((id, i) => ({ entity: 'Product', item: { productId: id, category: 'BOOKS', price: 10 + i } })),
];
const LOOKUP_INPUTS = {
  userByEmail: [{ email: 'u1@example.com' }, { email: 'u2@example.com' }],
  ordersByStatus: [{ status: 'SHIPPED' }, { status: 'OPEN' }],
  productsByCategory: [{ category: 'BOOKS' }],
};

test('three lookup GSIs merged into one overloaded GSI: same results, the same write units, as the advice says', async () => {
  const advice = designAdvice(threeLookupIndexes).advice.find((a) => a.rule === AdviceRule.OVERLOAD_GSIS)!;
  expect(advice.monthly.writeUnits).toBe(0);
  await compare(threeLookupIndexes, advice.manifest!, LOOKUP_ITEMS, LOOKUP_INPUTS, 0);
});

test('the loop docs/advice.md shows, run as written: advise --write, the transition table the old design wrote, backfill priced then run, the improved design served', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'advise-loop-'));
  const commands = adviceDocBlock('test/reports/advice.engine.test.ts').code.trim().split('\n').map((line) => line.trim().split(/\s+/).slice(2));
  try {
    for (const [file, design] of Object.entries(ADVICE_DOC_FILES)) writeFileSync(join(dir, file), JSON.stringify(design));
    expect((await runIn(dir, ...commands[0])).code).toBe(0);
    const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as SingleTableManifest;
    const [transition, improved] = [read('improved.transition.json'), read('improved.json')];
    expect(Object.keys(transition.globalIndexes!)).toEqual(['EmailIndex', 'StatusIndex', 'CategoryIndex', 'GSI1']);
    // The deployed application, still on the current design, wrote its items into the transition table.
    const engine = await startEngine(synthesizedTemplate(transition));
    try {
      const { tableName, client } = await writeMeasured(engine, threeLookupIndexes, LOOKUP_ITEMS);
      const backfill = async (args: string[]) => {
        const out = await runIn(dir, ...args.map((a) => (a === 'Shop' ? tableName : a)), '--endpoint', engine.endpoint, '--json');
        expect(out.stderr).toBe('');
        return JSON.parse(out.stdout);
      };
      // Each of the 7 items gets its GSI1 keys: a write unit on the table, one entering GSI1, and one
      // rewriting its entry in its old index, which projects ALL (so the new attributes too).
      expect((await backfill(commands[1])).counts).toMatchObject({ scanned: 7, stale: 7, rewritten: 0, failed: 0, writeUnits: 21 });
      expect((await backfill(commands[2])).counts).toMatchObject({ stale: 7, rewritten: 7, failed: 0, writeUnits: 21 });
      expect(await results(improved, client, tableName, LOOKUP_INPUTS)).toEqual(await results(threeLookupIndexes, client, tableName, LOOKUP_INPUTS));
    } finally {
      await engine.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('10 KB orders: ALL to INCLUDE of what the pattern reads, and KEYS_ONLY to INCLUDE, each with the predicted write units', async () => {
  const { advice } = designAdvice(largeOrders);
  const lines = ['x'.repeat(9700)];
  const items: Items = ['o1', 'o2', 'o3'].map((id, i) => ({
    entity: 'Order',
    item: { orderId: id, customerId: i ? 'c1' : 'c2', repId: 'r1', orderDate: `2026-02-0${i + 1}T00:00:00.000Z`, status: 'OPEN', open: true, totalAmount: 100 + i, lines },
  }));
  const inputs = { ordersForCustomer: [{ customerId: 'c1' }, { customerId: 'c2' }], openOrders: [{ open: true }], ordersForRep: [{ repId: 'r1' }] };
  const include = advice.find((a) => a.rule === AdviceRule.PROJECT_READ_ATTRIBUTES)!;
  expect(include.monthly.writeUnits).toBe(-9 * 100 * SECONDS_PER_MONTH);
  await compare(largeOrders, include.manifest!, items, inputs, include.monthly.writeUnits);
  const fetched = advice.find((a) => a.rule === AdviceRule.PROJECT_FETCHED_ATTRIBUTES)!;
  expect(fetched.monthly.writeUnits).toBe(0);
  await compare(largeOrders, fetched.manifest!, items, inputs, 0);
});

test('removing an unused GSI, moving a pattern to an LSI slot or to a GSI, sharding a hot key: same results, predicted units', async () => {
  const at = (d: number) => `2026-03-0${d}T00:00:00.000Z`;
  const events: Items = [
    ...['a1', 'a2'].map((id) => ({ entity: 'Account', item: { accountId: id, plan: 'PRO' } })),
    ...[1, 2, 3, 4].map((d) => ({ entity: 'Event', item: { accountId: d % 2 ? 'a1' : 'a2', eventId: `e${d}`, at: at(d), kind: d < 3 ? 'LOGIN' : 'PAY' } })),
  ];
  const eventInputs = { eventsByTime: [{ accountId: 'a1' }, { accountId: 'a2' }], eventsByKind: [{ kind: 'LOGIN' }, { kind: 'PAY' }] };
  const eventAdvice = designAdvice(accountEvents).advice.filter((a) => a.hasEffect && a.manifest);
  expect(eventAdvice.map((a) => a.rule)).toEqual([AdviceRule.UNUSED_INDEX, AdviceRule.LSI_FOR_PARTITION_PATTERN, AdviceRule.SHARD_HOT_KEY]);
  for (const a of eventAdvice) await compare(accountEvents, a.manifest!, events, eventInputs, a.monthly.writeUnits);

  const notes: Items = [1, 2, 3].map((d) => ({ entity: 'Note', item: { accountId: 'a1', noteId: `n${d}`, writtenAt: at(d) } }));
  const [move] = designAdvice(notesOnLsi).advice.filter((a) => a.hasEffect);
  expect(move.rule).toBe(AdviceRule.GSI_FOR_UNBOUNDED_COLLECTION);
  await compare(notesOnLsi, move.manifest!, notes, { notesByTime: [{ accountId: 'a1' }] }, move.monthly.writeUnits);
});

test('a sort-key prefix instead of reading the whole partition: the same orders, fewer read units measured', async () => {
  const [advice] = designAdvice(customerPartition).advice.filter((a) => a.hasEffect);
  expect(advice.rule).toBe(AdviceRule.KEY_INSTEAD_OF_FILTER);
  const lines = ['x'.repeat(250)];
  const items: Items = [
    { entity: 'Customer', item: { customerId: 'c1', name: 'Ann' } },
    ...Array.from({ length: 50 }, (_, i) => ({ entity: 'Address', item: { customerId: 'c1', addressId: `a${i}`, lines } })),
    ...['o1', 'o2'].map((orderId, i) => ({ entity: 'Order', item: { customerId: 'c1', orderId, total: 10 + i } })),
  ];
  const { oldQueryUnits, newQueryUnits } = await compare(customerPartition, advice.manifest!, items, { ordersOfCustomer: [{ customerId: 'c1' }] }, 0);
  // The whole partition (the profile and 50 addresses of about 300 bytes) against the two small orders alone.
  expect(newQueryUnits).toBe(0.5);
  expect(oldQueryUnits).toBeGreaterThanOrEqual(2);
});

test('the example app\'s advice, GSI3 overloaded into GSI1: its sample data gives every pattern the same items, at the units the cost model predicts', async () => {
  const [merge] = designAdvice(example).advice.filter((a) => a.hasEffect);
  expect(merge.indexes).toEqual(['GSI1', 'GSI3']);
  const items: Items = Object.entries(localData.items)
    .flatMap(([entity, list]) => (list as Record<string, unknown>[]).map((item) => ({ entity, item })));
  const inputs = Object.fromEntries(Object.entries(localData.queries).map(([pattern, input]) => [pattern, [input]]));
  await compare(example, merge.manifest!, items, inputs, 0);
});
