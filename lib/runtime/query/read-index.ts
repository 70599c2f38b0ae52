// Reading one page of a planned query from its index: one Query request on one partition, or on
// a write-sharded GSI one query per shard the input can be on, in parallel, merged in index order
// by the fan-out (./fanout.ts) behind one position.
import type { AttributeValue, QueryCommandInput, QueryCommandOutput } from '@aws-sdk/client-dynamodb';
import { fanOutQuery, FanOutState } from './fanout';
import { shardsToQuery } from './fanout-shards';
import type { IndexPage, IndexReader } from './pattern-page';
import { buildQueryInput, QueryPlan, shardQueryInput } from './plan';
import { shardedKey } from '../../keys/shard';
import { TABLE_INDEX } from '../../model/model';
import type { Table } from '../table/context';
import { QueryCommand } from '../table/sdk';
import { send } from '../table/send';

/** The reader of `query`: every shard the input can be on, or the one partition of an unsharded pattern. */
export const readAnyPattern: IndexReader = (t, plan, values, position) => plan.index.shards
  ? readShards(t, plan, shardsToQuery(t.model, plan, values), position as FanOutState | undefined)
  : readPartition(t, plan, position as Record<string, AttributeValue> | undefined);

/** One fan-out page over `shards` (also the reader of a generated access module's sharded patterns). */
export async function readShards(
  table: Table<unknown>, plan: QueryPlan, shards: number[], state: FanOutState | undefined,
): Promise<IndexPage> {
  const { model } = table;
  const { index } = plan;
  const tableIndex = model.indexes[TABLE_INDEX];
  const base = buildQueryInput(model, table.tableName, plan, plan.condition.pk);
  const partitionOf = (shard: number) => shardedKey(plan.condition.pk, shard, model.delimiter);
  const result = await fanOutQuery((shard, start, limit) => sendQuery(table, shardQueryInput(base, partitionOf(shard), start, limit)), {
    shards,
    limit: plan.limit ?? 100,
    descending: plan.descending,
    sortKey: index.sortKey ?? tableIndex.partitionKey,
    sorted: index.sortKey !== undefined,
    tieBreakKeys: [tableIndex.partitionKey, tableIndex.sortKey!],
    partitionKey: { attribute: index.partitionKey, valueOf: partitionOf },
    concurrency: table.options.shardConcurrency,
    state,
    pattern: plan.pattern.name,
  });
  return { items: result.items, next: result.state };
}

/** One Query request: the page and DynamoDB's LastEvaluatedKey. */
export async function readPartition(
  table: Table<unknown>, plan: QueryPlan, start: Record<string, AttributeValue> | undefined,
): Promise<IndexPage> {
  const out = await sendQuery(table, buildQueryInput(table.model, table.tableName, plan, plan.condition.pk, start));
  return { items: out.Items ?? [], next: out.LastEvaluatedKey };
}

/** Sends one Query request (the fan-out's shard queries too). */
export function sendQuery(table: Table<unknown>, input: QueryCommandInput): Promise<QueryCommandOutput> {
  return send(table, () => table.dynamodb.send(new QueryCommand(input)));
}
