// `query` with read options: a filter (Condition data, compiled into the FilterExpression) and
// `attributes` (a ProjectionExpression; no follow-up fetch when the index answers for them). A
// module of its own so a handler calling the plain `query` carries neither the condition compiler
// nor the projection code.
import type { PatternEntities, PatternInput } from '../../manifest/infer';
import type { TableContext } from '../context';
import type { PartitionPatternName } from '../pattern-kinds';
import type { AttributeNameOf, PatternReadOptions, QueryPage, SelectedItem } from '../types';
import { optionedPage } from './optioned-page';
import { readOnePartition } from './query';

/** `query` with `filter` and `attributes`: one page of typed results of one partition, and a cursor when there may be more. */
export function queryWith<M, P extends PartitionPatternName<M>, A extends AttributeNameOf<M, PatternEntities<M, P>> = never>(
  table: TableContext<M>,
  pattern: P,
  input: PatternInput<M, P>,
  options: PatternReadOptions<M, P, A> = {},
): Promise<QueryPage<SelectedItem<M, PatternEntities<M, P>, A>>> {
  return optionedPage(table, pattern, input, options as never, readOnePartition) as never;
}
