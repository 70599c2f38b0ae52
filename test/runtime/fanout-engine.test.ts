// Property tests of the fan-out query against a real engine (the run's embedded engine, AWS's DynamoDB Local by default), a table with a
// sharded GSI, items placed on shards by the library's own shard choice, random shard counts,
// page sizes, orders and sort-key conditions. Concatenated pages must equal the oracle.
import {
  AttributeValue,
  BatchWriteItemCommand,
  DeleteItemCommand,
  DynamoDBClient,
  QueryCommand,
  QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { byteCompare, idOf, Item, naiveMerge } from './fanout-fake';
import { shardedKey, shardForItem } from '../../lib/keys/shard';
import { fanOutQuery, FanOutState, ShardPageFetcher } from '../../lib/runtime/query/fanout';
import { Engine, startEngine } from '../support/engine';
import { propertyRuns } from '../support/property-runs';

// The example app's table as the construct synthesizes it: its GSI2 (GSI2PK / GSI2SK) is the
// write-sharded index. Items are written raw, so the shard count can vary per run. Every case
// writes to partitions of its own (its own base key), so the cases share one table.
let cases = 0;
const nextBaseKey = () => `ORDER#OPEN${++cases}`;

let engine: Engine;
let client: DynamoDBClient;
let table: string;

beforeAll(async () => {
  engine = await startEngine();
  client = engine.client;
  table = await engine.createTable();
});

afterAll(() => engine.stop());

async function writeAll(tableName: string, items: Item[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    const out = await client.send(new BatchWriteItemCommand({
      RequestItems: { [tableName]: items.slice(i, i + 25).map((item) => ({ PutRequest: { Item: item } })) },
    }));
    if (Object.keys(out.UnprocessedItems ?? {}).length) throw new Error('the engine left items unprocessed');
  }
}

type Condition = { kind: 'none' } | { kind: 'between'; lo: string; hi: string } | { kind: 'beginsWith'; prefix: string };

function matches(sk: string, c: Condition): boolean {
  if (c.kind === 'between') return byteCompare(c.lo, sk) <= 0 && byteCompare(sk, c.hi) <= 0;
  if (c.kind === 'beginsWith') return sk.startsWith(c.prefix);
  return true;
}

function shardFetcher(base: string, descending: boolean, c: Condition, log: number[]): ShardPageFetcher {
  return async (shard, start, limit) => {
    log.push(limit);
    const values: Record<string, AttributeValue> = { ':pk': { S: shardedKey(base, shard, '#') } };
    let condition = '#pk = :pk';
    if (c.kind === 'between') {
      condition += ' AND #sk BETWEEN :lo AND :hi';
      values[':lo'] = { S: c.lo };
      values[':hi'] = { S: c.hi };
    } else if (c.kind === 'beginsWith') {
      condition += ' AND begins_with(#sk, :prefix)';
      values[':prefix'] = { S: c.prefix };
    }
    const input: QueryCommandInput = {
      TableName: table,
      IndexName: 'GSI2',
      KeyConditionExpression: condition,
      ExpressionAttributeNames: c.kind === 'none' ? { '#pk': 'GSI2PK' } : { '#pk': 'GSI2PK', '#sk': 'GSI2SK' },
      ExpressionAttributeValues: values,
      ExclusiveStartKey: start,
      Limit: limit,
      ScanIndexForward: !descending,
    };
    return client.send(new QueryCommand(input));
  };
}

const shardNumbers = (count: number) => Array.from({ length: count }, (_, i) => i);
const partitionKeyOf = (base: string) => (shard: number) => ({ GSI2PK: { S: shardedKey(base, shard, '#') } });

/** An order on the sharded index, on the shard the library's RANDOM strategy picks for it. */
function indexed(base: string, id: string, sk: string, shardCount: number): Item {
  const pk = `CUSTOMER#${id}`;
  const tableSk = `ORDER#${id}`;
  return { PK: { S: pk }, SK: { S: tableSk }, GSI2PK: { S: shardedKey(base, shardForItem(pk, tableSk, shardCount), '#') }, GSI2SK: { S: sk } };
}

const keyChar = fc.constantFrom('a', 'b', 'c', 'é', '😀');
const sortKey = fc.string({ unit: keyChar, minLength: 1, maxLength: 3 });
const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.constant<Condition>({ kind: 'none' }),
  fc.tuple(sortKey, sortKey).map(([a, b]): Condition => (byteCompare(a, b) <= 0 ? { kind: 'between', lo: a, hi: b } : { kind: 'between', lo: b, hi: a })),
  fc.string({ unit: keyChar, minLength: 1, maxLength: 2 }).map((prefix): Condition => ({ kind: 'beginsWith', prefix })),
);
const scenario = fc.record({
  shardCount: fc.integer({ min: 1, max: 7 }),
  // Some items are not in the index (sparse): no index key at all.
  items: fc.array(fc.record({
    sk: sortKey,
    user: fc.string({ unit: keyChar, maxLength: 2 }),
    inIndex: fc.integer({ min: 0, max: 6 }).map((n) => n > 0),
  }), { maxLength: 60 }),
  limit: fc.integer({ min: 1, max: 12 }),
  descending: fc.boolean(),
  condition,
});

