// Query of an access pattern that reads one partition: the table, an LSI or an unsharded GSI.
// Patterns on a write-sharded GSI fan out over its shards with `queryShards`, whose merge code
// stays out of handlers that never need it.
// The Lambda runtime provides the SDK (an optional dependency of the package).
// eslint-disable-next-line import/no-extraneous-dependencies
import { AttributeValue, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { PatternEntities, PatternInput } from '../../manifest/infer';
import type { TableContext } from '../context';
import { SingleTableError } from '../errors';
import type { PartitionPatternName } from '../pattern-kinds';
import { buildQueryInput, QueryPlan } from '../query';
import { send } from '../send';
import type { AttributeNameOf, PatternQueryOptions, QueryPage, SelectedItem } from '../types';
import { IndexPage, patternPage } from './pattern-page';

/** Runs an access pattern on one partition: one page of typed results, and a cursor when there may be more. */
export function query<M, P extends PartitionPatternName<M>, A extends AttributeNameOf<M, PatternEntities<M, P>> = never>(
  table: TableContext<M>,
  pattern: P,
  input: PatternInput<M, P>,
  options: PatternQueryOptions<M, P, A> = {},
): Promise<QueryPage<SelectedItem<M, PatternEntities<M, P>, A>>> {
  return patternPage(table, pattern, input, options, (t, plan, _input, position) => {
    if (plan.index.shards) {
      throw new SingleTableError('SHARDED_PATTERN', `queries ${plan.index.name}, whose partition key is spread over ${plan.index.shards.readCount} shards; `
        + `run it with queryShards(table, '${plan.pattern.name}', ...), which reads every shard and merges them in order`, { pattern: plan.pattern.name });
    }
    return readPartition(t, plan, position as Record<string, AttributeValue> | undefined);
  }) as never;
}

/** One Query request: the page and DynamoDB's LastEvaluatedKey. */
export async function readPartition(
  table: TableContext<unknown>, plan: QueryPlan, start: Record<string, AttributeValue> | undefined,
): Promise<IndexPage> {
  const input = buildQueryInput(table.model, table.tableName, plan, plan.condition.pk, start);
  const out = await send(table, () => table.dynamodb.send(new QueryCommand(input)));
  return { items: out.Items ?? [], next: out.LastEvaluatedKey };
}
