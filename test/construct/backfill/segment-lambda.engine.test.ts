// The backfill job's Lambda as the state machine runs it, on DynamoDB Local: the bundle and the
// model files the construct staged are loaded from the synthesized asset, configured from the
// function's synthesized environment, and driven through the synthesized definition: the Map's
// item list and selector, the Task's payload, and the Choice loop, with so little time left at
// each invocation that every one stops after a page and returns its checkpoint.
import { rmSync } from 'fs';
import * as path from 'path';
import { AttributeValue, ScanCommand } from '@aws-sdk/client-dynamodb';
import { BackfillStack, backfillStack, definitionOf, segmentAssetDir } from './synth';
import type { SegmentState } from '../../../lib/migrate/lambda';
import { createClient } from '../../../lib/runtime';
import { compileModelFile } from '../../../lib/testing';
import { shopManifest, shopRows } from '../../fixtures/shop';
import { Engine, startEngine } from '../../support/engine';

type Item = Record<string, AttributeValue>;
type Handler = (event: object, context: { getRemainingTimeInMillis(): number }) => Promise<SegmentState>;

let synth: BackfillStack;
let engine: Engine;
beforeAll(async () => {
  synth = backfillStack({ previousManifest: shopManifest('A'), segments: 4, maxConcurrency: 2, maxWriteUnitsPerSecond: 2000 });
  engine = await startEngine(synth.template.toJSON());
});
afterAll(async () => {
  await engine.stop();
  rmSync(synth.app.outdir, { recursive: true, force: true });
});

/** The staged handler, its environment as the function's (the table name replaced by the test table's). */
function loadHandler(tableName: string): Handler {
  const fn = Object.values(synth.template.findResources('AWS::Lambda::Function'))[0];
  const env = fn.Properties.Environment.Variables as Record<string, unknown>;
  Object.assign(process.env, Object.fromEntries(Object.entries(env).filter(([, v]) => typeof v === 'string')), { TABLE_NAME: tableName });
  let handler: Handler | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    handler = require(path.join(segmentAssetDir(synth), 'index.js')).handler;
  });
  return handler!;
}

