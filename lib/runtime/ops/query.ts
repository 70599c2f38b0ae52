// Query of an access pattern that reads one partition: the table, an LSI or an unsharded GSI.
// Patterns on a write-sharded GSI fan out over its shards with `queryShards`, whose merge code
// stays out of handlers that never need it.
import type { AttributeValue, QueryCommandInput, QueryCommandOutput } from '@aws-sdk/client-dynamodb';
import type { PatternEntities, PatternInput, TaggedItem } from '../../manifest/infer';
import type { TableContext } from '../context';
import { SingleTableError } from '../errors';
import type { PartitionPatternName } from '../pattern-kinds';
import { buildQueryInput, QueryPlan } from '../query';
import { QueryCommand } from '../sdk';
import { send } from '../send';
import type { PatternQueryOptions, QueryPage } from '../types';
import { IndexPage, IndexReader, patternPage } from './pattern-page';

/** Runs an access pattern on one partition: one page of typed results, and a cursor when there may be more. */
export function query<M, P extends PartitionPatternName<M>>(
  table: TableContext<M>,
  pattern: P,
  input: PatternInput<M, P>,
  options: PatternQueryOptions<M, P> = {},
): Promise<QueryPage<TaggedItem<M, PatternEntities<M, P>>>> {
  return patternPage(table, pattern, input, options, readOnePartition) as never;
}

/** The reader of `query`: one partition; a sharded pattern is refused. */
export const readOnePartition: IndexReader = (t, plan, _input, position) => {
  if (plan.index.shards) {
    throw new SingleTableError('SHARDED_PATTERN', `queries ${plan.index.name}, whose partition key is spread over ${plan.index.shards.readCount} shards; `
      + `run it with queryShards(table, '${plan.pattern.name}', ...), which reads every shard and merges them in order`, { pattern: plan.pattern.name });
  }
  return readPartition(t, plan, position as Record<string, AttributeValue> | undefined);
};

/** One Query request: the page and DynamoDB's LastEvaluatedKey. */
export async function readPartition(
  table: TableContext<unknown>, plan: QueryPlan, start: Record<string, AttributeValue> | undefined,
): Promise<IndexPage> {
  const out = await sendQuery(table, buildQueryInput(table.model, table.tableName, plan, plan.condition.pk, start));
  return { items: out.Items ?? [], next: out.LastEvaluatedKey };
}

/** Sends one Query request (the fan-out's shard queries too). */
export function sendQuery(table: TableContext<unknown>, input: QueryCommandInput): Promise<QueryCommandOutput> {
  return send(table, () => table.dynamodb.send(new QueryCommand(input)));
}
