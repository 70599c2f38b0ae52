// A write-sharded GSI keyed on the items' own attributes (status, then round NUMBER and bracket) on
// DynamoDB Local, with the table created from the synthesized template: every write stores the
// shard in the NUMBER attribute ByStatusShard, results never show it, and a query fans out over the
// shards and merges them in the index's order (round by value, bracket by UTF-8 bytes, then the
// table key across shards; within one shard, ties keep the engine's order) behind one cursor, with
// nothing lost or repeated at any page size.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { shardForItem, shardForValue } from '../../lib/keys/shard';
import { compileManifest } from '../../lib/manifest/compile';
import { ShardingDefinition, ShardStrategy } from '../../lib/model/manifest';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { shardedTournamentManifest } from '../fixtures/tournament';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { allPages, countRequests } from '../support/requests';

type Match = { matchId: string; status: string; round: number; bracket: string; note?: string };
type Page = { items: { item: Match }[]; cursor?: string };
type Client = {
  query(pattern: string, input: object, options?: { limit?: number; cursor?: string; order?: 'asc' | 'desc' }): Promise<Page>;
  batchWrite(requests: object[]): Promise<unknown>;
  putItem(entity: string, item: object): Promise<unknown>;
  updateItem(entity: string, input: object): Promise<unknown>;
  transactWrite(actions: object[]): Promise<unknown>;
  getItem(entity: string, key: object): Promise<Match | undefined>;
};

const SHARDS = 4;
// Numbers whose text order differs from their value order: lengths, signs, decimals.
const ROUNDS = [-10, -2.5, -2, -0.001, 0, 0.5, 1, 2, 9, 10, 10.25, 100, 1000, 123456789.125];
// Brackets whose UTF-8 order differs from UTF-16's past U+FFFF, with prefixes of one another.
const BRACKETS = ['A', 'AB', 'B', 'b', 'é', '😀', '\uffff'];

const id = (i: number) => `m${String(i).padStart(2, '0')}`;
/** 48 open matches, 3 or 4 per round in several brackets, then 6 that tie with some of them on round and bracket; and a few closed ones. */
const SPREAD: Match[] = Array.from({ length: 48 }, (_, i) => ({
  matchId: id(i), status: 'OPEN', round: ROUNDS[(i * 5) % ROUNDS.length], bracket: BRACKETS[(i + Math.floor(i / 14) * 3) % BRACKETS.length],
}));
const MATCHES: Match[] = [...SPREAD, ...[0, 0, 7, 1, 47, 19].map((n, i) => ({ ...SPREAD[n], matchId: id(48 + i) }))];
const CLOSED: Match[] = [0, 1, 2].map((i) => ({ matchId: `c${i}`, status: 'CLOSED', round: ROUNDS[i], bracket: 'A' }));

const utf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
/** The index's order of sort keys: round by value, then bracket by UTF-8 bytes. */
const indexOrder = (a: Match, b: Match) => a.round - b.round || utf8(a.bracket, b.bracket);
const sortKeys = (matches: Match[]) => matches.map((m) => `${m.round} ${m.bracket}`);

/**
 * The page items are the matches, each once, in the index's order of sort keys (the order of ties
 * within one shard is the engine's, so ties are compared as a set), ascending or descending.
 */
function expectInIndexOrder(got: Match[], matches: Match[], descending = false): void {
  const sorted = [...matches].sort(indexOrder);
  expect(sortKeys(got)).toEqual(sortKeys(descending ? sorted.reverse() : sorted));
  expect(got.map((m) => m.matchId).sort()).toEqual(matches.map((m) => m.matchId).sort());
}

let engine: Engine;
let sdk: DynamoDBClient;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(shardedTournamentManifest({ shardCount: SHARDS })));
  sdk = engine.newClient();
});
afterAll(async () => {
  sdk.destroy();
  await engine.stop();
});

async function clientFor(sharding: ShardingDefinition, tableName?: string): Promise<Client & { tableName: string }> {
  const name = tableName ?? await engine.createTable();
  const db = createClient({ model: compileModelFile(shardedTournamentManifest(sharding)), client: sdk, tableName: name }) as unknown as Client;
  return Object.assign(db, { tableName: name });
}

async function readAll(db: Client, pattern: string, input: object, limit: number, order?: 'asc' | 'desc'): Promise<Match[]> {
  const { items } = await allPages((cursor) => db.query(pattern, input, { limit, cursor, order }));
  return items.map((r) => r.item);
}

