// Sharded fan-out against a concurrent engine: the same n items read with the runtime's
// `query` from a 10-shard GSI and with `query` from an unsharded GSI holding the same
// entries, on an in-memory engine (bench/support/memory-engine.ts) that adds a fixed latency per
// request and serves concurrent requests in parallel, as DynamoDB serves the partitions of the
// shards. So the ratio is the library's cost (its requests in waves, its merge), not an engine's:
// dynalite (bench/sharded-query.ts) serves one request at a time, which measures dynalite.
// Two clients: a stand-in for the SDK client's `send`, and a real DynamoDBClient whose HTTP is
// the only fake part (the SDK's serialization and parsing of every shard's page included).
//
//   npx ts-node bench/sharded-fanout.ts     writes bench/results/sharded-fanout.json
import { writeFileSync } from 'fs';
import { cpus, loadavg } from 'os';
import { join } from 'path';
import { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { median, significant } from './stats';
import { MemoryEngine } from './support/memory-engine';
import { compileManifest } from '../lib/manifest/compile';
import { modelDocument } from '../lib/model/document';
import type { TableModel } from '../lib/model/model';
import { AttributeKind, defineManifest, openTable, query, SortOrder, Table } from '../lib/runtime';
import { itemToWrite } from '../lib/runtime/items/requests';

const SHARDS = 10;
const ITEMS = 5000;

/** Orders on two GSIs with the same keys: GSI2 write-sharded over 10 shards, GSI3 not. */
export const manifest = defineManifest({
  entities: {
    Order: {
      attributes: {
        username: { type: AttributeKind.STRING, required: true },
        orderId: { type: AttributeKind.STRING, required: true },
        status: { type: AttributeKind.STRING, required: true },
        createdAt: { type: AttributeKind.DATE, required: true },
        note: { type: AttributeKind.STRING },
      },
      pk: 'CUSTOMER#{username}',
      sk: 'ORDER#{orderId}',
      indexes: { GSI2: { pk: 'ORDER#{status}', sk: '{createdAt}' }, GSI3: { pk: 'ORDER#{status}', sk: '{createdAt}' } },
    },
  },
  globalIndexes: { GSI2: { sharding: { shardCount: SHARDS } }, GSI3: {} },
  localIndexes: { enabled: false },
  accessPatterns: {
    sharded: { entities: ['Order'], index: 'GSI2', order: SortOrder.DESCENDING },
    unsharded: { entities: ['Order'], index: 'GSI3', order: SortOrder.DESCENDING },
  },
});

export interface ShardedFanOutOptions {
  readonly resultSizes?: readonly number[];
  readonly latenciesMs?: readonly number[];
  readonly rounds?: number;
}

/** The stored items: ITEMS orders of one status, a minute apart, as the runtime writes them. */
export function fanOutItems(model: TableModel, count = ITEMS): Record<string, AttributeValue>[] {
  return Array.from({ length: count }, (_, i) => itemToWrite(model, model.entities.Order, {
    username: `user${i % 700}`,
    orderId: String(i).padStart(6, '0'),
    status: 'OPEN',
    createdAt: new Date(Date.UTC(2024, 0, 1) + i * 61_000).toISOString(),
    note: 'x'.repeat(160),
  }));
}

/** The engine over both GSIs of the model. */
export function memoryEngineFor(model: TableModel): MemoryEngine {
  const table = model.indexes.table;
  return new MemoryEngine(
    ['GSI2', 'GSI3'].map((name) => ({ name, partitionKey: model.indexes[name].partitionKey, sortKey: model.indexes[name].sortKey! })),
    [table.partitionKey, table.sortKey!],
  );
}

export async function runShardedFanOut(options: ShardedFanOutOptions = {}) {
  const { resultSizes = [10, 100, 500], latenciesMs = [10], rounds = 15 } = options;
  const model = compileManifest(manifest).model;
  const engine = memoryEngineFor(model);
  engine.load(fanOutItems(model));
  const document = JSON.parse(JSON.stringify(modelDocument(model)));
  const sdk = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: 'http://memory.invalid',
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
    requestHandler: engine.requestHandler() as never,
  });
  const clients: Record<string, Table<typeof manifest>> = {
    'send stand-in': openTable<typeof manifest>({ model: document, client: engine.client() as never, tableName: 'bench' }),
    'SDK client, HTTP faked': openTable<typeof manifest>({ model: document, client: sdk, tableName: 'bench' }),
  };
  const results = [];
  try {
    for (const [clientName, table] of Object.entries(clients)) {
      for (const latency of latenciesMs) {
        engine.latencyMs = latency;
        for (const n of resultSizes) {
          const modes = {
            unsharded: () => query(table, 'unsharded', { status: 'OPEN' }, { limit: n }),
            sharded: () => query(table, 'sharded', { status: 'OPEN' }, { limit: n }),
          };
          // Both must return the same items in the same order.
          const [a, b] = [await modes.unsharded(), await modes.sharded()];
          if (a.items.map((r) => r.item.orderId).join() !== b.items.map((r) => r.item.orderId).join()) throw new Error('the fan-out returned other items than the unsharded query');
          const times: Record<string, number[]> = { unsharded: [], sharded: [] };
          const requests: Record<string, number> = {};
          for (let r = 0; r < rounds; r++) {
            for (const mode of (r % 2 ? ['sharded', 'unsharded'] : ['unsharded', 'sharded']) as (keyof typeof modes)[]) {
              const before = engine.requests;
              const start = process.hrtime.bigint();
              await modes[mode]();
              times[mode].push(Number(process.hrtime.bigint() - start) / 1e6);
              requests[mode] = engine.requests - before;
            }
          }
          const ms = { unsharded: significant(median(times.unsharded)), sharded: significant(median(times.sharded)) };
          const row = { client: clientName, latencyMs: latency, n, medianMs: ms, ratio: significant(ms.sharded / ms.unsharded), requests };
          console.log(`${clientName.padEnd(22)} latency ${String(latency).padStart(2)} ms  n=${String(n).padStart(3)}  unsharded ${ms.unsharded} ms  `
            + `10 shards ${ms.sharded} ms (${row.ratio}x)  requests ${requests.unsharded} / ${requests.sharded}`);
          results.push(row);
        }
      }
    }
  } finally {
    sdk.destroy();
  }
  return {
    benchmark: 'sharded-fanout',
    engine: 'in memory, fixed latency per request, concurrent requests in parallel',
    shards: SHARDS,
    items: ITEMS,
    rounds,
    statistic: 'median wall time per query, modes alternating',
    node: process.version,
    cpus: cpus().length,
    loadAverage: loadavg().map((x) => significant(x)),
    date: new Date().toISOString(),
    results,
  };
}

if (require.main === module) {
  runShardedFanOut().then((out) => {
    writeFileSync(join(__dirname, 'results', 'sharded-fanout.json'), JSON.stringify(out, null, 2) + '\n');
  }).catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
