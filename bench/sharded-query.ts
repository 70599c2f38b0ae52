// Benchmark: a 10-shard fan-out query returning n items against an unsharded query
// returning the same n items, and against a sequential fan-out (concurrency 1).
//
//   npx ts-node bench/sharded-query.ts            writes bench/results/sharded-query.json
//   runShardedQuery(options)                      the same from `npm run bench` (bench/index.ts)
//
// The engine is dynalite in its own process, so it serves requests as a separate server does. It
// has no network, though, and it runs every request on one thread, while DynamoDB serves each
// shard's partition key on its own partition within a network round trip. So the benchmark adds a
// fixed round trip to every request (client middleware) and reports a sweep of round trips, from
// 0 ms (engine CPU only: the worst case for a fan-out) up to the single-digit milliseconds of a
// DynamoDB request. Modes run interleaved in every round; each figure is the median of the rounds.
//
// The same sweep runs again with a filter that lets half the items through (`filtered`), as the
// library's type filter does on an index shared by several entity types: Limit counts evaluated
// items, so shard pages come back short and shards run dry mid-page (the fan-out's refills). The
// unsharded query there pages until it has n items, as a caller wanting n items does.
import { ChildProcess, spawn } from 'child_process';
import { writeFileSync } from 'fs';
import { cpus, loadavg } from 'os';
import { join } from 'path';
import { AttributeValue, BatchWriteItemCommand, CreateTableCommand, DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { shardedKey, shardForItem } from '../lib/keys/shard';
import { fanOutQuery, ShardPageFetcher } from '../lib/runtime/query/fanout';

type Item = Record<string, AttributeValue>;

const SHARDS = 10;
const SHARD_NUMBERS = Array.from({ length: SHARDS }, (_, i) => i);
const ITEMS = 5000;
const TABLE = 'bench-orders';
const BASE_KEY = 'ORDER#OPEN';

/** What to sweep; `npm run bench -- --quick` sweeps less. */
export interface ShardedQueryOptions {
  readonly resultSizes?: readonly number[];
  readonly roundTripsMs?: readonly number[];
  readonly rounds?: number;
}

/** Starts dynalite in a child process and resolves its port; any later message asks for its CPU time so far (ms). */
async function startEngine(): Promise<{ engine: ChildProcess; port: number }> {
  const script = "const d = require('dynalite')({ createTableMs: 0 }); d.listen(0, () => process.send(d.address().port));"
    + " process.on('message', () => { const u = process.cpuUsage(); process.send((u.user + u.system) / 1000); });";
  const engine = spawn(process.execPath, ['-e', script], { cwd: join(__dirname, '..'), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    engine.once('message', (m) => resolve(m as number));
    engine.once('exit', (code) => reject(new Error(`dynalite exited with ${code}`)));
  });
  return { engine, port };
}

/** The engine's CPU time so far, in ms (asked between timed queries, never during one). */
function engineCpuMs(engine: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    engine.once('message', (m) => resolve(m as number));
    engine.send('cpu');
  });
}

/** One table, two GSIs over the same items: GSI2 sharded by the library's shard choice, PLAIN not. */
async function load(client: DynamoDBClient): Promise<void> {
  const index = (name: string) => ({
    IndexName: name,
    KeySchema: [{ AttributeName: `${name}PK`, KeyType: 'HASH' as const }, { AttributeName: `${name}SK`, KeyType: 'RANGE' as const }],
    Projection: { ProjectionType: 'ALL' as const },
  });
  await client.send(new CreateTableCommand({
    TableName: TABLE,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: ['PK', 'SK', 'GSI2PK', 'GSI2SK', 'PLAINPK', 'PLAINSK'].map((a) => ({ AttributeName: a, AttributeType: 'S' })),
    KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
    GlobalSecondaryIndexes: [index('GSI2'), index('PLAIN')],
  }));
  const items: Item[] = [];
  for (let i = 0; i < ITEMS; i++) {
    const pk = `CUSTOMER#user${i % 700}`;
    const sk = `ORDER#${String(i).padStart(6, '0')}`;
    // Distinct timestamps, so both indexes have one order and the results can be compared.
    const createdAt = new Date(Date.UTC(2024, 0, 1) + i * 61_000 + ((i * 7919) % 60_000)).toISOString();
    items.push({
      PK: { S: pk },
      SK: { S: sk },
      GSI2PK: { S: shardedKey(BASE_KEY, shardForItem(pk, sk, SHARDS), '#') },
      GSI2SK: { S: createdAt },
      PLAINPK: { S: BASE_KEY },
      PLAINSK: { S: createdAt },
      status: { S: 'OPEN' },
      // The same amounts as (i % 997) + 0.5 (every block of 997 items holds each once), scattered
      // (616 / 997 is near the golden ratio), so the filtered sweep's filter (amount < 498.5) lets
      // half the items through in runs of one or two, not in blocks.
      amount: { N: String(((i * 616) % 997) + 0.5) },
      note: { S: 'x'.repeat(160) },
    });
  }
  for (let i = 0; i < items.length; i += 25) {
    const batch = items.slice(i, i + 25).map((item) => ({ PutRequest: { Item: item } }));
    const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: batch } }));
    if (Object.keys(out.UnprocessedItems ?? {}).length) throw new Error('dynalite left items unprocessed');
  }
}

