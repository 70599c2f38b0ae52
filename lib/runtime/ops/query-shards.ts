// Query of an access pattern on a write-sharded GSI: one query per shard the input can be on, in
// parallel, merged in index order by the fan-out (../fanout.ts). Unsharded patterns read their
// one partition, so code that serves any pattern can call this for all of them.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { shardedKey } from '../../keys/shard';
import type { PatternEntities, PatternInput, PatternName, TaggedItem } from '../../manifest/infer';
import { TABLE_INDEX } from '../../manifest/model';
import type { TableContext } from '../context';
import { fanOutQuery, FanOutState } from '../fanout';
import { shardsToQuery } from '../fanout-shards';
import { buildQueryInput, QueryPlan, shardQueryInput } from '../query';
import type { PatternQueryOptions, QueryPage } from '../types';
import { IndexPage, IndexReader, patternPage } from './pattern-page';
import { readPartition, sendQuery } from './query';

/** Runs an access pattern over every shard it can be on: one merged page of typed results, and a cursor when there may be more. */
export function queryShards<M, P extends PatternName<M>>(
  table: TableContext<M>,
  pattern: P,
  input: PatternInput<M, P>,
  options: PatternQueryOptions<M, P> = {},
): Promise<QueryPage<TaggedItem<M, PatternEntities<M, P>>>> {
  return patternPage(table, pattern, input, options, readAnyPattern) as never;
}

/** The reader of `queryShards`: every shard the input can be on, or the one partition of an unsharded pattern. */
export const readAnyPattern: IndexReader = (t, plan, values, position) => plan.index.shards
  ? readShards(t, plan, shardsToQuery(t.model, plan, values), position as FanOutState | undefined)
  : readPartition(t, plan, position as Record<string, AttributeValue> | undefined);

/** One fan-out page over `shards` (also the reader of a generated access module's sharded patterns). */
export async function readShards(
  table: TableContext<unknown>, plan: QueryPlan, shards: number[], state: FanOutState | undefined,
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