describe('fanOutQuery on the embedded engine', () => {
  test('concatenated pages equal the oracle for random shards, page sizes, orders and conditions', async () => {
    await fc.assert(fc.asyncProperty(scenario, async (s) => {
      const base = nextBaseKey();
      const items = s.items.map((f, i): Item => {
        const pk = `CUSTOMER#${f.user}`;
        const sk = `ORDER#${i}`;
        const item: Item = { PK: { S: pk }, SK: { S: sk }, amount: { N: String(i) } };
        if (f.inIndex) {
          item.GSI2PK = { S: shardedKey(base, shardForItem(pk, sk, s.shardCount), '#') };
          item.GSI2SK = { S: f.sk };
        }
        return item;
      });
      await writeAll(table, items);

      const dir = s.descending ? -1 : 1;
      const order = (a: Item, b: Item) =>
        dir * (byteCompare(a.GSI2SK.S!, b.GSI2SK.S!) || byteCompare(a.PK.S!, b.PK.S!) || byteCompare(a.SK.S!, b.SK.S!));
      const oracle = items.filter((i) => i.GSI2SK && matches(i.GSI2SK.S!, s.condition)).sort(order);

      const limits: number[] = [];
      const fetch = shardFetcher(base, s.descending, s.condition, limits);
      const options = { shards: shardNumbers(s.shardCount), limit: s.limit, descending: s.descending, sortKey: 'GSI2SK', tieBreakKeys: ['PK', 'SK'] };
      const got: Item[] = [];
      let state: FanOutState | undefined;
      let pages = 0;
      do {
        const page = await fanOutQuery(fetch, { ...options, partitionKeyOf: partitionKeyOf(base), state });
        got.push(...page.items);
        state = page.state && JSON.parse(JSON.stringify(page.state));
        if (state) expect(page.items).toHaveLength(s.limit);
        expect(++pages).toBeLessThanOrEqual(Math.ceil(oracle.length / s.limit) + 1);
      } while (state);

      for (const limit of limits) expect(limit).toBeLessThanOrEqual(s.limit);
      // Same items, none twice, in the oracle's sort-key sequence.
      expect(got.map(idOf).sort()).toEqual(oracle.map(idOf).sort());
      expect(got.map((i) => i.GSI2SK.S)).toEqual(oracle.map((i) => i.GSI2SK.S));
      // The exact order: the oracle's, except that equal sort keys inside one shard keep the
      // engine's own order (DynamoDB orders them by the table key's hash), so compare with the
      // reference merge of each shard's whole, unpaged result.
      const whole = await Promise.all(Array.from({ length: s.shardCount }, async (_, shard) => (await fetch(shard, undefined, 1000)).Items ?? []));
      expect(got.map(idOf)).toEqual(naiveMerge(whole, order).map(idOf));
    }), { numRuns: propertyRuns(150) });
  });

  test('items written between pages: none ahead of the merge position lost, none repeated, sort order across pages', async () => {
    const write = fc.record({ sk: sortKey, remove: fc.boolean(), at: fc.nat() });
    const run = fc.record({
      shardCount: fc.integer({ min: 1, max: 5 }),
      initial: fc.array(sortKey, { maxLength: 25 }),
      writes: fc.array(write, { maxLength: 20 }),
      limit: fc.integer({ min: 1, max: 6 }),
      descending: fc.boolean(),
    });
    await fc.assert(fc.asyncProperty(run, async (s) => {
      const base = nextBaseKey();
      const present = new Map<string, Item>();
      const put = async (items: Item[]) => {
        await writeAll(table, items);
        for (const i of items) present.set(idOf(i), i);
      };
      await put(s.initial.map((sk, i) => indexed(base, `a${i}`, sk, s.shardCount)));
      const atStart = [...present.keys()];
      const ahead: string[] = [];
      const removed = new Set<string>();
      const dir = s.descending ? -1 : 1;
      const fetch = shardFetcher(base, s.descending, { kind: 'none' }, []);
      const options = { shards: shardNumbers(s.shardCount), limit: s.limit, descending: s.descending, sortKey: 'GSI2SK', tieBreakKeys: ['PK', 'SK'] };
      const got: Item[] = [];
      let state: FanOutState | undefined;
      let next = 0;
      do {
        const page = await fanOutQuery(fetch, { ...options, partitionKeyOf: partitionKeyOf(base), state });
        got.push(...page.items);
        state = page.state && JSON.parse(JSON.stringify(page.state));
        if (!state) break;
        // Two writes before the next page: puts anywhere in the order, or deletes of present items.
        const position = got[got.length - 1].GSI2SK.S!;
        for (const w of s.writes.slice(next, next + 2)) {
          const keys = [...present.keys()];
          if (w.remove && keys.length) {
            const id = keys[w.at % keys.length];
            await client.send(new DeleteItemCommand({ TableName: table, Key: { PK: present.get(id)!.PK, SK: present.get(id)!.SK } }));
            present.delete(id);
            removed.add(id);
          } else {
            const item = indexed(base, `b${next}`, w.sk, s.shardCount);
            await put([item]);
            if (dir * byteCompare(w.sk, position) > 0) ahead.push(idOf(item));
          }
          next++;
        }
        expect(got.length).toBeLessThanOrEqual(s.initial.length + s.writes.length);
      } while (state);

      const ids = got.map(idOf);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of [...atStart, ...ahead]) if (!removed.has(id)) expect(ids).toContain(id);
      for (let i = 1; i < got.length; i++) expect(dir * Math.sign(byteCompare(got[i - 1].GSI2SK.S!, got[i].GSI2SK.S!))).toBeLessThanOrEqual(0);
    }), { numRuns: propertyRuns(60) });
  });
});