function query(client: DynamoDBClient, index: string, pk: string, limit: number, filtered: boolean, start?: Item) {
  return client.send(new QueryCommand({
    TableName: TABLE,
    IndexName: index,
    KeyConditionExpression: '#pk = :pk',
    // Half the amounts are below 498.5, scattered over the order (see load).
    ...(filtered ? { FilterExpression: '#amount < :half' } : {}),
    ExpressionAttributeNames: { '#pk': `${index}PK`, ...(filtered ? { '#amount': 'amount' } : {}) },
    ExpressionAttributeValues: { ':pk': { S: pk }, ...(filtered ? { ':half': { N: '498.5' } } : {}) },
    ScanIndexForward: false, // newest first, as orders by status are read
    Limit: limit,
    ExclusiveStartKey: start,
  }));
}

/** A query's items, the items DynamoDB evaluated (read units), and its requests. */
interface Run { items: Item[]; read: number; evaluated: number; requests: number }

async function unsharded(client: DynamoDBClient, n: number, filtered: boolean): Promise<Run> {
  const items: Item[] = [];
  let evaluated = 0;
  let requests = 0;
  let start: Item | undefined;
  do {
    const out = await query(client, 'PLAIN', BASE_KEY, n, filtered, start);
    requests++;
    evaluated += out.ScannedCount ?? 0;
    items.push(...out.Items ?? []);
    start = out.LastEvaluatedKey;
  } while (items.length < n && start);
  return { items: items.slice(0, n), read: items.length, evaluated, requests };
}

