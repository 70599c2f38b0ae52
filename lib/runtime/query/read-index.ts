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
  const { index, condition } = plan;
  const tableIndex = model.indexes[TABLE_INDEX];
  const base = buildQueryInput(model, table.tableName, plan, condition.pk);
  // A multi-attribute GSI's shard is a NUMBER attribute of its own, each shard's query asks for
  // its number, and the merge orders by the sort attributes' tuple; a composed key's is a suffix.
  const shardAttribute = index.shards!.keyAttribute;
  const sort = shardAttribute ? index.sortAttributes! : undefined;
  const partition: Record<string, AttributeValue> = {};
  for (const c of shardAttribute ? condition.attributes!.slice(0, index.partitionAttributes!.length) : []) partition[c.attribute] = c.values[0];
  const valueOf = (shard: number): AttributeValue =>
    (shardAttribute ? { N: String(shard) } : { S: shardedKey(condition.pk, shard, model.delimiter) });
  const placeholder = shardAttribute ? ':shard' : ':pk';
  const result = await fanOutQuery((shard, start, limit) => sendQuery(table, shardQueryInput(base, placeholder, valueOf(shard), start, limit)), {
    shards,
    limit: plan.limit ?? 100,
    descending: plan.descending,
    sortKey: index.sortKey ?? tableIndex.partitionKey,
    sortAttributes: sort?.map((a) => ({ name: a.name, numeric: a.kind === 'NUMBER' })),
    sorted: sort ? sort.length > 0 : index.sortKey !== undefined,
    tieBreakKeys: [tableIndex.partitionKey, tableIndex.sortKey!],
    partitionKeyOf: (shard) => ({ ...partition, [shardAttribute ?? index.partitionKey]: valueOf(shard) }),
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