// The SDK of the bundle reaches DynamoDB Local through the environment, as a Lambda's reaches DynamoDB.
const saved = { ...process.env };
beforeAll(() => {
  Object.assign(process.env, { AWS_ENDPOINT_URL_DYNAMODB: engine.endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
});
afterAll(() => {
  process.env = saved;
});

interface Run {
  readonly invocations: number;
  /** Each segment's final state, and the state it ended in (Succeed or Fail). */
  readonly segments: { state: SegmentState; end: string }[];
}

/** Follows the definition: the Pass's list, the Map's selector and concurrency, then per item the processor's states. */
async function execute(handler: Handler, remainingMs: number): Promise<Run> {
  const definition = definitionOf(synth);
  const list = definition.States[definition.StartAt];
  const [, from, to, step] = /^States\.ArrayRange\((\d+), (\d+), (\d+)\)$/.exec(list.Parameters['segments.$'])!.map(Number);
  const items = Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);
  const map = definition.States[list.Next];
  expect(map.ItemsPath).toBe('$.segments');
  const processor = map.ItemProcessor;
  let invocations = 0;

  async function child(value: number): Promise<{ state: SegmentState; end: string }> {
    const selector = map.ItemSelector;
    let state: any = { segment: value, totalSegments: selector.totalSegments };
    expect(selector['segment.$']).toBe('$$.Map.Item.Value');
    let name = processor.StartAt;
    for (let steps = 0; steps < 1000; steps++) {
      const s = processor.States[name];
      if (s.Type === 'Task') {
        expect(s.Resource).toBe('FUNCTION');
        // The whole state is the payload and the response the next state: JSON both ways.
        state = JSON.parse(JSON.stringify(await handler(JSON.parse(JSON.stringify(state)), { getRemainingTimeInMillis: () => remainingMs })));
        invocations++;
        name = s.Next;
      } else if (s.Type === 'Choice') {
        const rule = s.Choices.find((c: any) => {
          const v = c.Variable.slice(2).split('.').reduce((o: any, k: string) => o?.[k], state);
          if ('BooleanEquals' in c) return v === c.BooleanEquals;
          if ('NumericGreaterThan' in c) return v > c.NumericGreaterThan;
          throw new Error(`no evaluation of ${JSON.stringify(c)}`);
        });
        name = rule ? rule.Next : s.Default;
      } else {
        return { state, end: s.Type };
      }
    }
    throw new Error(`segment ${value} did not end in 1000 steps`);
  }

  const segments: { state: SegmentState; end: string }[] = [];
  for (let i = 0; i < items.length; i += map.MaxConcurrency) {
    segments.push(...await Promise.all(items.slice(i, i + map.MaxConcurrency).map(child)));
  }
  return { invocations, segments };
}

async function scan(tableName: string): Promise<Map<string, Item>> {
  const items = new Map<string, Item>();
  let start: Item | undefined;
  do {
    const page = await engine.client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) items.set(`${item.PK.S}|${item.SK.S}`, item);
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

const declared = [...new Set(Object.values(shopManifest('B').entities).flatMap((e) => Object.keys(e.attributes)))];
const sum = (run: Run, key: keyof SegmentState['counts']) => run.segments.reduce((n, s) => n + s.state.counts[key], 0);

test('segment by segment through the Choice loop, every item ends as a put under the new manifest writes it; a second execution rewrites nothing', async () => {
  const rows = shopRows(60, 5, 60);
  const [tableName, oracle] = [await engine.createTable(), await engine.createTable()];
  type Batch = { batchWrite(r: object[]): Promise<void> };
  const requests = rows.map((r) => ({ type: 'put', entity: r.entity, item: r.item }));
  await (createClient({ model: compileModelFile(shopManifest('A')), client: engine.client, tableName }) as unknown as Batch).batchWrite(requests);
  await (createClient({ model: compileModelFile(shopManifest('B')), client: engine.client, tableName: oracle }) as unknown as Batch).batchWrite(requests);
  const before = await scan(tableName);
  const handler = loadHandler(tableName);

  const first = await execute(handler, 1000);
  expect(first.segments.map((s) => s.end)).toEqual(['Succeed', 'Succeed', 'Succeed', 'Succeed']);
  expect(first.segments.map((s) => s.state.segment)).toEqual([0, 1, 2, 3]);
  // 420 items in 4 segments, 100 per page: at least two pages in some segment, one invocation per page.
  expect(first.invocations).toBeGreaterThan(4);
  expect(sum(first, 'scanned')).toBe(rows.length);
  // Every order (new GSI3, GSI2 resharded) and every product (changed template); customers are current.
  expect(sum(first, 'rewritten')).toBe(300 + 60);
  expect(sum(first, 'failed')).toBe(0);

  const after = await scan(tableName);
  const expected = await scan(oracle);
  expect(after.size).toBe(rows.length);
  for (const [key, item] of after) {
    expect(item).toEqual(expected.get(key));
    const old = before.get(key)!;
    // Every attribute an entity declares is as written before.
    for (const name of declared) expect(item[name]).toEqual(old[name]);
  }

  const second = await execute(handler, 1000);
  expect(sum(second, 'scanned')).toBe(rows.length);
  expect(sum(second, 'stale')).toBe(0);
  expect(sum(second, 'rewritten')).toBe(0);
});

test('with the whole time limit left, each segment is done in one invocation', async () => {
  const tableName = await engine.createTable();
  const run = await execute(loadHandler(tableName), 15 * 60 * 1000);
  expect(run.invocations).toBe(4);
  expect(run.segments.every((s) => s.end === 'Succeed' && s.state.done)).toBe(true);
});