async function fanOut(client: DynamoDBClient, n: number, filtered: boolean, concurrency?: number): Promise<Run> {
  let read = 0;
  let evaluated = 0;
  let requests = 0;
  const fetch: ShardPageFetcher = async (shard, start, limit) => {
    requests++;
    const out = await query(client, 'GSI2', shardedKey(BASE_KEY, shard, '#'), limit, filtered, start);
    read += out.Items?.length ?? 0;
    evaluated += out.ScannedCount ?? 0;
    return out;
  };
  const partitionKeyOf = (shard: number) => ({ GSI2PK: { S: shardedKey(BASE_KEY, shard, '#') } });
  const page = await fanOutQuery(fetch, { shards: SHARD_NUMBERS, limit: n, descending: true, sortKey: 'GSI2SK', tieBreakKeys: ['PK', 'SK'], partitionKeyOf, concurrency });
  return { items: page.items, read, evaluated, requests };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; // eslint-disable-line no-bitwise
};
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Runs the sweep and returns what `bench/results/sharded-query.json` holds. */
export async function runShardedQuery(options: ShardedQueryOptions = {}) {
  const { resultSizes = [10, 100, 500], roundTripsMs = [0, 2, 5, 10], rounds = 25 } = options;
  const { engine, port } = await startEngine();
  let roundTripMs = 0;
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
  });
  client.middlewareStack.add((next) => async (args) => {
    if (roundTripMs > 0) await new Promise((resolve) => setTimeout(resolve, roundTripMs));
    return next(args);
  }, { step: 'finalizeRequest', name: 'simulatedRoundTrip' });

  try {
    await load(client);
    const sweep = async (filtered: boolean) => {
      const modes: Record<string, (n: number) => Promise<Run>> = {
        unsharded: (n) => unsharded(client, n, filtered),
        parallel: (n) => fanOut(client, n, filtered),
        sequential: (n) => fanOut(client, n, filtered, 1),
      };
      const results = [];
      for (const rtt of roundTripsMs) {
        roundTripMs = rtt;
        for (const n of resultSizes) {
          // The fan-out must return exactly the unsharded query's items, in its order.
          const reference = (await modes.unsharded(n)).items.map((i) => i.SK.S).join();
          for (const mode of ['parallel', 'sequential']) {
            if ((await modes[mode](n)).items.map((i) => i.SK.S).join() !== reference) throw new Error(`${mode} fan-out returned other items than the unsharded query`);
          }
          const times: Record<string, number[]> = { unsharded: [], parallel: [], sequential: [] };
          const cpu: Record<string, number[]> = { unsharded: [], parallel: [], sequential: [] };
          const engineCpu: Record<string, number[]> = { unsharded: [], parallel: [], sequential: [] };
          const read: Record<string, number> = {};
          const evaluated: Record<string, number> = {};
          const requests: Record<string, number> = {};
          const names = Object.keys(modes);
          for (let r = 0; r < rounds; r++) {
            for (let m = 0; m < names.length; m++) {
              const mode = names[(r + m) % names.length]; // rotate which mode goes first
              const startEngineCpu = await engineCpuMs(engine);
              const start = process.hrtime.bigint();
              const startCpu = process.cpuUsage();
              const run = await modes[mode](n);
              times[mode].push(Number(process.hrtime.bigint() - start) / 1e6);
              const used = process.cpuUsage(startCpu);
              cpu[mode].push((used.user + used.system) / 1000);
              engineCpu[mode].push((await engineCpuMs(engine)) - startEngineCpu);
              read[mode] = run.read;
              evaluated[mode] = run.evaluated;
              requests[mode] = run.requests;
            }
          }
          const ms = Object.fromEntries(names.map((m) => [m, round2(median(times[m]))]));
          const row = {
            roundTripMs: rtt,
            n,
            medianMs: ms,
            ratio: { parallel: round2(ms.parallel / ms.unsharded), sequential: round2(ms.sequential / ms.unsharded) },
            itemsRead: read,
            itemsEvaluated: evaluated,
            requests,
            // CPU per query of this process (SDK, merge) and of the engine (dynalite, one thread, so
            // its requests are served one after another where DynamoDB serves partitions in parallel).
            clientCpuMs: Object.fromEntries(names.map((m) => [m, round2(median(cpu[m]))])),
            engineCpuMs: Object.fromEntries(names.map((m) => [m, round2(median(engineCpu[m]))])),
          };
          results.push(row);
          console.log(`${filtered ? 'filtered ' : ''}round trip ${String(rtt).padStart(2)} ms  n=${String(n).padStart(3)}  unsharded ${ms.unsharded} ms  `
            + `parallel ${ms.parallel} ms (${row.ratio.parallel}x)  sequential ${ms.sequential} ms (${row.ratio.sequential}x)  `
            + `items evaluated ${evaluated.unsharded} / ${evaluated.parallel} in ${requests.unsharded} / ${requests.parallel} requests  `
            + `client CPU ${row.clientCpuMs.unsharded} / ${row.clientCpuMs.parallel} ms  engine CPU ${row.engineCpuMs.unsharded} / ${row.engineCpuMs.parallel} ms`);
        }
      }
      return results;
    };
    const results = await sweep(false);
    const filtered = await sweep(true);
    return {
      benchmark: 'sharded-query',
      engine: 'dynalite (separate process), simulated round trip added per request',
      shards: SHARDS,
      items: ITEMS,
      rounds,
      statistic: 'median wall time per query, modes interleaved',
      node: process.version,
      // The machine is shared: CPU count and load say how much the engine and the client compete.
      cpus: cpus().length,
      loadAverage: loadavg().map(round2),
      date: new Date().toISOString(),
      results,
      // The same with a filter letting half the items through; the unsharded query pages until it has n.
      filtered,
    };
  } finally {
    client.destroy();
    engine.kill();
  }
}

if (require.main === module) {
  runShardedQuery().then((out) => {
    writeFileSync(join(__dirname, 'results', 'sharded-query.json'), JSON.stringify(out, null, 2) + '\n');
  }).catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
