// The segment worker on the embedded engine: a run stopped after a page resumes from its saved
// checkpoint and ends as one uninterrupted run would; the write budget holds the measured rate.
import { resolveModel } from '../../lib/manifest/resolve';
import { planBackfill } from '../../lib/migrate/plan';
import { runSegment, SegmentCheckpoint } from '../../lib/migrate/worker';
import { WriteBudget } from '../../lib/migrate/write-budget';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { shopManifest, shopRows } from '../fixtures/shop';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

let engine: Engine;
beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(shopManifest('B')));
});
afterAll(() => engine.stop());

const plan = planBackfill(resolveModel(shopManifest('B')), resolveModel(shopManifest('A')));

async function seeded(customers: number): Promise<string> {
  const tableName = await engine.createTable();
  const a = createClient({ model: compileModelFile(shopManifest('A')), client: engine.client, tableName }) as unknown as { batchWrite(r: object[]): Promise<void> };
  await a.batchWrite(shopRows(customers, 4, customers).map((r) => ({ type: 'put', entity: r.entity, item: r.item })));
  return tableName;
}

test('a segment stopped after its first page resumes from the saved checkpoint: every stale item rewritten once', async () => {
  const tableName = await seeded(30); // 30 customers, 120 orders, 30 products
  const saved: string[] = [];
  const first = await runSegment({
    client: engine.client,
    tableName,
    plan,
    segment: 1,
    totalSegments: 2,
    pageSize: 20,
    onCheckpoint: (c) => void saved.push(JSON.stringify(c)),
    shouldStop: () => true,
  });
  expect(first.done).toBe(false);
  expect(first.counts.scanned).toBe(20);
  // The checkpoint survives a round trip through a file (JSON), as the CLI and a Step Functions state keep it.
  const checkpoint = JSON.parse(saved[saved.length - 1]) as SegmentCheckpoint;
  const rest = await runSegment({ client: engine.client, tableName, plan, segment: 1, totalSegments: 2, pageSize: 20, checkpoint });
  const other = await runSegment({ client: engine.client, tableName, plan, segment: 0, totalSegments: 2 });
  expect(rest.done).toBe(true);
  expect(rest.counts.scanned + other.counts.scanned).toBe(180);
  expect(rest.counts.rewritten + other.counts.rewritten).toBe(150);
  expect(rest.counts.stale).toBe(rest.counts.rewritten);
  // A done segment is not scanned again.
  expect((await runSegment({ client: engine.client, tableName, plan, segment: 1, totalSegments: 2, checkpoint: rest })).counts).toEqual(rest.counts);
  const again = await runSegment({ client: engine.client, tableName, plan, segment: 0, totalSegments: 1 });
  expect(again.counts).toMatchObject({ scanned: 180, stale: 0, rewritten: 0 });
});

test('the write budget holds the measured write units per second', async () => {
  const tableName = await seeded(10); // 50 stale items, about 4 write units each
  const budget = new WriteBudget(60);
  const started = Date.now();
  const r = await runSegment({ client: engine.client, tableName, plan, segment: 0, totalSegments: 1, budget });
  const elapsed = (Date.now() - started) / 1000;
  expect(r.counts.rewritten).toBe(50);
  expect(r.counts.writeUnits).toBeGreaterThan(100);
  // Spent units never run ahead of the budget by more than the one write in flight.
  expect(r.counts.writeUnits).toBeLessThanOrEqual(60 * elapsed + 10);
  expect(elapsed).toBeGreaterThan((r.counts.writeUnits - 10) / 60);
});

test('the budget makes a write wait until the measured debt is paid, and saves nothing up while idle', async () => {
  let now = 0;
  const waits: number[] = [];
  const budget = new WriteBudget(100, () => now, async (ms) => {
    waits.push(ms);
    now += ms;
  });
  await budget.acquire();
  budget.spend(50);
  await budget.acquire();
  expect(waits).toEqual([500]);
  now += 10_000; // idle: no burst afterwards
  budget.spend(100);
  await budget.acquire();
  expect(waits).toEqual([500, 1000]);
  expect(() => new WriteBudget(0)).toThrow(/positive number of units per second, got 0/);
});
