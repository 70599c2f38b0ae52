// The segment handler as an orchestrator drives it: each segment invoked again with the checkpoint
// it returned (through JSON, as a Step Functions state carries it) until done, here with the time
// always short so that every invocation stops after one page.
import { resolveModel } from '../../lib/manifest/resolve';
import { SegmentOutput, segmentHandler } from '../../lib/migrate/handler';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { shopManifest, shopRows } from '../fixtures/shop';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

let engine: Engine;
beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(shopManifest('B')));
});
afterAll(() => engine.stop());

test('segment by segment, across invocations cut after each page, every stale item is rewritten once; a second pass rewrites nothing', async () => {
  const tableName = await engine.createTable();
  const a = createClient({ model: compileModelFile(shopManifest('A')), client: engine.client, tableName }) as unknown as { batchWrite(r: object[]): Promise<void> };
  await a.batchWrite(shopRows(30, 4, 30).map((r) => ({ type: 'put', entity: r.entity, item: r.item })));
  const handler = segmentHandler({
    model: resolveModel(shopManifest('B')),
    previous: resolveModel(shopManifest('A')),
    tableName,
    client: engine.client,
    maxWriteUnitsPerSecond: 1000,
    pageSize: 25,
  });
  const shortOfTime = { getRemainingTimeInMillis: () => 1000 };

  async function pass(): Promise<{ invocations: number; outputs: SegmentOutput[] }> {
    let invocations = 0;
    const outputs: SegmentOutput[] = [];
    for (let segment = 0; segment < 3; segment++) {
      let state: SegmentOutput | undefined;
      do {
        state = JSON.parse(JSON.stringify(await handler({ segment, totalSegments: 3, checkpoint: state }, shortOfTime))) as SegmentOutput;
        invocations++;
      } while (!state.done);
      outputs.push(state);
    }
    return { invocations, outputs };
  }
  const first = await pass();
  const sum = (outputs: SegmentOutput[], key: 'scanned' | 'rewritten' | 'stale' | 'failed') => outputs.reduce((n, o) => n + o.counts[key], 0);
  expect(first.invocations).toBeGreaterThan(3);
  expect(sum(first.outputs, 'scanned')).toBe(180);
  expect(sum(first.outputs, 'rewritten')).toBe(150);
  expect(sum(first.outputs, 'failed')).toBe(0);
  const second = await pass();
  expect(sum(second.outputs, 'stale')).toBe(0);
  expect(sum(second.outputs, 'scanned')).toBe(180);
});
