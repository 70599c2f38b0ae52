// Backfilling to a design that adds a multi-attribute GSI (AWS's tournament index) on DynamoDB
// Local, over items stored before it with a key attribute of another type (`round` as the string
// '7' where the index declares a NUMBER): the plan names the index, the dry run lists every such
// item (entity, key, attribute, stored and declared type), the run goes on past them and reports
// them the same way through the CLI, the programmatic API and the Step Functions segment function,
// and a run after the values are fixed finishes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AttributeValue, CreateGlobalSecondaryIndexAction, DescribeTableCommand, UpdateItemCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { resolveModel } from '../../lib/manifest/resolve';
import { backfill, planBackfill } from '../../lib/migrate';
import { segmentHandler } from '../../lib/migrate/handler';
import { itemFix } from '../../lib/migrate/plan';
import { SingleTableManifest } from '../../lib/model/manifest';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { run } from '../cli/run';
import { tournamentManifest } from '../fixtures/tournament';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

/** The design after: the tournament index, and a composed GSI1 by region that every match is stale for. */
function nextManifest(): SingleTableManifest {
  const m = tournamentManifest();
  return {
    ...m,
    entities: { Match: { ...m.entities.Match, indexes: { GSI1: { pk: 'REGION#{region}', sk: 'MATCH#{matchId}' } } } },
    globalIndexes: { ...m.globalIndexes, GSI1: {} },
  };
}
/** The design before: neither index, no pattern on them. */
function previousManifest(): SingleTableManifest {
  const m = tournamentManifest();
  return { ...m, globalIndexes: {}, accessPatterns: {} };
}

let engine: Engine;
let dir: string;
let tableName: string;
const key = (matchId: string): Record<string, AttributeValue> => ({ PK: { S: `MATCH#${matchId}` }, SK: { S: 'MATCH' } });
const setRaw = (matchId: string, name: string, value: AttributeValue) =>
  engine.client.send(new UpdateItemCommand({ TableName: tableName, Key: key(matchId), UpdateExpression: 'SET #a = :v', ExpressionAttributeNames: { '#a': name }, ExpressionAttributeValues: { ':v': value } }));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'key-violations-'));
  writeFileSync(join(dir, 'next.json'), JSON.stringify(nextManifest()));
  writeFileSync(join(dir, 'previous.json'), JSON.stringify(previousManifest()));
  // The table as deployed before, then the new indexes added to it as a deployment adds them.
  engine = await startEngine(synthesizedTemplate(previousManifest()));
  tableName = await engine.createTable();
  const before = createClient({ model: compileModelFile(previousManifest()), client: engine.client, tableName });
  await before.batchWrite(['m1', 'm2', 'm3', 'm4'].map((matchId, i) => ({
    type: 'put' as const, entity: 'Match', item: { tournamentId: 'WINTER2026', region: 'NA-EAST', matchId, round: i + 1, bracket: 'UPPER', scheduledAt: '2026-03-01T00:00:00.000Z' },
  })));
  await setRaw('m2', 'round', { S: '7' });
  await setRaw('m4', 'bracket', { N: '3' });
  type TableProperties = { GlobalSecondaryIndexes?: (CreateGlobalSecondaryIndexAction & { IndexName: string })[]; AttributeDefinitions: object[] };
  const deployed = synthesizedTemplate(nextManifest()) as { Resources: Record<string, { Type: string; Properties: TableProperties }> };
  const table = Object.values(deployed.Resources).find((r) => r.Type === 'AWS::DynamoDB::GlobalTable' || r.Type === 'AWS::DynamoDB::Table')!.Properties;
  for (const index of table.GlobalSecondaryIndexes ?? []) {
    await engine.client.send(new UpdateTableCommand({
      TableName: tableName,
      AttributeDefinitions: table.AttributeDefinitions as never,
      GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } }],
    }));
    // One index is built at a time.
    while ((await engine.client.send(new DescribeTableCommand({ TableName: tableName }))).Table!.GlobalSecondaryIndexes!.some((i) => i.IndexStatus !== 'ACTIVE')) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await engine.stop();
});

const violation = (matchId: string, attribute: string, storedType: string, declaredType: string) => ({
  key: { PK: `MATCH#${matchId}`, SK: 'MATCH' },
  entity: 'Match',
  reason: expect.stringMatching(new RegExp(`^index key violation: ${attribute} is stored as .*\\(${storedType}\\), but TournamentRegionIndex declares it ${declaredType}; `
    + 'DynamoDB leaves the item out of TournamentRegionIndex and refuses writes to it: store .* or remove it, then run the backfill again$')),
  violations: [{ index: 'TournamentRegionIndex', attribute, storedType, declaredType }],
});
const BOTH = [violation('m2', 'round', 'S', 'NUMBER'), violation('m4', 'bracket', 'N', 'STRING')];

test('the plan names the multi-attribute index each entity enters', () => {
  const plan = planBackfill(resolveModel(nextManifest()), resolveModel(previousManifest()));
  expect(plan.entities[0].changes).toContainEqual({
    index: 'TournamentRegionIndex',
    change: 'ADDED',
    detail: expect.stringMatching(/^keyed on \[tournamentId, region\] \/ \[round, bracket, scheduledAt\]: DynamoDB indexes the stored values, nothing is written; an item whose value has another type or size is listed as failed$/),
  });
  const back = planBackfill(resolveModel(previousManifest()), resolveModel(nextManifest()));
  expect(back.entities[0].changes).toContainEqual(expect.objectContaining({ index: 'TournamentRegionIndex', change: 'REMOVED' }));
});

