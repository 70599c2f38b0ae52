// dynalite stays the engine for machines without java, so the runtime must behave the same on it:
// the example's sample items are written through the runtime on both engines, and every access
// pattern, paged two items at a time with its cursor, returns the same items in the same order.
import { localData } from '../../examples/local-data';
import { manifest } from '../../examples/manifest';
import { EngineKind } from '../../lib/engine/engine';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine } from '../support/engine';

type Results = Record<string, unknown[]>;

async function runAll(kind: EngineKind): Promise<{ engine: Engine; results: Results }> {
  const engine = await startEngine(undefined, kind);
  const db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName: await engine.createTable() });
  const loose = db as unknown as {
    putItem(e: string, i: unknown): Promise<void>;
    query(p: string, i: unknown, o: unknown): Promise<{ items: unknown[]; cursor?: string }>;
  };
  for (const [entity, items] of Object.entries(localData.items)) for (const item of items) await loose.putItem(entity, item);
  const results: Results = {};
  for (const [pattern, input] of Object.entries(localData.queries)) {
    const items: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await loose.query(pattern, input, { limit: 2, cursor });
      items.push(...page.items);
      cursor = page.cursor;
    } while (cursor);
    results[pattern] = items;
  }
  return { engine, results };
}

test('every access pattern of the example returns the same pages on DynamoDB Local and on dynalite', async () => {
  const aws = await runAll('dynamodb-local');
  const fallback = await runAll('dynalite');
  try {
    expect(aws.engine.kind).toBe('dynamodb-local');
    expect(fallback.engine.kind).toBe('dynalite');
    expect(Object.keys(aws.results)).toEqual(Object.keys(localData.queries));
    expect(Object.values(aws.results).every((items) => items.length > 0)).toBe(true);
    expect(fallback.results).toEqual(aws.results);
  } finally {
    await aws.engine.stop();
    await fallback.engine.stop();
  }
});