describe('RANDOM over 4 shards', () => {
  let db: Client & { tableName: string };
  beforeAll(async () => {
    db = await clientFor({ shardCount: SHARDS });
    const all = [...MATCHES, ...CLOSED];
    await db.batchWrite(all.slice(0, 40).reverse().map((item) => ({ type: 'put', entity: 'Match', item })));
    for (const item of all.slice(40, 43)) await db.putItem('Match', item);
    await db.transactWrite(all.slice(43).map((item) => ({ type: 'put', entity: 'Match', item })));
  });

  test('every write stores the shard of its table key as a number; results leave it out', async () => {
    const shards = new Set<number>();
    for (const { matchId } of [...MATCHES, ...CLOSED]) {
      const raw = (await sdk.send(new GetItemCommand({ TableName: db.tableName, Key: { PK: { S: `MATCH#${matchId}` }, SK: { S: 'MATCH' } } }))).Item!;
      expect(raw.ByStatusShard).toEqual({ N: String(shardForItem(`MATCH#${matchId}`, 'MATCH', SHARDS)) });
      shards.add(Number(raw.ByStatusShard.N));
    }
    // Puts, batch writes and transactions alike; the 45 items spread over every shard.
    expect([...shards].sort()).toEqual([0, 1, 2, 3]);
    const got = await db.getItem('Match', { matchId: 'm01' });
    expect(got).toEqual(MATCHES[1]);
    const page = await db.query('byStatus', { status: 'OPEN' }, { limit: 5 });
    for (const { item } of page.items) expect(Object.keys(item).sort()).toEqual(['bracket', 'matchId', 'round', 'status']);
  });

  test.each([1, 3, 100])('pages of %i: every item once, in the index order, ascending and descending', async (limit) => {
    expectInIndexOrder(await readAll(db, 'byStatus', { status: 'OPEN' }, limit), MATCHES);
    expectInIndexOrder(await readAll(db, limit === 1 ? 'byStatusDescending' : 'byStatus', { status: 'OPEN' }, limit, limit === 1 ? undefined : 'desc'), MATCHES, true);
  });

  test.each<[string, object, (m: Match) => boolean]>([
    ['byRound', { round: 10 }, (m) => m.round === 10],
    ['byRound', { round: -10, bracket: 'A' }, (m) => m.round === -10 && m.bracket === 'A'],
    ['byBracketPrefix', { round: 100, bracket: 'A' }, (m) => m.round === 100 && m.bracket.startsWith('A')],
    ['byBracketPrefix', { round: 2, bracket: 'A' }, (m) => m.round === 2 && m.bracket === 'A'],
    ['fromRound', { round: 2 }, (m) => m.round >= 2],
    ['fromRound', { round: 10.25, bracket: 'B' }, (m) => m.round === 10.25 && utf8(m.bracket, 'B') >= 0],
    ['roundsBetween', { between: [{ round: -2.5 }, { round: 10 }] }, (m) => m.round >= -2.5 && m.round <= 10],
    ['roundsBetween', { between: [{ round: 0.5, bracket: 'AB' }, { round: 0.5, bracket: 'é' }] }, (m) => m.round === 0.5 && utf8(m.bracket, 'AB') >= 0 && utf8(m.bracket, 'é') <= 0],
    ['roundsBetween', { between: [{ round: 100, bracket: 'AB' }, { round: 100, bracket: '😀' }] }, (m) => m.round === 100 && m.bracket !== 'A'],
  ])('%s %j over every shard, pages of 2', async (pattern, sort, matches) => {
    const expected = MATCHES.filter(matches);
    expect(expected.length).toBeGreaterThan(1);
    expectInIndexOrder(await readAll(db, pattern, { status: 'OPEN', ...sort }, 2), expected);
  });

  test('each shard\'s query asks for its number in the shard attribute; a page reads every shard', async () => {
    const requests = countRequests(sdk);
    const sent: { KeyConditionExpression?: string; ExpressionAttributeValues?: Record<string, { N?: string }> }[] = [];
    sdk.middlewareStack.add((next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') sent.push(args.input as never);
      return next(args);
    }, { step: 'initialize', name: 'recordShardQueries' });
    await db.query('byStatus', { status: 'CLOSED' }, { limit: 10 });
    sdk.middlewareStack.remove('recordShardQueries');
    expect(requests.of('QueryCommand')).toBe(SHARDS);
    expect(sent.map((q) => q.KeyConditionExpression)).toEqual(Array(SHARDS).fill('#k0 = :k0 AND #shard = :shard'));
    expect(sent.map((q) => q.ExpressionAttributeValues![':shard'].N).sort()).toEqual(['0', '1', '2', '3']);
  });

  test('an update that moves the item to another status keeps it on its shard and in its new partition', async () => {
    await db.updateItem('Match', { matchId: 'm07', status: 'CLOSED' });
    const raw = (await sdk.send(new GetItemCommand({ TableName: db.tableName, Key: { PK: { S: 'MATCH#m07' }, SK: { S: 'MATCH' } } }))).Item!;
    expect(raw.ByStatusShard).toEqual({ N: String(shardForItem('MATCH#m07', 'MATCH', SHARDS)) });
    expectInIndexOrder(await readAll(db, 'byStatus', { status: 'CLOSED' }, 2), [...CLOSED, { ...MATCHES[7], status: 'CLOSED' }]);
    expectInIndexOrder(await readAll(db, 'byStatus', { status: 'OPEN' }, 7), MATCHES.filter((m) => m.matchId !== 'm07'));
    await db.updateItem('Match', { matchId: 'm07', status: 'OPEN' });
  });
});