test('an empty or oversized string is a violation as a type mismatch is, each attribute named', () => {
  const plan = planBackfill(resolveModel(nextManifest()));
  const item = (change: Record<string, AttributeValue>): Record<string, AttributeValue> => ({
    ...key('m9'),
    Type: { S: 'Match' },
    tournamentId: { S: 'T' },
    matchId: { S: 'm9' },
    region: { S: 'R' },
    round: { N: '1' },
    bracket: { S: 'UPPER' },
    scheduledAt: { S: '2026-03-01T00:00:00.000Z' },
    ...change,
  });
  expect(itemFix(plan, item({ region: { S: 'é'.repeat(1025) }, bracket: { S: '' } }))).toMatchObject({
    kind: 'FAILED',
    violations: [
      { index: 'TournamentRegionIndex', attribute: 'region', storedType: 'S', declaredType: 'STRING', bytes: 2050, maxBytes: 2048 },
      { index: 'TournamentRegionIndex', attribute: 'bracket', storedType: 'S', declaredType: 'STRING', bytes: 0, maxBytes: 1024 },
    ],
    reason: expect.stringMatching(/^index key violation: region is 2050 bytes, over the 2048 bytes a key attribute of TournamentRegionIndex holds; .*; index key violation: bracket is an empty string, which TournamentRegionIndex cannot index; /),
  });
  expect(itemFix(plan, item({ scheduledAt: { S: 'x'.repeat(1024) } }))).toMatchObject({ kind: 'STALE' });
});

test('dry run, run, API and segment function list the mistyped items and fix the others; a run after fixing them finishes', async () => {
  const args = [join(dir, 'next.json'), '--from', join(dir, 'previous.json'), '--table', tableName, '--endpoint', engine.endpoint];
  const dry = await run('backfill', ...args, '--dry-run', '--json');
  expect(dry.code).toBe(1);
  const planned = JSON.parse(dry.stdout) as { counts: { failed: number; stale: number }; failures: unknown[] };
  expect(planned.counts).toMatchObject({ scanned: 4, stale: 2, failed: 2 });
  expect(planned.failures).toEqual(expect.arrayContaining(BOTH));

  // The programmatic API and the segment function: the same failures, the other items rewritten.
  const plan = planBackfill(resolveModel(nextManifest()), resolveModel(previousManifest()));
  const result = await backfill({ client: engine.client, tableName, plan });
  expect(result.counts).toMatchObject({ stale: 2, rewritten: 2, failed: 2 });
  expect(result.failures).toEqual(expect.arrayContaining(BOTH));
  const handler = segmentHandler({ model: plan.next, previous: plan.previous, tableName, client: engine.client });
  const segment = await handler({ segment: 0, totalSegments: 1 }, { getRemainingTimeInMillis: () => 900_000 });
  expect(segment).toMatchObject({ done: true, counts: { stale: 0, failed: 2 } });
  expect(segment.failures).toEqual(expect.arrayContaining(BOTH));

  const text = await run('backfill', ...args);
  expect(text.code).toBe(1);
  expect(text.stdout).toContain('TournamentRegionIndex added (keyed on [tournamentId, region] / [round, bracket, scheduledAt]: DynamoDB indexes the stored values');
  expect(text.stdout).toMatch(/FAILED \{"PK":"MATCH#m2","SK":"MATCH"\} \(Match\): index key violation: round is stored as a string \(S\), but TournamentRegionIndex declares it NUMBER/);

  // An index the model does not know of (here: left out of the manifest) refuses the rewrite: that
  // item is listed with DynamoDB's reason, the run goes on.
  const unaware = nextManifest();
  const { TournamentRegionIndex: _, ...others } = unaware.globalIndexes!;
  const blindPlan = planBackfill(resolveModel({ ...unaware, globalIndexes: others, accessPatterns: {} }), plan.previous);
  const blind = await backfill({ client: engine.client, tableName, plan: blindPlan });
  expect(blind.counts).toMatchObject({ stale: 2, rewritten: 0, failed: 2 });
  expect(blind.failures.map((f) => f.reason)).toEqual([expect.stringMatching(/^DynamoDB refuses to write it: .*index key.*; fix the value and run the backfill again$/i), expect.any(String)]);

  await setRaw('m2', 'round', { N: '7' });
  await setRaw('m4', 'bracket', { S: 'LOWER' });
  const after = await run('backfill', ...args, '--json');
  expect(after.code).toBe(0);
  expect(JSON.parse(after.stdout).counts).toMatchObject({ stale: 2, rewritten: 2, failed: 0 });
  const db = createClient({ model: compileModelFile(tournamentManifest()), client: engine.client, tableName });
  const found = await db.query('matches', { tournamentId: 'WINTER2026', region: 'NA-EAST' });
  expect(found.items.map(({ item }) => item.matchId)).toEqual(['m1', 'm3', 'm4', 'm2']);
});
