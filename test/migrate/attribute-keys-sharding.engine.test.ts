// Backfilling the shard attribute of a multi-attribute GSI on DynamoDB Local: sharding added to an
// existing index (its items, written without a shard, are out of the index until the backfill
// writes ByStatusShard to each), then a count changed (previousShardCounts: the backfill moves each
// item to its shard under the new count). The plan names the index; dry run, run and the CLI agree.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { shardForItem } from '../../lib/keys/shard';
import { resolveModel } from '../../lib/manifest/resolve';
import { backfill, planBackfill } from '../../lib/migrate';
import { ShardingDefinition } from '../../lib/model/manifest';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { run } from '../cli/run';
import { shardedTournamentManifest } from '../fixtures/tournament';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { allPages } from '../support/requests';

const MATCHES = Array.from({ length: 24 }, (_, i) => ({ matchId: `m${String(i).padStart(2, '0')}`, status: 'OPEN', round: i % 5, bracket: i % 2 ? 'UPPER' : 'LOWER' }));
type Page = { items: { item: { matchId: string } }[]; cursor?: string };
type Query = { query(pattern: string, input: object, options: { limit: number; cursor?: string }): Promise<Page> };

let engine: Engine;
let tableName: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shard-backfill-'));
  engine = await startEngine(synthesizedTemplate(shardedTournamentManifest({ shardCount: 4 })));
  // The index as deployed with the shard in its key; the items as an unsharded design wrote them.
  tableName = await engine.createTable();
  const before = createClient({ model: compileModelFile(shardedTournamentManifest()), client: engine.client, tableName });
  await before.batchWrite(MATCHES.map((item) => ({ type: 'put' as const, entity: 'Match', item })));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await engine.stop();
});

const storedShard = async (matchId: string) =>
  (await engine.client.send(new GetItemCommand({ TableName: tableName, Key: { PK: { S: `MATCH#${matchId}` }, SK: { S: 'MATCH' } } }))).Item!.ByStatusShard?.N;
async function openIds(sharding: ShardingDefinition): Promise<string[]> {
  const db = createClient({ model: compileModelFile(shardedTournamentManifest(sharding)), client: engine.client, tableName }) as unknown as Query;
  const { items } = await allPages((cursor) => db.query('byStatus', { status: 'OPEN' }, { limit: 5, cursor }));
  return items.map((r) => r.item.matchId).sort();
}

test('sharding added to an index: the plan names the attribute, the backfill writes it to every item, and queries find them', async () => {
  const plan = planBackfill(resolveModel(shardedTournamentManifest({ shardCount: 4 })), resolveModel(shardedTournamentManifest()));
  expect(plan.entities[0].changes).toEqual([{ index: 'ByStatus', change: 'SHARDS', detail: 'unsharded -> 4 shard(s), RANDOM in ByStatusShard: ByStatusShard written' }]);
  expect(plan.managed).toContain('ByStatusShard');
  // Before: no item holds a shard, so none is in the index.
  expect(await openIds({ shardCount: 4 })).toEqual([]);

  writeFileSync(join(dir, 'next.json'), JSON.stringify(shardedTournamentManifest({ shardCount: 4 })));
  writeFileSync(join(dir, 'previous.json'), JSON.stringify(shardedTournamentManifest()));
  const args = [join(dir, 'next.json'), '--from', join(dir, 'previous.json'), '--table', tableName, '--endpoint', engine.endpoint];
  const dry = await run('backfill', ...args, '--dry-run');
  expect(dry.stdout).toContain('ByStatus shards (unsharded -> 4 shard(s), RANDOM in ByStatusShard: ByStatusShard written)');
  expect(await storedShard('m00')).toBeUndefined();

  const result = await backfill({ client: engine.client, tableName, plan });
  expect(result.counts).toMatchObject({ scanned: MATCHES.length, stale: MATCHES.length, rewritten: MATCHES.length, failed: 0 });
  for (const { matchId } of MATCHES) expect(await storedShard(matchId)).toBe(String(shardForItem(`MATCH#${matchId}`, 'MATCH', 4)));
  expect(await openIds({ shardCount: 4 })).toEqual(MATCHES.map((m) => m.matchId));
  const again = await run('backfill', ...args, '--json');
  expect(JSON.parse(again.stdout).counts).toMatchObject({ stale: 0, rewritten: 0 });
});

test('resharded from 4 to 6: the shard history names it, and the backfill moves each item to its shard under 6', async () => {
  const next = shardedTournamentManifest({ shardCount: 6, previousShardCounts: [4] });
  const plan = planBackfill(resolveModel(next));
  expect(plan.entities[0].changes).toEqual([{ index: 'ByStatus', change: 'SHARDS', detail: '4 shard(s) -> 6 shard(s), RANDOM' }]);
  const moved = MATCHES.filter((m) => shardForItem(`MATCH#${m.matchId}`, 'MATCH', 6) !== shardForItem(`MATCH#${m.matchId}`, 'MATCH', 4)).length;
  expect(moved).toBeGreaterThan(0);
  const dry = await backfill({ client: engine.client, tableName, plan, dryRun: true });
  expect(dry.counts).toMatchObject({ stale: moved, rewritten: 0 });
  const result = await backfill({ client: engine.client, tableName, plan });
  expect(result.counts).toMatchObject({ stale: moved, rewritten: moved, failed: 0 });
  for (const { matchId } of MATCHES) expect(await storedShard(matchId)).toBe(String(shardForItem(`MATCH#${matchId}`, 'MATCH', 6)));
  expect(await openIds({ shardCount: 6, previousShardCounts: [4] })).toEqual(MATCHES.map((m) => m.matchId));
});