test('resharded from 2 to 4 shards: a reader with previousShardCounts finds the items written under both, in order', async () => {
  const before = await clientFor({ shardCount: 2 });
  await before.batchWrite(MATCHES.slice(0, 20).map((item) => ({ type: 'put', entity: 'Match', item })));
  const after = await clientFor({ shardCount: 4, previousShardCounts: [2] }, before.tableName);
  await after.batchWrite(MATCHES.slice(20).map((item) => ({ type: 'put', entity: 'Match', item })));
  const raw = async (matchId: string) => (await sdk.send(new GetItemCommand({ TableName: before.tableName, Key: { PK: { S: `MATCH#${matchId}` }, SK: { S: 'MATCH' } } }))).Item!.ByStatusShard.N;
  expect(await raw('m00')).toBe(String(shardForItem('MATCH#m00', 'MATCH', 2)));
  expect(await raw('m30')).toBe(String(shardForItem('MATCH#m30', 'MATCH', 4)));
  expectInIndexOrder(await readAll(after, 'byStatus', { status: 'OPEN' }, 3), MATCHES);
  // A reader of the old count alone misses what was written to shards 2 and 3.
  expect((await readAll(before, 'byStatus', { status: 'OPEN' }, 100)).length).toBeLessThan(MATCHES.length);
});

test('ATTRIBUTE by bracket: a query given the bracket reads its shard only, one under each count, and finds every match', async () => {
  const sharding = { shardCount: 4, previousShardCounts: [3], strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'bracket' };
  const db = await clientFor(sharding);
  await db.batchWrite(MATCHES.map((item) => ({ type: 'put', entity: 'Match', item })));
  const raw = (await sdk.send(new GetItemCommand({ TableName: db.tableName, Key: { PK: { S: 'MATCH#m05' }, SK: { S: 'MATCH' } } }))).Item!;
  expect(raw.ByStatusShard).toEqual({ N: String(shardForValue(MATCHES[5].bracket, 4)) });
  const requests = countRequests(sdk);
  const { round, bracket } = MATCHES[0];
  const expected = MATCHES.filter((m) => m.round === round && m.bracket === bracket);
  expect(expected.length).toBeGreaterThan(1);
  expectInIndexOrder(await readAll(db, 'byRound', { status: 'OPEN', round, bracket }, 100), expected);
  const pinned = new Set([shardForValue(bracket, 4), shardForValue(bracket, 3)]).size;
  expect(requests.of('QueryCommand')).toBe(pinned);
  // Without the bracket (or with a prefix of it) every shard is read.
  expectInIndexOrder(await readAll(db, 'byRound', { status: 'OPEN', round }, 100), MATCHES.filter((m) => m.round === round));
  expect(requests.of('QueryCommand')).toBe(pinned + 4);
});

test('the compiled model names the shard attribute and keeps it out of the partition attributes', () => {
  const index = compileManifest(shardedTournamentManifest({ shardCount: SHARDS })).model.indexes.ByStatus;
  expect(index.shards!.keyAttribute).toBe('ByStatusShard');
  expect(index.partitionAttributes!.map((a) => a.name)).toEqual(['status']);
});
